/*
 * mesh.c -- a register mesh in software (native).
 *
 * The layout is models/sw26010/mesh.h's: `arrays` arrays of rows x cols positions,
 * array a holding cores first_core + a * stride + (0 .. rows * cols - 1),
 * position i at (i / cols, i % cols); by default one array from core 0, so
 * core i sits at (i / cols, i % cols). Words stay inside an array. The
 * platform kind gives the layout (first_core, stride, arrays) among the
 * device's parameters, as the sim backend uses it. Every core has a row and a column
 * receive FIFO of `depth` words; any core of the row (column) may put into
 * it and the core's threads take from it, so each FIFO is the same bounded
 * multi-producer ring as hwq.c with the word stored in the cell. A put to a
 * full FIFO waits (spin, then sleep) for space; a get waits for a word.
 */
#include "native.h"

#include <stdlib.h>
#include <string.h>

struct fifo {
    _Alignas(64) uint64_t push;
    _Alignas(64) uint64_t pop;
    _Alignas(64) struct nat_wq data; /* getters sleep here */
    struct nat_wq space;             /* putters sleep here */
    unsigned char *cells;            /* depth cells of stride bytes: seq, then the word */
};

struct plat_mesh {
    int rows, cols;
    int first, step, arrays; /* the layout (see above): first_core, stride, arrays */
    size_t word;
    uint64_t depth;
    size_t stride;
    struct fifo *f; /* [dir][position] */
};

#define DEFAULT_WORD 32
#define DEFAULT_DEPTH 4

void *nat_mesh_new(const struct plat_dev_desc *dev, int *status)
{
    long rows, cols, word, depth, first, step, arrays;
    int cores = nat_cores();
    if ((*status = nat_dev_param(dev, "rows", 1, 1, 1 << 12, &rows)) != PLAT_OK ||
        (*status = nat_dev_param(dev, "cols", cores / rows > 1 ? cores / rows : 1, 1, 1 << 12,
                                 &cols)) != PLAT_OK ||
        (*status = nat_dev_param(dev, "word_bytes", DEFAULT_WORD, 1, 1 << 16, &word)) != PLAT_OK ||
        (*status = nat_dev_param(dev, "depth", DEFAULT_DEPTH, 1, 1 << 16, &depth)) != PLAT_OK ||
        (*status = nat_dev_param(dev, "first_core", 0, 0, 1 << 20, &first)) != PLAT_OK ||
        (*status = nat_dev_param(dev, "stride", rows * cols, 1, 1 << 20, &step)) != PLAT_OK ||
        (*status = nat_dev_param(dev, "arrays", 1, 1, 1 << 12, &arrays)) != PLAT_OK)
        return NULL;
    *status = PLAT_ENOMEM;
    size_t n = 2 * (size_t)arrays * (size_t)rows * (size_t)cols;
    size_t stride = (sizeof(uint64_t) + (size_t)word + 7) & ~(size_t)7;
    plat_mesh *m = calloc(1, sizeof *m);
    struct fifo *f = m ? nat_zalloc(n * sizeof *f, 64) : NULL;
    if (!f) {
        free(m);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (!(f[i].cells = malloc((size_t)depth * stride))) {
            while (i-- > 0) free(f[i].cells);
            free(f);
            free(m);
            return NULL;
        }
        for (long j = 0; j < depth; j++) {
            uint64_t seq = (uint64_t)j;
            memcpy(f[i].cells + (size_t)j * stride, &seq, sizeof seq);
        }
    }
    m->rows = (int)rows;
    m->cols = (int)cols;
    m->first = (int)first;
    m->step = (int)step;
    m->arrays = (int)arrays;
    m->word = (size_t)word;
    m->depth = (uint64_t)depth;
    m->stride = stride;
    m->f = f;
    *status = PLAT_OK;
    return m;
}

plat_mesh *nat_mesh_open(const char *name, int *status)
{
    return nat_dev_open(name, NAT_MESH, status);
}

size_t nat_mesh_word(plat_mesh *m)
{
    NAT_NEED(m, "plat_mesh_word");
    return m->word;
}

void nat_mesh_dims(plat_mesh *m, int *rows, int *cols)
{
    NAT_NEED(m, "plat_mesh_dims");
    if (rows) *rows = m->rows;
    if (cols) *cols = m->cols;
}

/* Array * rows * cols + position of core; -1 if it is not on the mesh. */
static int slot_of(const plat_mesh *m, int core)
{
    if (core < m->first || core >= nat_cores()) return -1;
    int a = (core - m->first) / m->step, i = (core - m->first) % m->step;
    if (a >= m->arrays || i >= m->rows * m->cols) return -1;
    return a * m->rows * m->cols + i;
}

/* The core at position i of the array of slot s. */
static int core_of(const plat_mesh *m, int s, int i)
{
    return m->first + s / (m->rows * m->cols) * m->step + i;
}

int nat_mesh_pos(plat_mesh *m, int core, int *row, int *col)
{
    NAT_NEED(m, "plat_mesh_pos");
    int s = slot_of(m, core);
    if (s < 0) return PLAT_ENOENT;
    int i = s % (m->rows * m->cols);
    if (row) *row = i / m->cols;
    if (col) *col = i % m->cols;
    return PLAT_OK;
}

static uint64_t *seq_of(const plat_mesh *m, const struct fifo *f, uint64_t pos)
{
    return (uint64_t *)(void *)(f->cells + (size_t)(pos % m->depth) * m->stride);
}

