/*
 * poller.c -- readiness of many streams (native: epoll).
 *
 * Level-triggered epoll. The epoll data of a stream is the caller's `user`
 * pointer itself, so nothing is allocated per stream; plat_poller_wake
 * writes an eventfd whose data is the address of the poller's own `wake`
 * member, which no caller can have registered.
 */
#define _POSIX_C_SOURCE 200809L
#include "native.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct plat_poller {
    int ep;
    int wake;
};

#define BATCH 64 /* events taken from the kernel per call */

plat_poller *nat_poller_new(void)
{
    plat_poller *p = malloc(sizeof *p);
    if (!p) return NULL;
    p->ep = epoll_create1(EPOLL_CLOEXEC);
    p->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &p->wake};
    if (p->ep < 0 || p->wake < 0 || epoll_ctl(p->ep, EPOLL_CTL_ADD, p->wake, &ev) != 0) {
        if (p->ep >= 0) close(p->ep);
        if (p->wake >= 0) close(p->wake);
        free(p);
        return NULL;
    }
    return p;
}

void nat_poller_free(plat_poller *p)
{
    if (!p) return;
    close(p->ep);
    close(p->wake);
    free(p);
}

static int ctl(plat_poller *p, int op, plat_stream *s, unsigned bits, void *user, const char *call)
{
    NAT_NEED(p, call);
    NAT_NEED(s, call);
    struct epoll_event ev = {.data.ptr = user};
    if (bits & PLAT_POLL_IN) ev.events |= EPOLLIN | EPOLLRDHUP;
    if (bits & PLAT_POLL_OUT) ev.events |= EPOLLOUT;
    if (epoll_ctl(p->ep, op, s->fd, &ev) == 0) return PLAT_OK;
    switch (errno) {
    case ENOENT:
        return PLAT_ENOENT; /* mod or del of a stream never added */
    case ENOMEM:
    case ENOSPC:
        return PLAT_ENOMEM;
    default: /* EEXIST: added twice; EBADF, EPERM: not a stream */
        return PLAT_EINVAL;
    }
}

int nat_poller_add(plat_poller *p, plat_stream *s, unsigned bits, void *user)
{
    return ctl(p, EPOLL_CTL_ADD, s, bits, user, "plat_poller_add");
}

int nat_poller_mod(plat_poller *p, plat_stream *s, unsigned bits, void *user)
{
    return ctl(p, EPOLL_CTL_MOD, s, bits, user, "plat_poller_mod");
}

int nat_poller_del(plat_poller *p, plat_stream *s)
{
    return ctl(p, EPOLL_CTL_DEL, s, 0, NULL, "plat_poller_del");
}

void nat_poller_wake(plat_poller *p)
{
    NAT_NEED(p, "plat_poller_wake");
    uint64_t one = 1;
    /* EAGAIN only when the counter is about to overflow: a wake is pending anyway. */
    while (write(p->wake, &one, sizeof one) < 0 && errno == EINTR) continue;
}

int nat_poller_wait(plat_poller *p, struct plat_poll_event *out, int max, uint64_t timeout_ns)
{
    NAT_NEED(p, "plat_poller_wait");
    if (!out || max <= 0) return PLAT_EINVAL;
    struct epoll_event ev[BATCH];
    uint64_t deadline = nat_deadline(timeout_ns);
    for (;;) {
        int ms = -1;
        if (deadline != PLAT_FOREVER) {
            uint64_t now = nat_now(), left = deadline > now ? deadline - now : 0;
            /* round up: epoll_wait must not return before the deadline */
            ms = left / 1000000u >= 0x7fffffff ? 0x7fffffff : (int)((left + 999999u) / 1000000u);
        }
        int n = epoll_wait(p->ep, ev, max < BATCH ? max : BATCH, ms);
        if (n < 0) {
            if (errno == EINTR) continue;
            return PLAT_EIO;
        }
        for (int i = 0; i < n; i++) {
            if (ev[i].data.ptr == &p->wake) {
                uint64_t v;
                while (read(p->wake, &v, sizeof v) < 0 && errno == EINTR) continue;
                out[i].user = NULL;
                out[i].bits = PLAT_POLL_IN;
                continue;
            }
            unsigned bits = 0;
            if (ev[i].events & (EPOLLIN | EPOLLRDHUP)) bits |= PLAT_POLL_IN;
            if (ev[i].events & EPOLLOUT) bits |= PLAT_POLL_OUT;
            if (ev[i].events & (EPOLLERR | EPOLLHUP)) bits |= PLAT_POLL_ERR;
            out[i].user = ev[i].data.ptr;
            out[i].bits = bits;
        }
        return n;
    }
}
