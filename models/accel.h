/*
 * models/accel.h -- a fixed-function accelerator (an MCAPI virtual node).
 *
 * Behind its own crossbar port, whose bandwidth is the block's streaming
 * rate. A job arrives as a write of its input to the job register (the
 * input crosses the crossbar into the block), waits for the block, computes
 * for the block's latency -- the bound software function produces the
 * result -- and the block writes the output to its destination through its
 * own initiator socket. Jobs run one at a time, in arrival order.
 */
#ifndef IPCSIM_MODELS_ACCEL_H
#define IPCSIM_MODELS_ACCEL_H

#include "proto.h"

#include "ipcsim/plat.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <vector>

namespace ipcsim
{

class Kernel;

// One job, owned by the waiting caller.
struct AccelJob {
    AccelJob *next = nullptr;
    int core = -1;
    const void *in = nullptr;
    size_t in_len = 0;
    void *out = nullptr;
    size_t out_len = 0;
    int result = 0;
    bool done = false;
};

class Accel : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<Accel> tsock;
    tlm_utils::simple_initiator_socket<Accel> isock;

    Accel(sc_core::sc_module_name name, Kernel &kernel, double latency_ns);
    ~Accel() override;

    void bind(plat_accel_fn fn, void *ctx)
    {
        fn_ = fn;
        ctx_ = ctx;
    }
    bool bound() const { return fn_ != nullptr; }
    const void *reg() const { return &reg_; }

  private:
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void run();

    Kernel &kernel_;
    uint64_t latency_ps_;
    plat_accel_fn fn_ = nullptr;
    void *ctx_ = nullptr;
    AccelJob *head_ = nullptr, *tail_ = nullptr;
    sc_core::sc_event work_;
    std::vector<unsigned char> out_; // the block's output buffer
    tlm::tlm_generic_payload gp_;
    OpExt *ext_;
    uint64_t reg_ = 0;
};

} // namespace ipcsim

#endif
