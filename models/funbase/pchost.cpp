// pchost.cpp -- the PC: its memory, programmed I/O, and the word/DMA driver.
#include "pchost.h"
#include "../memory.h"
#include "../kernel.h"

#include <algorithm>
#include <cstring>

using namespace sc_core;

namespace ipcsim
{

PcHost::PcHost(sc_module_name name, Kernel &kernel, Core &core, unsigned channels, Hibi &seg,
               Memory *local_mem, const PcHostParams &p)
    : sc_module(name), Engine(kernel, core, channels), tsock("tsock"), local("local"), priv("priv"),
      db("db"), pio("pio"), up("up"), seg_(seg), local_mem_(local_mem), p_(p),
      mem_latency_ps_(ns_to_ps(core.local_latency_ns, "local_latency_ns"))
{
    tsock.register_b_transport(this, &PcHost::b_transport);
    up.register_b_transport(this, &PcHost::from_link);
    drv_.core = &core;
    drv_.id = 0; // the caller's context: no thread switch
    drv_.name = "driver";
    SC_HAS_PROCESS(PcHost);
    SC_THREAD(run);
}

PcHost::~PcHost() = default;

uint64_t PcHost::reg_ps(RegOp op)
{
    switch (op) {
    case REG_START:
    case REG_SEND:
        return core_.dma_setup_ps; // the driver call; its PIO is charged as it happens
    case REG_POST:
        return times_ps(p_.post_writes, p_.ioctl_ps, "post_writes x ioctl");
    case REG_CANCEL:
        return p_.ioctl_ps;
    default: // the status word in PC memory
        return core_.local_ps;
    }
}

bool PcHost::near(const void *p) const
{
    return seg_.agent_of(p, core_.index) == p_.bridge_agent;
}

HibiDest PcHost::dest_of(void *p, uint64_t total) const
{
    HibiDest d;
    d.agent = seg_.agent_of(p, core_.index);
    d.addr = p;
    d.total = total;
    return d;
}

// ---- the single-word driver ---------------------------------------------------------

void PcHost::pio_write(const HibiDest &d, const void *data, uint64_t n)
{
    if (p_.ioctl_ps) wait(ps(p_.ioctl_ps));
    PcieExt x;
    x.kind = PCIE_WRITE;
    x.posted = true;
    x.dst = d;
    pcie_call(pio, x, false, d.addr, data, n);
}

void PcHost::pio_read(const void *at, void *buf, uint64_t n)
{
    if (p_.ioctl_ps) wait(ps(p_.ioctl_ps));
    PcieExt x;
    x.kind = PCIE_READ;
    pcie_call(pio, x, true, at, buf, n);
}

void PcHost::local_copy(void *dst, const void *src, uint64_t n)
{
    wait(ps(mem_latency_ps_ + bytes_ps(n, ps_per_byte(p_.mem_MBps, "mem_MBps"), "a copy")));
    if (n) memmove(dst, src, (size_t)n);
    kernel_.touched(dst, (size_t)n);
}

// ---- the core's accesses ----------------------------------------------------------------

void PcHost::b_transport(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    void *at = (void *)(uintptr_t)gp.get_address();
    unsigned char *data = gp.get_data_ptr();
    uint64_t n = gp.get_data_length();
    if (at == &core_.db_reg) {
        db->b_transport(gp, delay);
        return;
    }
    if (near(at)) {
        delay += ps(bytes_ps(n, ps_per_byte(p_.mem_MBps, "mem_MBps"), "a copy"));
        if (local_mem_ && local_mem_->holds(at))
            local->b_transport(gp, delay);
        else
            priv->b_transport(gp, delay);
        return;
    }
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    OpExt *o = gp.get_extension<OpExt>();
    if (o && (o->op == OP_CAS || o->op == OP_ADD || o->op == OP_XCHG)) {
        if (p_.ioctl_ps) wait(ps(p_.ioctl_ps));
        PcieExt x;
        x.kind = PCIE_ATOMIC;
        x.op = o->op;
        x.a = o->a;
        x.b = o->b;
        uint64_t v = 0;
        pcie_call(pio, x, false, at, &v, sizeof v);
        o->r = x.r;
        return;
    }
    if (o && o->op != OP_NONE && o->op != OP_COPY) {
        // A device job: the input word by word into the bridge, then one burst on.
        uint64_t words = (n + p_.word_bytes - 1) / p_.word_bytes;
        if (p_.ioctl_ps) wait(ps(times_ps(words, p_.ioctl_ps, "words x ioctl")));
        PcieExt x;
        x.kind = PCIE_DEV;
        gp.set_extension(&x);
        sc_time d = SC_ZERO_TIME;
        pio->b_transport(gp, d);
        if (d != SC_ZERO_TIME) wait(d);
        gp.clear_extension(&x);
        return;
    }
    const uint64_t w = p_.word_bytes;
    for (uint64_t off = 0; off < n; off += w) {
        uint64_t k = std::min(w, n - off);
        if (gp.is_read())
            pio_read((unsigned char *)at + off, data + off, k);
        else
            pio_write(dest_of((unsigned char *)at + off, k), data + off, k);
    }
}

// ---- from the bridge: writes into PC memory, reads of it, interrupts -----------------------

void PcHost::from_link(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    PcieExt &x = *gp.get_extension<PcieExt>();
    void *at = (void *)(uintptr_t)gp.get_address();
    unsigned char *data = gp.get_data_ptr();
    uint64_t n = gp.get_data_length();
    if (x.kind == PCIE_MSI) {
        if (x.dst.desc) dma_done(kernel_, x.dst.desc);
        if (x.a) core_.raise((uint32_t)x.a);
        return;
    }
    wait(ps(mem_latency_ps_));
    if (gp.is_read()) {
        if (n) memcpy(data, at, (size_t)n);
        return;
    }
    hibi_land(kernel_, x.dst, data, n);
}

// ---- the driver's engine ---------------------------------------------------------------------

void PcHost::words_out(const HibiDest &base, const void *src, uint64_t n, DmaDesc *d)
{
    const uint64_t w = p_.word_bytes;
    uint64_t off = 0;
    do { // at least one write: an empty transfer still reaches its receiver
        uint64_t k = std::min(w, n - off);
        HibiDest piece = base;
        piece.off = off;
        piece.total = n;
        if (!base.is_chan()) piece.addr = (unsigned char *)base.addr + off;
        piece.desc = off + k >= n ? d : nullptr;
        pio_write(piece, (const unsigned char *)src + off, k);
        off += k;
    } while (off < n);
}

void PcHost::ring(int core, uint32_t bits)
{
    if (core == core_.index) {
        core_.raise(bits);
        return;
    }
    HibiDest r = dest_of(&kernel_.core(core).db_reg, sizeof bits);
    pio_write(r, &bits, sizeof bits);
}

void PcHost::run()
{
    for (;;) {
        while (!head()) wait(work_);
        DmaDesc *d = head();
        pop(); // one at a time: the engine keeps d until it is done
        const bool send = d->flags & DESC_SEND;
        const bool ring_it = d->flags & PLAT_DMA_RING;
        HibiDest to;
        if (send) {
            to.agent = seg_.core_agent(d->to_core);
            to.to_core = d->to_core;
            to.chan = (int)d->chan;
            to.total = d->n;
        } else {
            to = dest_of(d->dst, d->n);
        }
        const bool src_near = near(d->src), dst_near = !send && near(d->dst);

        if (!send && src_near && dst_near) {
            // Inside PC memory: a memcpy by the CPU in both modes.
            core_.acquire(drv_);
            local_copy(d->dst, d->src, d->n);
            int rc = d->ring_core;
            uint32_t bits = d->ring_bits;
            done(d);
            if (ring_it) ring(rc, bits);
            core_.release(drv_);
            continue;
        }
        if (p_.dma) {
            // A descriptor for the bridge: the DMA engine does the rest.
            core_.acquire(drv_);
            if (p_.ioctl_ps) wait(ps(times_ps(p_.desc_writes, p_.ioctl_ps, "desc_writes x ioctl")));
            PcieExt x;
            x.kind = PCIE_DMA;
            x.posted = true;
            x.dst = to;
            x.dst.desc = d;
            x.src = d->src;
            x.n = d->n;
            x.ring_core = ring_it ? d->ring_core : -1;
            x.ring_bits = d->ring_bits;
            uint64_t regs[4] = {(uint64_t)(uintptr_t)d->src, (uint64_t)(uintptr_t)d->dst, d->n,
                                d->flags};
            pcie_call(pio, x, false, nullptr, regs, sizeof regs);
            core_.release(drv_);
            continue;
        }
        // The single-word driver: the CPU moves every word.
        if (send) kernel_.engine(d->to_core).claim(d->chan, claimed_);
        core_.acquire(drv_);
        int rc = d->ring_core;
        uint32_t bits = d->ring_bits;
        if (src_near) {
            words_out(to, d->src, d->n, d); // d is done when the last word lands
        } else {
            // From FPGA memory: a read per word, then the word goes on.
            const uint64_t w = p_.word_bytes;
            tmp_.resize(w);
            uint64_t off = 0;
            do {
                uint64_t k = std::min(w, d->n - off);
                if (k) pio_read((const unsigned char *)d->src + off, tmp_.data(), k);
                if (dst_near) {
                    memcpy((unsigned char *)d->dst + off, tmp_.data(), (size_t)k);
                    kernel_.touched((unsigned char *)d->dst + off, (size_t)k);
                } else {
                    HibiDest piece = to;
                    piece.off = off;
                    if (!send) piece.addr = (unsigned char *)d->dst + off;
                    piece.desc = off + k >= d->n ? d : nullptr; // done when the last lands
                    pio_write(piece, tmp_.data(), k);
                }
                off += k;
            } while (off < d->n);
            if (dst_near) done(d);
        }
        if (ring_it) ring(rc, bits);
        core_.release(drv_);
    }
}

} // namespace ipcsim
