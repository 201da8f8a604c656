/*
 * models/engine.h -- a core's DMA engine as the plat_* glue sees it: a queue
 * of descriptors (plat_dma_start, plat_dma_send) and receive channels
 * (plat_rx_*).
 *
 * Every platform kind gives each core one engine: the generic crossbar
 * engine (dma.h), the HIBI PE DMA of a Nios (hpd.h), the PC's PCIe driver
 * (pchost.h). This base class holds what they share -- the descriptor queue
 * and the state of the receive channels -- and leaves the timing and the
 * moving of bytes to them.
 *
 * Receive channels. A channel holds at most one posted buffer:
 *
 *   FREE --post--> POSTED --a sender claims it--> FILLING --last byte--> FILLED
 *     ^               |                                                    |
 *     +----cancel-----+                                 take ---------------+
 *
 * A sender's engine claims a channel for one transfer; senders waiting for
 * a post are served in the order they asked (deterministic), and a post goes
 * to the first of them at once. Once claimed, a channel can no longer be
 * cancelled (PLAT_EAGAIN: take it when it is full). The transfer lands its
 * bytes (written up to the buffer's cap), then completes it: FILLED with the
 * full length, and the receiving core's doorbell rings with the post's
 * ring_bits -- the engine's interrupt line, inside the receiver's tile.
 */
#ifndef IPCSIM_MODELS_ENGINE_H
#define IPCSIM_MODELS_ENGINE_H

#include "proto.h"

#include <deque>
#include <vector>

namespace ipcsim
{

class Kernel;
class Core;
class Memory;
struct Thread;

class Hwq;

// The layout of a plat_dma record (the caller owns it; the queue links it).
// It must fit plat_dma's 64 bytes, so what only one kind of transfer uses
// shares its bytes with what another uses.
struct DmaDesc {
    DmaDesc *next;
    void *dst; // plat_dma_start
    const void *src;
    uint64_t n;
    union {
        struct {
            int32_t ring_core; // PLAT_DMA_RING
            uint32_t ring_bits;
        };
        Hwq *push_q; // DESC_PUSH: where desc goes once the bytes are written
    };
    void *push_desc;
    uint32_t flags; // PLAT_DMA_RING, DESC_SEND, DESC_PUSH
    int32_t state;  // DMA_QUEUED or DMA_DONE; written only by engines
    union {
        int32_t to_core;     // plat_dma_send: the receiving core and its channel
        int32_t push_status; // DESC_PUSH: the push's status, read once done
    };
    uint32_t chan; // plat_dma_send: the channel; DESC_PUSH: the queue
};
enum { DMA_IDLE = 0, DMA_QUEUED = 1, DMA_DONE = 2 };
// d is complete: DMA_DONE, and the threads watching it wake.
void dma_done(Kernel &kernel, DmaDesc *d);
constexpr uint32_t DESC_SEND = 1u << 31; // a plat_dma_send (not a plat_* flag)
constexpr uint32_t DESC_PUSH = 1u << 30; // a plat_dma_start_push

enum RxState { RX_FREE, RX_POSTED, RX_FILLING, RX_FILLED };

struct RxChan {
    void *buf = nullptr;
    uint64_t cap = 0;
    uint32_t ring = 0;
    int32_t state = RX_FREE;                 // threads waiting for the buffer watch this word
    uint64_t len = 0;                        // the filled transfer's full length
    const void *owner = nullptr;             // the claiming sender's token
    std::deque<sc_core::sc_event *> senders; // waiting for a post, in order
};

// The register sequences a core runs on its engine; their cost is the
// engine's business (reg_ps).
enum RegOp { REG_START, REG_SEND, REG_STATUS, REG_POST, REG_TAKE, REG_CANCEL };
// What op costs core c on a plain engine: a descriptor is its dma_setup
// cost, any other sequence one access to its own memory.
uint64_t core_reg_ps(const Core &c, RegOp op);

class Engine
{
  public:
    Engine(Kernel &kernel, Core &core, unsigned channels);
    virtual ~Engine();

    Core &core() { return core_; }
    unsigned channels() const { return (unsigned)chans_.size(); }
    RxChan &chan(unsigned c) { return chans_[c]; }

    // ---- the glue: in the calling software thread, arguments checked -------
    // Queue d (filled in by the glue) after the core wrote the descriptor.
    virtual void submit(Thread &t, DmaDesc *d);
    // plat_dma_test (deadline now) and plat_dma_wait: one status read, then
    // sleep until d is done or the deadline. PLAT_OK or PLAT_EAGAIN/ETIMEDOUT.
    virtual int status(Thread &t, DmaDesc *d, uint64_t deadline_ps, bool wait);
    virtual int rx_post(Thread &t, unsigned c, void *buf, size_t cap, uint32_t ring);
    // plat_rx_take (wait false) and plat_rx_wait.
    virtual int rx_take(Thread &t, unsigned c, size_t *len, uint64_t deadline_ps, bool wait);
    virtual int rx_cancel(Thread &t, unsigned c);
    // What the register sequence `op` costs the core, in ps.
    virtual uint64_t reg_ps(RegOp op) = 0;
    // Whether the engine completes DESC_PUSH transfers (plat_dma_start_push).
    virtual bool can_push() const { return false; }
    // plat_dma_reach: whether this engine masters the memory at [p, p+n):
    // everything, unless the kind confined it to one memory (the HIBI PE
    // DMA masters only its PE's dual-port RAM).
    bool reach(const void *p, size_t n) const;
    void confine(const Memory *m) { only_ = m; }

    // ---- between engines ---------------------------------------------------------
    // From a sender's engine process: claim channel c for one transfer; returns
    // once c is posted and this sender is first in line. `me` wakes the sender.
    void claim(unsigned c, sc_core::sc_event &me);
    // Bytes [off, off+n) of the claimed transfer arrive in c's buffer (what
    // lies beyond its cap is dropped); wakes watchers of the written bytes.
    void land(unsigned c, uint64_t off, const void *data, uint64_t n);
    // The transfer into c is complete (total bytes long): FILLED, then ring.
    void filled(unsigned c, uint64_t total);
    // A descriptor is complete: DMA_DONE, watchers woken.
    void done(DmaDesc *d);
    // From the engine's process, once a DESC_PUSH transfer's last byte is
    // written: push its descriptor at the queue manager after the manager's
    // push cost, then done(d) with the push's status.
    void push_done(DmaDesc *d);

  protected:
    // Charge the calling thread's core for the register sequence op: by
    // default reg_ps(op) on the engine's core (the only core that calls it);
    // an engine shared by several cores charges the caller's own costs.
    virtual void charge(Thread &t, RegOp op);
    void push(DmaDesc *d); // append, wake the engine's process
    DmaDesc *head() const { return head_; }
    void pop(); // the head leaves the queue (before done(): the caller may reuse it)

    Kernel &kernel_;
    Core &core_;
    sc_core::sc_event work_; // notified on push

  private:
    std::vector<RxChan> chans_;
    DmaDesc *head_ = nullptr, *tail_ = nullptr;
    const Memory *only_ = nullptr;
};

} // namespace ipcsim

#endif
