/* robust.c -- what survives a process's death: PLAT_MUTEX_ROBUST,
 * plat_proc_token / plat_proc_alive, and POSIX regions whose mappers died
 * (plat_shared_map, natively). */
#define _GNU_SOURCE
#include "pt.h"

#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

struct robust {
    plat_mutex m;
    uint64_t value;
};

static void region_name(char *name, size_t n, const char *what)
{
    snprintf(name, n, "/ipcsim-robust-%s-%ld", what, (long)getpid());
}

static bool shm_exists(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "/dev/shm%s", name);
    return access(path, F_OK) == 0;
}

/* Take the mutex and die holding it. */
static void die_holding(void *arg)
{
    struct robust *r = arg;
    if (plat_mutex_lock(&r->m) != PLAT_OK) _exit(3);
    r->value = 7; /* half way through an update */
    raise(SIGKILL);
}

/* A holder killed with the lock held: the next lock takes it and says so,
 * the one after is plain again; trylock takes such a mutex too. */
static void test_mutex_owner_dead(const struct harness_env *env)
{
    (void)env;
    char name[64];
    region_name(name, sizeof name, "mutex");
    shm_unlink(name);
    int status = 0;
    struct robust *r = plat_shared_map(name, sizeof *r, NULL, &status);
    ck_assert_msg(r, "plat_shared_map: %s", plat_strerror(status));
    plat_mutex_init(&r->m, PLAT_SHARED_PROCESS | PLAT_MUTEX_ROBUST);

    int st = harness_fork(die_holding, r);
    ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "child status %#x", st);
    ck_assert_int_eq(plat_mutex_lock(&r->m), PLAT_EOWNERDEAD);
    ck_assert_uint_eq(r->value, 7);
    r->value = 0; /* repaired */
    plat_mutex_unlock(&r->m);
    ck_assert_int_eq(plat_mutex_lock(&r->m), PLAT_OK);
    plat_mutex_unlock(&r->m);

    st = harness_fork(die_holding, r);
    ck_assert_msg(WIFSIGNALED(st), "child status %#x", st);
    ck_assert_msg(plat_mutex_trylock(&r->m), "trylock refused a dead holder's mutex");
    plat_mutex_unlock(&r->m);
    ck_assert_int_eq(plat_mutex_lock(&r->m), PLAT_OK);
    plat_mutex_unlock(&r->m);
    ck_assert_str_eq(plat_strerror(PLAT_EOWNERDEAD), "taken, its previous holder died");
    plat_mutex_destroy(&r->m);
    plat_shared_unmap(r);
    shm_unlink(name);
}

/* Both backends: a robust mutex nobody abandons locks with PLAT_OK. */
static void case_mutex_robust(void *arg)
{
    (void)arg;
    struct robust *r = plat_shared_map("robust", sizeof *r, NULL, NULL);
    ck_assert_ptr_nonnull(r);
    if (plat_core() == 0) {
        plat_mutex_init(&r->m, PLAT_MUTEX_ROBUST);
        plat_store64(&harness_board()[0], 1);
    }
    while (plat_load64(&harness_board()[0]) != 1) plat_poll64(&harness_board()[0], 0, PLAT_FOREVER);
    for (int i = 0; i < 50; i++) {
        ck_assert_int_eq(plat_mutex_lock(&r->m), PLAT_OK);
        r->value++;
        plat_work_cycles(3);
        plat_mutex_unlock(&r->m);
    }
    harness_barrier();
    ck_assert_uint_eq(r->value, 50u * (unsigned)plat_cores());
    harness_barrier();
    plat_shared_unmap(r);
}

/* Both backends: the calling process's token is alive, 0 is not. */
static void case_proc_self(void *arg)
{
    uint64_t t = plat_proc_token();
    ck_assert_uint_ne(t, 0);
    ck_assert(plat_proc_alive(t));
    ck_assert(!plat_proc_alive(0));
    ck_assert_uint_eq(plat_proc_token(), t); /* the same for every call, core, thread */
    if (pt_sim(arg)) ck_assert_uint_eq(t, 1);
}

static void token_child(void *arg)
{
    *(volatile uint64_t *)arg = plat_proc_token();
    pause(); /* until killed */
}

/* A child's token: alive while it runs, dead once killed (a zombie not yet
 * reaped included), and differs from the parent's. */
static void test_proc_child(const struct harness_env *env)
{
    (void)env;
    volatile uint64_t *tok = harness_page(sizeof *tok);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) token_child((void *)tok);
    for (int i = 0; i < 5000 && !*tok; i++) usleep(1000);
    uint64_t t = *tok;
    ck_assert_uint_ne(t, 0);
    ck_assert_uint_ne(t, plat_proc_token());
    ck_assert(plat_proc_alive(t));
    kill(pid, SIGKILL);
    siginfo_t si;
    ck_assert_int_eq(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT), 0); /* a zombie now */
    ck_assert_msg(!plat_proc_alive(t), "a killed (zombie) process is alive");
    ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
    ck_assert(!plat_proc_alive(t));
    ck_assert(!plat_proc_alive(t + (1ull << 22))); /* same pid, another start time */
}

static const char *reclaim_name;

/* Map the region, mark it, die without unmapping. */
static void map_and_die(void *arg)
{
    (void)arg;
    bool created = false;
    uint64_t *p = plat_shared_map(reclaim_name, 4096, &created, NULL);
    if (!p) _exit(3);
    plat_store64(p, 0xdead);
    raise(SIGKILL);
}

