/*
 * ipcsim/conf.h -- YAML platform and scenario files, with file and line.
 *
 * A loaded file is a tree of maps, lists and scalars. Every node remembers the
 * line it came from, so every error can say "FILE:LINE: message". Dotted paths
 * ("link.latency_ns") walk nested maps; a list element is addressed by its
 * index ("plots.0.title").
 *
 * Validation is by rules: each allowed path (with '*' for any one key) and the
 * kind of value it takes. conf_check reports the first unknown key, wrong type
 * or missing required key, with its line.
 */
#ifndef IPCSIM_CONF_H
#define IPCSIM_CONF_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct conf;
struct conf_node;

enum conf_kind { CONF_MAP, CONF_LIST, CONF_SCALAR };

/* Load a YAML file (one document). NULL on failure with err = "FILE:LINE:
 * message" (a missing file: "FILE: cannot open: reason"). Maps and lists
 * nest at most CONF_MAX_DEPTH deep. */
#define CONF_MAX_DEPTH 64
struct conf *conf_load(const char *path, char *err, size_t errlen);
/* The same from a string; `name` stands for the file name in messages. */
struct conf *conf_parse(const char *name, const char *text, char *err, size_t errlen);
void conf_free(struct conf *c);

const char *conf_file(const struct conf *c);
const struct conf_node *conf_root(const struct conf *c);

enum conf_kind conf_kind_of(const struct conf_node *n);
int conf_line(const struct conf_node *n);
/* Where n's value comes from, for messages, written into buf (snprintf's
 * result): "FILE:LINE", or for a value conf_set gave (line 0) the
 * override: "--set PATH=VALUE: FILE:LINE" (the line of the value it
 * replaced), or conf_set_at's `where`. */
int conf_where(const struct conf *c, const struct conf_node *n, char *buf, size_t len);

/* Lookup by dotted path from a map (or list, with numeric segments); NULL if
 * absent. conf_get(root, "") is root. */
const struct conf_node *conf_get(const struct conf_node *n, const char *path);
size_t conf_len(const struct conf_node *n);                           /* entries of a map or list */
const char *conf_key(const struct conf_node *map, size_t i);          /* i-th key of a map */
const struct conf_node *conf_at(const struct conf_node *n, size_t i); /* i-th value */

/* A scalar's text (NULL if n is not a scalar). */
const char *conf_text(const struct conf_node *n);
/* True if n is a scalar that is entirely a number (YAML int or float). */
bool conf_number(const struct conf_node *n, double *out);

/* Convenience lookups from the root; `dflt` if absent. */
double conf_num(const struct conf *c, const char *path, double dflt);
const char *conf_str(const struct conf *c, const char *path, const char *dflt);

/* Every path a conf_set may name -- scalars and lists of scalars -- in file
 * order. Returns the count; fills up to max entries of out with pointers that
 * stay valid until the next conf_leaves call on c. */
size_t conf_leaves(const struct conf *c, const char **out, size_t max);

/* Override an existing value (a --set): a scalar, or a list of scalars given
 * as a YAML flow list "[a, b]". The node (and a list's elements) then
 * report line 0, and conf_check and conf_where name it "--set PATH=VALUE:
 * FILE:LINE". Errors (return -1): err receives the message without the key
 * -- "unknown key; valid keys are: a, b", "expects a number (the file has
 * 100), got 'fast'" -- for the caller to prefix. */
int conf_set(struct conf *c, const char *path, const char *value, char *err, size_t errlen);
/* The same, with `where` ("scenario.yaml:12") naming the override in later
 * conf_check messages instead of "--set PATH". */
int conf_set_at(struct conf *c, const char *path, const char *value, const char *where, char *err,
                size_t errlen);

/* Validation rules. */
enum conf_type {
    CONF_T_NUM,      /* a number */
    CONF_T_INT,      /* a whole number */
    CONF_T_STR,      /* any scalar */
    CONF_T_LIST,     /* a list of scalars */
    CONF_T_NUM_LIST, /* a list of numbers */
    CONF_T_MAP,      /* a map (its keys need rules of their own) */
    CONF_T_ANY,      /* anything below (not checked) */
};
struct conf_rule {
    const char *path; /* dotted, '*' matches one key */
    enum conf_type type;
    bool required;
    double min, max; /* for numbers; min > max means unbounded */
};
/* Check the subtree at `n` (whose path is `base`, "" for the root) against the
 * rules (terminated by a rule with path NULL). 0, or -1 with err filled. */
int conf_check(const struct conf *c, const struct conf_node *n, const char *base,
               const struct conf_rule *rules, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
