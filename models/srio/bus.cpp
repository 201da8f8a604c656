// bus.cpp -- where a byte lives on the boards, and a board's bus to its memory.
#include "bus.h"

#include "../core.h"
#include "../kernel.h"
#include "../memory.h"

using namespace sc_core;

namespace ipcsim
{

int SrioBoards::board(const void *p, int core, Where *w) const
{
    *w = MEMORY;
    for (int b = 0; b < boards_; b++)
        if (ddr_[(size_t)b] && ddr_[(size_t)b]->holds(p)) return b;
    if (regions_ && regions_->holds(p)) {
        int c = kernel_.home_of(p);
        return c < 0 ? 0 : board_of_core(c);
    }
    for (int c = 0; c < kernel_.cores(); c++)
        if (p == &kernel_.core(c).db_reg) {
            *w = DOORBELL;
            return board_of_core(c);
        }
    *w = PRIVATE;
    return board_of_core(core);
}

bool SrioBoards::near(const void *p, int core) const
{
    Where w;
    board(p, core, &w);
    return w == PRIVATE;
}

SrioBus::SrioBus(sc_module_name name, const SrioBoards &boards, int board, const SrioBusParams &p)
    : sc_module(name), tsock("tsock"), ddr("ddr"), priv("priv"), db("db"), remote("remote"),
      boards_(boards), board_(board), p_(p)
{
    ddr_lane_.ps_per_byte = p.ddr_ps_per_byte;
    tsock.register_b_transport(this, &SrioBus::b_transport);
}

void SrioBus::b_transport(int, tlm::tlm_generic_payload &gp, sc_time &delay)
{
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
    OpExt *x = gp.get_extension<OpExt>();
    SrioBoards::Where w;
    int at = boards_.board((const void *)(uintptr_t)gp.get_address(), x ? x->core : -1, &w);
    if (at != board_) {
        remote->b_transport(gp, delay);
        return;
    }
    // Each path's time goes to the target as the annotated delay: the
    // Memory (or the core's register) waits once for it and its own latency.
    const uint64_t n = gp.get_data_length();
    if (w == SrioBoards::DOORBELL) {
        delay = ps(p_.latency_ps);
        db->b_transport(gp, delay);
    } else if (w == SrioBoards::PRIVATE) {
        delay = ps(p_.local_ps + (uint64_t)std::llround((double)n * p_.local_ps_per_byte));
        priv->b_transport(gp, delay);
    } else {
        // The DDR channel: FIFO among the board's initiators.
        ddr_lane_.take(now_ps() + p_.latency_ps, n ? n : 8);
        delay = ps(ddr_lane_.free_ps - now_ps());
        ddr->b_transport(gp, delay);
    }
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
}

} // namespace ipcsim
