/*
 * stream.c -- byte streams as sockets (native).
 *
 * TCP for "host:port" addresses, an AF_UNIX socketpair for plat_stream_pair.
 * Every socket is non-blocking; a timeout is a ppoll() on the one descriptor,
 * so the timeout is exact to the nanosecond and nothing blocks forever by
 * accident. Sends use MSG_NOSIGNAL: a closed peer is a status, not SIGPIPE.
 * Connected TCP sockets get TCP_NODELAY: messages are small and latency
 * matters more than segment count.
 */
#define _GNU_SOURCE
#include "native.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int map_errno(int e)
{
    switch (e) {
    case ECONNREFUSED:
        return PLAT_ECONNREFUSED;
    case EADDRINUSE:
        return PLAT_EADDRINUSE;
    case EPIPE:
    case ENOTCONN:
    case ESHUTDOWN:
        return PLAT_ECLOSED;
    case ETIMEDOUT:
        return PLAT_ETIMEDOUT;
    case EADDRNOTAVAIL:
    case ENETUNREACH:
    case EHOSTUNREACH:
    case EAFNOSUPPORT:
        return PLAT_ENOENT;
    case ENOMEM:
    case ENOBUFS:
    case EMFILE:
    case ENFILE:
        return PLAT_ENOMEM;
    case EINVAL:
        return PLAT_EINVAL;
    default: /* ECONNRESET, ECONNABORTED, ...: the transport failed */
        return PLAT_EIO;
    }
}

static plat_stream *wrap(int fd, bool listener, int *status)
{
    plat_stream *s = malloc(sizeof *s);
    if (!s) {
        close(fd);
        if (status) *status = PLAT_ENOMEM;
        return NULL;
    }
    s->fd = fd;
    s->listener = listener;
    if (status) *status = PLAT_OK;
    return s;
}

static void no_delay(int fd)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); /* fails harmlessly on AF_UNIX */
}

/* Wait until fd is ready for `events` or the deadline passes: 1 ready, 0 not. */
static int ready_by(int fd, short events, uint64_t deadline)
{
    for (;;) {
        struct pollfd p = {.fd = fd, .events = events};
        uint64_t now = nat_now();
        uint64_t left = deadline == PLAT_FOREVER ? 0 : deadline > now ? deadline - now : 0;
        struct timespec ts = {(time_t)(left / 1000000000u), (long)(left % 1000000000u)};
        int n = ppoll(&p, 1, deadline == PLAT_FOREVER ? NULL : &ts, NULL);
        if (n > 0) return 1;
        if (n == 0) return 0;
        if (errno != EINTR) return 1; /* let the call itself report the error */
    }
}

/* Split "host:port" ("[v6]:port" too) and resolve it. */
static int resolve(const char *addr, bool passive, struct addrinfo **res)
{
    char host[256];
    const char *colon = addr ? strrchr(addr, ':') : NULL;
    if (!colon || !colon[1]) return PLAT_EINVAL;
    size_t len = (size_t)(colon - addr);
    if (len >= sizeof host) return PLAT_EINVAL;
    memcpy(host, addr, len);
    host[len] = '\0';
    char *h = host;
    if (len >= 2 && h[0] == '[' && h[len - 1] == ']') {
        h[len - 1] = '\0';
        h++;
    }
    for (const char *c = colon + 1; *c; c++)
        if (*c < '0' || *c > '9') return PLAT_EINVAL;
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    if (passive) hints.ai_flags = AI_PASSIVE;
    bool any = !*h || strcmp(h, "*") == 0;
    if (any && !passive) return PLAT_EINVAL;
    int rc = getaddrinfo(any ? NULL : h, colon + 1, &hints, res);
    if (rc == 0) return PLAT_OK;
    return rc == EAI_MEMORY ? PLAT_ENOMEM : rc == EAI_SYSTEM ? map_errno(errno) : PLAT_ENOENT;
}

plat_stream *nat_stream_listen(const char *addr, int *status)
{
    struct addrinfo *res;
    int rc = resolve(addr, true, &res);
    if (rc != PLAT_OK) {
        if (status) *status = rc;
        return NULL;
    }
    int fd = -1;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            rc = map_errno(errno);
            continue;
        }
        int one = 1; /* rebind at once after a run; another listener still fails */
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, SOMAXCONN) == 0) break;
        rc = map_errno(errno);
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        if (status) *status = rc;
        return NULL;
    }
    return wrap(fd, true, status);
}

