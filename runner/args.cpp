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

// "1000000", "0.5": a bound as a user would write it.
std::string bound_text(double b)
{
    return strf("%.16g", b);
}

bool has_range(const struct app_arg *d)
{
    return d->type != APP_STR;
}

// The element count of a list argument: 1 to max_len (0: APP_LIST_MAX).
unsigned max_len(const struct app_arg *d)
{
    return d->max_len ? d->max_len : APP_LIST_MAX;
}

// x (written as `text`) against d's range; `what` is "argument 'reps'" or
// "argument 'sizes' element 2".
void check_range(const struct app_arg *d, double x, const std::string &text,
                 const std::string &where, const std::string &what)
{
    if (x >= d->min && x <= d->max) return;
    fail(strf("%s: %s is %s, must be %s to %s (%s)", where.c_str(), what.c_str(), text.c_str(),
              bound_text(d->min).c_str(), bound_text(d->max).c_str(), d->help ? d->help : ""));
}

// Fill v from node n (already known to belong to v.decl), checking the
// declaration's rule. `file`, if given, is where n was read: a list's
// elements are then located by their own lines.
void from_node(arg_value &v, const struct conf_node *n, const std::string &where,
               const std::string &file)
{
    const struct app_arg *d = v.decl;
    std::string got = conf_text(n)                  ? "'" + std::string(conf_text(n)) + "'"
                      : conf_kind_of(n) == CONF_MAP ? std::string("a map")
                                                    : std::string("a list");
    auto where_of = [&](const struct conf_node *e) {
        return file.empty() || conf_line(e) <= 0 ? where : at(file, conf_line(e));
    };
    std::string arg = std::string("argument '") + d->name + "'";
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
        check_range(d, v.num, v.text, where, arg);
        break;
    case APP_INT_LIST:
    case APP_NUM_LIST: {
        const char *what =
            d->type == APP_INT_LIST ? "a list of whole numbers" : "a list of numbers";
        double x;
        if (conf_text(n)) { // a single number is a list of one
            if (!number_of(d->type, n, &x))
                fail(where + ": argument '" + d->name + "' must be " + what + ", not " + got);
            check_range(d, x, conf_text(n), where, arg);
            v.list.push_back(x);
            v.text = "[" + std::string(conf_text(n)) + "]";
            break;
        }
        if (conf_kind_of(n) != CONF_LIST)
            fail(where + ": argument '" + d->name + "' must be " + what + ", not " + got);
        if (conf_len(n) < 1 || conf_len(n) > max_len(d))
            fail(strf("%s: %s has %zu element%s, must have 1 to %u", where.c_str(), arg.c_str(),
                      conf_len(n), conf_len(n) == 1 ? "" : "s", max_len(d)));
        v.text = "[";
        for (size_t i = 0; i < conf_len(n); i++) {
            const struct conf_node *e = conf_at(n, i);
            if (!number_of(d->type, e, &x)) {
                std::string eg =
                    conf_text(e) ? "'" + std::string(conf_text(e)) + "'" : "a list or map";
                fail(where_of(e) + ": argument '" + d->name + "' must be " + what + "; element " +
                     std::to_string(i) + " is " + eg);
            }
            check_range(d, x, conf_text(e), where_of(e), arg + " element " + std::to_string(i));
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
        if (has_range(d) && !(d->min <= d->max))
            fail(strf("app %s: argument '%s' declares no range (min %g > max %g)", app->name,
                      d->name, d->min, d->max));
        if (d->dflt) {
            std::string name = strf("app %s: default of '%s'", app->name, d->name);
            char err[512];
            conf_ptr c(conf_parse(name.c_str(), d->dflt, err, sizeof err));
            if (!c) fail(err);
            from_node(v, conf_root(c.get()), name, "");
        }
        s.values.push_back(v);
    }
    return s;
}

void args_set_node(arg_set &s, const char *name, const struct conf_node *n, const std::string &file)
{
    std::string where = at(file, conf_line(n));
    from_node(*lookup(s, name, where), n, where, file);
}

void args_set_text(arg_set &s, const char *name, const std::string &text, const std::string &where)
{
    arg_value *v = lookup(s, name, where);
    if (v->decl->type == APP_STR) { // text is text: no YAML quoting games on the command line
        v->text = text;
        v->set = true;
        return;
    }
    char err[512];
    static const char label[] = "value"; // conf says "value:LINE: ...": the line is no news
    conf_ptr c(conf_parse(label, text.c_str(), err, sizeof err));
    if (!c) {
        const char *why = strstr(err, ": ");
        fail(where + ": argument '" + name + "': not a value" + (why ? why : err));
    }
    from_node(*v, conf_root(c.get()), where, "");
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

std::string arg_rule(const struct app_arg *d)
{
    if (!has_range(d)) return "";
    std::string r = bound_text(d->min) + ".." + bound_text(d->max);
    if (d->type == APP_INT_LIST || d->type == APP_NUM_LIST)
        r += strf(", 1-%u elements", max_len(d));
    return r;
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
