/* hostfile.c -- parse mpirun's hostfile; tell this host from others. */
#define _GNU_SOURCE
#include "hostfile.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* A slot count: a positive decimal. */
static bool slots_of(const char *s, long *out)
{
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (errno || end == s || *end || n < 1 || n > 1000000) return false;
    *out = n;
    return true;
}

/* One line without its comment; false with err set if it is bad. */
static bool parse_line(char *text, struct host *h, char *why, size_t n)
{
    char *save = NULL;
    char *tok = strtok_r(text, " \t\r\n", &save);
    h->slots = 1;
    char *colon = strrchr(tok, ':');
    /* host:slots (MPICH); an IPv6 address has several colons and no count */
    if (colon && strchr(tok, ':') == colon) {
        *colon = '\0';
        if (!slots_of(colon + 1, &h->slots)) {
            snprintf(why, n, "slot count '%s' is not a positive number", colon + 1);
            return false;
        }
    }
    if (!*tok || strlen(tok) >= sizeof h->name) {
        snprintf(why, n, "'%s' is not a host name", tok);
        return false;
    }
    strcpy(h->name, tok);
    while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
        long v;
        if (strncmp(tok, "slots=", 6) == 0) {
            if (!slots_of(tok + 6, &h->slots)) {
                snprintf(why, n, "'%s': slots must be a positive number", tok);
                return false;
            }
        } else if (strncmp(tok, "max_slots=", 10) == 0) {
            if (!slots_of(tok + 10, &v)) {
                snprintf(why, n, "'%s': max_slots must be a positive number", tok);
                return false;
            }
        } else {
            snprintf(why, n, "'%s' is neither slots=N nor max_slots=N", tok);
            return false;
        }
    }
    return true;
}

int hostfile_read(const char *path, struct host **out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "mpirun: %s: cannot read the hostfile: %s", path, strerror(errno));
        return -1;
    }
    struct host *v = NULL;
    int count = 0, lineno = 0, rc = 0;
    char line[1024];
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            snprintf(err, errlen, "mpirun: %s:%d: line longer than %zu bytes", path, lineno,
                     sizeof line - 2);
            rc = -1;
            break;
        }
        char text[1024];
        strcpy(text, line);
        text[strcspn(text, "\r\n")] = '\0';
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        if (strspn(line, " \t\r\n") == strlen(line)) continue;
        struct host h = {.line = lineno};
        char why[512];
        if (!parse_line(line, &h, why, sizeof why)) {
            snprintf(err, errlen, "mpirun: %s:%d: %s: %s", path, lineno, text, why);
            rc = -1;
            break;
        }
        struct host *more = realloc(v, (size_t)(count + 1) * sizeof *v);
        if (!more) {
            snprintf(err, errlen, "mpirun: %s: out of memory", path);
            rc = -1;
            break;
        }
        v = more;
        v[count++] = h;
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "mpirun: %s: cannot read the hostfile: %s", path, strerror(errno));
        rc = -1;
    }
    fclose(f);
    if (rc == 0 && count == 0) {
        snprintf(err, errlen, "mpirun: %s: the hostfile names no host", path);
        rc = -1;
    }
    if (rc != 0) {
        free(v);
        return -1;
    }
    *out = v;
    return count;
}

void hostfile_place(const struct host *h, int nh, long n, struct place *out)
{
    int host = 0;
    long used = 0;
    for (long r = 0; r < n; r++) {
        if (used == h[host].slots) {
            host = (host + 1) % nh;
            used = 0;
        }
        used++;
        out[r] = (struct place){.host = host, .node = -1, .local_size = 0};
        int nodes = 0;
        for (long k = 0; k < r; k++) {
            if (strcmp(h[out[k].host].name, h[host].name) == 0) {
                out[r].node = out[k].node;
                out[r].local_rank++;
            }
            if (out[k].node >= nodes) nodes = out[k].node + 1;
        }
        if (out[r].node < 0) out[r].node = nodes;
    }
    for (long r = 0; r < n; r++)
        for (long k = 0; k < n; k++) out[r].local_size += out[k].node == out[r].node;
}

static bool loopback(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)(const void *)sa)->sin_addr.s_addr) >> 24) ==
               127;
    if (sa->sa_family == AF_INET6)
        return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr);
    return false;
}

static bool same_addr(const struct sockaddr *a, const struct sockaddr *b)
{
    if (a->sa_family != b->sa_family) return false;
    if (a->sa_family == AF_INET)
        return ((const struct sockaddr_in *)(const void *)a)->sin_addr.s_addr ==
               ((const struct sockaddr_in *)(const void *)b)->sin_addr.s_addr;
    if (a->sa_family == AF_INET6)
        return memcmp(&((const struct sockaddr_in6 *)(const void *)a)->sin6_addr,
                      &((const struct sockaddr_in6 *)(const void *)b)->sin6_addr,
                      sizeof(struct in6_addr)) == 0;
    return false;
}

/* Whether sa is loopback or an address of one of this host's interfaces. */
static bool own_addr(const struct sockaddr *sa)
{
    if (loopback(sa)) return true;
    struct ifaddrs *ifs;
    if (getifaddrs(&ifs) != 0) return false;
    bool mine = false;
    for (struct ifaddrs *i = ifs; i && !mine; i = i->ifa_next)
        if (i->ifa_addr && same_addr(i->ifa_addr, sa)) mine = true;
    freeifaddrs(ifs);
    return mine;
}

bool host_is_local(const char *name)
{
    if (strcmp(name, "localhost") == 0 || strncmp(name, "localhost.", 10) == 0) return true;
    char me[256] = "";
    if (gethostname(me, sizeof me - 1) == 0 && me[0]) {
        if (strcmp(name, me) == 0) return true;
        size_t n = strcspn(me, ".");
        if (strlen(name) == n && strncmp(name, me, n) == 0) return true; /* the short name */
    }
    /* Numeric addresses first: no resolver asked for what needs none. */
    struct addrinfo hints = {.ai_flags = AI_NUMERICHOST, .ai_socktype = SOCK_STREAM};
    struct addrinfo *res;
    int rc = getaddrinfo(name, NULL, &hints, &res);
    if (rc != 0) {
        hints.ai_flags = 0;
        rc = getaddrinfo(name, NULL, &hints, &res);
    }
    if (rc != 0) return false;
    bool mine = true;
    for (struct addrinfo *a = res; a; a = a->ai_next)
        if (!own_addr(a->ai_addr)) mine = false;
    freeaddrinfo(res);
    return mine;
}
