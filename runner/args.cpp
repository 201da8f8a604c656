// args.cpp -- app arguments from defaults, scenario files and --set args.X.
#include "args.h"
#include "cli.h"

#include "confptr.h"

#include <cmath>
#include <cstring>

namespace
{

bool is_int_type(enum app_arg_type t)
{
    return t == APP_INT || t == APP_INT_LIST;
}

// A number of the right kind: whole numbers for int types, exactly
// representable (apps read them as long).
bool number_of(enum app_arg_type t, const struct conf_node *n, double *v)
{
    if (!conf_number(n, v)) return false;
    if (!is_int_type(t)) return true;
    return *v == std::floor(*v) && std::fabs(*v) <= 9007199254740992.0;
}

// Fill v from node n (already known to belong to v.decl).
void from_node(arg_value &v, const struct conf_node *n, const std::string &where)
{
    const struct app_arg *d = v.decl;
    std::string got = conf_text(n)                  ? "'" + std::string(conf_text(n)) + "'"
                      : conf_kind_of(n) == CONF_MAP ? std::string("a map")
                                                    : std::string("a list");
    v.list.clear();
    switch (d->type) {
    case APP_STR:
        if (!conf_text(n))
            fail(where + ": argument '" + d->name + "' must be a single value, not " + got);
        v.text = conf_text(n);
        break;
    case APP_INT:
    case APP_NUM:
        if (!number_of(d->type, n, &v.num))
            fail(where + ": argument '" + d->name + "' must be " +
                 (d->type == APP_INT ? "a whole number" : "a number") + ", not " + got);
        v.text = conf_text(n);
        break;
    case APP_INT_LIST:
    case APP_NUM_LIST: {
        const char *what =
            d->type == APP_INT_LIST ? "a list of whole numbers" : "a list of numbers";
        double x;
        if (conf_text(n)) { // a single number is a list of one
            if (!number_of(d->type, n, &x))
                fail(where + ": argument '" + d->name + "' must be " + what + ", not " + got);
            v.list.push_back(x);
            v.text = "[" + std::string(conf_text(n)) + "]";
            break;
        }
        if (conf_kind_of(n) != CONF_LIST)
            fail(where + ": argument '" + d->name + "' must be " + what + ", not " + got);
        v.text = "[";
        for (size_t i = 0; i < conf_len(n); i++) {
            const struct conf_node *e = conf_at(n, i);
            if (!number_of(d->type, e, &x)) {
                std::string eg =
                    conf_text(e) ? "'" + std::string(conf_text(e)) + "'" : "a list or map";
                fail(where + ": argument '" + d->name + "' must be " + what + "; element " +
                     std::to_string(i) + " is " + eg);
            }
            v.list.push_back(x);
            v.text += (i ? ", " : "") + std::string(conf_text(e));
        }
        v.text += "]";
        break;
    }
    }
    v.set = true;
}

arg_value *lookup(arg_set &s, const char *name, const std::string &where)
{
    for (arg_value &v : s.values)
        if (strcmp(v.decl->name, name) == 0) return &v;
    fail(strf("%s: unknown argument '%s' of app %s; valid arguments are: %s", where.c_str(), name,
              s.app->name, args_names(s.app).c_str()));
}

} // namespace

const arg_value *arg_set::find(const char *name) const
{
    for (const arg_value &v : values)
        if (strcmp(v.decl->name, name) == 0) return &v;
    return nullptr;
}

arg_set args_defaults(const struct app *app)
{
    arg_set s;
    s.app = app;
    for (const struct app_arg *d = app->args; d && d->name; d++) {
        arg_value v;
        v.decl = d;
        if (d->dflt) {
            std::string name = strf("app %s: default of '%s'", app->name, d->name);
            char err[512];
            conf_ptr c(conf_parse(name.c_str(), d->dflt, err, sizeof err));
            if (!c) fail(err);
            from_node(v, conf_root(c.get()), name);
        }
        s.values.push_back(v);
    }
    return s;
}

void args_set_node(arg_set &s, const char *name, const struct conf_node *n,
                   const std::string &where)
{
    from_node(*lookup(s, name, where), n, where);
}

void args_set_text(arg_set &s, const char *name, const std::string &text)
{
    std::string where = std::string("--set args.") + name;
    arg_value *v = lookup(s, name, where);
    if (v->decl->type == APP_STR) { // text is text: no YAML quoting games on the command line
        v->text = text;
        v->set = true;
        return;
    }
    char err[512];
    conf_ptr c(conf_parse(where.c_str(), text.c_str(), err, sizeof err));
    if (!c) fail(err);
    from_node(*v, conf_root(c.get()), where);
}

void args_finish(const arg_set &s, const std::string &where)
{
    for (const arg_value &v : s.values)
        if (!v.set)
            fail(strf("%s: app %s needs argument '%s' (%s: %s)", where.c_str(), s.app->name,
                      v.decl->name, arg_type_name(v.decl->type), v.decl->help ? v.decl->help : ""));
}

std::string args_names(const struct app *app)
{
    std::vector<std::string> names;
    for (const struct app_arg *d = app->args; d && d->name; d++) names.push_back(d->name);
    return names.empty() ? "(none)" : join(names, ", ");
}

const char *arg_type_name(enum app_arg_type t)
{
    switch (t) {
    case APP_INT:
        return "int";
    case APP_NUM:
        return "num";
    case APP_STR:
        return "str";
    case APP_INT_LIST:
        return "int list";
    case APP_NUM_LIST:
        return "num list";
    }
    return "?";
}
