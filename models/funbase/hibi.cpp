// hibi.cpp -- the HIBI segment: turns, distributed arbitration, FIFOs.
#include "hibi.h"
#include "../engine.h"
#include "../kernel.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

using namespace sc_core;

namespace ipcsim
{

Hibi::Hibi(sc_module_name name, const HibiParams &p)
    : sc_module(name), tsock("tsock"), isock("isock"), p_(p),
      cycle_ps_(ns_to_ps(1e3 / p.clock_mhz, "one cycle (1000 / clock_mhz)")),
      word_(p.width_bits / 8)
{
    if (word_ == 0 || p.width_bits % 8) throw std::runtime_error("hibi: width_bits is not bytes");
    tsock.register_b_transport(this, &Hibi::b_transport);
    SC_HAS_PROCESS(Hibi);
    SC_METHOD(arbitrate);
    sensitive << arb_;
    dont_initialize();
}

int Hibi::add_agent(const std::string &name, unsigned rx_fifo, double drain)
{
    int id = (int)agents_.size();
    agents_.emplace_back();
    Agent &a = agents_.back();
    a.name = name;
    a.pos = id;
    a.rx_fifo = rx_fifo;
    a.drain = drain;
    return id;
}

void Hibi::map(int agent, const void *base, size_t size)
{
    Range r{(uintptr_t)base, (uintptr_t)base + size, agent};
    auto at = std::lower_bound(ranges_.begin(), ranges_.end(), r,
                               [](const Range &x, const Range &y) { return x.base < y.base; });
    if ((at != ranges_.end() && at->base < r.end) ||
        (at != ranges_.begin() && (at - 1)->end > r.base))
        throw std::logic_error("hibi: overlapping address ranges");
    ranges_.insert(at, r);
}

void Hibi::set_core_agent(int core, int agent)
{
    if ((size_t)core >= core_agent_.size()) core_agent_.resize((size_t)core + 1, -1);
    core_agent_[(size_t)core] = agent;
}

int Hibi::agent_of(const void *p, int core) const
{
    uintptr_t a = (uintptr_t)p;
    auto at = std::upper_bound(ranges_.begin(), ranges_.end(), a,
                               [](uintptr_t v, const Range &r) { return v < r.base; });
    if (at != ranges_.begin() && a < (at - 1)->end) return (at - 1)->agent;
    return core_agent_[(size_t)core];
}

// ---- the sender's TX FIFO: its transfers go in order ----------------------------

void Hibi::tx_lock(Agent &a, sc_event &me)
{
    if (!a.tx_owner) {
        a.tx_owner = &me;
        return;
    }
    a.tx_wait.push_back(&me);
    while (a.tx_owner != &me) wait(me);
}

void Hibi::tx_unlock(Agent &a)
{
    a.tx_owner = nullptr;
    if (a.tx_wait.empty()) return;
    a.tx_owner = a.tx_wait.front();
    a.tx_wait.pop_front();
    a.tx_owner->notify();
}

// ---- arbitration -------------------------------------------------------------------

// The first cycle at or after t (aligned) in which the bus is offered to a.
uint64_t Hibi::offer(const Agent &a, uint64_t t) const
{
    uint64_t n = agents_.size();
    uint64_t k = (t - free_at_) / cycle_ps_;
    uint64_t at = ((uint64_t)ptr_ + k) % n;
    uint64_t d = ((uint64_t)a.pos + n - at) % n;
    return t + d * cycle_ps_;
}

void Hibi::acquire(Agent &a)
{
    a.asked = align(now_ps());
    waiting_.push_back(&a);
    arb_.notify(SC_ZERO_TIME);
    while (owner_ != &a) wait(a.grant);
    busy_.set(true);
    if (p_.arb_cycles) wait(ps(cycles(p_.arb_cycles)));
}

void Hibi::release(Agent &a)
{
    owner_ = nullptr;
    busy_.set(false);
    free_at_ = align(now_ps());
    ptr_ = p_.priority ? 0 : (a.pos + 1) % (int)agents_.size();
    arb_.notify(SC_ZERO_TIME);
}

void Hibi::arbitrate()
{
    if (owner_ || waiting_.empty()) return;
    uint64_t now = now_ps(), t0 = std::max(align(now), free_at_);
    uint64_t best_t = NEVER;
    size_t best = 0;
    for (size_t i = 0; i < waiting_.size(); i++) {
        uint64_t t = offer(*waiting_[i], std::max(t0, waiting_[i]->asked));
        if (t < best_t) best_t = t, best = i;
    }
    if (best_t > now) {
        arb_.notify(ps(best_t - now));
        return;
    }
    owner_ = waiting_[best];
    waiting_.erase(waiting_.begin() + (long)best);
    owner_->grant.notify();
}

// ---- receive FIFOs -------------------------------------------------------------------

double Hibi::occupancy(Agent &a, uint64_t t)
{
    if (a.drain >= 1) return 0;
    if (t > a.occ_at) {
        a.occ = std::max(0.0, a.occ - (double)(t - a.occ_at) / (double)cycle_ps_ * a.drain);
        a.occ_at = t;
    }
    return a.occ;
}

// ---- a transfer ------------------------------------------------------------------------

void Hibi::b_transport(int id, tlm::tlm_generic_payload &gp, sc_time &delay)
{
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
    // A plain TLM write (an accelerator's output): to the owner of the address.
    HibiExt plain;
    HibiExt *x = gp.get_extension<HibiExt>();
    if (!x && gp.is_write()) {
        const OpExt *o = gp.get_extension<OpExt>();
        void *at = (void *)(uintptr_t)gp.get_address();
        plain.dst.agent = agent_of(at, o && o->core >= 0 ? o->core : 0);
        plain.dst.addr = at;
        plain.dst.total = gp.get_data_length();
        gp.set_extension(&plain);
        x = &plain;
    }
    if (!x || x->dst.agent < 0 || x->dst.agent >= (int)agents_.size())
        throw std::logic_error("hibi: a transfer without a destination agent");
    Agent &S = agents_[(size_t)inits_[(size_t)id].agent];
    Agent &D = agents_[(size_t)x->dst.agent];
    x->src = S.pos;
    const uint64_t words = x->words ? x->words : this->words(gp.get_data_length());
    const bool paced = x->rate > 0 && x->rate < 1;
    const bool slow_rx = D.drain < 1;
    // Words of a paced sender ready by time t.
    auto ready = [&](uint64_t t) -> uint64_t {
        if (t <= x->ready_ps) return 0;
        double w = std::floor((double)(t - x->ready_ps) / (double)cycle_ps_ * x->rate);
        return (uint64_t)std::min(w, (double)words); // compared first: w may pass 2^64
    };

    sc_event me; // one per call: two processes may share an agent (its DMA, its core)
    tx_lock(S, me);
    if (!paced && x->ready_ps > now_ps()) wait(ps(x->ready_ps - now_ps())); // data not there yet
    uint64_t sent = 0;
    do {
        uint64_t left = words - sent;
        if (paced && left) {
            // Fill the TX FIFO first (or have all that is left).
            uint64_t need = sent + std::min<uint64_t>(left, p_.tx_fifo);
            uint64_t t = x->ready_ps + cycles(count_of(std::ceil((double)need / x->rate),
                                                       "cycles of a paced sender"));
            if (t > now_ps()) wait(ps(t - now_ps()));
        }
        if (slow_rx) {
            // Room for an address and a word at the receiver.
            double over = occupancy(D, now_ps()) - ((double)D.rx_fifo - 2);
            if (over > 0)
                wait(ps(cycles(count_of(std::ceil(over / D.drain), "cycles of a full FIFO"))));
        }
        acquire(S);
        uint64_t ts = now_ps();
        uint64_t k = left;
        if (p_.max_send) k = std::min<uint64_t>(k, p_.max_send);
        if (paced && k) {
            // The FIFO runs dry: it held a0 words and gains `rate` per cycle.
            double a0 = (double)(ready(ts) - sent);
            k = std::min<uint64_t>(
                k, std::max<uint64_t>(1, count_of(a0 / (1 - x->rate), "words of a turn")));
        }
        if (slow_rx && k) {
            // The turn's words, address included, fill the FIFO at 1 - drain per cycle.
            double room = (double)D.rx_fifo - occupancy(D, ts);
            uint64_t fit = count_of(std::floor(room / (1 - D.drain)), "words of a turn");
            k = std::min<uint64_t>(k, std::max<uint64_t>(fit, 2) - 1);
        }
        uint64_t turn = 1 + k;
        wait(ps(cycles(turn)));
        if (slow_rx) {
            occupancy(D, ts);
            D.occ += (double)turn * (1 - D.drain);
            D.occ_at = now_ps();
        }
        release(S);
        sent += k;
    } while (sent < words);
    tx_unlock(S);

    // The receiving IP has the last word once the FIFO ahead of it drained.
    uint64_t rest = 0;
    if (slow_rx)
        rest = cycles(count_of(std::ceil(occupancy(D, now_ps()) / D.drain), "cycles to drain"));
    delay = ps(rest + cycles(p_.rx_cycles));
    isock[D.target]->b_transport(gp, delay);
    if (x == &plain) gp.clear_extension(&plain);
}

void hibi_land(Kernel &kernel, const HibiDest &d, const void *data, uint64_t n)
{
    if (d.is_chan()) {
        Engine &e = kernel.engine(d.to_core);
        e.land((unsigned)d.chan, d.off, data, n);
        if (d.off + n >= d.total) e.filled((unsigned)d.chan, d.total);
    } else if (n) {
        memcpy(d.addr, data, (size_t)n);
        kernel.touched(d.addr, (size_t)n);
    }
    if (d.desc && d.off + n >= d.total) dma_done(kernel, d.desc);
}

void Hibi::trace(Vcd &vcd)
{
    busy_.trace(vcd, std::string(name()) + ".bus");
}

} // namespace ipcsim
