/* sw26010.c -- the sw26010 platform (platforms/sw26010.yaml, docs/sw26010.md):
 * its cores, the per-core-group register mesh, memory per core group and
 * the timing of MPE and CPE accesses; and core time slices on ideal.
 * Expected times are computed from the file's values (as the model
 * composes them), so the cases hold under other values too. */
#define _POSIX_C_SOURCE 200809L
#include "pt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WORD_MAX 64

/* The chip's layout, from the run. */
static int per_cg(const void *arg)
{
    return 1 + (int)pt_num(arg, "devices.mesh.rows") * (int)pt_num(arg, "devices.mesh.cols");
}
static int cg_of(const void *arg, int core)
{
    return core / per_cg(arg);
}
static bool is_mpe(const void *arg, int core)
{
    return core % per_cg(arg) == 0;
}
/* The CPE at (r, c) of CG g. */
static int cpe(const void *arg, int g, int r, int c)
{
    return g * per_cg(arg) + 1 + r * (int)pt_num(arg, "devices.mesh.cols") + c;
}

/* ---- cores ------------------------------------------------------------------- */

static void check_cores(const void *arg)
{
    int cgs = (int)pt_num(arg, "cgs");
    ck_assert_int_eq(plat_cores(), cgs * per_cg(arg));
    int me = plat_core();
    if (is_mpe(arg, me)) {
        ck_assert_str_eq(plat_core_type(me), "mpe");
        ck_assert_uint_eq(plat_core_caps(me), PLAT_CAP_CAS | PLAT_CAP_FETCH_ADD | PLAT_CAP_THREADS);
        ck_assert_ptr_null(plat_local_alloc(64, 8));
    } else {
        ck_assert_str_eq(plat_core_type(me), "cpe");
        ck_assert_uint_eq(plat_core_caps(me),
                          PLAT_CAP_FETCH_ADD | PLAT_CAP_LOCAL_MEM | PLAT_CAP_DMA);
        void *ldm = plat_local_alloc((size_t)pt_num(arg, "cpe.local_bytes"), 8);
        ck_assert_ptr_nonnull(ldm); /* the whole LDM, and no more */
        ck_assert_ptr_null(plat_local_alloc(8, 8));
        plat_local_free(ldm);
    }
    ck_assert(plat_core_clock_mhz(me) == pt_num(arg, "clock_mhz"));
    harness_barrier();
}

static void case_cores(void *arg)
{
    check_cores(arg);
}

/* ---- mesh -------------------------------------------------------------------- */

static plat_mesh *open_mesh(void)
{
    int status = 0;
    plat_mesh *m = plat_mesh_open("mesh", &status);
    ck_assert_msg(m, "plat_mesh_open: %s", plat_strerror(status));
    return m;
}

/* Every CPE sits at its row and column of its own CG's array; MPEs are not
 * on the mesh. */
static void case_mesh_pos(void *arg)
{
    plat_mesh *m = open_mesh();
    int rows = 0, cols = 0;
    plat_mesh_dims(m, &rows, &cols);
    ck_assert_int_eq(rows, (int)pt_num(arg, "devices.mesh.rows"));
    ck_assert_int_eq(cols, (int)pt_num(arg, "devices.mesh.cols"));
    ck_assert_uint_eq(plat_mesh_word(m), 32);
    if (plat_core() != 0) return;
    for (int k = 0; k < plat_cores(); k++) {
        int r = -1, c = -1;
        if (is_mpe(arg, k)) {
            ck_assert_int_eq(plat_mesh_pos(m, k, &r, &c), PLAT_ENOENT);
            continue;
        }
        ck_assert_int_eq(plat_mesh_pos(m, k, &r, &c), PLAT_OK);
        int i = k % per_cg(arg) - 1;
        ck_assert_int_eq(r, i / cols);
        ck_assert_int_eq(c, i % cols);
    }
    ck_assert_int_eq(plat_mesh_pos(m, plat_cores(), NULL, NULL), PLAT_ENOENT);
}

/* A word naming its CG, sender and sequence. */
static void word_of(uint8_t *w, int cg, int from, int seq)
{
    for (size_t i = 0; i < 32; i++) w[i] = (uint8_t)(cg * 97 + from * 7 + seq + i);
}

