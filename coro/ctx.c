/* ctx.c -- stack switching: assembly on x86-64/aarch64, threads elsewhere. */
#include "ctx.h"

#include <stdint.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

void cr_ctx_self(struct cr_ctx *c)
{
    memset(c, 0, sizeof *c);
#if defined(__SANITIZE_THREAD__)
    c->tsan_fiber = __tsan_get_current_fiber();
#endif
#ifdef CORO_CTX_PORTABLE
    plat_event_init(&c->ev, 0);
#endif
}

#ifndef CORO_CTX_PORTABLE

/* Sanitizer bookkeeping around a switch (no-ops in plain builds). */
static void san_leave(struct cr_ctx *from, struct cr_ctx *to, int exiting)
{
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_start_switch_fiber(exiting ? NULL : &from->asan_fake, to->stack, to->stack_bytes);
#endif
#if defined(__SANITIZE_THREAD__)
    __tsan_switch_to_fiber(to->tsan_fiber, 0);
#endif
    (void)from, (void)to, (void)exiting;
}

static void san_arrive(struct cr_ctx *self, struct cr_ctx *from)
{
#if defined(__SANITIZE_ADDRESS__)
    const void *bottom = NULL;
    size_t size = 0;
    __sanitizer_finish_switch_fiber(self->asan_fake, &bottom, &size);
    /* A thread's own stack is learnt when it first switches away. */
    if (from && !from->stack) {
        from->stack = bottom;
        from->stack_bytes = size;
    }
#endif
    (void)self, (void)from;
}

/* cr_ctx_swap(void **save_sp, void *load_sp): push the callee-saved
 * registers, save sp, load the other sp, pop, return into the other. */
void cr_ctx_swap(void **save_sp, void *load_sp);
/* Where a new context's first swap returns: calls cr_ctx_start(ctx). */
void cr_ctx_boot(void);
void cr_ctx_start(struct cr_ctx *c) __attribute__((noreturn, used));

#if defined(__x86_64__)
/* Frame: mxcsr + x87 control word (8 bytes), r15 r14 r13 r12 rbx rbp, ret. */
__asm__(".text\n"
        ".globl cr_ctx_swap\n.hidden cr_ctx_swap\n.type cr_ctx_swap,@function\n"
        "cr_ctx_swap:\n"
        "    pushq %rbp\n    pushq %rbx\n    pushq %r12\n    pushq %r13\n"
        "    pushq %r14\n    pushq %r15\n"
        "    subq $8, %rsp\n    stmxcsr (%rsp)\n    fnstcw 4(%rsp)\n"
        "    movq %rsp, (%rdi)\n    movq %rsi, %rsp\n"
        "    ldmxcsr (%rsp)\n    fldcw 4(%rsp)\n    addq $8, %rsp\n"
        "    popq %r15\n    popq %r14\n    popq %r13\n    popq %r12\n"
        "    popq %rbx\n    popq %rbp\n"
        "    ret\n"
        ".size cr_ctx_swap, .-cr_ctx_swap\n"
        ".globl cr_ctx_boot\n.hidden cr_ctx_boot\n.type cr_ctx_boot,@function\n"
        "cr_ctx_boot:\n"
        "    movq %r12, %rdi\n    call cr_ctx_start\n    ud2\n"
        ".size cr_ctx_boot, .-cr_ctx_boot\n");
enum { FRAME_WORDS = 8 }; /* csr word, 6 registers, return address */

static void frame_init(struct cr_ctx *c, uintptr_t top)
{
    uint64_t *f = (uint64_t *)(top - FRAME_WORDS * 8);
    memset(f, 0, FRAME_WORDS * 8);
    f[0] = 0x1F80u | ((uint64_t)0x037Fu << 32); /* default MXCSR, x87 control word */
    f[4] = (uint64_t)(uintptr_t)c;              /* r12 */
    f[7] = (uint64_t)(uintptr_t)cr_ctx_boot;    /* return address */
    c->sp = f;
}
#elif defined(__aarch64__)
/* Frame (160 bytes): x19-x28, x29, x30, d8-d15. */
__asm__(".text\n"
        ".globl cr_ctx_swap\n.hidden cr_ctx_swap\n.type cr_ctx_swap,%function\n"
        "cr_ctx_swap:\n"
        "    sub sp, sp, #160\n"
        "    stp x19, x20, [sp, #0]\n    stp x21, x22, [sp, #16]\n"
        "    stp x23, x24, [sp, #32]\n    stp x25, x26, [sp, #48]\n"
        "    stp x27, x28, [sp, #64]\n    stp x29, x30, [sp, #80]\n"
        "    stp d8, d9, [sp, #96]\n    stp d10, d11, [sp, #112]\n"
        "    stp d12, d13, [sp, #128]\n    stp d14, d15, [sp, #144]\n"
        "    mov x2, sp\n    str x2, [x0]\n    mov sp, x1\n"
        "    ldp x19, x20, [sp, #0]\n    ldp x21, x22, [sp, #16]\n"
        "    ldp x23, x24, [sp, #32]\n    ldp x25, x26, [sp, #48]\n"
        "    ldp x27, x28, [sp, #64]\n    ldp x29, x30, [sp, #80]\n"
        "    ldp d8, d9, [sp, #96]\n    ldp d10, d11, [sp, #112]\n"
        "    ldp d12, d13, [sp, #128]\n    ldp d14, d15, [sp, #144]\n"
        "    add sp, sp, #160\n    ret\n"
        ".size cr_ctx_swap, .-cr_ctx_swap\n"
        ".globl cr_ctx_boot\n.hidden cr_ctx_boot\n.type cr_ctx_boot,%function\n"
        "cr_ctx_boot:\n"
        "    mov x0, x19\n    bl cr_ctx_start\n    brk #0\n"
        ".size cr_ctx_boot, .-cr_ctx_boot\n");
