// bridge.cpp -- the PCIe-to-HIBI bridge: PIO words, its DMA engine, traffic to the PC.
#include "bridge.h"
#include "../core.h"
#include "../engine.h"
#include "../memory.h"
#include "../kernel.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

using namespace sc_core;

namespace ipcsim
{

Bridge::Bridge(sc_module_name name, Kernel &kernel, Hibi &seg, int agent, const BridgeParams &p)
    : sc_module(name), pcie_in("pcie_in"), up("up"), hibi_out("hibi_out"), hibi_in("hibi_in"),
      kernel_(kernel), seg_(seg), agent_(agent), p_(p)
{
    pcie_in.register_b_transport(this, &Bridge::from_pc);
    hibi_in.register_b_transport(this, &Bridge::from_hibi);
    SC_HAS_PROCESS(Bridge);
    SC_THREAD(run);
}

Bridge::~Bridge() = default;

bool Bridge::for_pc(const HibiDest &d) const
{
    return d.agent == agent_;
}

// ---- the HIBI side ----------------------------------------------------------------

void Bridge::hibi(int kind, const HibiDest &d, const void *addr, const void *data, uint64_t n,
                  uint64_t words, const HibiDest *ret, int op, uint64_t a, uint64_t b, uint64_t *r)
{
    tlm::tlm_generic_payload gp;
    HibiExt x;
    x.kind = kind;
    x.dst = d;
    if (ret) x.ret = *ret;
    x.words = words;
    x.op = op;
    x.a = a;
    x.b = b;
    gp_set(gp, kind == HIBI_READ, addr, data, n);
    gp.set_extension(&x);
    sc_time delay = SC_ZERO_TIME;
    hibi_out->b_transport(gp, delay);
    if (delay != SC_ZERO_TIME) wait(delay);
    gp.clear_extension(&x);
    if (r) *r = x.r;
}

void Bridge::mem_channel(bool read, const void *mem, uint64_t n, const HibiDest *ret)
{
    HibiDest m;
    m.agent = p_.mem_agent;
    word_ = (uint32_t)agent_; // the request carries our HIBI address; the MEM DMA answers
    tlm::tlm_generic_payload gp;
    HibiExt x;
    x.kind = HIBI_MSG;
    x.msg = MSG_CHAN_REQ;
    x.dst = m;
    x.words = 1;
    gp_set(gp, false, nullptr, &word_, sizeof word_);
    gp.set_extension(&x);
    sc_time delay = SC_ZERO_TIME;
    hibi_out->b_transport(gp, delay);
    if (delay != SC_ZERO_TIME) wait(delay);
    x.reset(HIBI_MSG);
    x.msg = MSG_CHAN_CONF;
    x.dst = m;
    if (ret) x.ret = *ret;
    x.words = read ? p_.conf_read_words : p_.conf_write_words;
    gp_set(gp, false, mem, mem, n);
    delay = SC_ZERO_TIME;
    hibi_out->b_transport(gp, delay);
    if (delay != SC_ZERO_TIME) wait(delay);
    gp.clear_extension(&x);
}

void Bridge::hibi_read(const void *at, void *buf, uint64_t n)
{
    HibiDest ret; // the answer lands in the bridge's own buffer
    ret.agent = agent_;
    ret.addr = buf;
    ret.total = n;
    ret.here = true;
    int owner = seg_.agent_of(at, p_.pc_core);
    if (owner == p_.mem_agent && seg_.words(n) > 1) {
        mem_channel(true, at, n, &ret);
        return;
    }
    HibiDest o;
    o.agent = owner;
    o.addr = const_cast<void *>(at);
    hibi(HIBI_READ, o, at, buf, n, 1, &ret); // one word: the return address
}

void Bridge::hibi_write(const HibiDest &d, const void *data, uint64_t n)
{
    if (!d.is_chan() && d.agent == p_.mem_agent && seg_.words(n) > 1)
        mem_channel(false, d.addr, n, nullptr);
    hibi(HIBI_WRITE, d, d.addr, data, n);
}

// ---- the PC side (up the link) -----------------------------------------------------

void Bridge::pc_write(const HibiDest &d, const void *data, uint64_t n)
{
    PcieExt x;
    x.kind = PCIE_WRITE;
    x.posted = true;
    x.dst = d;
    pcie_call(up, x, false, d.addr, data, n);
}

void Bridge::pc_read(const void *at, void *buf, uint64_t n)
{
    PcieExt x;
    x.kind = PCIE_READ;
    pcie_call(up, x, true, at, buf, n);
}

void Bridge::pc_msi(uint32_t bits, DmaDesc *desc)
{
    PcieExt x;
    x.kind = PCIE_MSI;
    x.posted = true;
    x.a = bits;
    x.dst.desc = desc;
    word_ = bits;
    pcie_call(up, x, false, nullptr, &word_, sizeof word_);
}

// ---- programmed I/O from the PC -------------------------------------------------------

void Bridge::from_pc(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    PcieExt *x = gp.get_extension<PcieExt>();
    if (!x) throw std::logic_error("pcie bridge: a transaction without PcieExt");
    void *at = (void *)(uintptr_t)gp.get_address();
    unsigned char *data = gp.get_data_ptr();
    uint64_t n = gp.get_data_length();
    switch (x->kind) {
    case PCIE_WRITE:
        hibi(HIBI_WRITE, x->dst, x->dst.addr, data, n);
        return;
    case PCIE_READ:
        hibi_read(at, data, n);
        return;
    case PCIE_ATOMIC: {
        HibiDest o, ret;
        o.agent = seg_.agent_of(at, p_.pc_core);
        o.addr = at;
        ret.agent = agent_;
        ret.here = true;
        hibi(HIBI_READ, o, at, data, sizeof(uint64_t), 1 + seg_.words(2 * sizeof(uint64_t)), &ret,
             x->op, x->a, x->b, &x->r);
        return;
    }
    case PCIE_DEV: {
        // The job's input as one burst to the device's agent (the payload
        // keeps the core's OpExt, which names the job).
        HibiExt h;
        h.dst.agent = seg_.agent_of(at, p_.pc_core);
        h.dst.addr = at;
        h.dst.total = n;
        gp.set_extension(&h);
        sc_time d = SC_ZERO_TIME;
        hibi_out->b_transport(gp, d);
        if (d != SC_ZERO_TIME) wait(d);
        gp.clear_extension(&h);
        return;
    }
    case PCIE_DMA:
        jobs_.push_back(Job{*x});
        work_.notify();
        return;
    default:
        throw std::logic_error("pcie bridge: unexpected transaction from the PC");
    }
}

// ---- the DMA engine --------------------------------------------------------------------

void Bridge::run()
{
    for (;;) {
        while (jobs_.empty()) wait(work_);
        const PcieExt x = jobs_.front().x;
        if (p_.dma_start_ps) wait(ps(p_.dma_start_ps));
        HibiDest d = x.dst;
        DmaDesc *desc = d.desc;
        d.desc = nullptr; // completed by the message to the PC below
        if (d.is_chan()) kernel_.engine(d.to_core).claim((unsigned)d.chan, claimed_);
        buf_.resize(x.n ? x.n : 1);
        if (seg_.agent_of(x.src, p_.pc_core) == agent_)
            pc_read(x.src, buf_.data(), x.n);
        else
            hibi_read(x.src, buf_.data(), x.n);
        if (for_pc(d))
            pc_write(d, buf_.data(), x.n);
        else
            hibi_write(d, buf_.data(), x.n);
        jobs_.pop_front();
        pc_msi(0, desc);
        if (x.ring_core == p_.pc_core) {
            pc_msi(x.ring_bits, nullptr);
        } else if (x.ring_core >= 0) {
            HibiDest r;
            r.agent = seg_.core_agent(x.ring_core);
            word_ = x.ring_bits;
            tlm::tlm_generic_payload gp;
            HibiExt m;
            m.kind = HIBI_MSG;
            m.msg = MSG_DOORBELL;
            m.dst = r;
            m.words = 1;
            m.a = x.ring_bits;
            gp_set(gp, false, &kernel_.core(x.ring_core).db_reg, &word_, sizeof word_);
            gp.set_extension(&m);
            sc_time delay = SC_ZERO_TIME;
            hibi_out->b_transport(gp, delay);
            if (delay != SC_ZERO_TIME) wait(delay);
            gp.clear_extension(&m);
        }
    }
}

// ---- from the HIBI segment: traffic for the PC ---------------------------------------

void Bridge::from_hibi(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    HibiExt &x = *gp.get_extension<HibiExt>();
    void *at = (void *)(uintptr_t)gp.get_address();
    unsigned char *data = gp.get_data_ptr();
    uint64_t n = gp.get_data_length();
    Core &pc = kernel_.core(p_.pc_core);
    if (x.kind == HIBI_MSG) {
        if (x.msg == MSG_DOORBELL) pc_msi((uint32_t)x.a, nullptr);
        return; // MEM DMA channel grants: the bridge waits for none (in order)
    }
    if (x.kind == HIBI_WRITE) {
        if (x.dst.here) {
            hibi_land(kernel_, x.dst, data, n); // an answer to the bridge's own read
        } else if (!x.dst.is_chan() && x.dst.addr == &pc.db_reg) {
            uint32_t bits = 0;
            memcpy(&bits, data, std::min<size_t>(sizeof bits, n));
            pc_msi(bits, nullptr);
        } else {
            pc_write(x.dst, data, n);
        }
        return;
    }
    // A read request for PC memory (or an exclusive access): up the link.
    tlm::tlm_generic_payload r;
    HibiExt rx;
    std::vector<unsigned char> tmp(n ? n : 1);
    if (x.op) {
        pc_read(at, tmp.data(), sizeof(uint64_t));
        x.r = mem_atomic(kernel_, x.op, at, x.a, x.b);
        rx.kind = HIBI_MSG; // the old value rides back in x.r; only the words are timed
        rx.dst.agent = x.ret.agent;
        rx.words = seg_.words(sizeof x.r);
        gp_set(r, false, nullptr, &x.r, sizeof x.r);
    } else {
        pc_read(at, tmp.data(), n);
        rx.kind = HIBI_WRITE;
        rx.dst = x.ret;
        gp_set(r, false, x.ret.addr, tmp.data(), n);
    }
    r.set_extension(&rx);
    sc_time d = SC_ZERO_TIME;
    hibi_out->b_transport(r, d);
    if (d != SC_ZERO_TIME) wait(d);
    r.clear_extension(&rx);
}

} // namespace ipcsim
