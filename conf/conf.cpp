// conf.cpp -- YAML files as trees that remember their lines (libyaml events).
#include "ipcsim/conf.h"

#include <yaml.h>

#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

struct conf_node {
    enum conf_kind kind = CONF_MAP;
    int line = 0;                    // 1-based; 0 for a value given by conf_set
    std::string origin;              // conf_set's `where` (line 0 only)
    bool quoted = false;             // a quoted scalar is text even if it looks like a number
    std::string text;                // scalar
    std::vector<std::string> keys;   // map keys (empty for lists)
    std::vector<int> key_lines;      // where each map key is written
    std::vector<conf_node *> values; // map values or list elements
};

struct conf {
    std::string file;
    std::vector<std::unique_ptr<conf_node>> pool;
    conf_node *root = nullptr;
    std::vector<std::string> leaf_paths; // what conf_leaves last returned

    conf_node *make(enum conf_kind kind, int line)
    {
        pool.push_back(std::make_unique<conf_node>());
        conf_node *n = pool.back().get();
        n->kind = kind;
        n->line = line;
        return n;
    }
};

namespace
{

void fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

// Builds the tree from libyaml's event stream.
class builder
{
  public:
    builder(conf &c, char *err, size_t errlen) : c_(c), err_(err), errlen_(errlen) {}

    bool run(yaml_parser_t &p)
    {
        int docs = 0;
        for (;;) {
            yaml_event_t ev;
            if (!yaml_parser_parse(&p, &ev)) {
                int line = (int)(p.problem_mark.line + 1);
                if (p.context)
                    fail(err_, errlen_, "%s:%d: YAML syntax error: %s %s", c_.file.c_str(), line,
                         p.problem ? p.problem : "", p.context);
                else
                    fail(err_, errlen_, "%s:%d: YAML syntax error: %s", c_.file.c_str(), line,
                         p.problem ? p.problem : "unknown");
                return false;
            }
            bool ok = true, done = false;
            int line = (int)ev.start_mark.line + 1;
            switch (ev.type) {
            case YAML_DOCUMENT_START_EVENT:
                if (++docs > 1) ok = error(line, "more than one YAML document in the file");
                break;
            case YAML_ALIAS_EVENT:
                ok = error(line, "YAML aliases (*name) are not supported");
                break;
            case YAML_SCALAR_EVENT: {
                conf_node *n = c_.make(CONF_SCALAR, line);
                n->text.assign((const char *)ev.data.scalar.value, ev.data.scalar.length);
                n->quoted = ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
                ok = add(n);
                break;
            }
            case YAML_SEQUENCE_START_EVENT:
                ok = open(c_.make(CONF_LIST, line));
                break;
            case YAML_MAPPING_START_EVENT:
                ok = open(c_.make(CONF_MAP, line));
                break;
            case YAML_SEQUENCE_END_EVENT:
            case YAML_MAPPING_END_EVENT:
                ok = close();
                break;
            case YAML_STREAM_END_EVENT:
                done = true;
                break;
            default:
                break;
            }
            yaml_event_delete(&ev);
            if (!ok) return false;
            if (done) break;
        }
        if (!c_.root) c_.root = c_.make(CONF_MAP, 1); // an empty file is an empty map
        return true;
    }

  private:
    struct frame {
        conf_node *node;
        bool have_key = false; // maps: a key was read, its value is next
        std::string key;
        int key_line = 0;
    };

    bool error(int line, const char *msg)
    {
        fail(err_, errlen_, "%s:%d: %s", c_.file.c_str(), line, msg);
        return false;
    }

    bool add(conf_node *n)
    {
        if (stack_.empty()) {
            if (c_.root) return error(n->line, "more than one top-level value");
            c_.root = n;
            return true;
        }
        frame &f = stack_.back();
        if (f.node->kind == CONF_LIST) {
            f.node->values.push_back(n);
            return true;
        }
        if (!f.have_key) {
            if (n->kind != CONF_SCALAR) return error(n->line, "a map key must be a plain value");
            for (const std::string &k : f.node->keys)
                if (k == n->text) {
                    fail(err_, errlen_, "%s:%d: duplicate key '%s'", c_.file.c_str(), n->line,
                         n->text.c_str());
                    return false;
                }
            f.have_key = true;
            f.key = n->text;
            f.key_line = n->line;
            return true;
        }
        f.node->keys.push_back(f.key);
        f.node->key_lines.push_back(f.key_line);
        f.node->values.push_back(n);
        f.have_key = false;
        return true;
    }

    bool open(conf_node *n)
    {
        if (!add(n)) return false;
        stack_.push_back(frame{n, false, std::string(), 0});
        return true;
    }

    bool close()
    {
        stack_.pop_back();
        return true;
    }

    conf &c_;
    char *err_;
    size_t errlen_;
    std::vector<frame> stack_;
};

struct conf *parse(const char *name, const unsigned char *text, size_t len, char *err,
                   size_t errlen)
{
    auto c = std::make_unique<conf>();
    c->file = name;
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p)) {
        fail(err, errlen, "%s: out of memory", name);
        return nullptr;
    }
    yaml_parser_set_input_string(&p, text, len);
    builder b(*c, err, errlen);
    bool ok = b.run(p);
    yaml_parser_delete(&p);
    return ok ? c.release() : nullptr;
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