static bool try_put(const plat_mesh *m, struct fifo *f, const void *word)
{
    uint64_t pos = __atomic_load_n(&f->push, __ATOMIC_RELAXED);
    uint64_t *seq;
    for (;;) {
        seq = seq_of(m, f, pos);
        int64_t d = (int64_t)(__atomic_load_n(seq, __ATOMIC_ACQUIRE) - pos);
        if (d == 0) {
            if (__atomic_compare_exchange_n(&f->push, &pos, pos + 1, true, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED))
                break;
        } else if (d < 0) {
            return false;
        } else {
            pos = __atomic_load_n(&f->push, __ATOMIC_RELAXED);
        }
    }
    memcpy(seq + 1, word, m->word);
    __atomic_store_n(seq, pos + 1, __ATOMIC_RELEASE);
    return true;
}

static bool try_get(const plat_mesh *m, struct fifo *f, void *word)
{
    uint64_t pos = __atomic_load_n(&f->pop, __ATOMIC_RELAXED);
    uint64_t *seq;
    for (;;) {
        seq = seq_of(m, f, pos);
        int64_t d = (int64_t)(__atomic_load_n(seq, __ATOMIC_ACQUIRE) - (pos + 1));
        if (d == 0) {
            if (__atomic_compare_exchange_n(&f->pop, &pos, pos + 1, true, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED))
                break;
        } else if (d < 0) {
            return false;
        } else {
            pos = __atomic_load_n(&f->pop, __ATOMIC_RELAXED);
        }
    }
    memcpy(word, seq + 1, m->word);
    __atomic_store_n(seq, pos + m->depth, __ATOMIC_RELEASE);
    return true;
}

struct probe {
    const plat_mesh *m;
    const struct fifo *f;
};

static bool has_space(const void *p)
{
    const struct probe *a = p;
    uint64_t pos = __atomic_load_n(&a->f->push, __ATOMIC_ACQUIRE);
    return __atomic_load_n(seq_of(a->m, a->f, pos), __ATOMIC_ACQUIRE) == pos;
}

static bool has_word(const void *p)
{
    const struct probe *a = p;
    uint64_t pos = __atomic_load_n(&a->f->pop, __ATOMIC_ACQUIRE);
    return __atomic_load_n(seq_of(a->m, a->f, pos), __ATOMIC_ACQUIRE) == pos + 1;
}

static void put_one(plat_mesh *m, struct fifo *f, const void *word)
{
    struct probe a = {m, f};
    while (!try_put(m, f, word)) nat_wait(&f->space, false, 0, has_space, &a, PLAT_FOREVER);
    nat_wake(&f->data, false);
}

static struct fifo *fifo_of(plat_mesh *m, enum plat_mesh_dir dir, int slot)
{
    return &m->f[(size_t)dir * (size_t)(m->arrays * m->rows * m->cols) + (size_t)slot];
}

int nat_mesh_put(plat_mesh *m, enum plat_mesh_dir dir, int dest, const void *word)
{
    NAT_NEED(m, "plat_mesh_put");
    int me = nat_self()->core->index, cores = nat_cores();
    int s = slot_of(m, me);
    if (s < 0) return PLAT_ENOENT;
    if ((dir != PLAT_MESH_ROW && dir != PLAT_MESH_COL) || !word) return PLAT_EINVAL;
    int i = s % (m->rows * m->cols), row = i / m->cols, col = i % m->cols;
    int line = dir == PLAT_MESH_ROW ? m->cols : m->rows; /* cores along the line */
    int self = dir == PLAT_MESH_ROW ? col : row;
    if (dest != PLAT_MESH_BCAST && (dest < 0 || dest >= line || dest == self)) return PLAT_EINVAL;
    for (int k = 0; k < line; k++) {
        if (dest == PLAT_MESH_BCAST ? k == self : k != dest) continue;
        int pos = dir == PLAT_MESH_ROW ? row * m->cols + k : k * m->cols + col;
        if (core_of(m, s, pos) >= cores) {
            if (dest == PLAT_MESH_BCAST) continue;
            return PLAT_EINVAL; /* a position without a core */
        }
        put_one(m, fifo_of(m, dir, s - i + pos), word);
    }
    return PLAT_OK;
}

int nat_mesh_get(plat_mesh *m, enum plat_mesh_dir dir, void *word, uint64_t timeout_ns)
{
    NAT_NEED(m, "plat_mesh_get");
    int s = slot_of(m, nat_self()->core->index);
    if (s < 0) return PLAT_ENOENT;
    if ((dir != PLAT_MESH_ROW && dir != PLAT_MESH_COL) || !word) return PLAT_EINVAL;
    struct fifo *f = fifo_of(m, dir, s);
    struct probe a = {m, f};
    uint64_t deadline = nat_deadline(timeout_ns);
    for (;;) {
        if (try_get(m, f, word)) {
            nat_wake(&f->space, false);
            return PLAT_OK;
        }
        uint64_t now = nat_now();
        uint64_t left = deadline == PLAT_FOREVER ? PLAT_FOREVER
                        : deadline > now         ? deadline - now
                                                 : 0;
        if (nat_wait(&f->data, false, 0, has_word, &a, left) != PLAT_OK) return PLAT_ETIMEDOUT;
    }
}
