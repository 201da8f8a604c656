/*
 * shm.c -- named shared regions (native).
 *
 * A process-wide list of regions with reference counts. A name starting with
 * '/' is POSIX shared memory that other processes reach too: the object holds
 * the region followed by a trailer with its exact size and a ready flag.
 * Who uses it is kept by the kernel, not in the object: every process that
 * has it mapped holds a shared record lock (fcntl F_RDLCK on its first byte)
 * through the descriptor it keeps open, and the kernel drops that lock when
 * the process ends, however it ends. So "nobody else uses it" is "an
 * exclusive lock (F_WRLCK) is granted at once":
 *
 *   create  O_EXCL, then at once the shared lock (before sizing it), then
 *           size, map, write the trailer, set ready.
 *   unmap   drop the shared lock, then try the exclusive one: granted, no
 *           other live user holds a lock, and it unlinks the name; either
 *           way it unmaps and closes. (An upgrade that keeps the shared lock
 *           when refused would let users leaving together all be refused.)
 *   join    try the exclusive lock first. Granted on a sized object: every
 *           process that used it has died without unmapping (a crashed run;
 *           a creator holds its lock before sizing), or the last user is
 *           just leaving: unlink the name if it still names this object, and
 *           retry, which creates a fresh one. Refused: take the shared lock
 *           (refused too: someone is unlinking it, retry) and join if ready.
 *           Unsized and unlocked: a creator between O_EXCL and its lock;
 *           retry (one that died right there leaves the name stuck: the
 *           tries run out, PLAT_EIO).
 *
 * Before unlinking, a process checks that the name still names the object
 * it holds locked (the inode), so it never removes a newer object of the
 * same name. Record locks belong to a process, not to a descriptor: a
 * fork()ed child does not inherit them, and a process never opens a second
 * descriptor of an object it has mapped (closing that would drop its lock).
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
#define _GNU_SOURCE
#include "native.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct trailer {
    uint32_t ready; /* set by the creator once size is written */
    uint32_t pad;
    uint64_t size;
    /* One line per queue: sleepers of different queues do not share one. */
    struct {
        _Alignas(64) struct nat_wq wq;
    } wq[NAT_SHM_WQS];
};

/* The mapped POSIX objects of the process, for nat_shm_span (atomic
 * pointers; `nat_spans` counts the slots in use, 0: nothing to look up). */
#define MAX_SPANS 64
static struct nat_span *span_slot[MAX_SPANS];
int nat_spans;
static struct nat_span *retired; /* under lock */

struct region {
    char *name;
    char *obj;             /* the POSIX object's name; NULL: private */
    struct nat_span *span; /* NULL: not registered (the table is full) */
    size_t size;
    void *p;
    size_t len;         /* mapped bytes (POSIX) */
    int fd;             /* the POSIX object, holding this process's lock */
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
        __atomic_add_fetch(&nat_spans, 1, __ATOMIC_SEQ_CST);
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
            __atomic_sub_fetch(&nat_spans, 1, __ATOMIC_SEQ_CST);
        }
    /* The span itself stays (a lookup may still be reading it), on a list
     * that keeps it reachable: it is not a leak. */
    r->span->retired = retired;
    retired = r->span;
}

const struct nat_span *nat_shm_span(const void *addr)
{
    if (!__atomic_load_n(&nat_spans, __ATOMIC_ACQUIRE)) return NULL;
    uintptr_t a = (uintptr_t)addr;
    for (int i = 0; i < MAX_SPANS; i++) {
        const struct nat_span *sp = __atomic_load_n(&span_slot[i], __ATOMIC_ACQUIRE);
        if (sp && a >= sp->lo && a < sp->hi) return sp;
    }
    return NULL;
}

/* Take the record lock of type (F_RDLCK, F_WRLCK; F_UNLCK drops it) on fd's first byte:
 * true if granted; with wait, block until it is. */
static bool lock_obj(int fd, short type, bool wait)
{
    struct flock l = {.l_type = type, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1};
    for (;;) {
        if (fcntl(fd, wait ? F_SETLKW : F_SETLK, &l) == 0) return true;
        if (errno != EINTR) return false;
    }
}

/* Unlink name if it still names the object open at fd. */
static void unlink_if_same(const char *name, int fd)
{
    char path[300];
    struct stat a, b;
    snprintf(path, sizeof path, "/dev/shm%s", name);
    if (fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev)
        shm_unlink(name);
}

/* Map an existing object; PLAT_EAGAIN: it is going away, stale (then
 * removed) or not ready, retry. */
static int join_posix(const char *name, size_t size, struct region *r)
{
    int fd = shm_open(name, O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) return errno == ENOENT ? PLAT_EAGAIN : map_errno(errno);
    struct stat st;
    int rc = PLAT_EAGAIN;
    if (lock_obj(fd, F_WRLCK, false)) {
        /* Nobody holds it: a crashed run's object (or one being left). */
        if (fstat(fd, &st) == 0 && st.st_size > 0) unlink_if_same(name, fd);
    } else if (!lock_obj(fd, F_RDLCK, false)) {
        /* Someone is unlinking it. */
    } else if (fstat(fd, &st) != 0) {
        rc = map_errno(errno);
    } else if (st.st_size != 0 && (size_t)st.st_size != r->len) {
        rc = PLAT_EINVAL;
    } else if (st.st_size != 0) {
        void *p = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED) {
            rc = map_errno(errno);
        } else {
            struct trailer *tr = (struct trailer *)((char *)p + trailer_at(size));
            if (__atomic_load_n(&tr->ready, __ATOMIC_ACQUIRE))
                rc = tr->size == size ? PLAT_OK : PLAT_EINVAL;
            if (rc == PLAT_OK) {
                r->p = p;
                r->tr = tr;
                r->fd = fd;
                return PLAT_OK;
            }
            munmap(p, r->len);
        }
    }
    close(fd); /* drops the lock */
    return rc;
}

static int create_posix(const char *name, size_t size, struct region *r)
{
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return errno == EEXIST ? PLAT_EAGAIN : map_errno(errno);
    void *p = MAP_FAILED;
    int e = 0;
    /* The shared lock before the size: a sized object nobody locks is stale. */
    if (!lock_obj(fd, F_RDLCK, true))
        e = errno;
    else if (ftruncate(fd, (off_t)r->len) != 0)
        e = errno;
    else if ((p = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED)
        e = errno;
    if (p == MAP_FAILED) {
        shm_unlink(name);
        close(fd);
        return map_errno(e);
    }
    /* ftruncate gave zeros: the region is already clear. */
    r->p = p;
    r->fd = fd;
    r->tr = (struct trailer *)((char *)p + trailer_at(size));
    r->tr->size = size;
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
    bool posix = nat_shared_crosses(name);
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

bool nat_shared_crosses(const char *name)
{
    return name && (name[0] == '/' || nat_job());
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
        /* The last live user (the dead hold no locks) removes the name.
         * Drop the shared lock before trying the exclusive one: users that
         * leave together would each fail to upgrade while holding theirs,
         * and nobody would unlink; this way the last to try is granted. */
        (void)lock_obj(r->fd, F_UNLCK, false);
        if (lock_obj(r->fd, F_WRLCK, false)) unlink_if_same(r->obj, r->fd);
        munmap(r->p, r->len);
        close(r->fd);
    } else {
        free(r->p);
    }
    free(r->obj);
    free(r->name);
    free(r);
}
