/*
 * models/xbar.h -- the crossbar: routes transactions by address and models
 * contention on its ports.
 *
 * Every block sits behind a port: a core's port carries the core, its DMA
 * engine, its local memory and doorbell; the shared memory and each device
 * have one. A port has two lanes, out of the block and into it, each with
 * the port's bandwidth (full duplex).
 *
 * Decoding: the payload's address is a host pointer; the block registered
 * for the range holding it is the target. A pointer in no range is private
 * memory (stack, malloc) of the core the transaction works for (OpExt.core).
 * The other end of the data is decoded the same way from the data pointer:
 * a core's own loads and stores have their data in the core's private memory
 * (its port); a DMA engine writes from the source block to the destination
 * block (a third-party transfer: the engine's own port is not crossed).
 *
 * Timing of a transfer of n bytes from port S to port D:
 *   - S and D are the same core port: the core's local path, no crossbar:
 *     n at the core's local bandwidth;
 *   - otherwise the transfer holds lane S.out and lane D.in together and
 *     moves n bytes at the slower lane's bandwidth, then the link latency is
 *     added once (the last byte arrives a latency after it left). Lanes are
 *     granted per burst: competing transfers queue per lane and a lane goes
 *     round-robin among the waiting initiators after every burst. Event
 *     driven: an uncontended transfer waits once for all its bytes and is cut
 *     back to the next burst boundary only when a competitor arrives.
 *   An initiator attached `through` its port also holds that port's out
 *   lane for each of its transfers (three lanes, the slowest sets the rate).
 *   A port with a granule (a DRAM controller's burst) charges every transfer
 *   through it its bytes rounded up to whole granules: an 8-byte load holds
 *   the memory's lane for a whole burst. A port with a request time holds
 *   the lanes of every transfer through it at least that long, whatever its
 *   size (the rate is slowed to fit; a transfer longer than that is not
 *   affected): the fixed cost of one request on a memory path. That extra
 *   hold is taken off the link latency (down to 0): an uncontended request
 *   takes as long as before, only the requests queued behind it wait.
 *   Then the target adds its own access time.
 */
#ifndef IPCSIM_MODELS_XBAR_H
#define IPCSIM_MODELS_XBAR_H

#include "fabric.h"
#include "proto.h"
#include "vcd.h"

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace ipcsim
{

class Xbar : public sc_core::sc_module, public Fabric
{
  public:
    tlm_utils::multi_passthrough_target_socket<Xbar, 32, tlm::tlm_base_protocol_types, 0,
                                               sc_core::SC_ZERO_OR_MORE_BOUND>
        tsock; // initiators bind here
    tlm_utils::multi_passthrough_initiator_socket<Xbar, 32, tlm::tlm_base_protocol_types, 0,
                                                  sc_core::SC_ZERO_OR_MORE_BOUND>
        isock; // targets bind here

    Xbar(sc_core::sc_module_name name, double latency_ns, uint64_t burst_bytes);

    // A port of `MBps` per lane. local_MBps > 0 makes it a core tile port:
    // transfers that stay inside it use that bandwidth and skip the crossbar.
    // granule > 0: the block behind it moves whole granules (a DRAM burst):
    // a transfer through the port holds its lanes for its bytes rounded up.
    // request_ns > 0: every transfer through it, whatever its size, holds its
    // lanes at least that long (a memory path's fixed cost per request); the
    // extra hold overlaps the transfer's latency, so alone it is no slower.
    int add_port(const std::string &name, double MBps, double local_MBps = 0, uint64_t granule = 0,
                 double request_ns = 0);
    // Port of core `core` (its private memory).
    void set_core_port(int core, int port);
    int core_port(int core) const { return core_port_[(size_t)core]; }

    // Bind an initiator socket of a block behind `port`, working for `core`
    // (-1: the core is always given in OpExt). own_data: the data of its
    // transactions is in the block itself (a device's buffer), not decoded.
    // through: the initiator's own port is on the path of its third-party
    // transfers (an engine that moves the bytes through itself, the KeyStone
    // PKTDMA): each also holds that port's out lane, so every transfer of the
    // initiators behind it shares the port's bandwidth, and none takes a
    // tile's local path.
    template <class S>
    void attach_initiator(S &sock, int port, int core, bool own_data = false, bool through = false)
    {
        sock.bind(tsock);
        inits_.push_back({port, core, own_data, through, std::make_unique<sc_core::sc_event>()});
    }
    // Bind a target socket behind `port` for [base, base+size); size 0 makes
    // it the private memory of the core whose port this is.
    template <class S> void attach_target(S &sock, int port, const void *base, size_t size)
    {
        isock.bind(sock);
        add_target(port, base, size);
    }

    // The port whose block holds p (private pointers: core's port).
    int port_of(const void *p, int core) const;
    // p lies in a block behind some port (false: a core's private memory).
    bool mapped(const void *p) const { return find((uintptr_t)p) != nullptr; }

    bool near(const void *p, int core) const override
    {
        return port_of(p, core) == core_port(core);
    }
    void trace(Vcd &vcd) override;

  private:
    struct Lane {
        int id = 0;
        double ps_per_byte = 0;
        int owner = -1; // initiator holding it
        int rr = -1;    // last initiator granted (round-robin)
        Bit busy;       // traced
        std::vector<int> waiting;
    };
    struct Port {
        std::string name;
        Lane out, in;
        double local_ps_per_byte = 0; // > 0: a core tile
        uint64_t granule = 0;         // > 0: transfers are whole granules
        uint64_t request_ps = 0;      // > 0: a transfer holds the lanes at least this long
        int priv_target = -1;
    };
    struct Range {
        uintptr_t base, end;
        int target, port;
    };
    struct Init {
        int port, core;
        bool own_data, through;
        std::unique_ptr<sc_core::sc_event> ev; // grants, and contention while it holds lanes
    };

    void add_target(int port, const void *base, size_t size);
    const Range *find(uintptr_t a) const;   // through hit_
    const Range *search(uintptr_t a) const; // the binary search
    void b_transport(int id, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    // via: a third lane the transfer holds (an initiator's own, `through`);
    // min_ps: the least time it holds them (a port's request_ns). Returns
    // how much longer than its bytes' time that made it hold them.
    uint64_t move(int who, Lane &from, Lane &to, uint64_t len, Lane *via, uint64_t min_ps);
    void acquire(Lane &l, int who);
    void release(Lane &l);

    uint64_t latency_ps_;
    uint64_t burst_;
    std::deque<Port> ports_;    // deque: lanes keep their address
    std::vector<Range> ranges_; // sorted by base
    std::vector<Init> inits_;
    std::vector<int> core_port_;
    int ntargets_ = 0;
    mutable const Range *hit_[2] = {nullptr, nullptr}; // the last ranges find() returned
};

} // namespace ipcsim

#endif
