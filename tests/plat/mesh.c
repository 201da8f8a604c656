/* mesh.c -- the register mesh (plat_mesh_*). */
#include "pt.h"

#include <string.h>

#define WORD_MAX 64

static plat_mesh *open_mesh(void)
{
    int status = 0;
    plat_mesh *m = plat_mesh_open("mesh", &status);
    ck_assert_msg(m, "plat_mesh_open(\"mesh\"): %s", plat_strerror(status));
    ck_assert_uint_le(plat_mesh_word(m), WORD_MAX);
    return m;
}

/* A word that names its sender, receiver and direction. */
static void word_of(uint8_t *w, size_t n, int from, int to, int dir, int seq)
{
    for (size_t i = 0; i < n; i++) w[i] = (uint8_t)(from * 64 + to * 16 + dir * 8 + seq + i);
}

static void put(plat_mesh *m, enum plat_mesh_dir dir, int dest, int to, int seq)
{
    uint8_t w[WORD_MAX];
    word_of(w, plat_mesh_word(m), plat_core(), to, dir, seq);
    ck_assert_int_eq(plat_mesh_put(m, dir, dest, w), PLAT_OK);
}

static void get(plat_mesh *m, enum plat_mesh_dir dir, int from, int seq)
{
    uint8_t w[WORD_MAX], want[WORD_MAX];
    size_t n = plat_mesh_word(m);
    int rc = plat_mesh_get(m, dir, w, HARNESS_WAIT_NS);
    ck_assert_msg(rc == PLAT_OK, "core %d: get (%s) from core %d: %s", plat_core(),
                  dir == PLAT_MESH_ROW ? "row" : "column", from, plat_strerror(rc));
    word_of(want, n, from, plat_core(), dir, seq);
    ck_assert_msg(memcmp(w, want, n) == 0, "core %d: wrong word (expected core %d's %s word %d)",
                  plat_core(), from, dir == PLAT_MESH_ROW ? "row" : "column", seq);
}

static void expect_empty(plat_mesh *m, enum plat_mesh_dir dir)
{
    uint8_t w[WORD_MAX];
    ck_assert_int_eq(plat_mesh_get(m, dir, w, 0), PLAT_ETIMEDOUT);
}

/* 2 x 2: core i at (i / 2, i % 2). Rows and columns between neighbours. */
static void case_mesh_2x2(void *arg)
{
    plat_mesh *m = open_mesh();
    int me = plat_core();
    ck_assert_uint_eq(plat_mesh_word(m), (size_t)pt_num(arg, "devices.mesh.word_bytes"));
    int rows = 0, cols = 0;
    plat_mesh_dims(m, &rows, &cols);
    ck_assert_int_eq(rows, 2);
    ck_assert_int_eq(cols, 2);
    for (int c = 0; c < 4; c++) {
        int r = -1, k = -1;
        ck_assert_int_eq(plat_mesh_pos(m, c, &r, &k), PLAT_OK);
        ck_assert_int_eq(r, c / 2);
        ck_assert_int_eq(k, c % 2);
    }
    harness_barrier();
    switch (me) {
    case 0:
        put(m, PLAT_MESH_ROW, 1, 1, 0); /* to (0,1) = core 1 */
        put(m, PLAT_MESH_COL, 1, 2, 0); /* to (1,0) = core 2 */
        break;
    case 3:
        put(m, PLAT_MESH_ROW, 0, 2, 0); /* to (1,0) = core 2 */
        put(m, PLAT_MESH_COL, 0, 1, 0); /* to (0,1) = core 1 */
        break;
    case 1:
        get(m, PLAT_MESH_ROW, 0, 0);
        get(m, PLAT_MESH_COL, 3, 0);
        break;
    case 2:
        get(m, PLAT_MESH_ROW, 3, 0);
        get(m, PLAT_MESH_COL, 0, 0);
        break;
    }
    harness_barrier();
    expect_empty(m, PLAT_MESH_ROW);
    expect_empty(m, PLAT_MESH_COL);
    /* Destinations off the row or column. */
    uint8_t w[WORD_MAX] = {0};
    ck_assert_int_eq(plat_mesh_put(m, PLAT_MESH_ROW, 2, w), PLAT_EINVAL);
    ck_assert_int_eq(plat_mesh_put(m, PLAT_MESH_ROW, -2, w), PLAT_EINVAL);
    ck_assert_int_eq(plat_mesh_put(m, PLAT_MESH_COL, 5, w), PLAT_EINVAL);
    harness_barrier();
    expect_empty(m, PLAT_MESH_ROW); /* the refused puts delivered nothing */
    expect_empty(m, PLAT_MESH_COL);
    /* A get with nothing coming times out after about the timeout. */
    uint64_t t0 = plat_now_ns();
    ck_assert_int_eq(plat_mesh_get(m, PLAT_MESH_ROW, w, 2 * PT_MS), PLAT_ETIMEDOUT);
    uint64_t dt = plat_now_ns() - t0;
    ck_assert_uint_ge(dt, 2 * PT_MS);
    ck_assert_uint_lt(dt, 2 * PT_MS + (pt_sim(arg) ? 10 * PT_US : PT_NATIVE_SLACK_NS));
}

