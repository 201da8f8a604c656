// kind.cpp -- what the platform kinds share: core sections, checks, devices.
#include "kind.h"
#include "devtype.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace ipcsim
{

CoreParams core_params(const struct conf *c, const char *path)
{
    std::string p = path;
    CoreParams cp;
    cp.type = conf_str(c, (p + ".type").c_str(), "");
    cp.clock_mhz = conf_num(c, (p + ".clock_mhz").c_str(), 0);
    const struct conf_node *caps = conf_get(conf_root(c), (p + ".caps").c_str());
    for (size_t i = 0; i < conf_len(caps); i++)
        cp.caps |= plat_cap_bit(conf_text(conf_at(caps, i)));
    cp.local_bytes = (uint64_t)conf_num(c, (p + ".local_bytes").c_str(), 0);
    cp.local_latency_ns = conf_num(c, (p + ".local_latency_ns").c_str(), 0);
    cp.local_bandwidth_MBps = conf_num(c, (p + ".local_bandwidth_MBps").c_str(), 0);
    cp.rx_channels = (unsigned)conf_num(c, (p + ".rx_channels").c_str(), 0);
    cp.timeslice_ns = conf_num(c, (p + ".timeslice_ns").c_str(), 0);
    const struct conf_node *costs = conf_get(conf_root(c), (p + ".costs").c_str());
    for (size_t i = 0; i < conf_len(costs); i++) {
        double v = 0;
        conf_number(conf_at(costs, i), &v);
        cp.costs.emplace_back(conf_key(costs, i), (uint64_t)v);
    }
    return cp;
}

plat_core_desc core_desc(const CoreParams &p, const char *type)
{
    plat_core_desc d;
    d.type = type;
    d.caps = p.caps;
    d.clock_mhz = p.clock_mhz;
    d.local_bytes = (size_t)p.local_bytes;
    d.rx_channels = p.rx_channels;
    return d;
}

int check_bad(const struct conf *c, const char *path, char *err, size_t errlen, const char *what)
{
    const struct conf_node *n = conf_get(conf_root(c), path);
    char where[512]; // FILE:LINE, or the --set that gave the value
    conf_where(c, n, where, sizeof where);
    snprintf(err, errlen, "%s: '%s' %s", where, path, what);
    return -1;
}

int check_caps(const struct conf *c, const char *path, char *err, size_t errlen)
{
    const struct conf_node *caps = conf_get(conf_root(c), path);
    for (size_t i = 0; i < conf_len(caps); i++) {
        const struct conf_node *n = conf_at(caps, i);
        const char *name = conf_text(n);
        if (!name || !plat_cap_bit(name)) {
            char where[512]; // FILE:LINE, or the --set that gave the list
            conf_where(c, n, where, sizeof where);
            snprintf(err, errlen,
                     "%s: '%s' lists unknown capability '%s' (known: cas, fetch_add, "
                     "local_mem, dma, threads)",
                     where, path, name ? name : "?");
            return -1;
        }
    }
    return 0;
}

// The value at path was given by --set (it has no line).
static bool overridden(const struct conf *c, const char *path)
{
    const struct conf_node *n = conf_get(conf_root(c), path);
    return n && conf_line(n) == 0;
}

// One value of check_clocked: `ps` is its time (cycles) or `MBps` its rate.
static int clocked_bad(const struct conf *c, const char *clock, const char *path, double v,
                       bool rate, char *err, size_t errlen)
{
    double mhz = conf_num(c, clock, 0);
    char what[512];
    // The clock is to blame when it is the override and the value is not.
    bool blame_clock = overridden(c, clock) && !overridden(c, path);
    if (rate) {
        double need = MIN_MBPS / v; // MHz
        if (blame_clock)
            snprintf(what, sizeof what,
                     "is %g MHz: '%s' (%g bytes per cycle) then moves %g MB/s, below the %g MB/s "
                     "that moves 4 GiB within the simulator's 1e18 ps per time; the clock must be "
                     "at least %g MHz",
                     mhz, path, v, v * mhz, MIN_MBPS, need);
        else
            snprintf(
                what, sizeof what,
                "is %g bytes per cycle: at '%s' %g MHz that is %g MB/s, below the %g MB/s that "
                "moves 4 GiB within the simulator's 1e18 ps per time; it must be at least %g",
                v, clock, mhz, v * mhz, MIN_MBPS, MIN_MBPS / mhz);
    } else {
        double need = v * 1e6 / TIME_MAX_PS; // MHz
        if (blame_clock)
            snprintf(what, sizeof what,
                     "is %g MHz: '%s' (%g cycles) then takes %g ps, above the 1e18 ps (11.6 days) "
                     "one time may take in the simulator; the clock must be at least %g MHz",
                     mhz, path, v, v * 1e6 / mhz, need);
        else
            snprintf(what, sizeof what,
                     "is %g cycles: at '%s' %g MHz that is %g ps, above the 1e18 ps (11.6 days) "
                     "one time may take in the simulator; it must be at most %g",
                     v, clock, mhz, v * 1e6 / mhz, TIME_MAX_PS * mhz / 1e6);
    }
    return check_bad(c, blame_clock ? clock : path, err, errlen, what);
}

// Every key `path` names ("S.*": the entries of map S) that holds a number.
template <class F> static int each_number(const struct conf *c, const char *path, F f)
{
    std::string p = path;
    if (p.size() > 2 && p.compare(p.size() - 2, 2, ".*") == 0) {
        std::string map = p.substr(0, p.size() - 2);
        const struct conf_node *m = conf_get(conf_root(c), map.c_str());
        for (size_t i = 0; m && conf_kind_of(m) == CONF_MAP && i < conf_len(m); i++) {
            double v;
            std::string key = map + "." + conf_key(m, i);
            if (conf_number(conf_at(m, i), &v) && f(key.c_str(), v)) return -1;
        }
        return 0;
    }
    double v;
    if (conf_number(conf_get(conf_root(c), path), &v) && f(path, v)) return -1;
    return 0;
}

int check_clocked(const struct conf *c, const char *clock, const char *const *cycles,
                  const char *const *rates, char *err, size_t errlen)
{
    double mhz = conf_num(c, clock, 0);
    for (size_t i = 0; cycles && cycles[i]; i++)
        if (each_number(c, cycles[i], [&](const char *path, double v) {
                return v * 1e6 / mhz > TIME_MAX_PS &&
                       clocked_bad(c, clock, path, v, false, err, errlen);
            }))
            return -1;
    for (size_t i = 0; rates && rates[i]; i++)
        if (each_number(c, rates[i], [&](const char *path, double v) {
                return v * mhz < MIN_MBPS && clocked_bad(c, clock, path, v, true, err, errlen);
            }))
            return -1;
    return 0;
}

static bool ends(const std::string &s, const char *tail)
{
    size_t n = strlen(tail);
    return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

// The clock a key's cycles count: its section's clock_mhz, else the chip's.
static double clock_of(const struct conf *c, const std::string &key)
{
    std::string own = key.substr(0, key.find('.')) + ".clock_mhz";
    return conf_num(c, own.c_str(), conf_num(c, "clock_mhz", 0));
}

void register_times(Kernel &k, const struct conf *c)
{
    std::vector<const char *> keys(conf_leaves(c, nullptr, 0));
    keys.resize(conf_leaves(c, keys.data(), keys.size()));
    for (const char *path : keys) {
        std::string key = path;
        double v;
        if (!conf_number(conf_get(conf_root(c), path), &v)) continue;
        Kernel::TimeParam p;
        p.key = key;
        p.value = v;
        if (ends(key, "_ns")) {
            p.ps = v * 1e3;
        } else if (ends(key, "_ms")) {
            p.ps = v * 1e9;
        } else if (ends(key, "_cycles") || key.find(".costs.") != std::string::npos) {
            if (clock_of(c, key) <= 0) continue;
            p.ps = v * 1e6 / clock_of(c, key);
        } else if (ends(key, "_MBps") || ends(key, "_Mbps") || ends(key, "bytes_per_cycle")) {
            double MBps = ends(key, "_Mbps")   ? v / 8
                          : ends(key, "_MBps") ? v
                                               : v * clock_of(c, key);
            if (MBps <= 0) continue;
            p.rate = true;
            p.ps = 1e12 / MBps; // one MB
        } else {
            continue;
        }
        k.time_params.push_back(p);
    }
}

// What every device section has; its type's rules say the rest.
static const struct conf_rule common_rules[] = {
    {"devices.*.type", CONF_T_STR, true, 1, 0},
    {"devices.*.*", CONF_T_ANY, false, 1, 0},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

int check_devices(const struct conf *c, char *err, size_t errlen)
{
    const struct conf_node *devs = conf_get(conf_root(c), "devices");
    for (size_t i = 0; i < conf_len(devs); i++) {
        std::string base = std::string("devices.") + conf_key(devs, i);
        const struct conf_node *d = conf_at(devs, i);
        if (conf_check(c, d, base.c_str(), common_rules, err, errlen)) return -1;
        const struct conf_node *tn = conf_get(d, "type");
        const DevType *t = devtype_find(conf_text(tn));
        if (!t) {
            std::string known;
            for (size_t k = 0; devtypes[k]; k++)
                known += std::string(k ? ", " : "") + devtypes[k]->name;
            char where[512];
            conf_where(c, tn, where, sizeof where);
            snprintf(err, errlen, "%s: '%s.type' is '%s', not a device type (%s)", where,
                     base.c_str(), conf_text(tn), known.c_str());
            return -1;
        }
        if (conf_check(c, d, base.c_str(), t->rules, err, errlen)) return -1;
    }
    return 0;
}

void describe_devices(const struct conf *c, DevDescs &out)
{
    const struct conf_node *devs = conf_get(conf_root(c), "devices");
    size_t n = conf_len(devs);
    out.params.assign(n, {});
    out.devs.clear();
    for (size_t i = 0; i < n; i++) {
        const struct conf_node *d = conf_at(devs, i);
        for (size_t k = 0; k < conf_len(d); k++) {
            double v;
            if (conf_number(conf_at(d, k), &v)) out.params[i].push_back({conf_key(d, k), v});
        }
        plat_dev_desc dd;
        dd.name = conf_key(devs, i);
        const DevType *t = devtype_find(conf_text(conf_get(d, "type")));
        dd.type = t ? t->api : conf_text(conf_get(d, "type"));
        dd.params = out.params[i].data();
        dd.nparams = (int)out.params[i].size();
        out.devs.push_back(dd);
    }
}

void dev_desc_set(DevDescs &out, size_t i, const char *key, double value)
{
    std::vector<plat_dev_param> &v = out.params[i];
    size_t k = 0;
    while (k < v.size() && strcmp(v[k].key, key) != 0) k++;
    if (k == v.size()) v.push_back({key, value});
    v[k].value = value;
    out.devs[i].params = v.data(); // the vector may have moved
    out.devs[i].nparams = (int)v.size();
}

} // namespace ipcsim
