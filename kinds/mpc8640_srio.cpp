// mpc8640_srio.cpp -- the `mpc8640_srio` platform kind: the HPEPPM paper's
// boards (docs/mpc8640_srio.md). `boards` MPC8641D-class boards, each a
// computing e600 core (the platform's core: the MPI rank), its DDR2, its
// DMA controller driven by the communicating core, and a Serial RapidIO
// endpoint; the endpoints meet at a switch. Named regions live in a memory
// of their own whose bytes each belong to a board (plat_shared_home).
// The GbE port of each board is the `tcp` device of the file (two boards).
#include "kind.h"
#include "devtype.h"

#include "../models/core.h"
#include "../models/iobus.h"
#include "../models/memory.h"
#include "../models/srio/bus.h"
#include "../models/dma.h"
#include "../models/srio/endpoint.h"
#include "../models/srio/switch.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace ipcsim
{

static const struct conf_rule rules[] = {
    {"platform", CONF_T_STR, true, 1, 0},
    {"title", CONF_T_STR, false, 1, 0},
    {"boards", CONF_T_INT, true, 1, 16},
    {"core", CONF_T_MAP, true, 1, 0},
    {"core.type", CONF_T_STR, true, 1, 0},
    {"core.clock_mhz", CONF_T_NUM, true, MIN_MHZ, BIG},
    {"core.caps", CONF_T_LIST, true, 1, 0},
    {"core.local_bytes", CONF_T_INT, true, 0, 0},
    {"core.local_latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"core.local_bandwidth_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},
    {"core.rx_channels", CONF_T_INT, true, 0, 1 << 16},
    {"core.l1_bytes", CONF_T_INT, true, 0, BIG},
    {"core.l2_bytes", CONF_T_INT, true, 0, BIG},
    {"core.fpu_flops_per_cycle", CONF_T_NUM, true, TINY, BIG},
    KIND_CORE_COSTS("core"),
    KIND_OTHER_COSTS("core"),
    {"comm", CONF_T_MAP, true, 1, 0},
    {"comm.clock_mhz", CONF_T_NUM, true, MIN_MHZ, BIG},
    {"comm.transfer_cycles", CONF_T_NUM, true, 0, BIG},
    {"board", CONF_T_MAP, true, 1, 0},
    {"board.bus_latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"board.dma_channels", CONF_T_INT, true, 1, 64},
    {"memory", CONF_T_MAP, true, 1, 0},
    {"memory.bytes", CONF_T_INT, true, 1 << 16, BIG},
    {"memory.latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"memory.bandwidth_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},
    {"memory.region_bytes", CONF_T_INT, true, 1 << 16, BIG},
    {"srio", CONF_T_MAP, true, 1, 0},
    {"srio.lanes", CONF_T_INT, true, 1, 4},
    {"srio.lane_gbaud", CONF_T_NUM, true, TINY, BIG},
    {"srio.encoding", CONF_T_NUM, true, TINY, 1},
    {"srio.idle_bytes", CONF_T_INT, true, 0, 1 << 16},
    {"srio.idle_every", CONF_T_INT, true, 1, BIG},
    {"srio.max_payload", CONF_T_INT, true, 8, 256},
    {"srio.header_bytes", CONF_T_MAP, true, 1, 0},
    {"srio.header_bytes.nwrite", CONF_T_INT, true, 1, 64},
    {"srio.header_bytes.swrite", CONF_T_INT, true, 1, 64},
    {"srio.header_bytes.nread", CONF_T_INT, true, 1, 64},
    {"srio.header_bytes.atomic", CONF_T_INT, true, 1, 64},
    {"srio.header_bytes.message", CONF_T_INT, true, 1, 64},
    {"srio.header_bytes.doorbell", CONF_T_INT, true, 1, 64},
    {"srio.header_bytes.response", CONF_T_INT, true, 1, 64},
    {"srio.crc_bytes", CONF_T_INT, true, 0, 64},
    {"srio.crc_after", CONF_T_INT, true, 1, 1 << 16},
    {"srio.align_bytes", CONF_T_INT, true, 1, 64},
    {"srio.delimiter_bytes", CONF_T_INT, true, 0, 64},
    {"srio.bulk_write", CONF_T_STR, true, 1, 0},
    {"srio.tx_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"srio.rx_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"srio.rx_outstanding", CONF_T_INT, true, 1, 64},
    {"srio.message", CONF_T_MAP, true, 1, 0},
    {"srio.message.max_bytes", CONF_T_INT, true, 8, 1 << 20},
    {"srio.message.setup_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"switch", CONF_T_MAP, true, 1, 0},
    {"switch.mode", CONF_T_STR, true, 1, 0},
    {"switch.latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"switch.cut_through_bytes", CONF_T_INT, true, 1, 512},
    {"devices", CONF_T_MAP, false, 1, 0},
    {"devices.*", CONF_T_ANY, false, 1, 0},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

static const char *const cycles[] = {"core.costs.*", nullptr};

static int check(const struct conf *c, char *err, size_t errlen)
{
    if (check_caps(c, "core.caps", err, errlen)) return -1;
    if (check_clocked(c, "core.clock_mhz", cycles, nullptr, err, errlen)) return -1;
    const int lanes = (int)conf_num(c, "srio.lanes", 4);
    if (lanes != 1 && lanes != 4)
        return check_bad(c, "srio.lanes", err, errlen, "is 1 or 4 (a 1x or 4x port)");
    const double g = conf_num(c, "srio.lane_gbaud", 0);
    if (std::fabs(g - 1.25) > 1e-9 && std::fabs(g - 2.5) > 1e-9 && std::fabs(g - 3.125) > 1e-9)
        return check_bad(c, "srio.lane_gbaud", err, errlen,
                         "is 1.25, 2.5 or 3.125 (the lane rates of the MPC8641D's SRIO port)");
    if ((int)conf_num(c, "srio.max_payload", 256) % 8)
        return check_bad(c, "srio.max_payload", err, errlen,
                         "is a multiple of 8 (RapidIO payloads are double-words)");
    const char *bw = conf_str(c, "srio.bulk_write", "");
    if (strcmp(bw, "nwrite") != 0 && strcmp(bw, "swrite") != 0)
        return check_bad(c, "srio.bulk_write", err, errlen, "is nwrite or swrite");
    const char *mode = conf_str(c, "switch.mode", "");
    if (strcmp(mode, "store_and_forward") != 0 && strcmp(mode, "cut_through") != 0)
        return check_bad(c, "switch.mode", err, errlen, "is store_and_forward or cut_through");
    return check_devices(c, err, errlen);
}

static std::vector<plat_core_desc> describe(const struct conf *c)
{
    return std::vector<plat_core_desc>(
        (size_t)conf_num(c, "boards", 1),
        core_desc(core_params(c, "core"), conf_str(c, "core.type", "e600")));
}

static uint64_t ns(const struct conf *c, const char *path)
{
    return ns_to_ps(conf_num(c, path, 0), path);
}

static SrioFormat format(const struct conf *c)
{
    static const struct {
        SrioType t;
        const char *key;
    } hdr[] = {
        {SRIO_NWRITE, "srio.header_bytes.nwrite"},    {SRIO_SWRITE, "srio.header_bytes.swrite"},
        {SRIO_NREAD, "srio.header_bytes.nread"},      {SRIO_ATOMIC, "srio.header_bytes.atomic"},
        {SRIO_MESSAGE, "srio.header_bytes.message"},  {SRIO_DOORBELL, "srio.header_bytes.doorbell"},
        {SRIO_RESPONSE, "srio.header_bytes.response"}};
    SrioFormat f;
    for (const auto &h : hdr) f.header[h.t] = (uint64_t)conf_num(c, h.key, 0);
    f.crc = (uint64_t)conf_num(c, "srio.crc_bytes", 2);
    f.crc_after = (uint64_t)conf_num(c, "srio.crc_after", 80);
    f.align = (uint64_t)conf_num(c, "srio.align_bytes", 4);
    f.delimiter = (uint64_t)conf_num(c, "srio.delimiter_bytes", 4);
    f.max_payload = (uint64_t)conf_num(c, "srio.max_payload", 256);
    return f;
}

static void build(Build &b, const struct conf *c)
{
    register_times(b.kernel, c);
    Kernel &kern = b.kernel;
    const int boards = (int)conf_num(c, "boards", 1);
    const CoreParams cp = core_params(c, "core");

    SrioLinkParams lp;
    lp.lanes = (int)conf_num(c, "srio.lanes", 4);
    lp.lane_gbaud = conf_num(c, "srio.lane_gbaud", 3.125);
    lp.encoding = conf_num(c, "srio.encoding", 0.8);
    lp.idle_bytes = conf_num(c, "srio.idle_bytes", 4);
    lp.idle_every = conf_num(c, "srio.idle_every", 5000);
    const double link_ps_per_byte = 1e12 / lp.bytes_per_s();

    SrioEndpointParams ep;
    ep.format = format(c);
    ep.ps_per_byte = link_ps_per_byte;
    ep.tx_ps = ns(c, "srio.tx_ns");
    ep.rx_ps = ns(c, "srio.rx_ns");
    ep.outstanding = (int)conf_num(c, "srio.rx_outstanding", 4);
    ep.head_bytes = (uint64_t)conf_num(c, "switch.cut_through_bytes", 16);
    ep.msg_bytes = (uint64_t)conf_num(c, "srio.message.max_bytes", 4096);
    ep.msg_ps = ns(c, "srio.message.setup_ns");
    ep.swrite = strcmp(conf_str(c, "srio.bulk_write", "nwrite"), "swrite") == 0;

    SrioBusParams bp;
    bp.latency_ps = ns(c, "board.bus_latency_ns");
    bp.ddr_ps_per_byte = 1e6 / conf_num(c, "memory.bandwidth_MBps", 1);
    bp.local_ps = ns_to_ps(cp.local_latency_ns, "core.local_latency_ns");
    bp.local_ps_per_byte = 1e6 / cp.local_bandwidth_MBps;

    const double comm_mhz = conf_num(c, "comm.clock_mhz", 1500);
    const uint64_t comm_ps = ns_to_ps(conf_num(c, "comm.transfer_cycles", 0) * 1e3 / comm_mhz,
                                      "comm.transfer_cycles / comm.clock_mhz");

    SrioBoards *where = b.own(new SrioBoards("boards", kern, boards));
    kern.set_fabric(where);
    Memory *regions =
        b.own(new Memory("regions", kern, (uint64_t)conf_num(c, "memory.region_bytes", 0),
                         conf_num(c, "memory.latency_ns", 0)));
    kern.set_shared(regions);
    where->set_regions(regions);
    where->regions.bind(regions->tsock); // its accesses go through the boards' buses

    SrioSwitch *sw =
        b.own(new SrioSwitch("switch", boards, link_ps_per_byte,
                             strcmp(conf_str(c, "switch.mode", ""), "cut_through") == 0,
                             ns(c, "switch.latency_ns"), ep.head_bytes));
    const uint64_t bytes = (uint64_t)conf_num(c, "memory.bytes", 0);
    for (int i = 0; i < boards; i++) {
        const std::string n = std::to_string(i);
        Core *core = b.own(new Core(("core" + n).c_str(), kern, i, cp));
        Memory *ddr = b.own(
            new Memory(("ddr" + n).c_str(), kern, bytes, conf_num(c, "memory.latency_ns", 0)));
        Memory *priv = b.own(new Memory(("private" + n).c_str(), kern, 0, 0));
        kern.set_core_memory(i, ddr);
        where->set_ddr(i, ddr);
        Dma *dma = b.own(new Dma(("dma" + n).c_str(), kern, *core,
                                 (cp.caps & PLAT_CAP_DMA) ? cp.rx_channels : 0, comm_ps));
        kern.add_core_blocks(core, nullptr, dma);
        SrioBus *bus = b.own(new SrioBus(("bus" + n).c_str(), *where, i, bp));
        SrioEndpoint *e = b.own(new SrioEndpoint(("srio" + n).c_str(), *where, i, ep));
        core->mem.bind(bus->tsock);
        dma->isock.bind(bus->tsock);
        e->mem.bind(bus->tsock);
        bus->ddr.bind(ddr->tsock);
        bus->priv.bind(priv->tsock);
        bus->db.bind(core->db);
        bus->remote.bind(e->tsock);
        e->out.bind(sw->in);
        sw->out.bind(e->in);
        core->io.bind(b.iobus().tsock);
    }

    // GbE: the tcp model joins two hosts, so the boards have it when there are two.
    const struct conf_node *devs = conf_get(conf_root(c), "devices");
    if (devs && boards <= 2) b.add_devices(devs, 0);
}

extern const PlatKind mpc8640_srio_kind;
const PlatKind mpc8640_srio_kind = {"mpc8640_srio", rules, check, describe, build, nullptr};

} // namespace ipcsim
