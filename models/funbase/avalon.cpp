// avalon.cpp -- a Nios's data master: its own memories, word requests beyond.
#include "avalon.h"
#include "../core.h"
#include "../memory.h"

#include <algorithm>

using namespace sc_core;

namespace ipcsim
{

Avalon::Avalon(sc_module_name name, Core &core, Hibi &seg, int agent, Memory *local_mem,
               const AvalonParams &p)
    : sc_module(name), tsock("tsock"), local("local"), priv("priv"), db("db"), hibi("hibi"),
      core_(core), seg_(seg), agent_(agent), local_mem_(local_mem), p_(p), ext_(new HibiExt)
{
    gp_.set_extension(ext_);
    tsock.register_b_transport(this, &Avalon::b_transport);
}

Avalon::~Avalon() = default;

void Avalon::b_transport(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    void *at = (void *)(uintptr_t)gp.get_address();
    if (at == &core_.db_reg) {
        db->b_transport(gp, delay);
        return;
    }
    if (seg_.agent_of(at, core_.index) == agent_) {
        // The tile's own memories: bus_bytes a cycle, then the memory's latency.
        uint64_t beats = (gp.get_data_length() + p_.bus_bytes - 1) / p_.bus_bytes;
        const OpExt *x = gp.get_extension<OpExt>();
        if (x && x->op == OP_COPY) beats *= 2; // ldw + stw per word (Nios II: one per cycle)
        delay += ps(seg_.cycles(beats));
        if (local_mem_ && local_mem_->holds(at))
            local->b_transport(gp, delay);
        else
            priv->b_transport(gp, delay);
        return;
    }
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
    far(gp);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

// One word request: a write, or a read whose answer lands at data.
void Avalon::word(int kind, int owner, void *at, unsigned char *data, uint64_t n)
{
    wait(ps(p_.word_ps)); // the driver's register writes
    ext_->reset(kind);
    ext_->dst.agent = owner;
    ext_->dst.addr = at;
    ext_->dst.total = n;
    if (kind == HIBI_READ) {
        ext_->words = 1; // the return address
        ext_->ret.agent = agent_;
        ext_->ret.addr = data;
        ext_->ret.total = n;
    }
    gp_set(gp_, kind == HIBI_READ, at, data, n);
    sc_time d = SC_ZERO_TIME;
    hibi->b_transport(gp_, d);
    if (d != SC_ZERO_TIME) wait(d);
}

void Avalon::far(tlm::tlm_generic_payload &gp)
{
    void *at = (void *)(uintptr_t)gp.get_address();
    unsigned char *data = gp.get_data_ptr();
    uint64_t n = gp.get_data_length();
    OpExt *x = gp.get_extension<OpExt>();
    int owner = seg_.agent_of(at, core_.index);

    if (x && (x->op == OP_CAS || x->op == OP_ADD || x->op == OP_XCHG)) {
        // An exclusive access: the request carries the operands, the answer the old value.
        wait(ps(p_.word_ps));
        ext_->reset(HIBI_READ);
        ext_->dst.agent = owner;
        ext_->dst.addr = at;
        ext_->ret.agent = agent_;
        ext_->op = x->op;
        ext_->a = x->a;
        ext_->b = x->b;
        ext_->words = 1 + seg_.words(2 * sizeof(uint64_t));
        gp_.set_command(tlm::TLM_READ_COMMAND);
        gp_.set_address((uint64_t)(uintptr_t)at);
        gp_.set_data_ptr(data);
        gp_.set_data_length(sizeof(uint64_t));
        gp_.set_streaming_width(sizeof(uint64_t));
        sc_time d = SC_ZERO_TIME;
        hibi->b_transport(gp_, d);
        if (d != SC_ZERO_TIME) wait(d);
        x->r = ext_->r;
        return;
    }
    if (x && x->op != OP_NONE && x->op != OP_COPY) {
        // A device register: the driver sends the whole payload in one burst.
        wait(ps(p_.word_ps));
        HibiExt h;
        h.dst.agent = owner;
        h.dst.addr = at;
        h.dst.total = n;
        gp.set_extension(&h);
        sc_time d = SC_ZERO_TIME;
        hibi->b_transport(gp, d);
        if (d != SC_ZERO_TIME) wait(d);
        gp.clear_extension(&h);
        return;
    }
    int kind = gp.is_read() ? HIBI_READ : HIBI_WRITE;
    const uint64_t w = std::min<uint64_t>(p_.bus_bytes, seg_.word_bytes());
    for (uint64_t off = 0; off < n; off += w)
        word(kind, owner, (unsigned char *)at + off, data + off, std::min(w, n - off));
}

} // namespace ipcsim
