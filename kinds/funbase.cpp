// funbase.cpp -- the `funbase` platform kind: the FUNCAPI paper's FPGA board
// (docs/funbase.md). Core 0 and 1 are Nios II PEs with a HIBI PE DMA each,
// core 2 the PC behind PCIe; one HIBI segment joins the PEs, the MEM DMA in
// front of the DDR (the shared memory) and the PCIe-to-HIBI bridge.
#include "../models/accel.h"
#include "../models/funbase/avalon.h"
#include "../models/funbase/bridge.h"
#include "../models/core.h"
#include "../models/funbase/hibi.h"
#include "../models/funbase/hpd.h"
#include "../models/iobus.h"
#include "kind.h"
#include "../models/funbase/memdma.h"
#include "../models/memory.h"
#include "../models/funbase/pchost.h"
#include "../models/funbase/pcie.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace ipcsim
{

static const struct conf_rule rules[] = {
    {"platform", CONF_T_STR, true, 1, 0},
    {"title", CONF_T_STR, false, 1, 0},
    {"clock_mhz", CONF_T_NUM, true, MIN_MBPS, 1e6},
    {"hibi", CONF_T_MAP, true, 1, 0},
    {"hibi.width_bits", CONF_T_INT, true, 8, 1024},
    {"hibi.arbitration", CONF_T_STR, true, 1, 0},
    {"hibi.max_send", CONF_T_INT, true, 0, 1 << 20},
    {"hibi.tx_fifo", CONF_T_INT, true, 1, 1 << 20},
    {"hibi.rx_fifo", CONF_T_INT, true, 2, 1 << 20},
    {"hibi.arb_cycles", CONF_T_INT, true, 0, 1 << 20},
    {"hibi.rx_cycles", CONF_T_INT, true, 0, 1 << 20},
    {"core", CONF_T_MAP, true, 1, 0},
    {"core.type", CONF_T_STR, true, 1, 0},
    {"core.caps", CONF_T_LIST, true, 1, 0},
    {"core.local_bytes", CONF_T_INT, true, 0, BIG},
    {"core.bus_bytes", CONF_T_INT, true, 1, 64},
    {"core.rx_channels", CONF_T_INT, true, 0, 1 << 16},
    KIND_CORE_COSTS("core"),
    KIND_OTHER_COSTS("core"),
    {"hpd", CONF_T_MAP, true, 1, 0},
    {"hpd.read_cycles", CONF_T_INT, true, 0, 1 << 20},
    {"hpd.write_cycles", CONF_T_INT, true, 0, 1 << 20},
    {"hpd.tx_start_cycles", CONF_T_INT, true, 0, 1 << 20},
    {"hpd.rx_cycles", CONF_T_INT, true, 0, 1 << 20},
    {"hpd.amount_bits", CONF_T_INT, true, 1, 32},
    {"memory", CONF_T_MAP, true, 1, 0},
    {"memory.bytes", CONF_T_INT, true, 1, BIG},
    {"memory.latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"memdma", CONF_T_MAP, true, 1, 0},
    {"memdma.rx_fifo", CONF_T_INT, true, 2, 1 << 20},
    {"memdma.write_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},
    {"memdma.read_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},
    {"memdma.read_latency_cycles", CONF_T_INT, true, 0, 1 << 20},
    {"memdma.cmd_cycles", CONF_T_INT, true, 0, 1 << 20},
    {"memdma.conf_write_words", CONF_T_INT, true, 1, 64},
    {"memdma.conf_read_words", CONF_T_INT, true, 1, 64},
    {"pcie", CONF_T_MAP, true, 1, 0},
    {"pcie.lanes", CONF_T_INT, true, 1, 32},
    {"pcie.lane_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},
    {"pcie.tlp_overhead", CONF_T_INT, true, 0, 4096},
    {"pcie.max_payload", CONF_T_INT, true, 4, 4096},
    {"pcie.latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"pcie.posted_credits", CONF_T_INT, true, 1, 1 << 16},
    {"bridge", CONF_T_MAP, true, 1, 0},
    {"bridge.rx_fifo", CONF_T_INT, true, 2, 1 << 20},
    {"bridge.dma_start_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"pc", CONF_T_MAP, true, 1, 0},
    {"pc.type", CONF_T_STR, true, 1, 0},
    {"pc.clock_mhz", CONF_T_NUM, true, MIN_MHZ, BIG},
    {"pc.caps", CONF_T_LIST, true, 1, 0},
    {"pc.local_bytes", CONF_T_INT, true, 0, BIG},
    {"pc.local_latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"pc.local_bandwidth_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},
    {"pc.rx_channels", CONF_T_INT, true, 0, 1 << 16},
    {"pc.driver", CONF_T_STR, true, 1, 0},
    {"pc.word_bytes", CONF_T_INT, true, 4, 8},
    {"pc.ioctl_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"pc.desc_writes", CONF_T_INT, true, 0, 64},
    {"pc.post_writes", CONF_T_INT, true, 0, 64},
    KIND_CORE_COSTS("pc"),
    KIND_OTHER_COSTS("pc"),
    {"devices", CONF_T_MAP, false, 1, 0},
    {"devices.*", CONF_T_ANY, false, 1, 0},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

enum { NIOS = 2, PC = 2 }; // cores 0 and 1 are the Nios, core 2 the PC (Fig. 3)

// Counted in cycles of each clock (the segment's cycle counts fit: their
// rules bound them to 2^20 and clock_mhz's to at least MIN_MBPS).
static const char *const nios_cycles[] = {"core.costs.*", nullptr};
static const char *const pc_cycles[] = {"pc.costs.*", nullptr};

static int check(const struct conf *c, char *err, size_t errlen)
{
    if (check_caps(c, "core.caps", err, errlen) || check_caps(c, "pc.caps", err, errlen)) return -1;
    if (check_clocked(c, "clock_mhz", nios_cycles, nullptr, err, errlen) ||
        check_clocked(c, "pc.clock_mhz", pc_cycles, nullptr, err, errlen))
        return -1;
    const char *arb = conf_str(c, "hibi.arbitration", "");
    if (strcmp(arb, "round_robin") != 0 && strcmp(arb, "priority") != 0)
        return check_bad(c, "hibi.arbitration", err, errlen, "is round_robin or priority");
    if ((int)conf_num(c, "hibi.width_bits", 0) % 8)
        return check_bad(c, "hibi.width_bits", err, errlen, "is a whole number of bytes");
    const char *drv = conf_str(c, "pc.driver", "");
    if (strcmp(drv, "word") != 0 && strcmp(drv, "dma") != 0)
        return check_bad(c, "pc.driver", err, errlen, "is word (the paper's driver) or dma");
    int wb = (int)conf_num(c, "pc.word_bytes", 0);
    if (wb != 4 && wb != 8) return check_bad(c, "pc.word_bytes", err, errlen, "is 4 or 8");
    const struct conf_node *devs = conf_get(conf_root(c), "devices");
    for (size_t i = 0; i < conf_len(devs); i++) {
        const char *type = conf_text(conf_get(conf_at(devs, i), "type"));
        if (!type || strcmp(type, "accel") != 0) {
            snprintf(err, errlen, "%s:%d: device '%s': funbase has accelerators only (type accel)",
                     conf_file(c), conf_line(conf_at(devs, i)), conf_key(devs, i));
            return -1;
        }
    }
    return check_devices(c, err, errlen);
}

// The Nios cores' parameters: the `core` section, clocked by clock_mhz.
static CoreParams nios_params(const struct conf *c)
{
    CoreParams p = core_params(c, "core");
    p.clock_mhz = conf_num(c, "clock_mhz", 100);
    p.local_latency_ns = 1e3 / p.clock_mhz; // its own memories: one cycle
    p.local_bandwidth_MBps = conf_num(c, "core.bus_bytes", 4) * p.clock_mhz;
    return p;
}

static std::vector<plat_core_desc> describe(const struct conf *c)
{
    std::vector<plat_core_desc> v(NIOS,
                                  core_desc(nios_params(c), conf_str(c, "core.type", "nios2")));
    v.push_back(core_desc(core_params(c, "pc"), conf_str(c, "pc.type", "x86")));
    return v;
}

// Words per segment cycle that a block moving `MBps` keeps up with.
static double rate(double MBps, const Hibi &seg, double clock_mhz)
{
    return MBps / (seg.word_bytes() * clock_mhz);
}

static void build(Build &b, const struct conf *c)
{
    register_times(b.kernel, c);
    Kernel &k = b.kernel;
    const double mhz = conf_num(c, "clock_mhz", 100);
    HibiParams hp;
    hp.clock_mhz = mhz;
    hp.width_bits = (unsigned)conf_num(c, "hibi.width_bits", 32);
    hp.priority = strcmp(conf_str(c, "hibi.arbitration", ""), "priority") == 0;
    hp.max_send = (unsigned)conf_num(c, "hibi.max_send", 0);
    hp.tx_fifo = (unsigned)conf_num(c, "hibi.tx_fifo", 5);
    hp.arb_cycles = (unsigned)conf_num(c, "hibi.arb_cycles", 1);
    hp.rx_cycles = (unsigned)conf_num(c, "hibi.rx_cycles", 1);
    const unsigned rx_fifo = (unsigned)conf_num(c, "hibi.rx_fifo", 5);
    Hibi *seg = b.own(new Hibi("hibi", hp));
    k.set_fabric(seg);

    // Agents in arbitration order: the PEs, the MEM DMA, the bridge, devices.
    int pe[NIOS];
    for (int i = 0; i < NIOS; i++) pe[i] = seg->add_agent("nios" + std::to_string(i), rx_fifo, 1);
    const int mem_agent = seg->add_agent("memdma", (unsigned)conf_num(c, "memdma.rx_fifo", 5), 1);
    const int br_agent = seg->add_agent("pcie", (unsigned)conf_num(c, "bridge.rx_fifo", 5), 1);
    seg->set_drain(mem_agent, std::min(1.0, rate(conf_num(c, "memdma.write_MBps", 1), *seg, mhz)));

    // The DDR behind the MEM DMA: the shared memory.
    Memory *ddr = b.own(new Memory("ddr", k, (uint64_t)conf_num(c, "memory.bytes", 0),
                                   conf_num(c, "memory.latency_ns", 0)));
    MemDmaParams mp;
    mp.read_latency_cycles = (unsigned)conf_num(c, "memdma.read_latency_cycles", 0);
    mp.cmd_cycles = (unsigned)conf_num(c, "memdma.cmd_cycles", 0);
    mp.read_rate = std::min(1.0, rate(conf_num(c, "memdma.read_MBps", 1), *seg, mhz));
    MemDma *md = b.own(new MemDma("memdma", k, *seg, mem_agent, mp));
    md->mem.bind(ddr->tsock);
    seg->attach_initiator(md->hibi_out, mem_agent);
    seg->attach_target(md->hibi_in, mem_agent);
    seg->map(mem_agent, ddr->base(), ddr->size());

    // The Nios PEs.
    CoreParams np = nios_params(c);
    HpdParams hdp;
    hdp.read_ps = seg->cycles((uint64_t)conf_num(c, "hpd.read_cycles", 0));
    hdp.write_ps = seg->cycles((uint64_t)conf_num(c, "hpd.write_cycles", 0));
    hdp.tx_start_cycles = (unsigned)conf_num(c, "hpd.tx_start_cycles", 0);
    hdp.rx_cycles = (unsigned)conf_num(c, "hpd.rx_cycles", 0);
    hdp.max_words = (1ull << (unsigned)conf_num(c, "hpd.amount_bits", 16)) - 1;
    hdp.mem_agent = mem_agent;
    hdp.conf_write_words = (unsigned)conf_num(c, "memdma.conf_write_words", 3);
    hdp.conf_read_words = (unsigned)conf_num(c, "memdma.conf_read_words", 4);
    const unsigned nchans = (np.caps & PLAT_CAP_DMA) ? np.rx_channels : 0;
    for (int i = 0; i < NIOS; i++) {
        std::string n = "nios" + std::to_string(i);
        Core *core = b.own(new Core(n.c_str(), k, i, np));
        Memory *dpram = nullptr;
        if (np.local_bytes && (np.caps & PLAT_CAP_LOCAL_MEM))
            dpram = b.own(new Memory((n + "_dpram").c_str(), k, np.local_bytes, 0));
        Memory *priv = b.own(new Memory((n + "_private").c_str(), k, 0, 0));
        HpdParams h = hdp;
        h.setup_ps = core->dma_setup_ps;
        Hpd *hpd = b.own(new Hpd((n + "_hpd").c_str(), k, *core, nchans, *seg, pe[i], h));
        if (dpram) hpd->confine(dpram); // plat_dma_reach: it masters only the DPRAM (port B)
        hpd->confine(dpram);            // its Avalon master is wired to the DPRAM's port B only
        AvalonParams ap;
        ap.bus_bytes = (unsigned)conf_num(c, "core.bus_bytes", 4);
        ap.word_ps = hpd->reg_ps(REG_SEND);
        Avalon *av = b.own(new Avalon((n + "_avalon").c_str(), *core, *seg, pe[i], dpram, ap));
        core->mem.bind(av->tsock);
        core->io.bind(b.iobus().tsock);
        if (dpram)
            av->local.bind(dpram->tsock);
        else
            av->local.bind(priv->tsock); // never used: nothing decodes to a missing block
        av->priv.bind(priv->tsock);
        av->db.bind(core->db);
        seg->attach_initiator(av->hibi, pe[i]);
        seg->attach_initiator(hpd->hibi_out, pe[i]);
        seg->attach_target(hpd->hibi_in, pe[i]);
        if (dpram) seg->map(pe[i], dpram->base(), dpram->size());
        seg->map(pe[i], &core->db_reg, sizeof core->db_reg);
        seg->set_core_agent(i, pe[i]);
        k.add_core_blocks(core, dpram, hpd);
    }

    // The PC behind the PCIe link and the bridge.
    CoreParams pp = core_params(c, "pc");
    Core *pc = b.own(new Core("pc", k, PC, pp));
    Memory *ram = nullptr;
    if (pp.local_bytes && (pp.caps & PLAT_CAP_LOCAL_MEM))
        ram = b.own(new Memory("pc_ram", k, pp.local_bytes, pp.local_latency_ns));
    Memory *ppriv = b.own(new Memory("pc_private", k, 0, pp.local_latency_ns));
    PcieParams lp;
    lp.lanes = (unsigned)conf_num(c, "pcie.lanes", 1);
    lp.lane_MBps = conf_num(c, "pcie.lane_MBps", 250);
    lp.tlp_overhead = (unsigned)conf_num(c, "pcie.tlp_overhead", 20);
    lp.max_payload = (unsigned)conf_num(c, "pcie.max_payload", 128);
    lp.latency_ns = conf_num(c, "pcie.latency_ns", 0);
    lp.posted_credits = (unsigned)conf_num(c, "pcie.posted_credits", 16);
    Pcie *link = b.own(new Pcie("pcie", lp));
    BridgeParams bp;
    bp.dma_start_ps = ns_to_ps(conf_num(c, "bridge.dma_start_ns", 0), "bridge.dma_start_ns");
    bp.pc_core = PC;
    bp.mem_agent = mem_agent;
    bp.conf_write_words = hdp.conf_write_words;
    bp.conf_read_words = hdp.conf_read_words;
    Bridge *br = b.own(new Bridge("pcie_bridge", k, *seg, br_agent, bp));
    PcHostParams hp2;
    hp2.dma = strcmp(conf_str(c, "pc.driver", "word"), "dma") == 0;
    hp2.word_bytes = (unsigned)conf_num(c, "pc.word_bytes", 4);
    hp2.ioctl_ps = ns_to_ps(conf_num(c, "pc.ioctl_ns", 0), "pc.ioctl_ns");
    hp2.desc_writes = (unsigned)conf_num(c, "pc.desc_writes", 4);
    hp2.post_writes = (unsigned)conf_num(c, "pc.post_writes", 4);
    hp2.mem_MBps = pp.local_bandwidth_MBps;
    hp2.bridge_agent = br_agent;
    const unsigned pchans = (pp.caps & PLAT_CAP_DMA) ? pp.rx_channels : 0;
    seg->set_core_agent(PC, br_agent); // before the host asks
    PcHost *host = b.own(new PcHost("pc_host", k, *pc, pchans, *seg, ram, hp2));
    pc->mem.bind(host->tsock);
    pc->io.bind(b.iobus().tsock);
    host->local.bind(ram ? ram->tsock : ppriv->tsock);
    host->priv.bind(ppriv->tsock);
    host->db.bind(pc->db);
    host->pio.bind(link->down_in);
    link->down_out.bind(br->pcie_in);
    br->up.bind(link->up_in);
    link->up_out.bind(host->up);
    seg->attach_initiator(br->hibi_out, br_agent);
    seg->attach_target(br->hibi_in, br_agent);
    if (ram) seg->map(br_agent, ram->base(), ram->size());
    seg->map(br_agent, &pc->db_reg, sizeof pc->db_reg);
    k.add_core_blocks(pc, ram, host);
    k.set_shared(ddr);

    // Accelerators: agents of their own on the segment (virtual nodes).
    const struct conf_node *devs = conf_get(conf_root(c), "devices");
    for (size_t i = 0; i < conf_len(devs); i++) {
        const struct conf_node *n = conf_at(devs, i);
        Device d;
        d.name = conf_key(devs, i);
        d.api = "accel";
        double lat = 0;
        conf_number(conf_get(n, "latency_ns"), &lat);
        std::string mod = dev_module(d.name);
        Accel *acc = b.own(new Accel(mod.c_str(), k, lat));
        int a = seg->add_agent(mod, rx_fifo, 1);
        seg->attach_initiator(acc->isock, a);
        seg->attach_target(acc->tsock, a);
        seg->map(a, acc->reg(), sizeof(uint64_t));
        d.block = acc;
        k.add_device(d);
    }
}

extern const PlatKind funbase_kind;
const PlatKind funbase_kind = {"funbase", rules, check, describe, build, nullptr};

} // namespace ipcsim
