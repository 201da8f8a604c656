/*
 * models/keystone/msmc.h -- the banks of the C6678's MSMC SRAM, in front of
 * the SRAM itself (a Memory).
 *
 * The SRAM is interleaved over `banks` banks of `bank_bytes` each: byte
 * offset o (from the SRAM's base) is in bank (o / bank_bytes) % banks. An
 * access of n bytes occupies every bank its words fall in, `bank_ps` per
 * word, starting when it reaches the banks or when that bank is free,
 * whichever is later; it leaves when its last bank is done. So concurrent
 * accesses to the same bank serialise and accesses to different banks
 * overlap. Event driven: each bank keeps its next free time, nothing is
 * clocked. The SRAM (a Memory) then adds its access latency and performs the
 * access. The bank geometry and time are unverified (SPRUGW7A's bank section
 * was not available): parameters.
 *
 * Sockets: tsock target (from the fabric), isock initiator (to the SRAM).
 */
#ifndef IPCSIM_MODELS_KEYSTONE_MSMC_H
#define IPCSIM_MODELS_KEYSTONE_MSMC_H

#include "../proto.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <vector>

namespace ipcsim
{

struct MsmcParams {
    const unsigned char *base = nullptr; // the SRAM's first byte (bank 0)
    unsigned banks = 1;
    uint64_t bank_bytes = 1;
    uint64_t bank_ps = 0; // per bank_bytes word
};

class Msmc : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<Msmc> tsock;
    tlm_utils::simple_initiator_socket<Msmc> isock;

    Msmc(sc_core::sc_module_name name, const MsmcParams &p);

  private:
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);

    MsmcParams p_;
    std::vector<uint64_t> free_ps_; // per bank: when it is next free
};

} // namespace ipcsim

#endif
