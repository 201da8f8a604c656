/*
 * models/memory.h -- a memory target: a core's local memory, the shared
 * memory, or a core's private memory (stack, malloc: any host address that
 * is in no block).
 *
 * A memory with a size owns a zeroed host buffer and serves allocations from
 * it (first fit in address order, so the same calls give the same offsets).
 * Every access completes after the memory's latency: the data moves, and an
 * atomic operation (OpExt) is performed, at the transaction's completion
 * time, then the threads watching the written bytes are woken.
 */
#ifndef IPCSIM_MODELS_MEMORY_H
#define IPCSIM_MODELS_MEMORY_H

#include "proto.h"

#include <tlm_utils/simple_target_socket.h>

#include <map>

namespace ipcsim
{

class Kernel;

// Perform the atomic op (OP_CAS, OP_ADD, OP_XCHG) on the word at `at` now;
// returns the old value and wakes the watchers of a changed word.
uint64_t mem_atomic(Kernel &kernel, int op, void *at, uint64_t a, uint64_t b);

class Memory : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<Memory> tsock;

    // bytes == 0: private memory (no buffer; the address is used as is).
    Memory(sc_core::sc_module_name name, Kernel &kernel, uint64_t bytes, double latency_ns);
    ~Memory() override;

    unsigned char *base() const { return base_; }
    size_t size() const { return size_; }
    bool holds(const void *p) const
    {
        return (const unsigned char *)p >= base_ && (const unsigned char *)p < base_ + size_;
    }

    // Zeroed bytes aligned to `align` (a power of two); NULL when full.
    void *alloc(size_t bytes, size_t align);
    // false if p is not the start of an allocation.
    bool free(void *p);
    // The allocation holding p: its length, its first byte in *start; 0 if p is in none.
    size_t allocation(const void *p, const unsigned char **start) const;

  private:
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);

    Kernel &kernel_;
    unsigned char *base_ = nullptr;
    size_t size_ = 0;
    uint64_t latency_ps_;
    std::map<size_t, size_t> free_; // offset -> length, holes
    std::map<size_t, size_t> used_; // offset -> length, allocations
};

} // namespace ipcsim

#endif
