/*
 * models/hwq.h -- a hardware queue manager (like KeyStone QMSS).
 *
 * Numbered FIFO queues of descriptor pointers behind a crossbar port. Each
 * queue has two 8-byte registers: writing the first pushes a descriptor,
 * reading it pops one (0 when empty); reading the second gives the count.
 * A write (push) completes after the manager's push latency, a read (pop or
 * count) after its pop latency: a manager may take pushes and pops through
 * different ports (KeyStone QMSS: pushes on VBUSM, pops on VBUSP, SPRUGR9H
 * 4.1). A push or a pop wakes the threads watching the count register.
 * A DMA engine that completes a transfer by pushing a descriptor
 * (plat_dma_start_push) pushes at the manager itself: push_at().
 */
#ifndef IPCSIM_MODELS_HWQ_H
#define IPCSIM_MODELS_HWQ_H

#include "proto.h"

#include <tlm_utils/simple_target_socket.h>

#include <vector>

namespace ipcsim
{

class Kernel;

class Hwq : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<Hwq> tsock;

    Hwq(sc_core::sc_module_name name, Kernel &kernel, unsigned queues, unsigned depth,
        double push_latency_ns, double pop_latency_ns);

    unsigned queues() const { return queues_; }
    void *regs() { return regs_.data(); }
    size_t regs_size() const { return regs_.size() * sizeof regs_[0]; }
    void *push_pop_reg(unsigned q) { return &regs_[2 * (size_t)q]; }
    void *count_reg(unsigned q) { return &regs_[2 * (size_t)q + 1]; }
    uint64_t push_ps() const { return push_ps_; }
    // A push by a block at the manager (no crossing), after push_ps() of the
    // caller's process: PLAT_OK, or PLAT_ENOMEM when queue q is at its depth.
    int push_at(unsigned q, void *desc);

  private:
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);

    Kernel &kernel_;
    unsigned queues_, depth_;
    uint64_t push_ps_, pop_ps_;
    std::vector<uint64_t> regs_;
    // Queue q's ring, made by its first push: the QMSS's 8192 queues 16384
    // deep would take 1 GiB for the few a run uses.
    std::vector<std::vector<void *>> slots_;
    std::vector<unsigned> head_, count_;
};

} // namespace ipcsim

#endif