plat_stream *nat_stream_accept(plat_stream *l, uint64_t timeout_ns, int *status)
{
    NAT_NEED(l, "plat_stream_accept");
    int rc = PLAT_EINVAL;
    uint64_t deadline = nat_deadline(timeout_ns);
    while (l->listener) {
        int fd = accept4(l->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) {
            no_delay(fd);
            return wrap(fd, false, status);
        }
        if (errno == EINTR || errno == ECONNABORTED) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            rc = map_errno(errno);
            break;
        }
        if (timeout_ns == 0) {
            rc = PLAT_EAGAIN;
            break;
        }
        if (!ready_by(l->fd, POLLIN, deadline)) {
            rc = PLAT_ETIMEDOUT;
            break;
        }
    }
    if (status) *status = rc;
    return NULL;
}

/* One connect attempt: PLAT_OK with *out, or a status. */
static int connect_one(const struct addrinfo *ai, uint64_t timeout_ns, uint64_t deadline, int *out)
{
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) return map_errno(errno);
    int rc = PLAT_OK;
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
        if (errno != EINPROGRESS && errno != EINTR) { /* EINTR: it goes on in the background */
            rc = map_errno(errno);
        } else if (!ready_by(fd, POLLOUT, deadline)) {
            rc = timeout_ns == 0 ? PLAT_EAGAIN : PLAT_ETIMEDOUT;
        } else {
            int e = 0;
            socklen_t len = sizeof e;
            if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len) != 0) e = errno;
            if (e) rc = map_errno(e);
        }
    }
    if (rc != PLAT_OK) {
        close(fd);
        return rc;
    }
    no_delay(fd);
    *out = fd;
    return PLAT_OK;
}

plat_stream *nat_stream_connect(const char *addr, uint64_t timeout_ns, int *status)
{
    struct addrinfo *res;
    int rc = resolve(addr, false, &res);
    if (rc != PLAT_OK) {
        if (status) *status = rc;
        return NULL;
    }
    uint64_t deadline = nat_deadline(timeout_ns);
    int fd = -1;
    for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
        rc = connect_one(ai, timeout_ns, deadline, &fd);
        if (rc == PLAT_ETIMEDOUT || rc == PLAT_EAGAIN) break;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        if (status) *status = rc;
        return NULL;
    }
    return wrap(fd, false, status);
}

int nat_stream_pair(plat_stream *ends[2])
{
    NAT_NEED(ends, "plat_stream_pair");
    int fd[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fd) != 0)
        return map_errno(errno);
    int st;
    ends[0] = wrap(fd[0], false, &st);
    ends[1] = ends[0] ? wrap(fd[1], false, &st) : NULL;
    if (!ends[1]) {
        if (ends[0])
            nat_stream_close(ends[0]);
        else
            close(fd[1]);
        ends[0] = NULL;
        return PLAT_ENOMEM;
    }
    return PLAT_OK;
}

long nat_stream_send(plat_stream *s, const void *buf, size_t n, uint64_t timeout_ns)
{
    NAT_NEED(s, "plat_stream_send");
    if (s->listener || n == 0 || !buf) return PLAT_EINVAL;
    uint64_t deadline = nat_deadline(timeout_ns);
    for (;;) {
        ssize_t k = send(s->fd, buf, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (k >= 0) return (long)k;
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) return map_errno(errno);
        if (timeout_ns == 0) return PLAT_EAGAIN;
        if (!ready_by(s->fd, POLLOUT, deadline)) return PLAT_ETIMEDOUT;
    }
}

long nat_stream_recv(plat_stream *s, void *buf, size_t n, uint64_t timeout_ns)
{
    NAT_NEED(s, "plat_stream_recv");
    if (s->listener || n == 0 || !buf) return PLAT_EINVAL;
    uint64_t deadline = nat_deadline(timeout_ns);
    for (;;) {
        ssize_t k = recv(s->fd, buf, n, MSG_DONTWAIT);
        if (k >= 0) return (long)k; /* 0: orderly close */
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) return map_errno(errno);
        if (timeout_ns == 0) return PLAT_EAGAIN;
        if (!ready_by(s->fd, POLLIN, deadline)) return PLAT_ETIMEDOUT;
    }
}

void nat_stream_close(plat_stream *s)
{
    if (!s) return;
    close(s->fd);
    free(s);
}
