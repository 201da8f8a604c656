// conf_impl.h -- internal to conf/: the tree behind struct conf and struct
// conf_node, and the helpers that more than one of conf/'s files use
// (tree.cpp: the tree and its lookups; load.cpp: YAML to tree; set.cpp:
// --set overrides; check.cpp: conf_check's rules).
#ifndef IPCSIM_CONF_IMPL_H
#define IPCSIM_CONF_IMPL_H

#include "ipcsim/conf.h"

#include <cstddef>
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

namespace conf_impl
{

// Writes the message into err (if there is room for one).
void fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

// "a.b.0" -> {"a", "b", "0"}; "" or NULL -> {}.
std::vector<std::string> split(const char *path);
// A map's value for key seg, or a list's element at index seg; NULL if none.
const conf_node *child(const conf_node *n, const std::string &seg);
// An unquoted scalar that is entirely a finite decimal number.
bool is_number(const conf_node *n, double *out);
bool is_scalar_list(const conf_node *n);
// Leaf paths a --set may name (scalars and lists of scalars), in file order;
// nodes, if given, gets the node of each.
void leaves(const conf_node *n, const std::string &path, std::vector<std::string> &out,
            std::vector<const conf_node *> *nodes);
// " (did you mean 'K'?)" for the first of the nearest known names within two
// edits of name ("" if none). With by_prefix, a name of three or more
// characters that starts a known one is as near as can be (clock -> clock_mhz).
std::string did_you_mean(const std::vector<std::string> &known, const std::string &name,
                         bool by_prefix);

} // namespace conf_impl

#endif
