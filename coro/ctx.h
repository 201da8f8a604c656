/*
 * ctx.h -- switching between stacks (internal).
 *
 * A context is a stack and where it stopped. cr_ctx_make prepares a new one
 * that runs fn(arg) from its first switch; when fn returns, the context
 * switches to `done` for the last time. cr_ctx_switch saves the caller in
 * `from` and continues `to`.
 *
 * x86-64 and aarch64 switch with a few instructions (callee-saved registers
 * and the stack pointer); elsewhere each context is a platform thread and a
 * switch hands over between them (slow, but only the platform interface).
 * The sanitizers are told about every stack change.
 */
#ifndef IPCSIM_CORO_CTX_H
#define IPCSIM_CORO_CTX_H

#include <stddef.h>

#if !defined(CORO_CTX_PORTABLE) && !defined(__x86_64__) && !defined(__aarch64__)
#define CORO_CTX_PORTABLE 1
#endif

#ifdef CORO_CTX_PORTABLE
#include "ipcsim/plat.h"
#endif

struct cr_ctx {
    void *sp; /* saved stack pointer (assembly switch) */
    /* The stack, for the sanitizers (NULL: the thread's own). */
    const void *stack;
    size_t stack_bytes;
    void *asan_fake; /* ASan's fake stack of the suspended context */
    void *tsan_fiber;
    int made; /* 1: made, not run yet; 2: running or suspended */
    void (*fn)(void *);
    void *arg;
    struct cr_ctx *from; /* who switched to it first (sanitizer bookkeeping) */
    struct cr_ctx *done; /* where it goes when fn returns */
#ifdef CORO_CTX_PORTABLE
    plat_thread *thread;
    plat_event ev; /* its turn: epoch advanced by whoever switches to it */
    int turn;
    void *slot; /* the executor's PLAT_SLOT_CORO, for the context's thread */
#endif
};

/* The context of the calling thread (before its first switch away). */
void cr_ctx_self(struct cr_ctx *c);
/* A new context on stack [stack, stack + bytes) that runs fn(arg), then
 * continues `done`. */
void cr_ctx_make(struct cr_ctx *c, void *stack, size_t bytes, void (*fn)(void *), void *arg,
                 struct cr_ctx *done);
void cr_ctx_switch(struct cr_ctx *from, struct cr_ctx *to);
/* Release what the context holds (after fn has returned). */
void cr_ctx_free(struct cr_ctx *c);

#endif
