// memory.cpp -- a memory block: timed accesses, atomics, a first-fit allocator.
#include "memory.h"
#include "kernel.h"

#include <sys/mman.h>

#include <cstring>
#include <new>

using namespace sc_core;

namespace ipcsim
{

Memory::Memory(sc_module_name name, Kernel &kernel, uint64_t bytes, double latency_ns)
    : sc_module(name), tsock("tsock"), kernel_(kernel),
      latency_ps_(ns_to_ps(latency_ns, "latency_ns"))
{
    tsock.register_b_transport(this, &Memory::b_transport);
    if (bytes == 0) return;
    // Anonymous pages: zero, and only touched pages cost host memory.
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    base_ = (unsigned char *)p;
    size_ = bytes;
    free_[0] = bytes;
}

Memory::~Memory()
{
    if (base_) munmap(base_, size_);
}

void *Memory::alloc(size_t bytes, size_t align)
{
    if (bytes == 0) bytes = 1;
    if (align < 16) align = 16;
    for (auto it = free_.begin(); it != free_.end(); ++it) {
        size_t off = it->first, len = it->second;
        uintptr_t b = (uintptr_t)base_;
        size_t start = (size_t)(((b + off + align - 1) & ~(uintptr_t)(align - 1)) - b);
        if (start < off || start - off >= len || len - (start - off) < bytes) continue;
        free_.erase(it);
        if (start > off) free_[off] = start - off;
        if (len - (start - off) > bytes) free_[start + bytes] = len - (start - off) - bytes;
        used_[start] = bytes;
        memset(base_ + start, 0, bytes);
        return base_ + start;
    }
    return nullptr;
}

bool Memory::free(void *p)
{
    if (!holds(p)) return false;
    auto u = used_.find((size_t)((unsigned char *)p - base_));
    if (u == used_.end()) return false;
    size_t off = u->first, len = u->second;
    used_.erase(u);
    auto next = free_.lower_bound(off);
    if (next != free_.end() && next->first == off + len) {
        len += next->second;
        next = free_.erase(next);
    }
    if (next != free_.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == off) {
            prev->second += len;
            return true;
        }
    }
    free_[off] = len;
    return true;
}

size_t Memory::allocation(const void *p, const unsigned char **start) const
{
    if (!holds(p)) return 0;
    size_t off = (size_t)((const unsigned char *)p - base_);
    auto u = used_.upper_bound(off);
    if (u == used_.begin()) return 0;
    --u;
    if (off - u->first >= u->second) return 0;
    *start = base_ + u->first;
    return u->second;
}

uint64_t mem_atomic(Kernel &kernel, int op, void *at, uint64_t a, uint64_t b)
{
    uint64_t old;
    memcpy(&old, at, sizeof old);
    uint64_t v = op == OP_ADD ? old + a : op == OP_XCHG ? a : old;
    if (op == OP_CAS) v = old == a ? b : old;
    if (v != old || op != OP_CAS) {
        memcpy(at, &v, sizeof v);
        kernel.touched(at, sizeof v);
    }
    return old;
}

void Memory::b_transport(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    // Complete now: data and atomics take effect at the completion time.
    sc_time d = delay + ps(latency_ps_);
    if (d != SC_ZERO_TIME) wait(d);
    delay = SC_ZERO_TIME;

    unsigned char *at = (unsigned char *)(uintptr_t)gp.get_address();
    unsigned char *data = gp.get_data_ptr();
    size_t len = gp.get_data_length();
    OpExt *x = gp.get_extension<OpExt>();
    if (x && (x->op == OP_CAS || x->op == OP_ADD || x->op == OP_XCHG)) {
        x->r = mem_atomic(kernel_, x->op, at, x->a, x->b);
    } else if (gp.is_read()) {
        if (len) memcpy(data, at, len);
        kernel_.touched(data, len);
    } else {
        if (len) memcpy(at, data, len);
        kernel_.touched(at, len);
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

} // namespace ipcsim