enum { FRAME_WORDS = 20 };

static void frame_init(struct cr_ctx *c, uintptr_t top)
{
    uint64_t *f = (uint64_t *)(top - FRAME_WORDS * 8);
    memset(f, 0, FRAME_WORDS * 8);
    f[0] = (uint64_t)(uintptr_t)c;            /* x19 */
    f[11] = (uint64_t)(uintptr_t)cr_ctx_boot; /* x30 */
    c->sp = f;
}
#endif

void cr_ctx_start(struct cr_ctx *c)
{
    san_arrive(c, c->from);
    c->fn(c->arg);
    san_leave(c, c->done, 1);
    cr_ctx_swap(&c->sp, c->done->sp);
    __builtin_trap(); /* nobody switches to a finished context */
}

void cr_ctx_make(struct cr_ctx *c, void *stack, size_t bytes, void (*fn)(void *), void *arg,
                 struct cr_ctx *done)
{
    memset(c, 0, sizeof *c);
    c->stack = stack;
    c->stack_bytes = bytes;
    c->fn = fn;
    c->arg = arg;
    c->done = done;
    c->made = 1;
    frame_init(c, ((uintptr_t)stack + bytes) & ~(uintptr_t)15);
#if defined(__SANITIZE_THREAD__)
    c->tsan_fiber = __tsan_create_fiber(0);
#endif
}

void cr_ctx_switch(struct cr_ctx *from, struct cr_ctx *to)
{
    if (to->made == 1) {
        to->made = 2;
        to->from = from;
    }
    san_leave(from, to, 0);
    cr_ctx_swap(&from->sp, to->sp);
    san_arrive(from, NULL);
}

#else /* CORO_CTX_PORTABLE: one platform thread per context */

static void turn_wait(struct cr_ctx *c)
{
    for (;;) {
        uint32_t e = plat_event_epoch(&c->ev);
        if (__atomic_load_n(&c->turn, __ATOMIC_ACQUIRE)) break;
        plat_event_wait(&c->ev, e, PLAT_FOREVER);
    }
    __atomic_store_n(&c->turn, 0, __ATOMIC_RELAXED);
}

static void turn_give(struct cr_ctx *to)
{
    __atomic_store_n(&to->turn, 1, __ATOMIC_RELEASE);
    plat_event_notify(&to->ev);
}

static void thread_main(void *p)
{
    struct cr_ctx *c = p;
    /* The coroutine runs for its executor: it sees the executor's slot. */
    *plat_thread_slot(PLAT_SLOT_CORO) = c->slot;
    turn_wait(c);
    c->fn(c->arg);
    turn_give(c->done); /* the thread ends; cr_ctx_free joins it */
}

void cr_ctx_make(struct cr_ctx *c, void *stack, size_t bytes, void (*fn)(void *), void *arg,
                 struct cr_ctx *done)
{
    memset(c, 0, sizeof *c);
    (void)stack, (void)bytes; /* the thread has a stack of its own */
    plat_event_init(&c->ev, 0);
    c->fn = fn;
    c->arg = arg;
    c->done = done;
    c->made = 1;
}

void cr_ctx_switch(struct cr_ctx *from, struct cr_ctx *to)
{
    if (to->made == 1) {
        to->made = 2;
        to->slot = *plat_thread_slot(PLAT_SLOT_CORO);
        to->thread = plat_thread_spawn(thread_main, to, "coro");
        if (!to->thread) __builtin_trap(); /* the core cannot host one */
    }
    turn_give(to);
    turn_wait(from);
}

#endif

void cr_ctx_free(struct cr_ctx *c)
{
#if defined(__SANITIZE_THREAD__)
    if (c->made && c->tsan_fiber) __tsan_destroy_fiber(c->tsan_fiber);
#endif
#ifdef CORO_CTX_PORTABLE
    if (c->thread) plat_thread_join(c->thread);
    plat_event_destroy(&c->ev);
#endif
    c->tsan_fiber = NULL;
}
