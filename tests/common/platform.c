/* platform.c -- load the ideal platform, run code on its cores, and the
 * core-side helpers (barrier, board) and both-backend case registration. */
#define _GNU_SOURCE
#include "harness.h"

#include "ipcsim/plat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- platform files ------------------------------------------------------ */

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f, "harness: cannot open %s", path);
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    ck_assert_int_ge(n, 0);
    rewind(f);
    char *text = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(text);
    size_t got = fread(text, 1, (size_t)n, f);
    fclose(f);
    ck_assert_uint_eq(got, (size_t)n);
    text[n] = '\0';
    return text;
}

struct conf *harness_platform(const char *const *sets, const char *from, const char *to)
{
    return harness_platform_file(NULL, sets, from, to);
}

struct conf *harness_platform_file(const char *file, const char *const *sets, const char *from,
                                   const char *to)
{
    const char *root = getenv("IPCSIM_ROOT");
    char path[4096], err[1024] = "";
    snprintf(path, sizeof path, "%s/platforms/%s.yaml", root && *root ? root : ".",
             file ? file : "ideal");

    struct conf *c;
    if (from) {
        char *text = read_text(path);
        char *at = strstr(text, from);
        ck_assert_msg(at, "harness: \"%s\" not found in %s", from, path);
        size_t head = (size_t)(at - text), nfrom = strlen(from), nto = strlen(to);
        char *edited = malloc(strlen(text) - nfrom + nto + 1);
        ck_assert_ptr_nonnull(edited);
        memcpy(edited, text, head);
        memcpy(edited + head, to, nto);
        strcpy(edited + head + nto, at + nfrom);
        c = conf_parse(path, edited, err, sizeof err);
        free(edited);
        free(text);
    } else {
        c = conf_load(path, err, sizeof err);
    }
    ck_assert_msg(c, "harness: %s", err);

    for (size_t i = 0; sets && sets[i]; i++) {
        char key[256];
        const char *eq = strchr(sets[i], '=');
        ck_assert_msg(eq && (size_t)(eq - sets[i]) < sizeof key, "harness: bad override %s",
                      sets[i]);
        memcpy(key, sets[i], (size_t)(eq - sets[i]));
        key[eq - sets[i]] = '\0';
        ck_assert_msg(conf_set(c, key, eq + 1, err, sizeof err) == 0, "harness: --set %s: %s",
                      sets[i], err);
    }
    return c;
}

/* ---- runs ------------------------------------------------------------------ */

/* Shared by all cores of a run: the barrier and the board. */
struct shared {
    uint64_t arrived; /* cores in the current barrier */
    uint64_t round;   /* barriers completed */
    uint64_t board[HARNESS_BOARD_WORDS];
};

struct wrap {
    void (*entry)(void *);
    void *arg;
};

static struct shared *shared(void)
{
    struct shared *sh = *plat_core_slot(PLAT_SLOT_TEST);
    ck_assert_msg(sh, "harness: barrier/board used outside a harness run");
    return sh;
}

/* Maps the shared area before the case and unmaps it after: every core of a
 * run holds it from start to end, so it is zero at the start of each run. */
static void core_entry(void *arg)
{
    const struct wrap *w = arg;
    int status = 0;
    struct shared *sh = plat_shared_map("harness", sizeof *sh, NULL, &status);
    ck_assert_msg(sh, "harness: plat_shared_map: %s", plat_strerror(status));
    *plat_core_slot(PLAT_SLOT_TEST) = sh;
    w->entry(w->arg);
    *plat_core_slot(PLAT_SLOT_TEST) = NULL;
    plat_shared_unmap(sh);
}

int harness_try_run(enum plat_backend b, const struct conf *platform, uint64_t seed,
                    void (*entry)(void *), void *arg, char *err, size_t errlen)
{
    struct wrap w = {entry, arg};
    struct plat_run r = {
        .backend = b,
        .platform = platform,
        .entry = core_entry,
        .arg = &w,
        .seed = seed,
    };
    err[0] = '\0';
    return plat_run(&r, err, errlen);
}

