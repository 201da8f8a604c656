// sim_mem.cpp -- timed accesses, atomics, polling, copies and allocation.
#include "sim.h"

#include "../../models/fabric.h"
#include "../../models/memory.h"

namespace ipcsim
{

uint64_t sim_access(Thread &t, int op, tlm::tlm_command cmd, const void *p, uint64_t a, uint64_t b)
{
    Core &c = *t.core;
    uint64_t v = a; // the data of a plain write, in the core's private memory
    c.payload(t, op, cmd, p, &v, sizeof v);
    t.ext().a = a;
    t.ext().b = b;
    c.transport(t);
    return op == OP_NONE ? v : t.ext().r;
}

static const uint64_t *aligned(const uint64_t *p, const char *call)
{
    if (!p || ((uintptr_t)p & 7))
        kernel().misuse("%s: %p is not an aligned uint64_t", call, (const void *)p);
    return p;
}

uint64_t sim_load64(const uint64_t *p)
{
    Thread &t = self();
    return sim_access(t, OP_NONE, tlm::TLM_READ_COMMAND, aligned(p, "plat_load64"), 0, 0);
}

static void store(uint64_t *p, uint64_t v, const char *call)
{
    Thread &t = self();
    sim_access(t, OP_NONE, tlm::TLM_WRITE_COMMAND, aligned(p, call), v, 0);
}

void sim_store64(uint64_t *p, uint64_t v)
{
    store(p, v, "plat_store64");
}

// The kernel runs one core at a time, so every access is already ordered:
// the same transaction as plat_store64.
void sim_store64_release(uint64_t *p, uint64_t v)
{
    store(p, v, "plat_store64_release");
}

bool sim_cas64(uint64_t *p, uint64_t *expected, uint64_t desired)
{
    Thread &t = self();
    if (!(t.core->caps & PLAT_CAP_CAS)) kernel().misuse("plat_cas64 needs PLAT_CAP_CAS");
    need(expected, "plat_cas64");
    uint64_t old =
        sim_access(t, OP_CAS, tlm::TLM_WRITE_COMMAND, aligned(p, "plat_cas64"), *expected, desired);
    if (old == *expected) return true;
    *expected = old;
    return false;
}

uint64_t sim_fetch_add64(uint64_t *p, uint64_t delta)
{
    Thread &t = self();
    if (!(t.core->caps & PLAT_CAP_FETCH_ADD))
        kernel().misuse("plat_fetch_add64 needs PLAT_CAP_FETCH_ADD");
    return sim_access(t, OP_ADD, tlm::TLM_WRITE_COMMAND, aligned(p, "plat_fetch_add64"), delta, 0);
}

int sim_poll64(const uint64_t *p, uint64_t old, uint64_t timeout_ns)
{
    Thread &t = self();
    aligned(p, "plat_poll64");
    uint64_t dl = deadline_ps(timeout_ns);
    for (;;) {
        if (sim_access(t, OP_NONE, tlm::TLM_READ_COMMAND, p, 0, 0) != old) return PLAT_OK;
        if (!sleep_on(t, p, "plat_poll64", dl))
            return kernel().timed_out(t, "plat_poll64", timeout_ns);
    }
}

void sim_copy(void *dst, const void *src, size_t n)
{
    if (n == 0) return;
    Thread &t = self();
    need(dst, "plat_copy");
    need(src, "plat_copy");
    Core &c = *t.core;
    Fabric &f = kernel().fabric();
    bool src_near = f.near(src, c.index), dst_near = f.near(dst, c.index);
    c.acquire(t);
    if (!src_near && !dst_near) {
        // Both ends are remote: the core loads into its registers, then stores.
        if (c.bounce.size() < n) c.bounce.resize(n);
        c.payload(t, OP_NONE, tlm::TLM_READ_COMMAND, src, c.bounce.data(), n);
        c.issue(t);
        c.payload(t, OP_NONE, tlm::TLM_WRITE_COMMAND, dst, c.bounce.data(), n);
    } else if (!src_near) {
        c.payload(t, OP_NONE, tlm::TLM_READ_COMMAND, src, dst, n);
    } else {
        c.payload(t, src_near && dst_near ? OP_COPY : OP_NONE, tlm::TLM_WRITE_COMMAND, dst, src, n);
    }
    c.issue(t);
    c.release(t);
}

void sim_touch(const void *p, size_t n)
{
    if (n == 0) return;
    Thread &t = self();
    need(p, "plat_touch");
    Core &c = *t.core;
    if (c.bounce.size() < n) c.bounce.resize(n);
    c.acquire(t);
    c.payload(t, c.dcache ? OP_STREAM : OP_NONE, tlm::TLM_READ_COMMAND, p, c.bounce.data(), n);
    c.issue(t);
    c.release(t);
}

// ---- allocation (bookkeeping of the software allocator: no simulated time) ----

static bool pow2(size_t a)
{
    return a == 0 || (a & (a - 1)) == 0;
}

void *sim_local_alloc(size_t size, size_t align)
{
    Thread &t = self();
    Memory *m = kernel().local(t.core->index);
    if (!(t.core->caps & PLAT_CAP_LOCAL_MEM) || !m || !pow2(align)) return nullptr;
    return m->alloc(size, align);
}

void sim_local_free(void *p)
{
    if (!p) return;
    Memory *m = kernel().block_of(p);
    if (!m || m == kernel().shared_holding(p) || !m->free(p))
        kernel().misuse("plat_local_free: the pointer is not from plat_local_alloc");
}

void *sim_shared_alloc(size_t size, size_t align)
{
    Thread &t = self();
    Memory *m = kernel().shared_of(t.core->index); // its own core group's, on a NUMA chip
    if (!m || !pow2(align)) return nullptr;
    return m->alloc(size, align);
}

void *sim_mem_alloc(const char *memory, size_t size, size_t align, int *status)
{
    self();
    Memory *m = memory ? kernel().memory(memory) : nullptr;
    void *p = nullptr;
    int st = PLAT_OK;
    if (!memory || !pow2(align))
        st = PLAT_EINVAL;
    else if (!m)
        st = PLAT_ENOENT;
    else if (!(p = m->alloc(size, align)))
        st = PLAT_ENOMEM;
    if (status) *status = st;
    return p;
}

void sim_shared_free(void *p)
{
    if (!p) return;
    Memory *m = kernel().shared_holding(p);
    const unsigned char *start = nullptr;
    size_t len = m ? m->allocation(p, &start) : 0;
    if (!m || !m->free(p))
        kernel().misuse("plat_shared_free: the pointer is not from plat_shared_alloc");
    kernel().clear_home(p, len);
}

void *sim_shared_map(const char *name, size_t size, bool *created, int *status)
{
    self();
    int st = PLAT_OK;
    void *p = nullptr;
    if (created) *created = false;
    if (!name || !size) {
        st = PLAT_EINVAL;
    } else {
        auto it = kernel().regions.find(name);
        if (it != kernel().regions.end()) {
            if (it->second.size != size) {
                st = PLAT_EINVAL;
            } else {
                it->second.refs++;
                p = it->second.p;
            }
        } else if (!kernel().shared() || !(p = kernel().shared()->alloc(size, 64))) {
            st = PLAT_ENOMEM;
        } else {
            kernel().regions[name] = Region{p, size, 1};
            if (created) *created = true;
        }
    }
    if (status) *status = st;
    return p;
}

bool sim_shared_crosses(const char *)
{
    self();
    return false;
}

void sim_shared_unmap(void *p)
{
    if (!p) return;
    for (auto it = kernel().regions.begin(); it != kernel().regions.end(); ++it)
        if (it->second.p == p) {
            if (--it->second.refs == 0) {
                kernel().shared()->free(p);
                kernel().clear_home(p, it->second.size);
                kernel().regions.erase(it);
            }
            return;
        }
    kernel().misuse("plat_shared_unmap: the pointer is not from plat_shared_map");
}

// Bookkeeping only, like the allocators: the interconnect of a platform with
// memory per board asks Kernel::home_of on every access.
int sim_shared_home(const void *p, size_t n, int core)
{
    self();
    if (!p || n == 0 || core < 0 || core >= kernel().cores()) return PLAT_EINVAL;
    Memory *m = kernel().shared_holding(p);
    const unsigned char *start = nullptr;
    size_t len = m ? m->allocation(p, &start) : 0;
    if (len == 0 || n > len - (size_t)((const unsigned char *)p - start)) return PLAT_EINVAL;
    kernel().set_home(p, n, core);
    return PLAT_OK;
}

} // namespace ipcsim
