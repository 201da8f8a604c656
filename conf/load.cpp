// load.cpp -- YAML files as trees that remember their lines (libyaml events).
#include "conf_impl.h"

#include <yaml.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

using conf_impl::fail;

namespace
{

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
                std::string what = p.problem ? p.problem : "";
                if (p.context)
                    what += std::string(" ") + p.context;
                else if (!p.problem)
                    what = "unknown";
                return error((int)(p.problem_mark.line + 1), "YAML syntax error: " + what);
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
                stack_.pop_back();
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

    bool error(int line, const std::string &msg)
    {
        fail(err_, errlen_, "%s:%d: %s", c_.file.c_str(), line, msg.c_str());
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
                if (k == n->text) return error(n->line, "duplicate key '" + n->text + "'");
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

    // The depth is limited so that a file cannot make the parse take
    // minutes (libyaml's cost grows with the square of the depth: 100,000
    // levels took 22 s) or the tree's recursive walks exhaust the stack.
    bool open(conf_node *n)
    {
        if (stack_.size() >= CONF_MAX_DEPTH)
            return error(n->line, "maps and lists nested more than " +
                                      std::to_string(CONF_MAX_DEPTH) + " deep");
        if (!add(n)) return false;
        stack_.push_back(frame{n, false, std::string(), 0});
        return true;
    }

    conf &c_;
    char *err_;
    size_t errlen_;
    std::vector<frame> stack_;
};

} // namespace

static struct conf *parse(const char *name, const unsigned char *text, size_t len, char *err,
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

} // extern "C"