static void expect_word(plat_mesh *m, enum plat_mesh_dir dir, int cg, int from, int seq)
{
    uint8_t w[WORD_MAX], want[WORD_MAX];
    int rc = plat_mesh_get(m, dir, w, HARNESS_WAIT_NS);
    ck_assert_msg(rc == PLAT_OK, "core %d: get: %s", plat_core(), plat_strerror(rc));
    word_of(want, cg, from, seq);
    ck_assert_msg(memcmp(w, want, 32) == 0, "core %d: not CG %d core %d's word %d", plat_core(), cg,
                  from, seq);
}

static void expect_empty(plat_mesh *m)
{
    uint8_t w[WORD_MAX];
    ck_assert_int_eq(plat_mesh_get(m, PLAT_MESH_ROW, w, 0), PLAT_ETIMEDOUT);
    ck_assert_int_eq(plat_mesh_get(m, PLAT_MESH_COL, w, 0), PLAT_ETIMEDOUT);
}

/* In every CG at once: (0,0) puts along its row to column 7 and along its
 * column to row 7; (3,3) broadcasts along row 3. Each word reaches only the
 * cores of the sender's own CG (the word names the CG). */
static void case_mesh_putget(void *arg)
{
    plat_mesh *m = open_mesh();
    int me = plat_core(), g = cg_of(arg, me), last = (int)pt_num(arg, "devices.mesh.cols") - 1;
    uint8_t w[WORD_MAX];
    harness_barrier();
    if (is_mpe(arg, me)) {
        word_of(w, g, me, 0);
        ck_assert_int_eq(plat_mesh_put(m, PLAT_MESH_ROW, 1, w), PLAT_ENOENT);
        ck_assert_int_eq(plat_mesh_get(m, PLAT_MESH_ROW, w, 0), PLAT_ENOENT);
    } else if (me == cpe(arg, g, 0, 0)) {
        word_of(w, g, me, 1);
        ck_assert_int_eq(plat_mesh_put(m, PLAT_MESH_ROW, last, w), PLAT_OK);
        ck_assert_int_eq(plat_mesh_put(m, PLAT_MESH_COL, last, w), PLAT_OK);
        ck_assert_int_eq(plat_mesh_put(m, PLAT_MESH_ROW, 0, w), PLAT_EINVAL); /* itself */
        ck_assert_int_eq(plat_mesh_put(m, PLAT_MESH_ROW, last + 1, w), PLAT_EINVAL);
    } else if (me == cpe(arg, g, 3, 3)) {
        word_of(w, g, me, 2);
        ck_assert_int_eq(plat_mesh_put(m, PLAT_MESH_ROW, PLAT_MESH_BCAST, w), PLAT_OK);
    } else if (me == cpe(arg, g, 0, last)) {
        expect_word(m, PLAT_MESH_ROW, g, cpe(arg, g, 0, 0), 1);
    } else if (me == cpe(arg, g, last, 0)) {
        expect_word(m, PLAT_MESH_COL, g, cpe(arg, g, 0, 0), 1);
    }
    int r = -1, c = -1;
    if (!is_mpe(arg, me) && plat_mesh_pos(m, me, &r, &c) == PLAT_OK && r == 3 && c != 3)
        expect_word(m, PLAT_MESH_ROW, g, cpe(arg, g, 3, 3), 2);
    harness_barrier();
    if (!is_mpe(arg, me)) expect_empty(m);
}

/* After a barrier every core's wake-up load crosses the memory channel:
 * timed cases start that much later, when it is quiet. */
#define QUIET_NS 10000

/* sim: a word is readable latency_cycles after the put, a get costs
 * get_cycles; a broadcast arrives as fast as a point-to-point put. */
