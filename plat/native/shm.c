/*
 * shm.c -- named shared regions (native).
 *
 * A process-wide list of regions with reference counts. A name starting with
 * '/' is POSIX shared memory that other processes reach too: the object holds
 * the region followed by a trailer with its exact size, a ready flag and a
 * count of mappings across processes, so the last unmap anywhere unlinks it
 * and the next map creates it afresh (zeroed, *created = true). Openers
 * increment that count only while it is non-zero, so they never join an
 * object that is being unlinked: they retry and create a new one.
 *
 * In a job (job.c) every name is such an object, /ipcsim.<job>.<name>, so
 * the job's processes share the regions its cores map.
 *
 * Waiting across processes: plat_poll64's sleepers normally sleep in
 * wait.c's table, private to the process, where a store by another process
 * wakes nobody. So the trailer of a POSIX object also holds wait queues,
 * hashed by the word's offset in the region (the same in every process,
 * whatever the address), whose futexes are process-shared; wait.c finds them
 * through nat_shm_span. Spans are never freed and are cleared before the
 * object is unmapped, so a lookup racing an unmap reads a stale span at
 * worst, never freed memory, and no mapping made after the unmap can be
 * mistaken for the old one.
 */
#define _POSIX_C_SOURCE 200809L
#include "native.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct trailer {
    uint32_t ready; /* set by the creator once size and refs are written */
    uint32_t refs;  /* mappings in all processes */
    uint64_t size;
    /* One line per queue: sleepers of different queues do not share one. */
    struct {
        _Alignas(64) struct nat_wq wq;
    } wq[NAT_SHM_WQS];
};

/* The mapped POSIX objects of the process, for nat_shm_span (atomic
 * pointers; `spans` counts the slots in use, 0: nothing to look up). */
#define MAX_SPANS 64
static struct nat_span *span_slot[MAX_SPANS];
static int spans;
static struct nat_span *retired; /* under lock */