// Leaf paths a --set may name: scalars and lists of scalars.
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

bool match(const std::vector<std::string> &pat, const std::vector<std::string> &path)
{
    if (pat.size() != path.size()) return false;
    for (size_t i = 0; i < pat.size(); i++)
        if (pat[i] != "*" && pat[i] != path[i]) return false;
    return true;
}

bool is_prefix(const std::vector<std::string> &pat, const std::vector<std::string> &path)
{
    if (pat.size() <= path.size()) return false;
    for (size_t i = 0; i < path.size(); i++)
        if (pat[i] != "*" && pat[i] != path[i]) return false;
    return true;
}

std::string join(const std::vector<std::string> &segs)
{
    std::string s;
    for (size_t i = 0; i < segs.size(); i++) s += (i ? "." : "") + segs[i];
    return s;
}

const char *type_name(conf_type t)
{
    switch (t) {
    case CONF_T_NUM:
        return "a number";
    case CONF_T_INT:
        return "a whole number";
    case CONF_T_STR:
        return "a single value";
    case CONF_T_LIST:
        return "a list";
    case CONF_T_NUM_LIST:
        return "a list of numbers";
    case CONF_T_MAP:
        return "a map";
    case CONF_T_ANY:
        return "anything";
    }
    return "?";
}

// Edit distance, for "did you mean".
size_t distance(const std::string &a, const std::string &b)
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

// Walks a subtree against the rules; the first problem wins.
class checker
{
  public:
    checker(const conf &c, const conf_rule *rules, char *err, size_t errlen)
        : c_(c), err_(err), errlen_(errlen)
    {
        for (const conf_rule *r = rules; r->path; r++) rules_.push_back({r, split(r->path)});
    }

    bool walk(const conf_node *n, std::vector<std::string> &path)
    {
        if (n->kind != CONF_MAP) return true;
        // Unknown keys first: a misspelt key also makes a required one "missing".
        for (size_t i = 0; i < n->keys.size(); i++) {
            path.push_back(n->keys[i]);
            bool ok = entry(n->values[i], path, n->key_lines[i]);
            path.pop_back();
            if (!ok) return false;
        }
        return required(n, path);
    }

  private:
    struct rule {
        const conf_rule *r;
        std::vector<std::string> segs;
    };

    std::string where(const conf_node *n, const std::vector<std::string> &path)
    {
        if (n->line == 0) return n->origin.empty() ? "--set " + join(path) : n->origin;
        return c_.file + ":" + std::to_string(n->line);
    }

    bool error(const conf_node *n, const std::vector<std::string> &path, const std::string &msg)
    {
        fail(err_, errlen_, "%s: %s", where(n, path).c_str(), msg.c_str());
        return false;
    }

    bool required(const conf_node *map, const std::vector<std::string> &path)
    {
        for (const rule &r : rules_) {
            if (!r.r->required || r.segs.size() != path.size() + 1 || r.segs.back() == "*")
                continue;
            std::vector<std::string> parent(r.segs.begin(), r.segs.end() - 1);
            if (!match(parent, path) || child(map, r.segs.back())) continue;
            std::string in = path.empty() ? "" : " in '" + join(path) + "'";
            return error(map, path, "missing required key '" + r.segs.back() + "'" + in);
        }
        return true;
    }

    // key_line: where the entry's key is written (errors point there, except
    // for values given by --set, which have line 0).
    bool entry(const conf_node *n, std::vector<std::string> &path, int key_line)
    {
        conf_node at;
        at.line = n->line == 0 ? 0 : key_line;
        at.origin = n->origin;
        const rule *found = nullptr;
        for (const rule &r : rules_)
            if (match(r.segs, path)) {
                found = &r;
                break;
            }
        if (!found) {
            bool inner = false;
            for (const rule &r : rules_) inner = inner || is_prefix(r.segs, path);
            if (inner && n->kind == CONF_MAP) return walk(n, path);
            return error(&at, path, "unknown key '" + join(path) + "'" + suggest(path));
        }
        const conf_rule *r = found->r;
        double v = 0;
        switch (r->type) {
        case CONF_T_ANY:
            return true;
        case CONF_T_MAP:
            if (n->kind != CONF_MAP) return wrong(n, &at, path, r->type);
            return walk(n, path);
        case CONF_T_STR:
            if (n->kind != CONF_SCALAR) return wrong(n, &at, path, r->type);
            return true;
        case CONF_T_LIST:
            if (!is_scalar_list(n)) return wrong(n, &at, path, r->type);
            return true;
        case CONF_T_NUM_LIST:
            if (n->kind != CONF_LIST) return wrong(n, &at, path, r->type);
            for (const conf_node *e : n->values)
                if (!is_number(e, &v))
                    return wrong(e, e, path, r->type);
                else if (!range(e, path, r, v))
                    return false;
            return true;
        case CONF_T_NUM:
        case CONF_T_INT:
            if (!is_number(n, &v)) return wrong(n, &at, path, r->type);
            if (r->type == CONF_T_INT && v != std::floor(v)) return wrong(n, &at, path, r->type);
            return range(n, path, r, v);
        }
        return true;
    }

