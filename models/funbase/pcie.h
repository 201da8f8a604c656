/*
 * models/funbase/pcie.h -- the PCIe link between the PC and the FPGA board.
 *
 * Two directions, each a wire that carries one TLP after the other: a TLP
 * of p payload bytes occupies it for (p + tlp_overhead) / (lanes x
 * lane_MBps) (framing, sequence number, header, LCRC: Intel AN 456), and
 * arrives latency_ns after it left (root complex, hard IP, application
 * layer). Payloads longer than max_payload go as several TLPs.
 *
 *   down_in -> down_out   from the PC's host bridge to the FPGA's endpoint
 *                         (the PCIe-to-HIBI bridge): programmed I/O.
 *   up_in   -> up_out     from the bridge to the PC: its DMA writes and
 *                         reads of PC memory, interrupts (MSI).
 *
 * Posted writes (PcieExt.posted) return to the sender at once: the TLP is
 * queued (at most posted_credits outstanding; more wait for a credit) and
 * the link's process hands it to the endpoint when it arrives, in order.
 * A non-posted request (a read) waits until the posted writes before it
 * were handed over (PCIe ordering), crosses as a header-only TLP, is served
 * by the endpoint, and its completion crosses back with the data.
 */
#ifndef IPCSIM_MODELS_PCIE_H
#define IPCSIM_MODELS_PCIE_H

#include "hibi.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <deque>
#include <memory>
#include <vector>

namespace ipcsim
{

// What a PCIe transaction is, besides its payload.
enum PcieKind {
    PCIE_WRITE,  // PC -> bridge: a word for the FPGA side (dst); bridge -> PC: bytes for dst
    PCIE_READ,   // PC -> bridge: a word of FPGA memory; bridge -> PC: a read of PC memory
    PCIE_ATOMIC, // PC -> bridge: an exclusive access to FPGA memory (op, a, b -> r)
    PCIE_DEV,    // PC -> bridge: a device job (the payload carries the core's OpExt)
    PCIE_DMA,    // PC -> bridge: a descriptor for the bridge's DMA engine (src, dst, n)
    PCIE_MSI,    // bridge -> PC: an interrupt (doorbell bits a) or a DMA completion (desc)
};

struct PcieExt : tlm::tlm_extension<PcieExt> {
    int kind = PCIE_WRITE;
    bool posted = false;
    HibiDest dst;              // where the bytes go (dst.desc: completed by the last byte)
    const void *src = nullptr; // PCIE_DMA: the source
    uint64_t n = 0;
    int ring_core = -1; // PCIE_DMA: ring this core with ring_bits when done
    uint32_t ring_bits = 0;
    int op = 0;
    uint64_t a = 0, b = 0, r = 0;

    void reset(int kind_)
    {
        *this = PcieExt();
        kind = kind_;
    }
    tlm::tlm_extension_base *clone() const override { return new PcieExt(*this); }
    void copy_from(const tlm::tlm_extension_base &o) override
    {
        *this = static_cast<const PcieExt &>(o);
    }
};

// One PCIe transaction x through initiator socket s, from an SC_THREAD:
// a payload of n bytes (the far side at addr, ours at data), then the
// delay the link returns.
template <class Socket>
void pcie_call(Socket &s, PcieExt &x, bool read, const void *addr, const void *data, uint64_t n)
{
    tlm::tlm_generic_payload gp;
    gp_set(gp, read, addr, data, n);
    gp.set_extension(&x);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    s->b_transport(gp, delay);
    if (delay != sc_core::SC_ZERO_TIME) sc_core::wait(delay);
    gp.clear_extension(&x);
}

struct PcieParams {
    unsigned lanes = 8;
    double lane_MBps = 250;
    unsigned tlp_overhead = 20;
    unsigned max_payload = 128;
    double latency_ns = 0;
    unsigned posted_credits = 16;
};

class Pcie : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<Pcie> down_in;
    tlm_utils::simple_initiator_socket<Pcie> down_out;
    tlm_utils::simple_target_socket<Pcie> up_in;
    tlm_utils::simple_initiator_socket<Pcie> up_out;

    Pcie(sc_core::sc_module_name name, const PcieParams &p);
    ~Pcie() override;

  private:
    struct Posted {
        tlm::tlm_generic_payload gp;
        PcieExt ext;
        std::vector<unsigned char> data;
        uint64_t at = 0; // arrival
    };
    // Send p payload bytes on a direction free from free_at; the arrival time.
    uint64_t cross(uint64_t &free_at, uint64_t payload);
    void down(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void up(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void deliver();

    PcieParams p_;
    double ps_per_byte_;
    uint64_t latency_ps_;
    uint64_t down_free_ = 0, up_free_ = 0;
    std::deque<std::unique_ptr<Posted>> queue_;
    sc_core::sc_event queued_, handed_;
};

} // namespace ipcsim

#endif
