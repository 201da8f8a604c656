// hpd.cpp -- the HIBI PE DMA: one transmit at a time, receive channels.
#include "hpd.h"
#include "../core.h"
#include "../memory.h"
#include "../kernel.h"

#include <algorithm>
#include <cstring>

using namespace sc_core;

namespace ipcsim
{

// Register accesses of the driver's sequences (hibi_pe_dma.c, see hpd.h).
enum {
    SEND_READS = 2,  // HPD_TX_DONE poll, TX start read-modify-write
    SEND_WRITES = 5, // memory address, amount, HIBI address, command, start
    POST_WRITES = 5, // clear IRQ, memory address, HIBI address, amount, init
};

Hpd::Hpd(sc_module_name name, Kernel &kernel, Core &core, unsigned channels, Hibi &hibi, int agent,
         const HpdParams &p)
    : sc_module(name), Engine(kernel, core, channels), hibi_out("hibi_out"), hibi_in("hibi_in"),
      hibi_(hibi), agent_(agent), p_(p), ext_(new HibiExt)
{
    gp_.set_extension(ext_);
    hibi_in.register_b_transport(this, &Hpd::receive);
    SC_HAS_PROCESS(Hpd);
    SC_THREAD(run);
}

Hpd::~Hpd() = default;

uint64_t Hpd::reg_ps(RegOp op)
{
    switch (op) {
    case REG_START:
    case REG_SEND:
        return p_.setup_ps + SEND_READS * p_.read_ps + SEND_WRITES * p_.write_ps;
    case REG_POST:
        return POST_WRITES * p_.write_ps;
    case REG_CANCEL:
        return p_.write_ps;
    default: // status, take: one read
        return p_.read_ps;
    }
}

void Hpd::send(int kind, const HibiDest &d, const void *addr, const void *data, uint64_t n,
               uint64_t words, const HibiDest *ret, int msg, uint64_t a)
{
    ext_->reset(kind);
    ext_->dst = d;
    if (ret) ext_->ret = *ret;
    ext_->words = words;
    ext_->msg = msg;
    ext_->a = a;
    gp_set(gp_, kind == HIBI_READ, addr, data, n);
    sc_time delay = SC_ZERO_TIME;
    hibi_out->b_transport(gp_, delay);
    if (delay != SC_ZERO_TIME) wait(delay);
}

void Hpd::mem_channel(bool read, const void *mem, uint64_t n, const HibiDest *ret)
{
    HibiDest m;
    m.agent = p_.mem_agent;
    // Request a channel (one message word: our address); the MEM DMA answers.
    bits_ = (uint32_t)agent_;
    send(HIBI_MSG, m, nullptr, &bits_, sizeof bits_, 1, nullptr, MSG_CHAN_REQ);
    // Configure it; a read channel also gets the return address, and starts.
    send(HIBI_MSG, m, mem, mem, n, read ? p_.conf_read_words : p_.conf_write_words, ret,
         MSG_CHAN_CONF);
}

void Hpd::move(const void *src, HibiDest d, uint64_t n)
{
    const int me = core_.index;
    const uint64_t chunk = p_.max_words * hibi_.word_bytes();
    if (hibi_.agent_of(src, me) == agent_) {
        if (!d.is_chan() && d.agent == agent_) {
            // Both ends in this tile: through the dual-port RAM, one word a cycle.
            wait(ps(hibi_.cycles(hibi_.words(n))));
            hibi_land(kernel_, d, src, n);
            return;
        }
        if (d.agent == p_.mem_agent && hibi_.words(n) > 1) mem_channel(false, d.addr, n, nullptr);
        for (uint64_t off = 0;; off += chunk) {
            uint64_t k = std::min(chunk, n - off);
            HibiDest piece = d;
            piece.off = d.off + off;
            if (!d.is_chan()) piece.addr = (unsigned char *)d.addr + off;
            send(HIBI_WRITE, piece, piece.addr, (const unsigned char *)src + off, k);
            if (off + k >= n) break;
            wait(ps(hibi_.cycles(p_.tx_start_cycles))); // the driver re-arms the engine
        }
        return;
    }
    // Not ours: a read request to the owner, whose answer streams to d.
    int owner = hibi_.agent_of(src, me);
    if (owner == p_.mem_agent) {
        mem_channel(true, src, n, &d);
        return;
    }
    HibiDest o;
    o.agent = owner;
    o.addr = const_cast<void *>(src);
    send(HIBI_READ, o, src, src, n, 1, &d); // one word: the return address
}

void Hpd::run()
{
    const int me = core_.index;
    for (;;) {
        while (!head()) wait(work_);
        DmaDesc *d = head();
        wait(ps(hibi_.cycles(p_.tx_start_cycles)));
        HibiDest to;
        to.total = d->n;
        if (d->flags & DESC_SEND) {
            kernel_.engine(d->to_core).claim(d->chan, claimed_);
            to.agent = hibi_.core_agent(d->to_core);
            to.to_core = d->to_core;
            to.chan = (int)d->chan;
            move(d->src, to, d->n);
            pop();
            done(d);
            continue;
        }
        to.agent = hibi_.agent_of(d->dst, me);
        to.addr = d->dst;
        move(d->src, to, d->n);
        bool ring = d->flags & PLAT_DMA_RING;
        int ring_core = d->ring_core;
        uint32_t bits = d->ring_bits;
        pop();
        done(d);
        if (ring && ring_core == me) {
            core_.raise(bits); // this tile's own interrupt line
        } else if (ring) {
            // A message word to the ring core's agent, which raises its IRQ.
            HibiDest r;
            r.agent = hibi_.core_agent(ring_core);
            bits_ = bits;
            send(HIBI_MSG, r, &kernel_.core(ring_core).db_reg, &bits_, sizeof bits_, 1, nullptr,
                 MSG_DOORBELL, bits);
        }
    }
}

void Hpd::receive(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    wait(delay + ps(hibi_.cycles(p_.rx_cycles)));
    delay = SC_ZERO_TIME;
    HibiExt &x = *gp.get_extension<HibiExt>();
    void *at = (void *)(uintptr_t)gp.get_address();
    uint64_t n = gp.get_data_length();
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    if (x.kind == HIBI_MSG) {
        if (x.msg == MSG_DOORBELL) core_.raise((uint32_t)x.a);
        return;
    }
    if (x.kind == HIBI_WRITE && !x.dst.is_chan() && x.dst.addr == &core_.db_reg) {
        uint32_t bits = 0; // another core's plat_doorbell_ring: a word to the register
        memcpy(&bits, gp.get_data_ptr(), std::min<size_t>(sizeof bits, n));
        core_.raise(bits);
        return;
    }
    if (x.kind == HIBI_WRITE) {
        hibi_land(kernel_, x.dst, gp.get_data_ptr(), n);
        return;
    }
    // A read request for this PE's memory (or an exclusive access): the
    // dual-port RAM answers at once; the answer is a transfer back.
    tlm::tlm_generic_payload r;
    HibiExt rx;
    rx.kind = HIBI_WRITE;
    rx.dst = x.ret;
    r.set_extension(&rx);
    if (x.op) {
        x.r = mem_atomic(kernel_, x.op, at, x.a, x.b);
        rx.kind = HIBI_MSG; // the old value rides back in x.r; only the words are timed
        rx.words = hibi_.words(sizeof x.r);
        gp_set(r, false, nullptr, &x.r, sizeof x.r);
    } else {
        gp_set(r, false, x.ret.addr, at, n);
    }
    sc_time d = SC_ZERO_TIME;
    hibi_out->b_transport(r, d);
    if (d != SC_ZERO_TIME) wait(d);
    r.clear_extension(&rx);
}

} // namespace ipcsim
