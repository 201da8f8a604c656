// pcie.cpp -- the PCIe link: TLPs on two wires, posted writes in order.
#include "pcie.h"

#include <algorithm>
#include <cstring>

using namespace sc_core;

namespace ipcsim
{

Pcie::Pcie(sc_module_name name, const PcieParams &p)
    : sc_module(name), down_in("down_in"), down_out("down_out"), up_in("up_in"), up_out("up_out"),
      p_(p), ps_per_byte_(ps_per_byte(p.lanes * p.lane_MBps, "lanes x lane_MBps")),
      latency_ps_(ns_to_ps(p.latency_ns, "latency_ns"))
{
    down_in.register_b_transport(this, &Pcie::down);
    up_in.register_b_transport(this, &Pcie::up);
    SC_HAS_PROCESS(Pcie);
    SC_THREAD(deliver);
}

Pcie::~Pcie() = default;

uint64_t Pcie::cross(uint64_t &free_at, uint64_t payload)
{
    uint64_t bytes = 0, left = payload;
    do {
        uint64_t k = std::min<uint64_t>(left, p_.max_payload);
        bytes += k + p_.tlp_overhead;
        left -= k;
    } while (left);
    free_at = after_ps(std::max(free_at, now_ps()), bytes_ps(bytes, ps_per_byte_, "a TLP"),
                       "a TLP's end");
    return after_ps(free_at, latency_ps_, "a TLP's arrival");
}

static void wait_until(uint64_t t)
{
    if (t > now_ps()) wait(ps(t - now_ps()));
}

void Pcie::down(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
    PcieExt *x = gp.get_extension<PcieExt>();
    uint64_t n = gp.get_data_length();
    if (x && x->posted) {
        while (queue_.size() >= p_.posted_credits) wait(handed_);
        auto q = std::make_unique<Posted>();
        q->ext = *x;
        q->data.assign(gp.get_data_ptr(), gp.get_data_ptr() + n);
        q->gp.set_command(gp.get_command());
        q->gp.set_address(gp.get_address());
        q->gp.set_data_ptr(q->data.data());
        q->gp.set_data_length((unsigned)n);
        q->gp.set_streaming_width((unsigned)n);
        q->at = cross(down_free_, n);
        queue_.push_back(std::move(q));
        queued_.notify();
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    while (!queue_.empty()) wait(handed_); // reads do not pass posted writes
    bool reads = gp.is_read() || (x && x->kind == PCIE_ATOMIC);
    wait_until(cross(down_free_, reads ? (x && x->kind == PCIE_ATOMIC ? 16 : 0) : n));
    sc_time d = SC_ZERO_TIME;
    down_out->b_transport(gp, d);
    if (d != SC_ZERO_TIME) wait(d);
    wait_until(cross(up_free_, gp.is_read() ? n : (x && x->kind == PCIE_ATOMIC ? 8 : 0)));
}

void Pcie::deliver()
{
    for (;;) {
        while (queue_.empty()) wait(queued_);
        Posted &q = *queue_.front();
        wait_until(q.at);
        q.gp.set_extension(&q.ext);
        sc_time d = SC_ZERO_TIME;
        down_out->b_transport(q.gp, d);
        if (d != SC_ZERO_TIME) wait(d);
        q.gp.clear_extension(&q.ext);
        queue_.pop_front();
        handed_.notify();
    }
}

void Pcie::up(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
    uint64_t n = gp.get_data_length();
    if (gp.is_read()) {
        // The bridge reads PC memory: request up, completion with the data down.
        wait_until(cross(up_free_, 0));
        sc_time d = SC_ZERO_TIME;
        up_out->b_transport(gp, d);
        if (d != SC_ZERO_TIME) wait(d);
        wait_until(cross(down_free_, n));
        return;
    }
    // Writes and interrupts are posted: they arrive after the wire and latency.
    wait_until(cross(up_free_, n));
    sc_time d = SC_ZERO_TIME;
    up_out->b_transport(gp, d);
    if (d != SC_ZERO_TIME) wait(d);
}

} // namespace ipcsim
