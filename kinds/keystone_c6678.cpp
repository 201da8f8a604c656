// keystone_c6678.cpp -- the `keystone_c6678` platform kind: the TI C6678
// (docs/keystone_c6678.md). `cores` C66x DSPs (cores 0..cores-1), each with
// its local L2, then `pdsp` PDSPs (the QMSS's firmware processors, the Event
// Machine scheduler's core), all on one crossbar (the TeraNet). Behind it:
// the MSMC SRAM through its banks (models/keystone/), the DDR3 on a port of
// its own whose lanes every initiator shares, the QMSS queue manager (a hwq
// device) and its infrastructure packet DMA, the one DMA engine of every
// core (models/keystone/pktdma.h).
#include "kind.h"
#include "../models/keystone/l1d.h"
#include "../models/keystone/msmc.h"
#include "../models/keystone/pktdma.h"
#include "../models/memory.h"
#include "../models/xbar.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace ipcsim
{

// The core sections (dsp, pdsp_core) share their rules.
// clang-format off
#define CORE_RULES(S)                                              \
    {S, CONF_T_MAP, true, 1, 0},                                   \
    {S ".type", CONF_T_STR, true, 1, 0},                           \
    {S ".clock_mhz", CONF_T_NUM, true, MIN_MHZ, BIG},              \
    {S ".caps", CONF_T_LIST, true, 1, 0},                          \
    {S ".local_bytes", CONF_T_INT, true, 0, BIG},                  \
    {S ".local_latency_ns", CONF_T_NUM, true, 0, MAX_NS},          \
    {S ".local_bandwidth_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},  \
    {S ".rx_channels", CONF_T_INT, true, 0, 1 << 16},              \
    {S ".timeslice_ns", CONF_T_NUM, false, 0, MAX_NS},             \
    KIND_CORE_COSTS(S)
// clang-format on

static const struct conf_rule rules[] = {
    {"platform", CONF_T_STR, true, 1, 0},
    {"title", CONF_T_STR, false, 1, 0},
    {"cores", CONF_T_INT, true, 1, 8},
    {"pdsp", CONF_T_INT, true, 0, 2},
    CORE_RULES("dsp"),
    // The L1D: its line is the streaming-miss model's (models/keystone/l1d.h);
    // its size is documentation (the model keeps no contents).
    {"dsp.l1d_bytes", CONF_T_INT, true, 1, BIG},
    {"dsp.l1d_line_bytes", CONF_T_INT, true, 1, 1 << 16},
    KIND_OTHER_COSTS("dsp"),
    CORE_RULES("pdsp_core"),
    {"pdsp_core.costs.em_sched", CONF_T_NUM, true, 0, BIG},
    KIND_OTHER_COSTS("pdsp_core"),
    {"teranet", CONF_T_MAP, true, 1, 0},
    {"teranet.latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"teranet.bandwidth_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},
    {"teranet.burst_bytes", CONF_T_INT, true, 1, 1 << 20},
    {"msmc", CONF_T_MAP, true, 1, 0},
    {"msmc.bytes", CONF_T_INT, true, 1, BIG},
    {"msmc.latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"msmc.bandwidth_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},
    {"msmc.banks", CONF_T_INT, true, 1, 1 << 16},
    {"msmc.bank_bytes", CONF_T_INT, true, 1, 1 << 20},
    {"msmc.bank_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"ddr3", CONF_T_MAP, true, 1, 0},
    {"ddr3.bytes", CONF_T_INT, true, 1, BIG},
    {"ddr3.latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"ddr3.bandwidth_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},
    {"ddr3.burst_bytes", CONF_T_INT, true, 1, 1 << 20},
    {"pktdma", CONF_T_MAP, true, 1, 0},
    {"pktdma.bandwidth_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},
    {"pktdma.channels", CONF_T_INT, true, 1, 1 << 10},
    {"devices", CONF_T_MAP, false, 1, 0},
    {"devices.*", CONF_T_ANY, false, 1, 0},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

#undef CORE_RULES

// Counted in cycles of each section's own clock.
static const char *const dsp_cycles[] = {"dsp.costs.*", nullptr};
static const char *const pdsp_cycles[] = {"pdsp_core.costs.*", nullptr};

static int check(const struct conf *c, char *err, size_t errlen)
{
    if (check_caps(c, "dsp.caps", err, errlen) || check_caps(c, "pdsp_core.caps", err, errlen))
        return -1;
    if (check_clocked(c, "dsp.clock_mhz", dsp_cycles, nullptr, err, errlen) ||
        check_clocked(c, "pdsp_core.clock_mhz", pdsp_cycles, nullptr, err, errlen))
        return -1;
    // plat_local_alloc's memory must fit the core's local L2.
    if (conf_num(c, "dsp.local_bytes", 0) > 0 && !(core_params(c, "dsp").caps & PLAT_CAP_LOCAL_MEM))
        return check_bad(c, "dsp.caps", err, errlen,
                         "lacks local_mem while dsp.local_bytes is not 0");
    return check_devices(c, err, errlen);
}

static std::vector<plat_core_desc> describe(const struct conf *c)
{
    std::vector<plat_core_desc> v(
        (size_t)conf_num(c, "cores", 8),
        core_desc(core_params(c, "dsp"), conf_str(c, "dsp.type", "c66x")));
    v.insert(v.end(), (size_t)conf_num(c, "pdsp", 0),
             core_desc(core_params(c, "pdsp_core"), conf_str(c, "pdsp_core.type", "pdsp")));
    return v;
}

// The MSMC SRAM behind its banks, on a crossbar port of its own.
static void add_msmc(Build &b, const struct conf *c)
{
    Memory *sram = b.own(new Memory("msmc", b.kernel, (uint64_t)conf_num(c, "msmc.bytes", 0),
                                    conf_num(c, "msmc.latency_ns", 0)));
    MsmcParams mp;
    mp.base = sram->base();
    mp.banks = (unsigned)conf_num(c, "msmc.banks", 1);
    mp.bank_bytes = (uint64_t)conf_num(c, "msmc.bank_bytes", 1);
    mp.bank_ps = ns_to_ps(conf_num(c, "msmc.bank_ns", 0), "msmc.bank_ns");
    Msmc *banks = b.own(new Msmc("msmc_banks", mp));
    banks->isock.bind(sram->tsock);
    int port = b.xbar().add_port("msmc", conf_num(c, "msmc.bandwidth_MBps", 1));
    b.xbar().attach_target(banks->tsock, port, sram->base(), sram->size());
    b.kernel.add_memory("msmc", sram);
}

// The DDR3: one port whose lanes (the 64-bit channel, whole bursts) every
// core and DMA engine shares; it is the shared memory and "ddr3".
static void add_ddr3(Build &b, const struct conf *c)
{
    Memory *m = b.own(new Memory("ddr3", b.kernel, (uint64_t)conf_num(c, "ddr3.bytes", 0),
                                 conf_num(c, "ddr3.latency_ns", 0)));
    int port = b.xbar().add_port("ddr3", conf_num(c, "ddr3.bandwidth_MBps", 1), 0,
                                 (uint64_t)conf_num(c, "ddr3.burst_bytes", 64));
    b.xbar().attach_target(m->tsock, port, m->base(), m->size());
    b.kernel.set_shared(m);
    b.kernel.add_memory("ddr3", m);
}

// The QMSS's infrastructure packet DMA: one engine for every core (DSPs and
// PDSPs), behind a crossbar port of its own at pktdma.bandwidth_MBps that
// each of its channels' transfers goes through (models/keystone/pktdma.h).
static void add_pktdma(Build &b, const struct conf *c)
{
    const unsigned chans = (unsigned)conf_num(c, "pktdma.channels", 1);
    Pktdma *e = b.own(new Pktdma("pktdma", b.kernel, b.kernel.core(0), chans));
    int port = b.xbar().add_port("pktdma", conf_num(c, "pktdma.bandwidth_MBps", 1));
    for (unsigned i = 0; i < chans; i++)
        b.xbar().attach_initiator(e->isock(i), port, -1, false, true);
    for (int i = 0; i < b.kernel.cores(); i++) b.kernel.set_engine(i, e);
}

static void build(Build &b, const struct conf *c)
{
    register_times(b.kernel, c);
    const double link = conf_num(c, "teranet.bandwidth_MBps", 1);
    b.add_xbar(conf_num(c, "teranet.latency_ns", 0),
               (uint64_t)conf_num(c, "teranet.burst_bytes", 64));
    const int dsps = (int)conf_num(c, "cores", 8), pdsps = (int)conf_num(c, "pdsp", 0);
    const CoreParams dsp = core_params(c, "dsp"), pdsp = core_params(c, "pdsp_core");
    const uint64_t line = (uint64_t)conf_num(c, "dsp.l1d_line_bytes", 64);
    for (int i = 0; i < dsps; i++) {
        // The DSP's loads and stores go through its L1D to the TeraNet.
        Core &core = b.add_core(i, dsp, link, false, false);
        L1d *l1d = b.own(new L1d(("l1d" + std::to_string(i)).c_str(), line));
        core.mem.bind(l1d->tsock);
        b.xbar().attach_initiator(l1d->isock, b.xbar().core_port(i), i);
        core.dcache = true;
    }
    for (int i = 0; i < pdsps; i++) b.add_core(dsps + i, pdsp, link, true, false);
    add_pktdma(b, c);
    add_ddr3(b, c);
    add_msmc(b, c);
    b.add_devices(conf_get(conf_root(c), "devices"), link);
}

extern const PlatKind keystone_c6678_kind;
const PlatKind keystone_c6678_kind = {"keystone_c6678", rules, check, describe, build, nullptr};

} // namespace ipcsim
