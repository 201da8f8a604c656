// accel.cpp -- an accelerator: input in, compute for the latency, output out.
#include "accel.h"
#include "kernel.h"

using namespace sc_core;

namespace ipcsim
{

Accel::Accel(sc_module_name name, Kernel &kernel, double latency_ns)
    : sc_module(name), tsock("tsock"), isock("isock"), kernel_(kernel),
      latency_ps_(ns_to_ps(latency_ns, "latency_ns")), ext_(new OpExt)
{
    gp_.set_extension(ext_);
    tsock.register_b_transport(this, &Accel::b_transport);
    SC_HAS_PROCESS(Accel);
    SC_THREAD(run);
}

Accel::~Accel() = default;

// The input has crossed the crossbar: queue the job.
void Accel::b_transport(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
    AccelJob *j = (AccelJob *)gp.get_extension<OpExt>()->p;
    j->next = nullptr;
    if (tail_)
        tail_->next = j;
    else
        head_ = j;
    tail_ = j;
    work_.notify();
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void Accel::run()
{
    for (;;) {
        while (!head_) wait(work_);
        AccelJob *j = head_;
        if (latency_ps_) wait(ps(latency_ps_));
        // The caller waits, so its input is still what was sent.
        out_.resize(j->out_len);
        j->result = fn_ ? fn_(ctx_, j->in, j->in_len, out_.data(), j->out_len) : PLAT_ENOENT;
        if (j->out_len) {
            ext_->reset(OP_NONE);
            ext_->core = j->core;
            gp_set(gp_, false, j->out, out_.data(), j->out_len);
            sc_time delay = SC_ZERO_TIME;
            isock->b_transport(gp_, delay);
            if (delay != SC_ZERO_TIME) wait(delay);
        }
        head_ = j->next;
        if (!head_) tail_ = nullptr;
        j->done = true;
        kernel_.touched(&j->done, sizeof j->done);
    }
}

} // namespace ipcsim
