/*
 * models/hwq.h -- a hardware queue manager (like KeyStone QMSS).
 *
 * Numbered FIFO queues of descriptor pointers behind a crossbar port. Each
 * queue has two 8-byte registers: writing the first pushes a descriptor,
 * reading it pops one (0 when empty); reading the second gives the count.
 * Every register access completes after the manager's latency; a push or a
 * pop wakes the threads watching the count register.
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
        double latency_ns);

    unsigned queues() const { return queues_; }
    void *regs() { return regs_.data(); }
    size_t regs_size() const { return regs_.size() * sizeof regs_[0]; }
    void *push_pop_reg(unsigned q) { return &regs_[2 * (size_t)q]; }
    void *count_reg(unsigned q) { return &regs_[2 * (size_t)q + 1]; }

  private:
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);

    Kernel &kernel_;
    unsigned queues_, depth_;
    uint64_t latency_ps_;
    std::vector<uint64_t> regs_;
    std::vector<void *> slots_; // queue q: slots_[q * depth_ ...]
    std::vector<unsigned> head_, count_;
};

} // namespace ipcsim

#endif
