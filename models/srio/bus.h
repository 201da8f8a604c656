/*
 * models/srio/bus.h -- a board of the mpc8640_srio platform as its
 * initiators see it: where an address lives, and the board's bus to its
 * own memory.
 *
 * SrioBoards (the platform's Fabric) answers where a byte lives:
 *   - in board k's DDR (plat_shared_alloc of k's core)      -> board k;
 *   - in the named-region memory: the board of the core that
 *     plat_shared_home placed it with (Kernel::home_of), board 0 if none;
 *   - a core's doorbell register                             -> its board;
 *   - anywhere else: private memory (stack, malloc) of the core the access
 *     works for, in its L1/L2 ("near").
 *
 * SrioBus is board b's MPX bus: every initiator of the board (its core, its
 * DMA controller, its SRIO endpoint's inbound side) binds to `tsock`. An
 * access whose address lives on another board goes to the endpoint
 * (`remote`). A local one:
 *   - private memory: the core's cache path (local latency, local
 *     bandwidth: core.local_bandwidth_MBps);
 *   - DDR or region memory of this board: the bus latency, then the DDR
 *     channel for n bytes at memory.bandwidth_MBps, FIFO among the board's
 *     initiators, then the DDR's access latency (the Memory block);
 *   - a doorbell register: the core's `db` target.
 */
#ifndef IPCSIM_MODELS_SRIO_BUS_H
#define IPCSIM_MODELS_SRIO_BUS_H

#include "../fabric.h"
#include "link.h"
#include "packet.h"

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <vector>

namespace ipcsim
{

class Kernel;
class Memory;

class SrioBoards : public sc_core::sc_module, public Fabric
{
  public:
    // Bound to the region memory, never used: every access to it is served
    // through the bus of the board its bytes live on.
    tlm_utils::simple_initiator_socket<SrioBoards> regions;

    enum Where { PRIVATE, MEMORY, DOORBELL };
    SrioBoards(sc_core::sc_module_name name, Kernel &k, int boards)
        : sc_module(name), regions("regions"), kernel_(k), boards_(boards), ddr_((size_t)boards)
    {
    }

    void set_ddr(int board, const Memory *m) { ddr_[(size_t)board] = m; }
    void set_regions(const Memory *m) { regions_ = m; }
    int boards() const { return boards_; }
    // One compute core per board: core i is on board i.
    int board_of_core(int core) const { return core < 0 ? 0 : core; }
    // The board where p lives for an access on behalf of `core`, and what it is.
    int board(const void *p, int core, Where *w) const;

    bool near(const void *p, int core) const override;
    void trace(Vcd &) override {}

  private:
    Kernel &kernel_;
    int boards_;
    std::vector<const Memory *> ddr_;
    const Memory *regions_ = nullptr;
};

struct SrioBusParams {
    uint64_t latency_ps = 0;    // the bus, initiator to memory controller
    double ddr_ps_per_byte = 0; // the DDR channel
    uint64_t local_ps = 0;      // a private (cached) access
    double local_ps_per_byte = 0;
};

class SrioBus : public sc_core::sc_module
{
  public:
    tlm_utils::multi_passthrough_target_socket<SrioBus, 32, tlm::tlm_base_protocol_types, 0,
                                               sc_core::SC_ZERO_OR_MORE_BOUND>
        tsock;
    tlm_utils::simple_initiator_socket<SrioBus> ddr;    // the board's memory (a Memory)
    tlm_utils::simple_initiator_socket<SrioBus> priv;   // private memory (a Memory of 0 bytes)
    tlm_utils::simple_initiator_socket<SrioBus> db;     // the board's core's doorbell
    tlm_utils::simple_initiator_socket<SrioBus> remote; // the board's SRIO endpoint

    SrioBus(sc_core::sc_module_name name, const SrioBoards &boards, int board,
            const SrioBusParams &p);

  private:
    void b_transport(int id, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);

    const SrioBoards &boards_;
    const int board_;
    SrioBusParams p_;
    SrioLane ddr_lane_; // the DDR channel's next free time
};

} // namespace ipcsim

#endif
