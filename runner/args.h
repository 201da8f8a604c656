// args.h -- an app's arguments: parsed, type-checked against its declaration.
#ifndef IPCSIM_RUNNER_ARGS_H
#define IPCSIM_RUNNER_ARGS_H

#include "ipcsim/app.h"

#include <string>
#include <vector>

struct conf_node;

struct arg_value {
    const struct app_arg *decl;
    std::string text;         // YAML text: "100", "[4, 16]", "hello"
    double num = 0;           // APP_INT, APP_NUM
    std::vector<double> list; // APP_INT_LIST, APP_NUM_LIST
    bool set = false;         // false: required and not given yet
};

// One value per declared argument, in the app's declaration order.
struct arg_set {
    const struct app *app = nullptr;
    std::vector<arg_value> values;

    const arg_value *find(const char *name) const;
};

// Start from the app's defaults (a missing required argument stays unset
// until args_finish). Throws cli_error if a default does not parse: the app
// is broken.
arg_set args_defaults(const struct app *app);

// Set an argument from a YAML node; `where` locates it in messages
// ("FILE:LINE"). Throws cli_error on an unknown name or a value of the wrong
// type. A single number is accepted for a list (a list of one).
void args_set_node(arg_set &s, const char *name, const struct conf_node *n,
                   const std::string &where);

// Set an argument from command-line text (parsed as YAML: 5, [4, 8], text).
void args_set_text(arg_set &s, const char *name, const std::string &text);

// Every argument without a default was given, else cli_error at `where`.
void args_finish(const arg_set &s, const std::string &where);

// "sizes, reps, warmup"
std::string args_names(const struct app *app);
// "int", "num list", ...
const char *arg_type_name(enum app_arg_type t);

#endif
