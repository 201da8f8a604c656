// meta.cpp -- how a run's outputs are named and the metadata written beside
// its CSV. SHA-256 is nettle's (Debian nettle-dev), not code of our own.
#include "meta.h"
#include "appctx.h"
#include "cli.h"
#include "scenario.h"

#include <nettle/sha2.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;

namespace
{

std::string hex(const uint8_t *d, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < n; i++) {
        s += digits[d[i] >> 4];
        s += digits[d[i] & 15];
    }
    return s;
}

// A YAML double-quoted scalar: every string is quoted, so no value can be
// read back as another type or break the file (a path with ": " or "#").
std::string q(const std::string &s)
{
    std::string o = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\')
            o += std::string("\\") + (char)c;
        else if (c == '\n')
            o += "\\n";
        else if (c == '\t')
            o += "\\t";
        else if (c < 0x20 || c == 0x7f)
            o += strf("\\x%02x", c);
        else
            o += (char)c;
    }
    return o + "\"";
}

std::string q_list(const std::vector<std::string> &v)
{
    std::vector<std::string> quoted;
    for (const std::string &s : v) quoted.push_back(q(s));
    return "[" + join(quoted, ", ") + "]";
}

// Absolute, so the record still names the file when read from elsewhere.
std::string absolute(const std::string &path)
{
    std::error_code ec;
    fs::path p = fs::absolute(path, ec);
    return ec ? path : p.lexically_normal().string();
}

// The scenario's own set: as "key=value", in file order.
std::vector<std::string> scenario_sets(const scenario &s)
{
    std::vector<std::string> out;
    const struct conf_node *set = conf_get(conf_root(s.doc.get()), "set");
    for (size_t i = 0; set && i < conf_len(set); i++) {
        const char *v = conf_text(conf_at(set, i));
        out.push_back(std::string(conf_key(set, i)) + "=" + (v ? v : ""));
    }
    return out;
}

std::string host_name()
{
    char h[256] = "";
    if (gethostname(h, sizeof h - 1) != 0) return "unknown";
    return h;
}

// ISO 8601 in UTC: 2026-12-01T09:58:22Z
std::string utc_now()
{
    time_t t = time(nullptr);
    struct tm tm;
    char buf[32];
    if (!gmtime_r(&t, &tm) || !strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm))
        return "unknown";
    return buf;
}

} // namespace

std::string sha256_text(const std::string &text)
{
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, text.size(), (const uint8_t *)text.data());
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_digest(&ctx, sizeof d, d);
    return hex(d, sizeof d);
}

std::string sha256_file(const std::string &path)
{
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) fail(path + ": cannot read: " + strerror(errno));
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    uint8_t buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) sha256_update(&ctx, n, buf);
    bool bad = ferror(f);
    fclose(f);
    if (bad) fail(path + ": cannot read: " + strerror(errno));
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_digest(&ctx, sizeof d, d);
    return hex(d, sizeof d);
}

std::string output_name(const std::string &stem, enum plat_backend backend, uint64_t seed,
                        const std::vector<std::string> &sets)
{
    std::string name = stem;
    if (backend == PLAT_NATIVE) name += "+native";
    if (seed != run_opts().seed) name += "+seed" + std::to_string(seed);
    // In order: a later --set of the same key wins, so order is part of it.
    if (!sets.empty()) name += "+" + sha256_text(join(sets, "\n")).substr(0, 8);
    return name;
}

std::string meta_text(const scenario &s, const run_meta &m)
{
    std::vector<std::string> cmd = {"ipcsim", m.verb};
    cmd.insert(cmd.end(), m.command.begin(), m.command.end());
    std::string t;
    t += "# How " + m.csv_name + " beside this file was made (ipcsim " + m.verb +
         "; docs/scenarios.md).\n";
    t += "ipcsim: " + q(ipcsim_version()) + "\n";
    t += "command: " + q_list(cmd) + "\n";
    t += "csv: " + q(m.csv_name) + "\n";
    t += "csv_sha256: " + q(sha256_text(m.csv_text)) + "\n";
    t += "scenario:\n";
    t += "  file: " + q(absolute(s.file)) + "\n";
    t += "  sha256: " + q(sha256_file(s.file)) + "\n";
    t += "  title: " + q(s.title) + "\n";
    t += "  set: " + q_list(scenario_sets(s)) + "\n";
    t += "platform:\n";
    t += "  name: " + q(s.platform_name) + "\n";
    t += "  file: " + q(absolute(s.platform_file)) + "\n";
    t += "  sha256: " + q(sha256_file(s.platform_file)) + "\n";
    t += "set: " + q_list(m.sets) + "\n";
    t += std::string("backend: ") + (m.backend == PLAT_SIM ? "sim" : "native") + "\n";
    t += "seed: " + std::to_string(m.seed) + "\n";
    t += "host: " + q(host_name()) + "\n";
    t += "date: " + q(utc_now()) + "\n";
    t += strf("host_seconds: %.3f\n", m.host_seconds);
    for (size_t i = 0; i < s.variants.size(); i++) {
        const variant &v = s.variants[i];
        if (i == 0) t += "variants:\n";
        t += "  - name: " + q(v.name) + "\n";
        t += "    set: " + q_list(v.set) + "\n";
        t += "    series: " + q(v.pattern()) + "\n";
        if (i < m.variant_seconds.size())
            t += strf("    host_seconds: %.3f\n", m.variant_seconds[i]);
    }
    if (!m.check.empty()) t += "check: " + q(m.check) + "\n";
    return t;
}
