// sim_dev.cpp -- hardware queues, the register mesh and accelerators.
#include "sim.h"

#include "../../models/accel.h"
#include "../../models/hwq.h"
#include "../../models/sw26010/mesh.h"
#include "../../models/fabric.h"

namespace ipcsim
{

// Opening is a lookup in the platform: no time.
static const Device *open_dev(const char *name, const char *api, int *status)
{
    self();
    const Device *d = name ? kernel().device(name, api) : nullptr;
    if (status) *status = d ? PLAT_OK : PLAT_ENOENT;
    return d;
}

// ---- hwq ---------------------------------------------------------------------------

plat_hwq *sim_hwq_open(const char *name, int *status)
{
    const Device *d = open_dev(name, "hwq", status);
    return d ? (plat_hwq *)static_cast<Hwq *>(d->block) : nullptr;
}

static Hwq &hwq(plat_hwq *q, const char *call)
{
    return *(Hwq *)need(q, call);
}

unsigned sim_hwq_queues(plat_hwq *q)
{
    return hwq(q, "plat_hwq_queues").queues();
}

// One register access; the result is the register's value.
static uint64_t hwq_reg(Thread &t, int op, tlm::tlm_command cmd, void *reg, uint64_t v, int *status)
{
    Core &c = *t.core;
    c.payload(t, op, cmd, reg, &v, sizeof v);
    c.transport(t);
    if (status) *status = t.ext().status;
    return v;
}

int sim_hwq_push(plat_hwq *pq, unsigned queue, void *desc)
{
    Thread &t = self();
    Hwq &q = hwq(pq, "plat_hwq_push");
    if (queue >= q.queues()) return PLAT_EINVAL;
    int st = PLAT_OK;
    hwq_reg(t, OP_HWQ_PUSH, tlm::TLM_WRITE_COMMAND, q.push_pop_reg(queue),
            (uint64_t)(uintptr_t)desc, &st);
    return st;
}

void *sim_hwq_pop(plat_hwq *pq, unsigned queue)
{
    Thread &t = self();
    Hwq &q = hwq(pq, "plat_hwq_pop");
    if (queue >= q.queues()) return nullptr;
    return (void *)(uintptr_t)hwq_reg(t, OP_HWQ_POP, tlm::TLM_READ_COMMAND, q.push_pop_reg(queue),
                                      0, nullptr);
}

unsigned sim_hwq_count(plat_hwq *pq, unsigned queue)
{
    Thread &t = self();
    Hwq &q = hwq(pq, "plat_hwq_count");
    if (queue >= q.queues()) return 0;
    return (unsigned)hwq_reg(t, OP_HWQ_COUNT, tlm::TLM_READ_COMMAND, q.count_reg(queue), 0,
                             nullptr);
}

int sim_hwq_wait(plat_hwq *pq, unsigned queue, uint64_t timeout_ns)
{
    Thread &t = self();
    Hwq &q = hwq(pq, "plat_hwq_wait");
    if (queue >= q.queues()) return PLAT_EINVAL;
    uint64_t dl = deadline_ps(timeout_ns);
    for (;;) {
        if (hwq_reg(t, OP_HWQ_COUNT, tlm::TLM_READ_COMMAND, q.count_reg(queue), 0, nullptr))
            return PLAT_OK;
        if (!sleep_on(t, q.count_reg(queue), "plat_hwq_wait", dl))
            return kernel().timed_out(t, "plat_hwq_wait", timeout_ns);
    }
}

// ---- mesh ----------------------------------------------------------------------------

plat_mesh *sim_mesh_open(const char *name, int *status)
{
    const Device *d = open_dev(name, "mesh", status);
    return d ? (plat_mesh *)static_cast<Mesh *>(d->block) : nullptr;
}

static Mesh &mesh(plat_mesh *m, const char *call)
{
    return *(Mesh *)need(m, call);
}

size_t sim_mesh_word(plat_mesh *m)
{
    return mesh(m, "plat_mesh_word").word();
}

void sim_mesh_dims(plat_mesh *pm, int *rows, int *cols)
{
    Mesh &m = mesh(pm, "plat_mesh_dims");
    if (rows) *rows = m.rows();
    if (cols) *cols = m.cols();
}

int sim_mesh_pos(plat_mesh *pm, int core, int *row, int *col)
{
    Mesh &m = mesh(pm, "plat_mesh_pos");
    return m.pos(core, row, col) ? PLAT_OK : PLAT_ENOENT;
}

int sim_mesh_put(plat_mesh *pm, enum plat_mesh_dir dir, int dest, const void *word)
{
    Thread &t = self();
    Mesh &m = mesh(pm, "plat_mesh_put");
    need(word, "plat_mesh_put");
    Core &c = *t.core;
    if (!m.on(c.index)) return PLAT_ENOENT;
    if (dir != PLAT_MESH_ROW && dir != PLAT_MESH_COL) return PLAT_EINVAL;
    int row = 0, col = 0;
    m.pos(c.index, &row, &col);
    int n = dir == PLAT_MESH_ROW ? m.cols() : m.rows(), me = dir == PLAT_MESH_ROW ? col : row;
    if (dest != PLAT_MESH_BCAST) {
        int to =
            dir == PLAT_MESH_ROW ? m.core_at(c.index, row, dest) : m.core_at(c.index, dest, col);
        if (dest < 0 || dest >= n || dest == me || to < 0) return PLAT_EINVAL;
    }
    for (;;) {
        c.payload(t, OP_MESH_PUT, tlm::TLM_WRITE_COMMAND, m.reg(), word, m.word());
        t.ext().a = (uint64_t)dir;
        t.ext().b = (uint64_t)(int64_t)dest;
        c.transport(t, true);
        if (t.ext().status != PLAT_EAGAIN) return t.ext().status;
        kernel().block(t, t.ext().watch, 1, "plat_mesh_put (receive buffer full)", NEVER);
    }
}

int sim_mesh_get(plat_mesh *pm, enum plat_mesh_dir dir, void *word, uint64_t timeout_ns)
{
    Thread &t = self();
    Mesh &m = mesh(pm, "plat_mesh_get");
    need(word, "plat_mesh_get");
    Core &c = *t.core;
    if (!m.on(c.index)) return PLAT_ENOENT;
    if (dir != PLAT_MESH_ROW && dir != PLAT_MESH_COL) return PLAT_EINVAL;
    uint64_t dl = deadline_ps(timeout_ns);
    for (;;) {
        c.payload(t, OP_MESH_GET, tlm::TLM_READ_COMMAND, m.reg(), word, m.word());
        t.ext().a = (uint64_t)dir;
        c.transport(t, true);
        if (t.ext().status != PLAT_EAGAIN) return t.ext().status;
        if (!sleep_on(t, t.ext().watch, "plat_mesh_get", dl))
            return kernel().timed_out(t, "plat_mesh_get", timeout_ns);
    }
}

// ---- accelerators ------------------------------------------------------------------

int sim_accel_bind(const char *name, plat_accel_fn fn, void *ctx)
{
    int st;
    const Device *d = open_dev(name, "accel", &st);
    if (d) static_cast<Accel *>(d->block)->bind(fn, ctx);
    return st;
}

plat_accel *sim_accel_open(const char *name, int *status)
{
    const Device *d = open_dev(name, "accel", status);
    return d ? (plat_accel *)static_cast<Accel *>(d->block) : nullptr;
}

int sim_accel_run(plat_accel *pa, const void *in, size_t in_len, void *out, size_t out_len)
{
    Thread &t = self();
    Accel &a = *(Accel *)need(pa, "plat_accel_run");
    if (!a.bound()) return PLAT_ENOENT;
    Core &c = *t.core;
    AccelJob j;
    j.core = c.index;
    j.in = in;
    j.in_len = in_len;
    j.out = out;
    j.out_len = out_len;
    // The core writes the input to the block; input in a remote block is
    // loaded first (as plat_copy does).
    const void *data = in;
    c.acquire(t);
    if (in_len && !kernel().fabric().near(in, c.index)) {
        if (c.bounce.size() < in_len) c.bounce.resize(in_len);
        c.payload(t, OP_NONE, tlm::TLM_READ_COMMAND, in, c.bounce.data(), in_len);
        c.issue(t);
        data = c.bounce.data();
    }
    c.payload(t, OP_ACCEL_JOB, tlm::TLM_WRITE_COMMAND, a.reg(), data, in_len);
    t.ext().p = &j;
    c.issue(t);
    c.release(t);
    while (!j.done) kernel().block(t, &j.done, sizeof j.done, "plat_accel_run", NEVER);
    return j.result;
}

} // namespace ipcsim