struct region {
    char *name;
    char *obj;             /* the POSIX object's name; NULL: private */
    struct nat_span *span; /* NULL: not registered (the table is full) */
    size_t size;
    void *p;
    size_t len;         /* mapped bytes (POSIX) */
    int refs;           /* mappings in this process */
    struct trailer *tr; /* NULL: private to the process */
    struct region *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct region *regions;

/* How long an opener waits for a creator in another process to finish. */
#define POSIX_INIT_TRIES 20000 /* x 50 us = 1 s */

static void pause_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static int map_errno(int e)
{
    switch (e) {
    case ENOMEM:
    case ENOSPC:
    case EMFILE:
    case ENFILE:
        return PLAT_ENOMEM;
    case EINVAL:
    case ENAMETOOLONG:
        return PLAT_EINVAL;
    default:
        return PLAT_EIO;
    }
}

static size_t trailer_at(size_t size)
{
    return (size + 63) & ~(size_t)63;
}

/* Make r's words findable by nat_shm_span (lock held). A full table leaves
 * the region to the sleepers' periodic recheck (NAT_POLL_RECHECK_NS), as
 * before there were spans. */
static void span_add(struct region *r)
{
    for (int i = 0; i < MAX_SPANS; i++) {
        if (__atomic_load_n(&span_slot[i], __ATOMIC_RELAXED)) continue;
        struct nat_span *sp = calloc(1, sizeof *sp);
        if (!sp) return;
        sp->lo = (uintptr_t)r->p;
        sp->hi = (uintptr_t)r->p + r->size;
        sp->wq = &r->tr->wq[0].wq;
        sp->stride = sizeof r->tr->wq[0];
        r->span = sp;
        __atomic_store_n(&span_slot[i], sp, __ATOMIC_RELEASE);
        __atomic_add_fetch(&spans, 1, __ATOMIC_SEQ_CST);
        return;
    }
}

/* (lock held) */
static void span_drop(struct region *r)
{
    if (!r->span) return;
    for (int i = 0; i < MAX_SPANS; i++)
        if (__atomic_load_n(&span_slot[i], __ATOMIC_RELAXED) == r->span) {
            __atomic_store_n(&span_slot[i], NULL, __ATOMIC_SEQ_CST);
            __atomic_sub_fetch(&spans, 1, __ATOMIC_SEQ_CST);
        }
    /* The span itself stays (a lookup may still be reading it), on a list
     * that keeps it reachable: it is not a leak. */
    r->span->retired = retired;
    retired = r->span;
}

const struct nat_span *nat_shm_span(const void *addr)
{
    if (!__atomic_load_n(&spans, __ATOMIC_ACQUIRE)) return NULL;
    uintptr_t a = (uintptr_t)addr;
    for (int i = 0; i < MAX_SPANS; i++) {
        const struct nat_span *sp = __atomic_load_n(&span_slot[i], __ATOMIC_ACQUIRE);
        if (sp && a >= sp->lo && a < sp->hi) return sp;
    }
    return NULL;
}

/* Map an existing object; PLAT_EAGAIN: it is going away or not ready, retry. */
static int join_posix(const char *name, size_t size, struct region *r)
{
    int fd = shm_open(name, O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) return errno == ENOENT ? PLAT_EAGAIN : map_errno(errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return map_errno(e);
    }
    if (st.st_size == 0) { /* the creator has not sized it yet */
        close(fd);
        return PLAT_EAGAIN;
    }
    if ((size_t)st.st_size != r->len) {
        close(fd);
        return PLAT_EINVAL;
    }
    void *p = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int e = errno;
    close(fd);
    if (p == MAP_FAILED) return map_errno(e);
    struct trailer *tr = (struct trailer *)((char *)p + trailer_at(size));
    int rc = PLAT_EAGAIN;
    if (__atomic_load_n(&tr->ready, __ATOMIC_ACQUIRE)) {
        uint32_t n = __atomic_load_n(&tr->refs, __ATOMIC_ACQUIRE);
        if (tr->size != size)
            rc = PLAT_EINVAL;
        else
            while (n != 0 && rc == PLAT_EAGAIN)
                if (__atomic_compare_exchange_n(&tr->refs, &n, n + 1, false, __ATOMIC_ACQ_REL,
                                                __ATOMIC_ACQUIRE))
                    rc = PLAT_OK;
    }
    if (rc != PLAT_OK) {
        munmap(p, r->len);
        return rc;
    }
    r->p = p;
    r->tr = tr;
    return PLAT_OK;
}

static int create_posix(const char *name, size_t size, struct region *r)
{
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return errno == EEXIST ? PLAT_EAGAIN : map_errno(errno);
    void *p = MAP_FAILED;
    int e = 0;
    if (ftruncate(fd, (off_t)r->len) != 0)
        e = errno;
    else if ((p = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED)
        e = errno;
    close(fd);
    if (p == MAP_FAILED) {
        shm_unlink(name);
        return map_errno(e);
    }
    /* ftruncate gave zeros: the region is already clear. */
    r->p = p;
    r->tr = (struct trailer *)((char *)p + trailer_at(size));
    r->tr->size = size;
    r->tr->refs = 1;
    __atomic_store_n(&r->tr->ready, 1, __ATOMIC_RELEASE);
    return PLAT_OK;
}

static int map_posix(const char *name, size_t size, struct region *r, bool *created)
{
    if (size > SIZE_MAX - 128 - sizeof(struct trailer)) return PLAT_EINVAL;
    r->len = trailer_at(size) + sizeof(struct trailer);
    for (int i = 0; i < POSIX_INIT_TRIES; i++) {
        int rc = create_posix(name, size, r);
        if (rc == PLAT_OK) *created = true;
        if (rc == PLAT_EAGAIN) rc = join_posix(name, size, r);
        if (rc != PLAT_EAGAIN) return rc;
        pause_us(50);
    }
    return PLAT_EIO; /* a creator died half way, or the name never settles */
}

/* A new region (lock held): PLAT_OK with *out set, or a status. */
static int make(const char *name, size_t size, struct region **out, bool *created)
{
    char obj[256];
    bool posix = name[0] == '/' || nat_job();
    if (posix && nat_job_shm_name(name, obj, sizeof obj) != PLAT_OK) return PLAT_EINVAL;
    struct region *r = calloc(1, sizeof *r);
    int rc = PLAT_ENOMEM;
    if (r && (r->name = strdup(name)) && (!posix || (r->obj = strdup(obj)))) {
        r->size = size;
        r->refs = 1;
        if (posix) {
            if ((rc = map_posix(obj, size, r, created)) == PLAT_OK) span_add(r);
        } else if ((r->p = nat_zalloc(size, 64))) {
            *created = true;
            rc = PLAT_OK;
        }
    }
    if (rc == PLAT_OK) {
        *out = r;
    } else if (r) {
        free(r->obj);
        free(r->name);
        free(r);
    }
    return rc;
}

void *nat_shared_map(const char *name, size_t size, bool *created, int *status)
{
    bool made = false;
    int rc = PLAT_EINVAL;
    void *p = NULL;
    if (name && *name && size > 0) {
        pthread_mutex_lock(&lock);
        struct region *r = regions;
        while (r && strcmp(r->name, name) != 0) r = r->next;
        if (r) {
            if (r->size == size) {
                r->refs++;
                rc = PLAT_OK;
            }
        } else if ((rc = make(name, size, &r, &made)) == PLAT_OK) {
            r->next = regions;
            regions = r;
        }
        if (rc == PLAT_OK) p = r->p;
        pthread_mutex_unlock(&lock);
    }
    if (created) *created = made;
    if (status) *status = rc;
    return p;
}

void nat_shared_unmap(void *p)
{
    if (!p) return;
    pthread_mutex_lock(&lock);
    struct region **pp = &regions;
    while (*pp && (*pp)->p != p) pp = &(*pp)->next;
    struct region *r = *pp;
    if (!r) {
        pthread_mutex_unlock(&lock);
        nat_die("plat_shared_unmap: %p is not a mapped region", p);
    }
    if (--r->refs > 0) {
        pthread_mutex_unlock(&lock);
        return;
    }
    *pp = r->next;
    if (r->tr) span_drop(r); /* before the unmap: no lookup finds it after */
    pthread_mutex_unlock(&lock);
    if (r->tr) {
        if (__atomic_sub_fetch(&r->tr->refs, 1, __ATOMIC_ACQ_REL) == 0) shm_unlink(r->obj);
        munmap(r->p, r->len);
    } else {
        free(r->p);
    }
    free(r->obj);
    free(r->name);
    free(r);
}
