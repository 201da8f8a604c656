/*
 * accel.c -- accelerators as function calls (native).
 *
 * Natively the bound function *is* the accelerator: plat_accel_run calls it
 * in the caller's thread, so jobs of several cores run concurrently. Bindings
 * are kept by name for the whole process (unlike the devices of a run), so a
 * program may bind before it starts a run.
 */
#define _POSIX_C_SOURCE 200809L
#include "native.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct binding {
    char *name;
    plat_accel_fn fn; /* under lock */
    void *ctx;
    struct binding *next;
};

struct plat_accel {
    struct binding *b;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct binding *bindings;

/* The binding of `name`, made unbound if new (lock held); NULL: no memory. */
static struct binding *find(const char *name)
{
    struct binding *b = bindings;
    while (b && strcmp(b->name, name) != 0) b = b->next;
    if (b) return b;
    if (!(b = calloc(1, sizeof *b)) || !(b->name = strdup(name))) {
        free(b);
        return NULL;
    }
    b->next = bindings;
    bindings = b;
    return b;
}

void *nat_accel_new(const char *name, int *status)
{
    plat_accel *a = calloc(1, sizeof *a);
    pthread_mutex_lock(&lock);
    if (a && !(a->b = find(name))) {
        free(a);
        a = NULL;
    }
    pthread_mutex_unlock(&lock);
    *status = a ? PLAT_OK : PLAT_ENOMEM;
    return a;
}

int nat_accel_bind(const char *name, plat_accel_fn fn, void *ctx)
{
    int rc = nat_dev_check(name, NAT_ACCEL);
    if (rc != PLAT_OK) return rc;
    pthread_mutex_lock(&lock);
    struct binding *b = find(name);
    if (b) {
        b->fn = fn; /* NULL unbinds */
        b->ctx = ctx;
    }
    pthread_mutex_unlock(&lock);
    return b ? PLAT_OK : PLAT_ENOMEM;
}

plat_accel *nat_accel_open(const char *name, int *status)
{
    return nat_dev_open(name, NAT_ACCEL, status);
}

int nat_accel_run(plat_accel *a, const void *in, size_t in_len, void *out, size_t out_len)
{
    NAT_NEED(a, "plat_accel_run");
    pthread_mutex_lock(&lock);
    plat_accel_fn fn = a->b->fn;
    void *ctx = a->b->ctx;
    pthread_mutex_unlock(&lock);
    return fn ? fn(ctx, in, in_len, out, out_len) : PLAT_ENOENT;
}