static void case_mesh_latency(void *arg)
{
    plat_mesh *m = open_mesh();
    uint64_t *board = harness_board();
    int me = plat_core();
    double f = pt_num(arg, "clock_mhz") / 1e3; /* cycles per ns */
    double lat = pt_num(arg, "devices.mesh.latency_cycles") / f;
    double get = pt_num(arg, "devices.mesh.get_cycles") / f;
    uint8_t w[WORD_MAX] = {0};
    for (int round = 0; round < 2; round++) {
        harness_barrier();
        if (me == cpe(arg, 0, 2, 0)) {
            plat_sleep_ns(QUIET_NS); /* the receivers wait, the barrier's traffic is over */
            board[0] = plat_now_ns();
            ck_assert_int_eq(plat_mesh_put(m, PLAT_MESH_ROW, round ? PLAT_MESH_BCAST : 5, w),
                             PLAT_OK);
        } else if (me == cpe(arg, 0, 2, 5) ||
                   (round && me > cpe(arg, 0, 2, 0) && me <= cpe(arg, 0, 2, 7))) {
            ck_assert_int_eq(plat_mesh_get(m, PLAT_MESH_ROW, w, HARNESS_WAIT_NS), PLAT_OK);
            board[1 + me % 8] = plat_now_ns();
        }
        harness_barrier();
        if (me != 0) continue;
        for (int k = 1; k <= 7; k++) {
            if (!round && k != 5) continue;
            double dt = (double)(board[1 + cpe(arg, 0, 2, k) % 8] - board[0]);
            ck_assert_msg(dt >= lat + get - 1 && dt <= lat + 2 * get + 1,
                          "%s to column %d took %.0f ns, expected %.1f + %.1f",
                          round ? "broadcast" : "put", k, dt, lat, get);
        }
    }
}

/* ---- memory ------------------------------------------------------------------ */

/* The model's uncontended times (ns), composed as docs/sw26010.md says. */
static double cyc(const void *arg, const char *path)
{
    return pt_num(arg, path) * 1e3 / pt_num(arg, "clock_mhz");
}
static double gld_ns(const void *arg)
{
    return pt_num(arg, "memory.burst_bytes") * 1e3 / pt_num(arg, "memory.bandwidth_MBps") +
           cyc(arg, "network.latency_cycles") + pt_num(arg, "memory.latency_ns");
}
static double hit_ns(const void *arg)
{
    return 8e3 / (pt_num(arg, "mpe.cache_bytes_per_cycle") * pt_num(arg, "clock_mhz")) +
           cyc(arg, "mpe.hit_cycles");
}

static double timed_load(const uint64_t *p)
{
    uint64_t t0 = plat_now_ns();
    (void)plat_load64(p);
    return (double)(plat_now_ns() - t0);
}

static void expect_about(double got, double want, const char *what)
{
    ck_assert_msg(got >= want - 1.5 && got <= want + 1.5, "core %d: %s took %.0f ns, expected %.1f",
                  plat_core(), what, got, want);
}

/* sim, two CGs: plat_shared_alloc lands in the caller's CG memory. A CPE's
 * load from its own CG's memory is a gld; from the other CG's it crosses
 * the NoC. The MPE's loads, CAS and fetch-add hit its cache. */
static void case_memory(void *arg)
{
    uint64_t *board = harness_board();
    int me = plat_core(), g = cg_of(arg, me);
    double gld = gld_ns(arg), hop = cyc(arg, "noc.latency_cycles");
    if (me == cpe(arg, g, 0, 0)) {
        uint64_t *p = plat_shared_alloc(64, 64);
        ck_assert_ptr_nonnull(p);
        board[g] = pt_u(p);
    }
    if (is_mpe(arg, me)) {
        uint64_t *p = plat_shared_alloc(64, 64);
        ck_assert_ptr_nonnull(p);
        board[2 + g] = pt_u(p);
    }
    harness_barrier();
    /* One tester at a time: CG 0's CPE, CG 1's, then the MPEs. */
    if (me == cpe(arg, 0, 0, 0) || me == cpe(arg, 1, 7, 7)) {
        plat_sleep_ns(QUIET_NS * (uint64_t)(1 + g));
        expect_about(timed_load(pt_p(board[g])), gld, "a load from its CG's memory");
        expect_about(timed_load(pt_p(board[1 - g])), gld + hop,
                     "a load from the other CG's memory");
        expect_about(timed_load(pt_p(board[2 + g])), gld, "a load from its MPE's allocation");
        uint64_t t0 = plat_now_ns();
        plat_fetch_add64(pt_p(board[g]), 1);
        expect_about((double)(plat_now_ns() - t0), gld + pt_num(arg, "memory.atomic_ns"),
                     "a fetch-and-add at its CG's controller");
        uint64_t local = 0;
        expect_about(timed_load(&local), cyc(arg, "cpe.ldm_cycles"), "a load from its stack (LDM)");
    }
    if (is_mpe(arg, me)) {
        plat_sleep_ns(QUIET_NS * (uint64_t)(3 + g));
        uint64_t *p = pt_p(board[2 + g]);
        expect_about(timed_load(p), hit_ns(arg), "an MPE load");
        uint64_t e = 0, t0 = plat_now_ns();
        ck_assert(plat_cas64(p + 1, &e, 5));
        expect_about((double)(plat_now_ns() - t0), hit_ns(arg), "an MPE CAS");
        t0 = plat_now_ns();
        plat_fetch_add64(p + 1, 1);
        expect_about((double)(plat_now_ns() - t0), hit_ns(arg), "an MPE fetch-and-add");
        ck_assert_uint_eq(plat_load64(p + 1), 6);
    }
    harness_barrier();
}