/* A crashed run's region: every mapper died. The next mapper gets a fresh,
 * zeroed one (created), and its unmap leaves nothing in /dev/shm. */
static void test_map_stale(const struct harness_env *env)
{
    (void)env;
    char name[64];
    region_name(name, sizeof name, "stale");
    reclaim_name = name;
    shm_unlink(name);
    int st = harness_fork(map_and_die, NULL);
    ck_assert_msg(WIFSIGNALED(st), "child status %#x", st);
    ck_assert_msg(shm_exists(name), "the dead child's region is not in /dev/shm");
    bool created = false;
    int status = 0;
    uint64_t *p = plat_shared_map(name, 4096, &created, &status);
    ck_assert_msg(p, "plat_shared_map: %s", plat_strerror(status));
    bool fresh = created, zero = plat_load64(p) == 0;
    plat_shared_unmap(p);
    bool left = shm_exists(name);
    shm_unlink(name);
    ck_assert_msg(fresh && zero, "joined the dead run's region (created %d, word %s)", fresh,
                  zero ? "0" : "0xdead");
    ck_assert_msg(!left, "the region outlived its last unmap");
}

/* Join the parent's region, mark it, die without unmapping. */
static void join_and_die(void *arg)
{
    (void)arg;
    bool created = true;
    uint64_t *p = plat_shared_map(reclaim_name, 4096, &created, NULL);
    if (!p || created) _exit(3);
    plat_store64(p + 1, 0xdead);
    raise(SIGKILL);
}

/* A region one of whose two users died: the survivor's unmap is the last
 * and removes it. The child joins before the parent maps anything else, so
 * it inherits no mapping (fork). */
static void test_map_survivor(const struct harness_env *env)
{
    (void)env;
    char name[64];
    region_name(name, sizeof name, "surv");
    reclaim_name = name;
    shm_unlink(name);
    volatile uint64_t *go = harness_page(sizeof *go);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        while (!*go) usleep(100);
        join_and_die(NULL);
        _exit(0);
    }
    bool created = false;
    uint64_t *p = plat_shared_map(name, 4096, &created, NULL);
    *go = 1;
    ck_assert_ptr_nonnull(p);
    ck_assert(created);
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFSIGNALED(st), "child status %#x", st);
    ck_assert_uint_eq(plat_load64(p + 1), 0xdead); /* it did share the region */
    plat_shared_unmap(p);
    bool left = shm_exists(name);
    shm_unlink(name);
    ck_assert_msg(!left, "the survivor's last unmap left the region in /dev/shm");
}

/* Users that unmap at the same moment: one of them is the last and
 * removes the region (before, each failed to upgrade its shared lock while
 * the others still held theirs, and the name stayed in /dev/shm; the
 * mpi_procs two-node jobs left one in most runs). */
static void test_map_leave_together(const struct harness_env *env)
{
    (void)env;
    enum { USERS = 2, ROUNDS = 200 };
    char name[64];
    region_name(name, sizeof name, "together");
    volatile uint64_t *sync = harness_page(2 * sizeof *sync);
    for (int round = 0; round < ROUNDS; round++) {
        shm_unlink(name);
        sync[0] = sync[1] = 0;
        fflush(stdout);
        fflush(stderr);
        pid_t pid[USERS];
        for (int u = 0; u < USERS; u++) {
            ck_assert_int_ge(pid[u] = fork(), 0);
            if (pid[u] == 0) {
                uint64_t *p = plat_shared_map(name, 4096, NULL, NULL);
                if (!p) _exit(2);
                __atomic_fetch_add(&sync[0], 1, __ATOMIC_SEQ_CST);
                while (__atomic_load_n(&sync[1], __ATOMIC_SEQ_CST) == 0) {
                }
                plat_shared_unmap(p);
                _exit(0);
            }
        }
        while (__atomic_load_n(&sync[0], __ATOMIC_SEQ_CST) < USERS) usleep(50);
        __atomic_store_n(&sync[1], 1, __ATOMIC_SEQ_CST); /* all leave at once */
        for (int u = 0; u < USERS; u++) {
            int st = 0;
            ck_assert_int_eq(waitpid(pid[u], &st, 0), pid[u]);
            ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "user %d: status %#x", u, st);
        }
        bool left = shm_exists(name);
        shm_unlink(name);
        ck_assert_msg(!left, "round %d: %d users left together and the region stayed", round,
                      USERS);
    }
}

void pt_robust(void)
{
    static const struct harness_case cases[] = {
        {.name = "mutex_owner_dead", .test = test_mutex_owner_dead, .backends = HARNESS_NATIVE},
        {.name = "mutex_robust", .core = case_mutex_robust, .cores = 3},
        {.name = "proc_self", .core = case_proc_self, .cores = 2},
        {.name = "proc_child", .test = test_proc_child, .backends = HARNESS_NATIVE},
        {.name = "shared_map_stale", .test = test_map_stale, .backends = HARNESS_NATIVE},
        {.name = "shared_map_survivor", .test = test_map_survivor, .backends = HARNESS_NATIVE},
        {.name = "shared_map_leave_together",
         .test = test_map_leave_together,
         .backends = HARNESS_NATIVE},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
