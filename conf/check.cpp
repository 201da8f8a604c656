// check.cpp -- conf_check: a subtree against rules (allowed paths, '*' for
// any one key, and the kind of value each takes); the first problem wins.
#include "conf_impl.h"

#include <cmath>
#include <cstdio>

using namespace conf_impl;

// The first path.size() segments of pat match path ('*' matches any one).
static bool match_head(const std::vector<std::string> &pat, const std::vector<std::string> &path)
{
    for (size_t i = 0; i < path.size(); i++)
        if (pat[i] != "*" && pat[i] != path[i]) return false;
    return true;
}

static bool match(const std::vector<std::string> &pat, const std::vector<std::string> &path)
{
    return pat.size() == path.size() && match_head(pat, path);
}

// pat names something below path.
static bool is_prefix(const std::vector<std::string> &pat, const std::vector<std::string> &path)
{
    return pat.size() > path.size() && match_head(pat, path);
}

static std::string join(const std::vector<std::string> &segs)
{
    std::string s;
    for (size_t i = 0; i < segs.size(); i++) s += (i ? "." : "") + segs[i];
    return s;
}

static const char *type_name(conf_type t)
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

namespace
{

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

    // The key r names directly in the map at parent; NULL if none ('*' names none).
    static const std::string *key_in(const rule &r, const std::vector<std::string> &parent)
    {
        if (r.segs.size() != parent.size() + 1 || r.segs.back() == "*") return nullptr;
        return match_head(r.segs, parent) ? &r.segs.back() : nullptr;
    }

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
            const std::string *key = r.r->required ? key_in(r, path) : nullptr;
            if (!key || child(map, *key)) continue;
            std::string in = path.empty() ? "" : " in '" + join(path) + "'";
            return error(map, path, "missing required key '" + *key + "'" + in);
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
        std::vector<std::string> parent(path.begin(), path.end() - 1), known;
        for (const rule &r : rules_)
            if (const std::string *key = key_in(r, parent)) known.push_back(*key);
        return did_you_mean(known, path.back(), true);
    }

    const conf &c_;
    char *err_;
    size_t errlen_;
    std::vector<rule> rules_;
};

} // namespace

extern "C" {

int conf_check(const struct conf *c, const struct conf_node *n, const char *base,
               const struct conf_rule *rules, char *err, size_t errlen)
{
    checker ck(*c, rules, err, errlen);
    std::vector<std::string> path = split(base);
    return ck.walk(n, path) ? 0 : -1;
}

} // extern "C"
