/* reg.c -- register communication over the platform's register mesh. */
#include "cr.h"

/* Header of a routed word (word 0). */
#define HDR_ROUTED (1ull << 63)
#define HDR(row, col, flags)                                                                       \
    (HDR_ROUTED | (uint64_t)(flags) << 32 | (uint64_t)(row) << 16 | (uint64_t)(col))
#define HDR_ROW(h) ((int)(((h) >> 16) & 0xffff))
#define HDR_COL(h) ((int)((h)&0xffff))
#define HDR_FLAGS(h) ((unsigned)(((h) >> 32) & 0x7fffffff))

static plat_mesh **slot(void)
{
    return (plat_mesh **)plat_core_slot(PLAT_SLOT_CORO);
}

static int status(int st)
{
    switch (st) {
    case PLAT_OK:
        return CORO_OK;
    case PLAT_ENOENT:
        return CORO_ENOENT;
    case PLAT_ETIMEDOUT:
        return CORO_ETIMEDOUT;
    case PLAT_EAGAIN:
        return CORO_EAGAIN;
    default:
        return CORO_EINVAL;
    }
}

int coro_reg_open(const char *name)
{
    int st = PLAT_OK;
    plat_mesh *m = plat_mesh_open(name, &st);
    if (!m) return status(st);
    if (plat_mesh_word(m) != sizeof(coro_word)) return CORO_EINVAL; /* 256-bit transfers */
    *slot() = m;
    return CORO_OK;
}

int coro_reg_pos_of(int core, int *row, int *col)
{
    plat_mesh *m = *slot();
    if (!m) return CORO_ENOENT;
    return status(plat_mesh_pos(m, core, row, col));
}

int coro_reg_pos(int *row, int *col)
{
    return coro_reg_pos_of(plat_core(), row, col);
}

/* The library's own instructions around a transfer (the header, the
 * route), charged in simulation as core cost `coro_reg`. */
int coro_reg_put(enum coro_dir dir, int dest, const coro_word *w)
{
    plat_mesh *m = *slot();
    if (!m) return CORO_ENOENT;
    plat_work("coro_reg");
    return status(plat_mesh_put(m, dir == CORO_ROW ? PLAT_MESH_ROW : PLAT_MESH_COL,
                                dest == CORO_BCAST ? PLAT_MESH_BCAST : dest, w));
}

int coro_reg_get(enum coro_dir dir, coro_word *w)
{
    plat_mesh *m = *slot();
    if (!m) return CORO_ENOENT;
    plat_work("coro_reg");
    return status(
        plat_mesh_get(m, dir == CORO_ROW ? PLAT_MESH_ROW : PLAT_MESH_COL, w, PLAT_FOREVER));
}

/* The next hop from (r, c) towards the header's destination. */
static int hop(int r, int c, int relay_col, const coro_word *w)
{
    int dr = HDR_ROW(w->w[0]), dc = HDR_COL(w->w[0]);
    if (dr == r) return coro_reg_put(CORO_ROW, dc, w);
    if (c == relay_col) return coro_reg_put(CORO_COL, dr, w);
    return coro_reg_put(CORO_ROW, relay_col, w); /* to this row's relay */
}

int coro_reg_send(int row, int col, int relay_col, unsigned flags, coro_word *w)
{
    int r, c, st = coro_reg_pos(&r, &c);
    if (st) return st;
    if (row < 0 || col < 0 || (row == r && col == c)) return CORO_EINVAL;
    w->w[0] = HDR(row, col, flags);
    return hop(r, c, relay_col, w);
}

int coro_reg_relay(enum coro_dir from, long ends)
{
    int r, c, st = coro_reg_pos(&r, &c);
    if (st) return st;
    for (long seen = 0; seen < ends;) {
        coro_word w;
        if ((st = coro_reg_get(from, &w))) return st;
        if (!(w.w[0] & HDR_ROUTED)) return CORO_EINVAL;
        if ((st = hop(r, c, c, &w))) return st;
        if (HDR_FLAGS(w.w[0]) & CORO_REG_END) seen++;
    }
    return CORO_OK;
}

int coro_reg_recv(enum coro_dir from, coro_word *w, unsigned *flags)
{
    int st = coro_reg_get(from, w);
    if (st) return st;
    if (!(w->w[0] & HDR_ROUTED)) return CORO_EINVAL;
    if (flags) *flags = HDR_FLAGS(w->w[0]);
    return CORO_OK;
}
