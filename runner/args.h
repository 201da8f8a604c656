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

// Set an argument from a YAML node of `file` (messages name FILE:LINE of
// the value, or of a list's element). Throws cli_error on an unknown name, a
// value of the wrong type or outside the argument's rule (app.h: min..max;
// a list of 1 to max_len elements). A single number is accepted for a list
// (a list of one).
void args_set_node(arg_set &s, const char *name, const struct conf_node *n,
                   const std::string &file);

// Set an argument from command-line text (parsed as YAML: 5, [4, 8], text),
// with the same checks; `where` starts the messages ("--set args.reps=0:
// scenario.yaml:19").
void args_set_text(arg_set &s, const char *name, const std::string &text, const std::string &where);

// Every argument without a default was given, else cli_error at `where`.
void args_finish(const arg_set &s, const std::string &where);

// "sizes, reps, warmup"
std::string args_names(const struct app *app);
// The rule as `ipcsim apps` shows it: "1..1000000", "1..65536, 1-64
// elements"; "" for text.
std::string arg_rule(const struct app_arg *d);
// "int", "num list", ...
const char *arg_type_name(enum app_arg_type t);

#endif
