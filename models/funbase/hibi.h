/*
 * models/funbase/hibi.h -- a HIBI v3 bus segment (Funbase), event driven per turn.
 *
 * Agents are the wrappers on the segment: a PE DMA per Nios, the MEM DMA,
 * the PCIe bridge, accelerators. Each binds initiator sockets (what it
 * sends) and one target socket (what it receives). Every transaction is a
 * HIBI transfer from the initiator's agent to ext.dst.agent (HibiExt); the
 * payload's address is a host pointer the receiver writes to (or reads
 * from, for a read request), its data pointer the bytes on the wire.
 *
 * Timing, all in cycles of the segment's clock (platform `clock_mhz`), with
 * w = width_bits / 8 bytes per bus word:
 *
 *   - A transfer is one address word then ceil(bytes / w) data words, one
 *     word per cycle, no wait states inside a turn (HIBI datasheet).
 *   - A turn carries at most max_send data words; the rest waits for the
 *     agent's next turn and repeats the address word.
 *   - Arbitration is distributed: the bus is offered to one agent per idle
 *     cycle, in agent order (position 0 first). Round robin continues after
 *     the last owner; priority restarts at position 0 each time the bus is
 *     freed. An agent takes the bus in the cycle it is offered, and its
 *     address word goes arb_cycles later. An agent sends its transfers in
 *     order (one TX FIFO).
 *   - The receiver's wrapper FIFO holds rx_fifo words and its IP drains it
 *     at `drain` words per cycle. An IP at least as fast as the bus never
 *     fills it. A slower one (MEM DMA, PCIe bridge) fills it, and the turn
 *     is cut when it is full; the sender waits for room for an address and
 *     a word, then competes again and re-sends the address.
 *   - A sender whose data comes slower than the bus (a paced transfer: the
 *     MEM DMA reading DDR, the bridge reading PC memory) fills its TX FIFO
 *     (tx_fifo words) first; its turn ends when the FIFO runs dry.
 *   - The receiving IP has the last word rx_cycles after it left the FIFO;
 *     the receiver's target socket is called with that delay.
 *
 * Event driven: one wait per turn, never a wait per cycle.
 */
#ifndef IPCSIM_MODELS_HIBI_H
#define IPCSIM_MODELS_HIBI_H

