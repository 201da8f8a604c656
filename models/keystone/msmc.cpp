// msmc.cpp -- the MSMC SRAM's banks: same-bank accesses serialise.
#include "msmc.h"

#include <algorithm>
#include <stdexcept>
#include <string>

using namespace sc_core;

namespace ipcsim
{

Msmc::Msmc(sc_module_name name, const MsmcParams &p)
    : sc_module(name), tsock("tsock"), isock("isock"), p_(p)
{
    if (p.banks == 0 || p.bank_bytes == 0)
        throw std::invalid_argument(std::string(this->name()) + ": banks " +
                                    std::to_string(p.banks) + " and bank_bytes " +
                                    std::to_string(p.bank_bytes) + " must be at least 1");
    free_ps_.assign(p.banks, 0);
    tsock.register_b_transport(this, &Msmc::b_transport);
}

void Msmc::b_transport(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    // It reaches the banks at now + delay (loosely timed: the delay is not
    // waited yet); each bank it touches takes its words when it is free.
    const unsigned char *at = (const unsigned char *)(uintptr_t)gp.get_address();
    uint64_t off = (uint64_t)(at - p_.base), len = std::max<uint64_t>(gp.get_data_length(), 1);
    uint64_t first = off / p_.bank_bytes, last = (off + len - 1) / p_.bank_bytes;
    uint64_t words = last - first + 1;
    uint64_t now = now_ps(), arrive = now + delay.value(), end = arrive;
    unsigned touched = (unsigned)std::min<uint64_t>(words, p_.banks);
    for (unsigned k = 0; k < touched; k++) {
        unsigned b = (unsigned)((first + k) % p_.banks);
        // Words first+k, first+k+banks, ... fall in bank b.
        uint64_t mine = (words - k + p_.banks - 1) / p_.banks;
        uint64_t start = std::max(arrive, free_ps_[b]);
        free_ps_[b] = after_ps(start, times_ps(mine, p_.bank_ps, "an MSMC bank's words"),
                               "an MSMC bank's end");
        end = std::max(end, free_ps_[b]);
    }
    delay = ps(end - now);
    isock->b_transport(gp, delay);
}

} // namespace ipcsim