    bool range(const conf_node *n, const std::vector<std::string> &path, const conf_rule *r,
               double v)
    {
        if (r->min > r->max) return true;
        if (v >= r->min && v <= r->max) return true;
        char msg[256];
        snprintf(msg, sizeof msg, "'%s' is %g, must be between %g and %g", join(path).c_str(), v,
                 r->min, r->max);
        return error(n, path, msg);
    }

    // n: the offending value; at: where to report it.
    bool wrong(const conf_node *n, const conf_node *at, const std::vector<std::string> &path,
               conf_type t)
    {
        std::string got = n->kind == CONF_MAP    ? "a map"
                          : n->kind == CONF_LIST ? "a list"
                                                 : "'" + n->text + "'";
        return error(at, path, "'" + join(path) + "' must be " + type_name(t) + ", not " + got);
    }

    // "did you mean": a known sibling key within two edits, or one that
    // starts with the unknown key (clock -> clock_mhz).
    std::string suggest(const std::vector<std::string> &path)
    {
        const std::string &k = path.back();
        std::string best;
        size_t best_d = 3;
        for (const rule &r : rules_) {
            if (r.segs.size() != path.size() || r.segs.back() == "*") continue;
            std::vector<std::string> parent(r.segs.begin(), r.segs.end() - 1);
            std::vector<std::string> mine(path.begin(), path.end() - 1);
            if (!match(parent, mine)) continue;
            const std::string &known = r.segs.back();
            size_t d = known.compare(0, k.size(), k) == 0 && k.size() >= 3 ? 0 : distance(known, k);
            if (d < best_d) best_d = d, best = known;
        }
        return best.empty() ? "" : " (did you mean '" + best + "'?)";
    }

    const conf &c_;
    char *err_;
    size_t errlen_;
    std::vector<rule> rules_;
};

} // namespace

extern "C" {

struct conf *conf_load(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return nullptr;
    }
    std::string text;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return nullptr;
    }
    return parse(path, (const unsigned char *)text.data(), text.size(), err, errlen);
}

struct conf *conf_parse(const char *name, const char *text, char *err, size_t errlen)
{
    return parse(name, (const unsigned char *)text, strlen(text), err, errlen);
}

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

int conf_set(struct conf *c, const char *path, const char *value, char *err, size_t errlen)
{
    return conf_set_at(c, path, value, nullptr, err, errlen);
}

int conf_set_at(struct conf *c, const char *path, const char *value, const char *where, char *err,
                size_t errlen)
{
    std::vector<std::string> paths;
    std::vector<const conf_node *> nodes;
    leaves(c->root, "", paths, &nodes);
    conf_node *n = nullptr;
    for (size_t i = 0; i < paths.size(); i++)
        if (paths[i] == path) n = const_cast<conf_node *>(nodes[i]);
    if (!n) {
        std::string all, best;
        size_t best_d = 3;
        for (size_t i = 0; i < paths.size(); i++) {
            all += (i ? ", " : "") + paths[i];
            size_t d = distance(paths[i], path);
            if (d < best_d) best_d = d, best = paths[i];
        }
        std::string hint = best.empty() ? "" : " (did you mean '" + best + "'?)";
        fail(err, errlen, "unknown key%s; valid keys are: %s", hint.c_str(), all.c_str());
        return -1;
    }
    if (n->kind == CONF_SCALAR) {
        conf_node repl;
        repl.kind = CONF_SCALAR;
        repl.text = value;
        if (is_number(n, nullptr) && !is_number(&repl, nullptr)) {
            fail(err, errlen, "expects a number (the file has %s), got '%s'", n->text.c_str(),
                 value);
            return -1;
        }
        n->text = value;
        n->quoted = false;
        n->line = 0;
        n->origin = where ? where : "";
        return 0;
    }
    // A list of scalars takes a YAML flow list: [a, b].
    char perr[512];
    std::unique_ptr<conf> tmp(conf_parse(path, value, perr, sizeof perr));
    if (!tmp || !is_scalar_list(tmp->root)) {
        fail(err, errlen, "expects a list like [a, b], got '%s'", value);
        return -1;
    }
    n->values.clear();
    for (const conf_node *v : tmp->root->values) {
        conf_node *e = c->make(CONF_SCALAR, 0);
        e->text = v->text;
        e->quoted = v->quoted;
        e->origin = where ? where : "";
        n->values.push_back(e);
    }
    n->line = 0;
    n->origin = where ? where : "";
    return 0;
}

int conf_check(const struct conf *c, const struct conf_node *n, const char *base,
               const struct conf_rule *rules, char *err, size_t errlen)
{
    checker ck(*c, rules, err, errlen);
    std::vector<std::string> path = split(base);
    return ck.walk(n, path) ? 0 : -1;
}

} // extern "C"
