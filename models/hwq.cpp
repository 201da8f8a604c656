// hwq.cpp -- a queue manager: push, pop and count registers per queue.
#include "hwq.h"
#include "kernel.h"

#include <cstring>

using namespace sc_core;

namespace ipcsim
{

Hwq::Hwq(sc_module_name name, Kernel &kernel, unsigned queues, unsigned depth, double latency_ns)
    : sc_module(name), tsock("tsock"), kernel_(kernel), queues_(queues), depth_(depth),
      latency_ps_(ns_to_ps(latency_ns, "latency_ns")), regs_(2 * (size_t)queues),
      slots_((size_t)queues * depth), head_(queues), count_(queues)
{
    tsock.register_b_transport(this, &Hwq::b_transport);
}

void Hwq::b_transport(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    sc_time d = delay + ps(latency_ps_);
    if (d != SC_ZERO_TIME) wait(d);
    delay = SC_ZERO_TIME;

    size_t off = (size_t)((uintptr_t)gp.get_address() - (uintptr_t)regs_.data());
    unsigned q = (unsigned)(off / 16);
    bool is_count = (off / 8) % 2;
    OpExt *x = gp.get_extension<OpExt>();
    uint64_t v = 0;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    if (is_count) {
        v = count_[q];
    } else if (gp.is_write()) {
        void *desc;
        memcpy(&desc, gp.get_data_ptr(), sizeof desc);
        if (count_[q] == depth_) {
            if (x) x->status = PLAT_ENOMEM;
            return;
        }
        slots_[(size_t)q * depth_ + (head_[q] + count_[q]) % depth_] = desc;
        count_[q]++;
        kernel_.touched(count_reg(q), 8);
        return;
    } else if (count_[q]) {
        v = (uint64_t)(uintptr_t)slots_[(size_t)q * depth_ + head_[q]];
        head_[q] = (head_[q] + 1) % depth_;
        count_[q]--;
        kernel_.touched(count_reg(q), 8);
    }
    memcpy(gp.get_data_ptr(), &v, std::min<size_t>(sizeof v, gp.get_data_length()));
}

} // namespace ipcsim
