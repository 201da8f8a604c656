/*
 * models/proto.h -- what travels between the blocks besides the generic
 * payload: the calling core (to decode private pointers) and, for atomics and
 * device registers, the operation and its operands.
 *
 * Addresses in every transaction are host pointers (the memory block that
 * holds a pointer is found by the crossbar). Time is kept in picoseconds, the
 * kernel's resolution, as integers so that runs are bit-for-bit repeatable.
 */
#ifndef IPCSIM_MODELS_PROTO_H
#define IPCSIM_MODELS_PROTO_H

#ifndef SC_INCLUDE_DYNAMIC_PROCESSES
#define SC_INCLUDE_DYNAMIC_PROCESSES // sc_spawn: threads on cores
#endif
#include <systemc>
#include <tlm>

#include "simtime.h"

#include <cmath>
#include <cstdint>

namespace ipcsim
{

// Set gp up for a plain transfer of n bytes: the target's side at addr, the
// initiator's bytes at data (both host pointers).
inline void gp_set(tlm::tlm_generic_payload &gp, bool read, const void *addr, const void *data,
                   uint64_t n)
{
    gp.set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    gp.set_address((uint64_t)(uintptr_t)addr);
    gp.set_data_ptr((unsigned char *)const_cast<void *>(data));
    gp.set_data_length((unsigned)n);
    gp.set_streaming_width((unsigned)n);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

// Operations carried by OpExt. NONE is a plain read or write of the payload.
enum Op {
    OP_NONE,
    OP_CAS,  // a = expected, b = desired; r = old value
    OP_ADD,  // a = delta; r = old value
    OP_XCHG, // a = new value; r = old value
    // hwq registers
    OP_HWQ_PUSH,
    OP_HWQ_POP,
    OP_HWQ_COUNT,
    // mesh registers
    OP_MESH_PUT, // a = direction, b = destination index
    OP_MESH_GET, // a = direction
    // accelerator
    OP_ACCEL_JOB, // p = the job
    // network (streams)
    OP_NET_LISTEN,
    OP_NET_CONNECT,
    OP_NET_ACCEPT,
    OP_NET_PAIR,
    OP_NET_SEND,
    OP_NET_RECV,
    OP_NET_CLOSE,
    OP_NET_POLLER_NEW,
    OP_NET_POLLER_FREE,
    OP_NET_POLLER_ADD,
    OP_NET_POLLER_MOD,
    OP_NET_POLLER_DEL,
    OP_NET_POLLER_WAKE,
    OP_NET_POLL,
    // plat_copy within the core's tile: a plain write of the payload, which a
    // data master that moves every word twice (a load, then a store: a CPU
    // without a copy engine) charges for both
    OP_COPY,
    // plat_dma_send's write into another core's posted receive buffer: a
    // fabric with a message unit (RapidIO) carries it as messages; any
    // other fabric as a plain write
    OP_MSG,
    // plat_touch: a read by the core's loads of data its cache does not hold.
    // Only a data-cache model sees it (it charges a miss per line and sends
    // plain reads on): a core sends it only when its kind put one in front
    // of its `mem` socket (Core::dcache)
    OP_STREAM,
};

// One per initiator, attached to its reused payload once (the payload owns it).
struct OpExt : tlm::tlm_extension<OpExt> {
    int core = -1;  // the core on whose behalf: private pointers are its memory
    int dcore = -1; // the same for the data pointer, if another core's (-1: core)
    int op = OP_NONE;
    uint64_t a = 0, b = 0; // operands
    uint64_t r = 0;        // result
    int status = 0;        // a plat_status
    void *p = nullptr;     // the object an operation works on
    void *q = nullptr;     // a second one
    // On PLAT_EAGAIN from a device: where to watch for a change, and the
    // earliest time (ps) the state changes by itself (0: none).
    const void *watch = nullptr;
    uint64_t next_ps = 0;

    void reset(int op_)
    {
        op = op_;
        dcore = -1;
        a = b = r = 0;
        status = 0;
        p = q = nullptr;
        watch = nullptr;
        next_ps = 0;
    }
    tlm::tlm_extension_base *clone() const override { return new OpExt(*this); }
    void copy_from(const tlm::tlm_extension_base &o) override
    {
        *this = static_cast<const OpExt &>(o);
    }
};

// Times: simtime.h (checked conversions from the platform's numbers).

constexpr uint64_t NEVER = UINT64_MAX; // a deadline that never comes

// now + timeout_ns, saturating to NEVER (PLAT_FOREVER is UINT64_MAX).
inline uint64_t deadline_ps(uint64_t timeout_ns)
{
    if (timeout_ns >= (NEVER - now_ps()) / 1000) return NEVER;
    return now_ps() + timeout_ns * 1000;
}

} // namespace ipcsim

#endif
