// xbar.cpp -- address decoding and per-burst round-robin arbitration of lanes.
#include "xbar.h"

#include <algorithm>
#include <stdexcept>

using namespace sc_core;

namespace ipcsim
{

Xbar::Xbar(sc_module_name name, double latency_ns, uint64_t burst_bytes)
    : sc_module(name), tsock("tsock"), isock("isock"),
      latency_ps_(ns_to_ps(latency_ns, "latency_ns")), burst_(burst_bytes ? burst_bytes : 1)
{
    tsock.register_b_transport(this, &Xbar::b_transport);
}

int Xbar::add_port(const std::string &name, double MBps, double local_MBps, uint64_t granule,
                   double request_ns)
{
    int id = (int)ports_.size();
    ports_.emplace_back();
    Port &p = ports_.back();
    p.name = name;
    p.out.id = 2 * id;
    p.in.id = 2 * id + 1;
    p.out.ps_per_byte = p.in.ps_per_byte = ps_per_byte(MBps, "a port's bandwidth (MB/s)");
    p.local_ps_per_byte =
        local_MBps > 0 ? ps_per_byte(local_MBps, "a tile's own bandwidth (MB/s)") : 0;
    p.granule = granule;
    p.request_ps = ns_to_ps(request_ns, "a port's time per request (ns)");
    return id;
}

void Xbar::set_core_port(int core, int port)
{
    if ((size_t)core >= core_port_.size()) core_port_.resize((size_t)core + 1, -1);
    core_port_[(size_t)core] = port;
}

void Xbar::add_target(int port, const void *base, size_t size)
{
    int target = ntargets_++;
    if (size == 0) {
        ports_[(size_t)port].priv_target = target;
        return;
    }
    Range r{(uintptr_t)base, (uintptr_t)base + size, target, port};
    auto at = std::lower_bound(ranges_.begin(), ranges_.end(), r,
                               [](const Range &a, const Range &b) { return a.base < b.base; });
    if ((at != ranges_.end() && at->base < r.end) ||
        (at != ranges_.begin() && (at - 1)->end > r.base))
        throw std::logic_error("xbar: overlapping address ranges");
    ranges_.insert(at, r);
    hit_[0] = hit_[1] = nullptr; // the insert moved the ranges
}

const Xbar::Range *Xbar::find(uintptr_t a) const
{
    // A transfer decodes its address and its data pointer, and the next one
    // usually the same two blocks: look in the last two ranges found first.
    for (const Range *r : hit_)
        if (r && a >= r->base && a < r->end) return r;
    const Range *r = search(a);
    if (r) {
        hit_[1] = hit_[0];
        hit_[0] = r;
    }
    return r;
}

const Xbar::Range *Xbar::search(uintptr_t a) const
{
    auto at = std::upper_bound(ranges_.begin(), ranges_.end(), a,
                               [](uintptr_t v, const Range &r) { return v < r.base; });
    if (at == ranges_.begin()) return nullptr;
    --at;
    return a < at->end ? &*at : nullptr;
}

int Xbar::port_of(const void *p, int core) const
{
    const Range *r = find((uintptr_t)p);
    return r ? r->port : core_port_[(size_t)core];
}

void Xbar::b_transport(int id, tlm::tlm_generic_payload &gp, sc_time &delay)
{
    const OpExt *x = gp.get_extension<OpExt>();
    int core = x && x->core >= 0 ? x->core : inits_[(size_t)id].core;
    int dcore = x && x->dcore >= 0 ? x->dcore : core;
    const Range *r = find((uintptr_t)gp.get_address());
    int tport = r ? r->port : core_port_[(size_t)core];
    int target = r ? r->target : ports_[(size_t)tport].priv_target;
    const Init &in = inits_[(size_t)id];
    int oport = in.own_data ? in.port : port_of(gp.get_data_ptr(), dcore);

    if (delay != SC_ZERO_TIME) wait(delay); // the arbitration below happens now
    uint64_t len = gp.get_data_length();
    Port &tp = ports_[(size_t)tport];
    if (tport == oport && tp.local_ps_per_byte > 0 && !in.through) {
        delay = ps(bytes_ps(len, tp.local_ps_per_byte, "a transfer within a tile"));
    } else {
        Port &op = ports_[(size_t)oport];
        uint64_t g = std::max(tp.granule, op.granule);
        if (g > 1 && len % g) len += g - len % g;
        Lane *via = in.through && !in.own_data ? &ports_[(size_t)in.port].out : nullptr;
        uint64_t min_ps = std::max(tp.request_ps, op.request_ps), stretch;
        if (gp.is_read())
            stretch = move(id, tp.out, op.in, len, via, min_ps);
        else
            stretch = move(id, op.out, tp.in, len, via, min_ps);
        // A request's extra hold overlaps its own way to the target: alone,
        // it arrives when it would have (the latency includes its service).
        delay = ps(latency_ps_ - std::min(stretch, latency_ps_));
    }
    isock[target]->b_transport(gp, delay);
}

void Xbar::acquire(Lane &l, int who)
{
    if (l.owner < 0) {
        l.owner = l.rr = who;
        l.busy.set(true);
        return;
    }
    l.waiting.push_back(who);
    inits_[(size_t)l.owner].ev->notify(); // the holder stops at its next burst boundary
    while (l.owner != who) wait(*inits_[(size_t)who].ev);
}

void Xbar::release(Lane &l)
{
    l.owner = -1;
    l.busy.set(false);
    if (l.waiting.empty()) return;
    // Round-robin: the first waiting initiator after the last one granted.
    int n = (int)inits_.size();
    size_t best = 0;
    int best_d = n + 1;
    for (size_t i = 0; i < l.waiting.size(); i++) {
        int d = ((l.waiting[i] - l.rr - 1) % n + n) % n;
        if (d < best_d) best_d = d, best = i;
    }
    int who = l.waiting[best];
    l.waiting.erase(l.waiting.begin() + (long)best);
    l.owner = l.rr = who;
    l.busy.set(true);
    inits_[(size_t)who].ev->notify();
}

uint64_t Xbar::move(int who, Lane &from, Lane &to, uint64_t len, Lane *via, uint64_t min_ps)
{
    // Take lanes in a global order: two transfers never hold one each.
    Lane *l[3] = {&from, &to, via};
    const int k = via ? 3 : 2;
    std::sort(l, l + k, [](const Lane *x, const Lane *y) { return x->id < y->id; });
    double pb = 0;
    for (int i = 0; i < k; i++) pb = std::max(pb, l[i]->ps_per_byte);
    // A request shorter than the port's time per request moves at the rate
    // that takes that long (bursts and all): the rate is unchanged otherwise.
    uint64_t stretch = 0;
    if (min_ps > 0 && len > 0) {
        uint64_t t = bytes_ps(len, pb, "a transfer");
        if (t < min_ps) {
            stretch = min_ps - t;
            pb = (double)min_ps / (double)len;
        }
    }
    sc_event &ev = *inits_[(size_t)who].ev;
    while (len > 0) {
        for (int i = 0; i < k; i++) acquire(*l[i], who);
        uint64_t t0 = now_ps(), n;
        bool alone = true;
        for (int i = 0; i < k; i++) alone = alone && l[i]->waiting.empty();
        if (alone) {
            // Nobody competes: one wait for everything, cut short by a newcomer.
            uint64_t all = bytes_ps(len, pb, "a transfer");
            wait(ps(all), ev);
            uint64_t el = now_ps() - t0;
            if (el >= all) {
                n = len;
            } else {
                // Finish the burst in flight (at least one per grant).
                uint64_t bursts = count_of(std::ceil((double)el / ((double)burst_ * pb)), "bursts");
                n = std::min(len, std::max<uint64_t>(bursts, 1) * burst_);
                uint64_t end = after_ps(t0, bytes_ps(n, pb, "a transfer"), "a transfer's end");
                if (end > now_ps()) wait(ps(end - now_ps()));
            }
        } else {
            n = std::min(len, burst_);
            wait(ps(bytes_ps(n, pb, "a burst")));
        }
        len -= n;
        for (int i = k - 1; i >= 0; i--) release(*l[i]);
    }
    return stretch;
}

void Xbar::trace(Vcd &vcd)
{
    for (Port &p : ports_) {
        p.out.busy.trace(vcd, std::string(name()) + "." + p.name + ".out");
        p.in.busy.trace(vcd, std::string(name()) + "." + p.name + ".in");
    }
}

} // namespace ipcsim
