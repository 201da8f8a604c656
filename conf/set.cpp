// set.cpp -- --set overrides: a scalar or a list of scalars of a loaded tree
// takes a new value, which then names its origin instead of a line.
#include "conf_impl.h"

using namespace conf_impl;

// The list n takes the elements of value, a YAML flow list of scalars.
static bool set_list(conf *c, conf_node *n, const char *path, const char *value,
                     const std::string &origin, char *err, size_t errlen)
{
    char perr[512];
    std::unique_ptr<conf> tmp(conf_parse(path, value, perr, sizeof perr));
    if (!tmp || !is_scalar_list(tmp->root)) {
        fail(err, errlen, "expects a list like [a, b], got '%s'", value);
        return false;
    }
    n->values.clear();
    for (const conf_node *v : tmp->root->values) {
        conf_node *e = c->make(CONF_SCALAR, 0);
        e->text = v->text;
        e->quoted = v->quoted;
        e->origin = origin;
        n->values.push_back(e);
    }
    return true;
}

extern "C" {

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
        std::string all;
        for (size_t i = 0; i < paths.size(); i++) all += (i ? ", " : "") + paths[i];
        fail(err, errlen, "unknown key%s; valid keys are: %s",
             did_you_mean(paths, path, false).c_str(), all.c_str());
        return -1;
    }
    // Later messages about the value name the override and the key it
    // replaced: "--set cores=2.5: platforms/ideal.yaml:11".
    std::string origin = where ? where : "";
    if (origin.empty()) {
        origin = std::string("--set ") + path + "=" + value + ": " + c->file;
        if (n->line > 0) origin += ":" + std::to_string(n->line);
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
    } else if (!set_list(c, n, path, value, origin, err, errlen)) {
        return -1;
    }
    n->line = 0;
    n->origin = origin;
    return 0;
}

} // extern "C"