/* sim: 32 CPEs hammering one counter queue at their CG's controller: its
 * read-modify-write unit takes one atomic at a time (memory.atomic_ns), so
 * all of them take 32 x N of those, far more than N uncontended adds. */
#define HAMMER 8
/* CPEs 1-32 each load (add: fetch-and-add to) word p HAMMER times at once;
 * on core 0 the mean time per CPE, -1 elsewhere. */
static double hammer(const void *arg, uint64_t *p, bool add)
{
    uint64_t *board = harness_board();
    int me = plat_core();
    bool in = !is_mpe(arg, me) && me <= 32;
    uint64_t t0 = plat_now_ns();
    for (int i = 0; in && i < HAMMER; i++)
        if (add)
            plat_fetch_add64(p, 1);
        else
            (void)plat_load64(p);
    if (in) plat_fetch_add64(&board[1], plat_now_ns() - t0);
    harness_barrier();
    return me == 0 ? (double)plat_load64(&board[1]) / 32 : -1;
}

static uint64_t *shared_word(void)
{
    uint64_t *board = harness_board();
    if (plat_core() == 0) board[0] = pt_u(plat_shared_alloc(64, 64));
    harness_barrier();
    return pt_p(board[0]);
}

static void case_contention(void *arg)
{
    uint64_t *ctr = shared_word();
    double mean = hammer(arg, ctr, true);
    if (plat_core() != 0) return;
    ck_assert_uint_eq(plat_load64(ctr), 32 * HAMMER);
    double alone = HAMMER * (gld_ns(arg) + pt_num(arg, "memory.atomic_ns"));
    double all = 32 * HAMMER * pt_num(arg, "memory.atomic_ns"); /* the unit's busy time */
    ck_assert_msg(
        mean >= 0.5 * all && mean > 2 * alone,
        "32 CPEs, %d fetch-adds each: %.0f ns per CPE, alone %.0f ns, the unit busy %.0f ns",
        HAMMER, mean, alone, all);
}

/* sim, memory.request_ns above a burst's time: a lone load takes as long
 * as ever (the extra hold overlaps its latency), but 32 CPEs loading at
 * once queue on the CG's memory path, request_ns each. */
static void case_request(void *arg)
{
    uint64_t *p = shared_word();
    if (plat_core() == cpe(arg, 0, 0, 0)) {
        /* The others' barrier requests (two each, request_ns apiece) are
         * over by then. */
        plat_sleep_ns(5 * QUIET_NS);
        expect_about(timed_load(p), gld_ns(arg), "a lone load");
    }
    harness_barrier();
    double mean = hammer(arg, p, false);
    if (plat_core() != 0) return;
    double req = pt_num(arg, "memory.request_ns");
    double busy = 32 * HAMMER * req; /* the path's busy time */
    ck_assert_msg(req > 4 * gld_ns(arg) / 32 && mean >= 0.5 * busy,
                  "32 CPEs, %d loads each: %.0f ns per CPE, the path busy %.0f ns", HAMMER, mean,
                  busy);
}

/* ---- core groups are independent ---------------------------------------------- */

/* Every core works on its own CG only: the MPE allocates its CG's counter;
 * every CPE loads it, adds to it and passes a word to its row neighbour.
 * Each core notes when it finished; no barrier (it would cross CGs). */
struct indep {
    struct harness_env env;
    uint64_t *end;     /* per core, a page shared with the test */
    uint64_t ctr[4];   /* per CG: the counter */
    uint64_t ready[4]; /* per CG: the counter's address is in ctr */
};

