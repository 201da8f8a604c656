// tree.cpp -- the loaded tree and its lookups, and the helpers conf/'s other
// files share (conf_impl.h).
#include "conf_impl.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace conf_impl
{

void fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

std::vector<std::string> split(const char *path)
{
    std::vector<std::string> out;
    if (!path || !*path) return out;
    std::string cur;
    for (const char *s = path; *s; s++) {
        if (*s == '.') {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += *s;
        }
    }
    out.push_back(cur);
    return out;
}

const conf_node *child(const conf_node *n, const std::string &seg)
{
    if (n->kind == CONF_MAP) {
        for (size_t i = 0; i < n->keys.size(); i++)
            if (n->keys[i] == seg) return n->values[i];
        return nullptr;
    }
    if (n->kind == CONF_LIST) {
        char *end;
        errno = 0;
        unsigned long i = strtoul(seg.c_str(), &end, 10);
        if (seg.empty() || *end || errno || i >= n->values.size()) return nullptr;
        return n->values[i];
    }
    return nullptr;
}

bool is_number(const conf_node *n, double *out)
{
    if (!n || n->kind != CONF_SCALAR || n->quoted || n->text.empty()) return false;
    const char *s = n->text.c_str();
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno == ERANGE || !std::isfinite(v)) return false;
    if (strchr(s, 'x') || strchr(s, 'X')) return false; // no hex: YAML 1.2 would differ
    if (out) *out = v;
    return true;
}

bool is_scalar_list(const conf_node *n)
{
    if (n->kind != CONF_LIST) return false;
    for (const conf_node *v : n->values)
        if (v->kind != CONF_SCALAR) return false;
    return true;
}

void leaves(const conf_node *n, const std::string &path, std::vector<std::string> &out,
            std::vector<const conf_node *> *nodes)
{
    if (n->kind == CONF_SCALAR || is_scalar_list(n)) {
        if (!path.empty()) {
            out.push_back(path);
            if (nodes) nodes->push_back(n);
        }
        return;
    }
    for (size_t i = 0; i < n->values.size(); i++) {
        std::string seg = n->kind == CONF_MAP ? n->keys[i] : std::to_string(i);
        leaves(n->values[i], path.empty() ? seg : path + "." + seg, out, nodes);
    }
}

// Edit distance.
static size_t distance(const std::string &a, const std::string &b)
{
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); j++) prev[j] = j;
    for (size_t i = 1; i <= a.size(); i++) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); j++)
            cur[j] = std::min(std::min(prev[j] + 1, cur[j - 1] + 1),
                              prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1));
        prev.swap(cur);
    }
    return prev[b.size()];
}

std::string did_you_mean(const std::vector<std::string> &known, const std::string &name,
                         bool by_prefix)
{
    std::string best;
    size_t best_d = 3;
    for (const std::string &k : known) {
        bool starts = by_prefix && name.size() >= 3 && k.compare(0, name.size(), name) == 0;
        size_t d = starts ? 0 : distance(k, name);
        if (d < best_d) best_d = d, best = k;
    }
    return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

} // namespace conf_impl

using namespace conf_impl;

extern "C" {

void conf_free(struct conf *c)
{
    delete c;
}

const char *conf_file(const struct conf *c)
{
    return c->file.c_str();
}
const struct conf_node *conf_root(const struct conf *c)
{
    return c->root;
}
enum conf_kind conf_kind_of(const struct conf_node *n)
{
    return n->kind;
}
int conf_line(const struct conf_node *n)
{
    return n->line;
}

int conf_where(const struct conf *c, const struct conf_node *n, char *buf, size_t len)
{
    if (n && n->line == 0 && !n->origin.empty()) return snprintf(buf, len, "%s", n->origin.c_str());
    return snprintf(buf, len, "%s:%d", c->file.c_str(), n ? n->line : 0);
}

const struct conf_node *conf_get(const struct conf_node *n, const char *path)
{
    for (const std::string &seg : split(path)) {
        if (!n) return nullptr;
        n = child(n, seg);
    }
    return n;
}

size_t conf_len(const struct conf_node *n)
{
    return n ? n->values.size() : 0;
}

const char *conf_key(const struct conf_node *map, size_t i)
{
    return map && map->kind == CONF_MAP && i < map->keys.size() ? map->keys[i].c_str() : nullptr;
}

const struct conf_node *conf_at(const struct conf_node *n, size_t i)
{
    return n && i < n->values.size() ? n->values[i] : nullptr;
}

const char *conf_text(const struct conf_node *n)
{
    return n && n->kind == CONF_SCALAR ? n->text.c_str() : nullptr;
}

bool conf_number(const struct conf_node *n, double *out)
{
    return is_number(n, out);
}

double conf_num(const struct conf *c, const char *path, double dflt)
{
    double v;
    return is_number(conf_get(c->root, path), &v) ? v : dflt;
}

const char *conf_str(const struct conf *c, const char *path, const char *dflt)
{
    const char *s = conf_text(conf_get(c->root, path));
    return s ? s : dflt;
}

size_t conf_leaves(const struct conf *c, const char **out, size_t max)
{
    auto *self = const_cast<struct conf *>(c); // a cache, not the tree
    self->leaf_paths.clear();
    leaves(c->root, "", self->leaf_paths, nullptr);
    for (size_t i = 0; i < self->leaf_paths.size() && i < max; i++)
        out[i] = self->leaf_paths[i].c_str();
    return self->leaf_paths.size();
}

} // extern "C"