void harness_run(enum plat_backend b, const struct conf *platform, void (*entry)(void *), void *arg)
{
    char err[1024];
    int rc = harness_try_run(b, platform, HARNESS_SEED, entry, arg, err, sizeof err);
    ck_assert_msg(rc == 0, "plat_run returned %d: %s", rc, err);
}

int harness_fork(void (*fn)(void *), void *arg)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        fn(arg);
        fflush(stdout);
        fflush(stderr);
        _exit(0);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    return status;
}

void *harness_page(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    ck_assert_msg(p != MAP_FAILED, "harness: mmap %zu bytes failed", n);
    return p;
}

/* ---- core side ---------------------------------------------------------------- */

void harness_barrier(void)
{
    struct shared *sh = shared();
    /* The round cannot advance before this core arrives, so reading it first
     * is race-free; the last arrival resets the count, then opens the round. */
    uint64_t round = plat_load64(&sh->round);
    if (plat_fetch_add64(&sh->arrived, 1) == (uint64_t)plat_cores() - 1) {
        plat_store64(&sh->arrived, 0);
        plat_store64(&sh->round, round + 1);
        return;
    }
    while (plat_load64(&sh->round) == round) {
        int rc = plat_poll64(&sh->round, round, HARNESS_WAIT_NS);
        ck_assert_msg(rc == PLAT_OK || plat_load64(&sh->round) != round,
                      "harness_barrier: core %d: the other cores never arrived (%s)", plat_core(),
                      plat_strerror(rc));
    }
}

uint64_t *harness_board(void)
{
    return shared()->board;
}

/* ---- both-backend cases ------------------------------------------------------- */

#define MAX_CASES 1024

/* Tests find their case by Check's loop index into this table. */
static struct {
    const struct harness_case *c;
    enum plat_backend b;
    char name[80]; /* "native/<case>": Check keeps the pointer */
} reg[MAX_CASES];
static int nreg;
static const void *running_param;

const void *harness_param(void)
{
    return running_param;
}

START_TEST(run_case)
{
    const struct harness_case *c = reg[_i].c;

    /* "cores" first, so the case's own overrides may still change it. */
    size_t n = 0;
    while (n < HARNESS_MAX_SETS && c->sets[n]) n++;
    const char *sets[HARNESS_MAX_SETS + 2];
    char cores[32];
    snprintf(cores, sizeof cores, "cores=%d", c->cores);
    size_t k = 0;
    if (c->cores > 0) sets[k++] = cores;
    for (size_t i = 0; i < n; i++) sets[k++] = c->sets[i];
    sets[k] = NULL;

    struct conf *platform = harness_platform_file(c->file, sets, c->edit_from, c->edit_to);
    struct harness_env env = {.backend = reg[_i].b, .platform = platform, .param = c->param};
    running_param = c->param;
    if (c->test)
        c->test(&env);
    else
        harness_run(env.backend, platform, c->core, &env);
    conf_free(platform);
}
END_TEST

void harness_add_cases(const char *prefix, const struct harness_case *cases, size_t n)
{
    static const char *const backend_name[] = {[PLAT_NATIVE] = "native", [PLAT_SIM] = "sim"};
    for (int b = PLAT_NATIVE; b <= PLAT_SIM; b++) {
        char sname[64];
        snprintf(sname, sizeof sname, "%s-%s", prefix, backend_name[b]);
        Suite *s = harness_suite(sname);
        for (size_t i = 0; i < n; i++) {
            const struct harness_case *c = &cases[i];
            if (c->backends && !(c->backends & (1u << b))) continue;
            if (nreg == MAX_CASES) harness_die("harness: more than %d cases", MAX_CASES);
            reg[nreg].c = c;
            reg[nreg].b = (enum plat_backend)b;
            snprintf(reg[nreg].name, sizeof reg[nreg].name, "%s/%s", backend_name[b], c->name);
            TCase *tc = harness_tcase(s, reg[nreg].name);
            tcase_add_loop_test(tc, run_case, nreg, nreg + 1);
            nreg++;
        }
    }
}
