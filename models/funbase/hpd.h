/*
 * models/funbase/hpd.h -- the HIBI PE DMA (HPD, formerly N2H2) of a Nios: the Nios's
 * DMA engine and its agent on the HIBI segment.
 *
 * The Nios configures it through Avalon registers (hibi_pe_dma.c):
 *
 *   plat_dma_start / plat_dma_send  HPD_SEND: poll TX done (1 read), then
 *       the four values -- memory address, amount, HIBI address, command --
 *       (4 writes) and TX start (a read-modify-write): 2 reads + 5 writes;
 *   plat_rx_post   HPD_CHAN_CONF after clearing the channel's IRQ: memory
 *                  address, HIBI address, amount, init (5 writes);
 *   plat_rx_take/wait, plat_dma_test/wait  one status read;
 *   plat_rx_cancel one write (the channel's init bit).
 *
 * each costing the core reads x read_ps + writes x write_ps plus the
 * driver's own instructions (core.costs.dma_setup for a send).
 *
 * One transmit is in flight: the engine takes descriptors one at a time in
 * order. A transmit starts tx_start cycles after its start register write;
 * it reads the dual-port RAM (port B) at one bus word per cycle, as fast as
 * the bus, and sends one HIBI transfer of the whole amount (at most
 * 2^amount_bits - 1 words; longer ones are re-armed piece by piece):
 *
 *   - to a receive channel (plat_dma_send): the HIBI address of the
 *     receiver's channel; the engine first claims the channel (waits for
 *     its post);
 *   - to memory (plat_dma_start): the owner of the destination; a block
 *     write to the MEM DMA first asks it for a channel and configures it
 *     (MEM DMA protocol, memdma.h);
 *   - from memory that is not this PE's: a read request to its owner (a MEM
 *     DMA read channel), whose answer streams to the destination.
 *
 * Receive side (the target socket): transfers to a channel land in the
 * posted buffer (the dual-port RAM, port B) rx_cycles after the wrapper,
 * and the last word fills the channel and raises the post's ring_bits on the
 * Nios (the HPD's RX IRQ). Writes to this PE's memory land the same way;
 * read requests for it are answered with a transfer back; MSG_DOORBELL
 * raises the Nios's doorbell.
 */
#ifndef IPCSIM_MODELS_HPD_H
#define IPCSIM_MODELS_HPD_H

#include "../engine.h"
#include "hibi.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace ipcsim
{

class Memory;

struct HpdParams {
    uint64_t read_ps = 0, write_ps = 0; // one Avalon register read / write by the Nios
    uint64_t setup_ps = 0;              // the driver's instructions around HPD_SEND
    unsigned tx_start_cycles = 0;
    unsigned rx_cycles = 0;
    uint64_t max_words = 65535; // the amount register
    int mem_agent = -1;         // the MEM DMA (block protocol)
    unsigned conf_write_words = 3, conf_read_words = 4;
};

class Hpd : public sc_core::sc_module, public Engine
{
  public:
    tlm_utils::simple_initiator_socket<Hpd> hibi_out;
    tlm_utils::simple_target_socket<Hpd> hibi_in;

    Hpd(sc_core::sc_module_name name, Kernel &kernel, Core &core, unsigned channels, Hibi &hibi,
        int agent, const HpdParams &p);
    ~Hpd() override;

    uint64_t reg_ps(RegOp op) override;

  private:
    void run();
    // Move n bytes from src to d on this engine's behalf (push or pull).
    void move(const void *src, HibiDest d, uint64_t n);
    // One transfer from this agent (words 0: from n; ret: a read's return).
    void send(int kind, const HibiDest &d, const void *addr, const void *data, uint64_t n,
              uint64_t words = 0, const HibiDest *ret = nullptr, int msg = MSG_NONE,
              uint64_t a = 0);
    // MEM DMA block protocol: channel request and answer, then configuration.
    void mem_channel(bool read, const void *mem, uint64_t n, const HibiDest *ret);
    void receive(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);

    Hibi &hibi_;
    const int agent_;
    HpdParams p_;
    tlm::tlm_generic_payload gp_;
    HibiExt *ext_;
    sc_core::sc_event claimed_;
    uint32_t bits_ = 0;
};

} // namespace ipcsim

#endif
