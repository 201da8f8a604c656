/*
 * models/srio/endpoint.h -- a board's Serial RapidIO endpoint: the ATMU's
 * outbound side, the message unit, the doorbell unit and the inbound side.
 *
 * Outbound (`tsock`, from the board's bus: an access whose address lives on
 * another board), in the thread of the initiator:
 *   write          NWRITE packets of at most max_payload bytes, posted: the
 *                  initiator is done when its last packet has left;
 *   read           NREAD requests; the data comes back in RESPONSEs and the
 *                  initiator waits for the last one;
 *   atomic         one ATOMIC request (8 B operand, CAS 16 B) and its RESPONSE
 *                  with the old value;
 *   doorbell reg   one DOORBELL packet (posted; the target answers);
 *   OP_MSG write   the message unit: the data as messages of at most
 *                  msg_bytes, each in segments of at most max_payload, the
 *                  segments of a message back to back, and the next message
 *                  only after every segment's RESPONSE has come back.
 * A packet takes the board's transmit lane (link.h) from the moment it is
 * built (tx_ps after the access reached the endpoint); the initiator waits
 * for the lane packet by packet, so initiators of one board interleave per
 * packet. The packet goes to the switch (`out`) with its head and tail times.
 *
 * Inbound (`in`, from the switch): packets queue in arrival order; rx_ps
 * after its last byte each goes to the first free of `outstanding` inbound
 * workers (accesses in flight at once: posted writes pipeline through the
 * memory's latency), which performs it on the board's memory through `mem`
 * (the board's bus, FIFO on its DDR channel, so accesses complete in the
 * order they arrived): a write, read or atomic, a
 * doorbell into the inbound doorbell queue (an 8-B entry written to memory)
 * and the core's doorbell register; then the RESPONSE where the type has one
 * (reads, atomics, message segments, doorbells). A RESPONSE arriving here
 * completes its requester's wait.
 */
#ifndef IPCSIM_MODELS_SRIO_ENDPOINT_H
#define IPCSIM_MODELS_SRIO_ENDPOINT_H

#include "bus.h"
#include "link.h"
#include "packet.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <deque>

namespace ipcsim
{

struct SrioEndpointParams {
    SrioFormat format;
    double ps_per_byte = 0; // the link, each direction
    uint64_t tx_ps = 0;     // an access to its first packet on the lane
    uint64_t rx_ps = 0;     // a packet's last byte to its access on memory
    uint64_t msg_bytes = 4096;
    uint64_t msg_ps = 0;      // the message unit's work per message (descriptor)
    bool swrite = false;      // bulk writes as SWRITE instead of NWRITE
    int outstanding = 4;      // inbound accesses on memory at once
    uint64_t head_bytes = 16; // a packet's head (switch.cut_through_bytes)
};

// A requester waiting for `pending` responses.
struct SrioReply {
    int pending = 0;
    uint64_t r = 0; // an atomic's result
    sc_core::sc_event ev;
};

class SrioEndpoint : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<SrioEndpoint> tsock;  // outbound accesses
    tlm_utils::simple_initiator_socket<SrioEndpoint> out; // to the switch
    tlm_utils::simple_target_socket<SrioEndpoint> in;     // from the switch
    tlm_utils::simple_initiator_socket<SrioEndpoint> mem; // inbound accesses, to the bus

    SrioEndpoint(sc_core::sc_module_name name, const SrioBoards &boards, int board,
                 const SrioEndpointParams &p);

  private:
    void outbound(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void inbound(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void serve(); // the inbound process: arrivals to workers
    struct Worker {
        bool busy = false;
        SrioPkt job;
        sc_core::sc_event go;
        tlm::tlm_generic_payload gp;
        OpExt *ext = nullptr;
    };
    void work(Worker &w); // an inbound worker's process

    // Send p (type, dst, payload set) once the lane is free; its tail time.
    uint64_t send(SrioPkt &p, uint64_t ready);
    void wait_reply(SrioReply &r);
    void message(int dst, unsigned char *addr, const unsigned char *data, uint64_t n, int core);
    void access(Worker &w, SrioPkt &p); // an inbound packet's access on this board's memory

    const SrioBoards &boards_;
    const int board_;
    SrioEndpointParams p_;
    SrioLane tx_;
    tlm::tlm_generic_payload out_gp_;
    std::deque<SrioPkt> queue_; // inbound, in arrival order
    sc_core::sc_event arrived_, freed_;
    std::deque<Worker> workers_;
};

} // namespace ipcsim

#endif
