// hwq.cpp -- a queue manager: push, pop and count registers per queue.
#include "hwq.h"
#include "kernel.h"

#include <cstring>

using namespace sc_core;

namespace ipcsim
{

Hwq::Hwq(sc_module_name name, Kernel &kernel, unsigned queues, unsigned depth,
         double push_latency_ns, double pop_latency_ns)
    : sc_module(name), tsock("tsock"), kernel_(kernel), queues_(queues), depth_(depth),
      push_ps_(ns_to_ps(push_latency_ns, "push_latency_ns")),
      pop_ps_(ns_to_ps(pop_latency_ns, "pop_latency_ns")), regs_(2 * (size_t)queues),
      slots_(queues), head_(queues), count_(queues)
{
    tsock.register_b_transport(this, &Hwq::b_transport);
}

int Hwq::push_at(unsigned q, void *desc)
{
    if (count_[q] == depth_) return PLAT_ENOMEM;
    if (slots_[q].empty()) slots_[q].resize(depth_);
    slots_[q][(head_[q] + count_[q]) % depth_] = desc;
    count_[q]++;
    kernel_.touched(count_reg(q), 8);
    return PLAT_OK;
}

void Hwq::b_transport(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    sc_time d = delay + ps(gp.is_write() ? push_ps_ : pop_ps_);
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
        int st = push_at(q, desc);
        if (x && st != PLAT_OK) x->status = st;
        return;
    } else if (count_[q]) {
        v = (uint64_t)(uintptr_t)slots_[q][head_[q]];
        head_[q] = (head_[q] + 1) % depth_;
        count_[q]--;
        kernel_.touched(count_reg(q), 8);
    }
    memcpy(gp.get_data_ptr(), &v, std::min<size_t>(sizeof v, gp.get_data_length()));
}

} // namespace ipcsim
