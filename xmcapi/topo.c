/* topo.c -- load and check an XMCAPI topology file (topo.h). */
#include "topo.h"

#include "ipcsim/conf.h"
#include "mcapi_impl_spec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The layout rules go to conf_check, which names unknown keys (with "did
 * you mean"), wrong types and ranges with their line; the rules across
 * entries (duplicates) and on the host's text are checked here. */
static const struct conf_rule top_rules[] = {
    /* A list of maps: conf_check does not descend into lists, so each
     * entry is checked on its own with node_rules. */
    {"nodes", CONF_T_ANY, true, 1, 0},
    {NULL, CONF_T_ANY, false, 0, 0},
};

static const struct conf_rule node_rules[] = {
    {"nodes.*.domain", CONF_T_INT, true, 0, MCAPI_MAX_DOMAIN},
    {"nodes.*.node", CONF_T_INT, true, 0, MCAPI_MAX_NODE},
    {"nodes.*.host", CONF_T_STR, true, 1, 0},
    {"nodes.*.port", CONF_T_INT, true, 1, 65535},
    {NULL, CONF_T_ANY, false, 0, 0},
};

#define EXAMPLE "- {domain: 1, node: 0, host: 127.0.0.1, port: 7100}"

static void say(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* What a node holds, for a message: "'x'", "a map", "a list". */
static const char *shown(const struct conf_node *n, char *buf, size_t len)
{
    if (conf_kind_of(n) == CONF_MAP) return "a map";
    if (conf_kind_of(n) == CONF_LIST) return "a list";
    snprintf(buf, len, "'%s'", conf_text(n));
    return buf;
}

static uint16_t number(const struct conf_node *map, const char *key)
{
    double v = 0;
    conf_number(conf_get(map, key), &v); /* conf_check proved it a number in range */
    return (uint16_t)v;
}

/* Fill *out from entry i (already through node_rules); -1 with err filled
 * if its host is unusable. */
static int read_node(const struct conf *c, const struct conf_node *e, size_t i, struct xt_node *out,
                     char *err, size_t errlen)
{
    const struct conf_node *h = conf_get(e, "host");
    const char *host = conf_text(h);
    size_t len = strlen(host);
    if (len == 0) {
        say(err, errlen, "%s:%d: 'nodes.%zu.host' is '' (empty): give a host name or address",
            conf_file(c), conf_line(h), i);
        return -1;
    }
    if (len > XT_HOST_MAX) {
        say(err, errlen, "%s:%d: 'nodes.%zu.host' is %zu characters long, at most %d: '%.40s...'",
            conf_file(c), conf_line(h), i, len, XT_HOST_MAX, host);
        return -1;
    }
    if (strcspn(host, " \t\r\n\v\f") != len) {
        say(err, errlen, "%s:%d: 'nodes.%zu.host' is '%s': a host has no white space", conf_file(c),
            conf_line(h), i, host);
        return -1;
    }
    out->domain = number(e, "domain");
    out->node = number(e, "node");
    out->port = number(e, "port");
    out->line = conf_line(e);
    memcpy(out->host, host, len + 1);
    return 0;
}

/* Entry i against entries 0..i-1: -1 with err filled on a duplicate. */
static int unique(const struct conf *c, const struct xt_node *v, size_t i, char *err, size_t errlen)
{
    const struct xt_node *me = &v[i];
    for (size_t j = 0; j < i; j++) {
        if (v[j].domain == me->domain && v[j].node == me->node) {
            say(err, errlen, "%s:%d: node <%u,%u> is listed twice (first at line %d)", conf_file(c),
                me->line, me->domain, me->node, v[j].line);
            return -1;
        }
        if (v[j].port == me->port && strcmp(v[j].host, me->host) == 0) {
            say(err, errlen,
                "%s:%d: %s:%u is the address of node <%u,%u> (line %d) and of node <%u,%u>: "
                "each node needs its own",
                conf_file(c), me->line, me->host, me->port, v[j].domain, v[j].node, v[j].line,
                me->domain, me->node);
            return -1;
        }
    }
    return 0;
}

static struct xt_topo *build(const struct conf *c, char *err, size_t errlen)
{
    const char *file = conf_file(c);
    const struct conf_node *root = conf_root(c);
    char buf[96];
    if (!root || conf_kind_of(root) != CONF_MAP) {
        say(err, errlen,
            "%s:%d: expected a map with a 'nodes' list, like 'nodes: [{domain: 1, "
            "node: 0, host: 127.0.0.1, port: 7100}]'",
            file, root ? conf_line(root) : 1);
        return NULL;
    }
    if (conf_check(c, root, "", top_rules, err, errlen) != 0) return NULL;
    const struct conf_node *list = conf_get(root, "nodes");
    if (conf_kind_of(list) != CONF_LIST) {
        say(err, errlen, "%s:%d: 'nodes' must be a list of nodes (" EXAMPLE "), not %s", file,
            conf_line(list), shown(list, buf, sizeof buf));
        return NULL;
    }
    size_t n = conf_len(list);
    if (n == 0) {
        say(err, errlen, "%s:%d: 'nodes' is an empty list: list at least one node (" EXAMPLE ")",
            file, conf_line(list));
        return NULL;
    }
    struct xt_topo *t = calloc(1, sizeof *t);
    struct xt_node *v = calloc(n, sizeof *v);
    if (!t || !v) {
        free(t);
        free(v);
        say(err, errlen, "%s: out of memory for %zu nodes", file, n);
        return NULL;
    }
    t->nodes = v;
    for (size_t i = 0; i < n; i++) {
        const struct conf_node *e = conf_at(list, i);
        char base[32];
        snprintf(base, sizeof base, "nodes.%zu", i);
        if (conf_kind_of(e) != CONF_MAP) {
            say(err, errlen, "%s:%d: '%s' must be a map (" EXAMPLE "), not %s", file, conf_line(e),
                base, shown(e, buf, sizeof buf));
            goto fail;
        }
        if (conf_check(c, e, base, node_rules, err, errlen) != 0) goto fail;
        if (read_node(c, e, i, &v[i], err, errlen) != 0) goto fail;
        if (unique(c, v, i, err, errlen) != 0) goto fail;
        t->n = i + 1;
    }
    return t;
fail:
    xt_free(t);
    return NULL;
}

const char *xt_path(const char *param)
{
    if (param && *param) return param;
    const char *env = getenv(XT_ENV);
    return env && *env ? env : NULL;
}

struct xt_topo *xt_load(const char *path, char *err, size_t errlen)
{
    if (!path) {
        say(err, errlen,
            "no XMCAPI topology file: pass its path or set " XT_ENV "=FILE (see docs/xmcapi.md)");
        return NULL;
    }
    struct conf *c = conf_load(path, err, errlen);
    if (!c) return NULL;
    struct xt_topo *t = build(c, err, errlen);
    conf_free(c);
    return t;
}

struct xt_topo *xt_parse(const char *name, const char *text, char *err, size_t errlen)
{
    struct conf *c = conf_parse(name, text, err, errlen);
    if (!c) return NULL;
    struct xt_topo *t = build(c, err, errlen);
    conf_free(c);
    return t;
}

void xt_free(struct xt_topo *t)
{
    if (!t) return;
    free(t->nodes);
    free(t);
}

const struct xt_node *xt_find(const struct xt_topo *t, unsigned domain, unsigned node)
{
    if (!t) return NULL;
    for (size_t i = 0; i < t->n; i++)
        if (t->nodes[i].domain == domain && t->nodes[i].node == node) return &t->nodes[i];
    return NULL;
}