#include "../fabric.h"
#include "../proto.h"
#include "../vcd.h"

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace ipcsim
{

struct DmaDesc;

// Where a transfer's bytes go: a memory address, or a piece of a message to
// a core's receive channel.
struct HibiDest {
    int agent = -1;
    void *addr = nullptr; // memory writes: where (a host pointer)
    int to_core = -1;     // channel writes: the receiving core and channel
    int chan = -1;
    uint64_t off = 0;        // this piece's offset in the message
    uint64_t total = 0;      // the message's full length
    DmaDesc *desc = nullptr; // completed by whoever lands the last byte (or null)
    bool here = false;       // lands in the receiving agent itself (a read's answer to the
                             // PCIe bridge), not beyond it
    bool is_chan() const { return chan >= 0; }
};

enum HibiKind {
    HIBI_WRITE, // data to dst
    HIBI_READ,  // read request: read len bytes at the payload's address, send them to ret
    HIBI_MSG,   // a message word to the receiving IP (MEM DMA requests, doorbells)
};

// Message words understood by receivers (HIBI_MSG, HibiExt.msg).
enum HibiMsg {
    MSG_NONE,
    MSG_CHAN_REQ, // ask the MEM DMA for a DMA channel; it answers MSG_CHAN_ACK
    MSG_CHAN_ACK,
    MSG_CHAN_CONF, // configure the granted channel (words: 3 write, 4 read)
    MSG_DOORBELL,  // ring the receiving agent's core: a = bits
};

struct HibiExt : tlm::tlm_extension<HibiExt> {
    int kind = HIBI_WRITE;
    int src = -1; // the sending agent (set by the segment)
    int msg = MSG_NONE;
    uint64_t words = 0; // data words on the bus; 0: from the payload's length
    HibiDest dst, ret;  // ret: where a read request's data goes
    int op = 0;         // an atomic (Op of proto.h) performed at the target
    uint64_t a = 0, b = 0, r = 0;
    // Paced senders: the data becomes ready at rate words per cycle from
    // ready_ps on (rate 0: all ready now).
    double rate = 0;
    uint64_t ready_ps = 0;

    void reset(int kind_)
    {
        *this = HibiExt();
        kind = kind_;
    }
    tlm::tlm_extension_base *clone() const override { return new HibiExt(*this); }
    void copy_from(const tlm::tlm_extension_base &o) override
    {
        *this = static_cast<const HibiExt &>(o);
    }
};

struct HibiParams {
    double clock_mhz = 100;
    unsigned width_bits = 32;
    bool priority = false; // else round robin
    unsigned max_send = 0; // data words per turn; 0: unlimited
    unsigned tx_fifo = 5;  // words
    unsigned arb_cycles = 1;
    unsigned rx_cycles = 1;
};

class Kernel;

// Land n bytes of a transfer where d says: a memory address, or a piece of a
// message in a receive channel (the last piece fills the channel). Then the
// sender's descriptor, if d carries one and this was its last byte, is done.
void hibi_land(Kernel &kernel, const HibiDest &d, const void *data, uint64_t n);

class Hibi : public sc_core::sc_module, public Fabric
{
  public:
    tlm_utils::multi_passthrough_target_socket<Hibi, 32, tlm::tlm_base_protocol_types, 0,
                                               sc_core::SC_ZERO_OR_MORE_BOUND>
        tsock; // agents' initiators bind here
    tlm_utils::multi_passthrough_initiator_socket<Hibi, 32, tlm::tlm_base_protocol_types, 0,
                                                  sc_core::SC_ZERO_OR_MORE_BOUND>
        isock; // agents' targets bind here

    Hibi(sc_core::sc_module_name name, const HibiParams &p);

    // An agent at the next arbitration position: its receive FIFO (words)
    // and how fast its IP empties it (words per cycle).
    int add_agent(const std::string &name, unsigned rx_fifo, double drain);
    void set_drain(int agent, double drain) { agents_[(size_t)agent].drain = drain; }
    template <class S> void attach_initiator(S &sock, int agent)
    {
        sock.bind(tsock);
        inits_.push_back({agent});
    }
    template <class S> void attach_target(S &sock, int agent)
    {
        isock.bind(sock);
        agents_[(size_t)agent].target = ntargets_++;
    }
    // The agent that owns [base, base+size) (a memory, a register).
    void map(int agent, const void *base, size_t size);
    // Core `core`'s own agent: its private memory (any pointer in no range).
    void set_core_agent(int core, int agent);
    int core_agent(int core) const { return core_agent_[(size_t)core]; }
    int agent_of(const void *p, int core) const;

    // Sizes and times.
    uint64_t cycle_ps() const { return cycle_ps_; }
    uint64_t cycles(uint64_t n) const { return times_ps(n, cycle_ps_, "cycles of the segment"); }
    unsigned word_bytes() const { return word_; }
    uint64_t words(uint64_t bytes) const { return (bytes + word_ - 1) / word_; }

    bool near(const void *p, int core) const override
    {
        return agent_of(p, core) == core_agent(core);
    }
    void trace(Vcd &vcd) override;

  private:
    struct Agent {
        std::string name;
        int pos = 0;
        int target = -1;
        unsigned rx_fifo = 0;
        double drain = 1;
        double occ = 0; // words in the receive FIFO at occ_at
        uint64_t occ_at = 0;
        uint64_t asked = 0;                      // when it asked for the bus
        sc_core::sc_event *tx_owner = nullptr;   // the initiator sending now
        std::deque<sc_core::sc_event *> tx_wait; // initiators waiting for its TX FIFO
        sc_core::sc_event grant;
    };
    struct Init {
        int agent;
    };
    struct Range {
        uintptr_t base, end;
        int agent;
    };

    void b_transport(int id, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void tx_lock(Agent &a, sc_core::sc_event &me);
    void tx_unlock(Agent &a);
    void acquire(Agent &a);
    void release(Agent &a);
    void arbitrate();
    uint64_t offer(const Agent &a, uint64_t t) const;
    uint64_t align(uint64_t t) const { return (t + cycle_ps_ - 1) / cycle_ps_ * cycle_ps_; }
    double occupancy(Agent &a, uint64_t t);

    HibiParams p_;
    uint64_t cycle_ps_;
    unsigned word_;
    std::deque<Agent> agents_; // deque: events keep their address
    std::vector<Init> inits_;
    std::vector<Range> ranges_; // sorted by base
    std::vector<int> core_agent_;
    int ntargets_ = 0;
    // The bus.
    Agent *owner_ = nullptr;
    uint64_t free_at_ = 0; // freed at (aligned)
    int ptr_ = 0;          // position offered at free_at_
    std::vector<Agent *> waiting_;
    sc_core::sc_event arb_;
    Bit busy_; // traced
};

} // namespace ipcsim

#endif