static void indep_core(void *a)
{
    struct indep *x = a;
    int me = plat_core(), g = cg_of(x, me);
    if (is_mpe(x, me)) {
        x->ctr[g] = pt_u(plat_shared_alloc(64, 64)); /* bookkeeping: no time */
        x->ready[g] = 1;
        for (int i = 0; i < 4; i++) plat_fetch_add64(pt_p(x->ctr[g]), 1);
    } else {
        plat_sleep_ns(1000); /* the MPE has allocated by then (no traffic) */
        ck_assert(x->ready[g]);
        uint64_t *ctr = pt_p(x->ctr[g]);
        for (int i = 0; i < 3; i++) (void)plat_load64(ctr);
        plat_fetch_add64(ctr, 1);
        plat_mesh *m = open_mesh();
        int r, c;
        ck_assert_int_eq(plat_mesh_pos(m, me, &r, &c), PLAT_OK);
        uint8_t w[WORD_MAX] = {0};
        ck_assert_int_eq(plat_mesh_put(m, PLAT_MESH_ROW, (c + 1) % 8, w), PLAT_OK);
        ck_assert_int_eq(plat_mesh_get(m, PLAT_MESH_ROW, w, HARNESS_WAIT_NS), PLAT_OK);
    }
    x->end[me] = plat_now_ns();
}

static double host_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

struct indep_run {
    const char *cgs;
    uint64_t *end;
    double *host;
};

