// memdma.cpp -- the MEM DMA: direct words, DMA channels, DDR behind.
#include "memdma.h"
#include "../engine.h"
#include "../kernel.h"

using namespace sc_core;

namespace ipcsim
{

MemDma::MemDma(sc_module_name name, Kernel &kernel, Hibi &seg, int agent, const MemDmaParams &p)
    : sc_module(name), hibi_in("hibi_in"), hibi_out("hibi_out"), mem("mem"), kernel_(kernel),
      seg_(seg), agent_(agent), p_(p)
{
    hibi_in.register_b_transport(this, &MemDma::receive);
}

MemDma::~MemDma() = default;

// Send r (its extension rx attached) from this agent.
void MemDma::reply(tlm::tlm_generic_payload &r, HibiExt &rx)
{
    r.set_extension(&rx);
    sc_time d = SC_ZERO_TIME;
    hibi_out->b_transport(r, d);
    if (d != SC_ZERO_TIME) wait(d);
    r.clear_extension(&rx);
}

void MemDma::receive(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    wait(delay);
    delay = SC_ZERO_TIME;
    HibiExt &x = *gp.get_extension<HibiExt>();
    void *at = (void *)(uintptr_t)gp.get_address();
    uint64_t n = gp.get_data_length();
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    tlm::tlm_generic_payload r;
    HibiExt rx;

    if (x.kind == HIBI_WRITE) {
        // The data has drained into the memory (the agent's drain rate).
        tlm::tlm_generic_payload w;
        gp_set(w, false, at, gp.get_data_ptr(), n);
        sc_time d = SC_ZERO_TIME;
        mem->b_transport(w, d);
        if (d != SC_ZERO_TIME) wait(d);
        if (x.dst.desc && x.dst.off + n >= x.dst.total) dma_done(kernel_, x.dst.desc);
        return;
    }
    if (x.kind == HIBI_READ) {
        // A direct read or an exclusive access: answered after the memory's latency.
        wait(ps(seg_.cycles(p_.read_latency_cycles)));
        if (x.op) {
            OpExt o;
            o.reset(x.op);
            o.a = x.a;
            o.b = x.b;
            uint64_t v = 0;
            tlm::tlm_generic_payload a;
            gp_set(a, false, at, &v, sizeof v);
            a.set_extension(&o);
            sc_time d = SC_ZERO_TIME;
            mem->b_transport(a, d);
            a.clear_extension(&o);
            x.r = o.r;
            rx.kind = HIBI_MSG; // the old value rides back in x.r; the words are timed
            rx.words = seg_.words(sizeof x.r);
            rx.dst.agent = x.ret.agent;
            gp_set(r, false, nullptr, &x.r, sizeof x.r);
        } else {
            rx.dst = x.ret;
            gp_set(r, false, x.ret.addr, at, n);
            if (seg_.words(n) > 1) {
                rx.rate = p_.read_rate; // longer than a word: as the memory delivers
                rx.ready_ps = now_ps();
            }
        }
        reply(r, rx);
        return;
    }
    // Messages: the DMA channel protocol.
    wait(ps(seg_.cycles(p_.cmd_cycles)));
    if (x.msg == MSG_CHAN_REQ) {
        rx.kind = HIBI_MSG;
        rx.msg = MSG_CHAN_ACK;
        rx.words = 1;
        rx.dst.agent = x.src;
        gp_set(r, false, nullptr, &ack_, sizeof ack_);
        reply(r, rx);
    } else if (x.msg == MSG_CHAN_CONF && x.ret.agent >= 0) {
        // A read channel: the block streams back from read_latency on.
        rx.kind = HIBI_WRITE;
        rx.dst = x.ret;
        rx.rate = p_.read_rate;
        rx.ready_ps = after_ps(now_ps(), seg_.cycles(p_.read_latency_cycles), "a read's data");
        gp_set(r, false, x.ret.addr, at, n);
        reply(r, rx);
    }
}

} // namespace ipcsim