/* 1 x 4: a row broadcast reaches every other core of the row, not the sender. */
static void case_mesh_bcast(void *arg)
{
    (void)arg;
    plat_mesh *m = open_mesh();
    int me = plat_core();
    harness_barrier();
    if (me == 2) {
        uint8_t w[WORD_MAX];
        word_of(w, plat_mesh_word(m), 2, 15, PLAT_MESH_ROW, 1);
        ck_assert_int_eq(plat_mesh_put(m, PLAT_MESH_ROW, PLAT_MESH_BCAST, w), PLAT_OK);
    } else {
        uint8_t w[WORD_MAX], want[WORD_MAX];
        ck_assert_int_eq(plat_mesh_get(m, PLAT_MESH_ROW, w, HARNESS_WAIT_NS), PLAT_OK);
        word_of(want, plat_mesh_word(m), 2, 15, PLAT_MESH_ROW, 1);
        ck_assert_int_eq(memcmp(w, want, plat_mesh_word(m)), 0);
    }
    harness_barrier();
    expect_empty(m, PLAT_MESH_ROW);
}

/* The file's 1 x 2 mesh on 3 cores: core 2 is not on it. */
static void case_mesh_pos(void *arg)
{
    (void)arg;
    plat_mesh *m = open_mesh();
    int r, c;
    ck_assert_int_eq(plat_mesh_pos(m, 1, &r, &c), PLAT_OK);
    ck_assert_int_eq(r, 0);
    ck_assert_int_eq(c, 1);
    ck_assert_int_eq(plat_mesh_pos(m, 2, &r, &c), PLAT_ENOENT);
    int status = 0;
    ck_assert_ptr_null(plat_mesh_open("hwq", &status)); /* another type */
    ck_assert_int_lt(status, 0);
}

/* A full receive buffer blocks the putter until the receiver takes a word;
 * words arrive in order. */
static void case_mesh_full(void *arg)
{
    uint64_t *board = harness_board();
    plat_mesh *m = open_mesh();
    int depth = (int)pt_num(arg, "devices.mesh.depth");
    harness_barrier();
    if (plat_core() == 0) {
        for (int i = 0; i < depth; i++) put(m, PLAT_MESH_ROW, 1, 1, i);
        put(m, PLAT_MESH_ROW, 1, 1, depth); /* blocks */
        uint64_t done = plat_now_ns();
        harness_barrier();
        uint64_t got = plat_load64(&board[0]);
        ck_assert_msg(done >= got, "a put into a full buffer returned %llu ns before the get",
                      (unsigned long long)(got - done));
    } else {
        plat_sleep_ns(2 * PT_MS);
        plat_store64(&board[0], plat_now_ns());
        for (int i = 0; i <= depth; i++) get(m, PLAT_MESH_ROW, 0, i);
        harness_barrier();
    }
    expect_empty(m, PLAT_MESH_ROW);
}

void pt_mesh(void)
{
    static const struct harness_case cases[] = {
        {.name = "mesh_2x2",
         .core = case_mesh_2x2,
         .cores = 4,
         .sets = {"devices.mesh.rows=2", "devices.mesh.cols=2"}},
        {.name = "mesh_bcast",
         .core = case_mesh_bcast,
         .cores = 4,
         .sets = {"devices.mesh.rows=1", "devices.mesh.cols=4"}},
        {.name = "mesh_pos", .core = case_mesh_pos, .cores = 3},
        {.name = "mesh_full", .core = case_mesh_full, .cores = 2},
    };
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