static void indep_child(void *a)
{
    const struct indep_run *r = a;
    struct indep x = {.end = r->end};
    x.env.backend = PLAT_SIM;
    char set[16];
    snprintf(set, sizeof set, "cgs=%s", r->cgs);
    struct conf *c = harness_platform_file("sw26010", HARNESS_SETS(set), NULL, NULL);
    x.env.platform = c;
    char err[1024];
    double t0 = host_s();
    if (harness_try_run(PLAT_SIM, c, HARNESS_SEED, indep_core, &x, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        _exit(1);
    }
    *r->host = host_s() - t0;
    conf_free(c);
}

START_TEST(cgs_independent)
{
    uint64_t *one = harness_page(4 * 65 * sizeof(uint64_t));
    uint64_t *four = harness_page(4 * 65 * sizeof(uint64_t));
    double *host = harness_page(2 * sizeof(double));
    struct indep_run r1 = {"1", one, &host[0]}, r4 = {"4", four, &host[1]};
    int st = harness_fork(indep_child, &r1);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the 1-CG run failed");
    st = harness_fork(indep_child, &r4);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the 4-CG run failed");
    /* Each CG's last core ends when the lone CG's does, and the cores' mean end
     * is the same to 2 %. Which of several simultaneous requests a channel or
     * the atomic unit serves first follows the kernel's process order, which
     * the other CGs' processes shift: single cores' times may differ. */
    double max1 = 0, sum1 = 0;
    for (int k = 0; k < 65; k++) {
        max1 = one[k] > max1 ? (double)one[k] : max1;
        sum1 += (double)one[k];
    }
    ck_assert_msg(max1 > 1000, "the lone CG ended at %.0f ns", max1);
    for (int g = 0; g < 4; g++) {
        double max = 0, sum = 0;
        for (int k = 0; k < 65; k++) {
            max = four[g * 65 + k] > max ? (double)four[g * 65 + k] : max;
            sum += (double)four[g * 65 + k];
        }
        ck_assert_msg(max == max1 && sum >= 0.98 * sum1 && sum <= 1.02 * sum1,
                      "CG %d of 4: last end %.0f ns, mean %.0f ns; alone %.0f ns, %.0f ns", g, max,
                      sum / 65, max1, sum1 / 65);
    }
    fprintf(stderr,
            "sw26010 cgs_independent: host time 1 CG (65 cores) %.3f s, 4 CGs (260 cores) %.3f s\n",
            host[0], host[1]);
}
END_TEST

/* ---- --set clock_mhz scales the core side ------------------------------------------ */

static void case_clock(void *arg)
{
    if (plat_core() != 1) return;
    uint64_t t0 = plat_now_ns();
    plat_work("coro_switch");
    double dt = (double)(plat_now_ns() - t0);
    expect_about(dt, cyc(arg, "cpe.costs.coro_switch"), "coro_switch");
    uint64_t x = 0;
    expect_about(timed_load(&x), cyc(arg, "cpe.ldm_cycles"), "an LDM load");
}

/* ---- time slices (ideal: one core, two threads) -------------------------------------- */

#define WORKS 20

struct slog {
    int who[2 * WORKS];
    int n;
    bool yield;
};

static void slice_loop(struct slog *l, int id)
{
    for (int i = 0; i < WORKS; i++) {
        plat_work_cycles(1000);
        l->who[l->n++] = id;
        if (l->yield) plat_yield();
    }
}

static void slice_thread(void *a)
{
    slice_loop(a, 1);
}

/* Runs of one thread in the log (a switch between two entries starts one). */
static int runs(const struct slog *l)
{
    int r = 1;
    for (int i = 1; i < l->n; i++) r += l->who[i] != l->who[i - 1];
    return r;
}

static void two_threads(struct slog *l)
{
    plat_thread *t = plat_thread_spawn(slice_thread, l, "b");
    ck_assert_ptr_nonnull(t);
    slice_loop(l, 0);
    plat_thread_join(t);
    ck_assert_int_eq(l->n, 2 * WORKS);
}

/* No slice: the core goes to the other thread after every charged work. */
static void case_no_slice(void *arg)
{
    (void)arg;
    struct slog l = {.n = 0};
    two_threads(&l);
    ck_assert_int_ge(runs(&l), 2 * WORKS - 1);
}

/* A 5 us slice and 1 us works: each thread keeps the core for about five
 * works, then the other gets it; fewer switches, an earlier end. */
static void case_slice(void *arg)
{
    struct slog l = {.n = 0};
    uint64_t t0 = plat_now_ns();
    two_threads(&l);
    double slice_works = pt_num(arg, "core.timeslice_ns") / 1000;
    ck_assert_int_le(runs(&l), (int)(2 * WORKS / (slice_works - 1)) + 2);
    for (int i = 1, len = 1; i < l.n; i++) {
        if (l.who[i] == l.who[i - 1]) {
            len++;
            continue;
        }
        ck_assert_msg(len >= slice_works - 1 || i == 1, "a run of %d works before entry %d", len,
                      i);
        len = 1;
    }
    /* Switches: runs - 1 of them, each costs.switch cycles. */
    double want = 1000 + 2 * WORKS * 1000 + (runs(&l) - 1) * pt_num(arg, "core.costs.switch");
    ck_assert_msg((double)(plat_now_ns() - t0) <= want + 1, "%llu ns, expected %.0f",
                  (unsigned long long)(plat_now_ns() - t0), want);
}

/* With a slice, plat_yield hands the core over at once when the other
 * thread waits: the threads alternate per work again. */
static void case_slice_yield(void *arg)
{
    (void)arg;
    struct slog l = {.n = 0, .yield = true};
    two_threads(&l);
    ck_assert_int_ge(runs(&l), 2 * WORKS - 2);
}

#define SLICE_EDIT "  timeslice_ns: 5000\n  clock_mhz: 1000"

void pt_sw26010(void)
{
    static const struct harness_case cases[] = {
        {.name = "sw_cores", .core = case_cores, .file = "sw26010"},
        {.name = "sw_cores_4cg", .core = case_cores, .file = "sw26010", .sets = {"cgs=4"}},
        {.name = "sw_mesh_pos", .core = case_mesh_pos, .file = "sw26010", .sets = {"cgs=2"}},
        {.name = "sw_mesh_putget", .core = case_mesh_putget, .file = "sw26010", .sets = {"cgs=2"}},
        {.name = "sw_mesh_latency",
         .core = case_mesh_latency,
         .file = "sw26010",
         .backends = HARNESS_SIM},
        {.name = "sw_memory",
         .core = case_memory,
         .file = "sw26010",
         .sets = {"cgs=2"},
         .backends = HARNESS_SIM},
        {.name = "sw_contention",
         .core = case_contention,
         .file = "sw26010",
         .backends = HARNESS_SIM},
        {.name = "sw_request",
         .core = case_request,
         .file = "sw26010",
         .sets = {"memory.request_ns=100"},
         .backends = HARNESS_SIM},
        {.name = "sw_clock",
         .core = case_clock,
         .file = "sw26010",
         .sets = {"clock_mhz=725"},
         .backends = HARNESS_SIM},
        {.name = "no_slice", .core = case_no_slice, .cores = 1, .backends = HARNESS_SIM},
        {.name = "slice",
         .core = case_slice,
         .cores = 1,
         .edit_from = "  clock_mhz: 1000",
         .edit_to = SLICE_EDIT,
         .backends = HARNESS_SIM},
        {.name = "slice_yield",
         .core = case_slice_yield,
         .cores = 1,
         .edit_from = "  clock_mhz: 1000",
         .edit_to = SLICE_EDIT,
         .backends = HARNESS_SIM},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
    tcase_add_test(harness_tcase(harness_suite("plat-sim"), "sim/sw_cgs_independent"),
                   cgs_independent);
}
