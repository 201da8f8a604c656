// sw26010.cpp -- the `sw26010` platform kind: the Sunway SW26010 of the
// coroutine-channel paper (docs/sw26010.md). `cgs` core groups (CGs); CG g
// is core g * (1 + rows * cols), its MPE (behind an always-hitting cache),
// then its rows x cols CPEs in row order, each with its LDM and DMA engine.
// One crossbar is the CGs' on-chip networks; behind it each CG's memory port
// (the controller's DRAM channel) leads through the NoC to the CG's
// controller and DRAM. The register mesh holds one array per CG.
#include "../models/cache.h"
#include "../models/core.h"
#include "../models/iobus.h"
#include "kind.h"
#include "../models/sw26010/mc.h"
#include "../models/memory.h"
#include "../models/sw26010/mesh.h"
#include "../models/sw26010/noc.h"
#include "../models/xbar.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace ipcsim
{

// The core sections (mpe, cpe) share their rules.
// clang-format off
#define CORE_RULES(S)                                    \
    {S, CONF_T_MAP, true, 1, 0},                         \
    {S ".type", CONF_T_STR, true, 1, 0},                 \
    {S ".caps", CONF_T_LIST, true, 1, 0},                \
    {S ".local_bytes", CONF_T_INT, true, 0, BIG},        \
    {S ".rx_channels", CONF_T_INT, true, 0, 1 << 16},    \
    {S ".timeslice_ns", CONF_T_NUM, false, 0, MAX_NS},   \
    KIND_CORE_COSTS(S),                                  \
    {S ".costs.coro_switch", CONF_T_NUM, true, 0, BIG},  \
    {S ".costs.coro_spawn", CONF_T_NUM, true, 0, BIG},   \
    KIND_OTHER_COSTS(S)
// clang-format on

static const struct conf_rule rules[] = {
    {"platform", CONF_T_STR, true, 1, 0},
    {"title", CONF_T_STR, false, 1, 0},
    {"cgs", CONF_T_INT, true, 1, 4},
    {"clock_mhz", CONF_T_NUM, true, MIN_MHZ, BIG},
    {"network", CONF_T_MAP, true, 1, 0},
    {"network.latency_cycles", CONF_T_NUM, true, 0, BIG},
    {"network.port_bytes_per_cycle", CONF_T_NUM, true, TINY, BIG},
    {"network.burst_bytes", CONF_T_INT, true, 1, 1 << 20},
    {"memory", CONF_T_MAP, true, 1, 0},
    {"memory.bytes", CONF_T_INT, true, 1 << 16, BIG},
    {"memory.latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"memory.bandwidth_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},
    {"memory.burst_bytes", CONF_T_INT, true, 1, 1 << 20},
    {"memory.request_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"memory.atomic_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"noc", CONF_T_MAP, true, 1, 0},
    {"noc.latency_cycles", CONF_T_NUM, true, 0, BIG},
    CORE_RULES("mpe"),
    {"mpe.hit_cycles", CONF_T_NUM, true, 0, BIG},
    {"mpe.cache_bytes_per_cycle", CONF_T_NUM, true, TINY, BIG},
    CORE_RULES("cpe"),
    {"cpe.ldm_cycles", CONF_T_NUM, true, 0, BIG},
    {"cpe.ldm_bytes_per_cycle", CONF_T_NUM, true, TINY, BIG},
    {"devices", CONF_T_MAP, false, 1, 0},
    {"devices.mesh", CONF_T_MAP, false, 1, 0},
    {"devices.mesh.type", CONF_T_STR, true, 1, 0},
    {"devices.mesh.rows", CONF_T_INT, false, 1, 64},
    {"devices.mesh.cols", CONF_T_INT, false, 1, 64},
    {"devices.mesh.word_bytes", CONF_T_INT, true, 1, 1 << 16},
    {"devices.mesh.depth", CONF_T_INT, true, 1, 1 << 16},
    {"devices.mesh.latency_cycles", CONF_T_NUM, true, 0, BIG},
    {"devices.mesh.get_cycles", CONF_T_NUM, true, 0, BIG},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

#undef CORE_RULES

// Counted in cycles (or bytes per cycle) of the chip's clock_mhz.
static const char *const cycles[] = {"network.latency_cycles",
                                     "noc.latency_cycles",
                                     "mpe.hit_cycles",
                                     "cpe.ldm_cycles",
                                     "devices.mesh.latency_cycles",
                                     "devices.mesh.get_cycles",
                                     "mpe.costs.*",
                                     "cpe.costs.*",
                                     nullptr};
static const char *const rates[] = {"network.port_bytes_per_cycle", "mpe.cache_bytes_per_cycle",
                                    "cpe.ldm_bytes_per_cycle", nullptr};

static int check(const struct conf *c, char *err, size_t errlen)
{
    if (check_caps(c, "mpe.caps", err, errlen) || check_caps(c, "cpe.caps", err, errlen)) return -1;
    if (check_clocked(c, "clock_mhz", cycles, rates, err, errlen)) return -1;
    const struct conf_node *devs = conf_get(conf_root(c), "devices");
    for (size_t i = 0; i < conf_len(devs); i++)
        if (strcmp(conf_key(devs, i), "mesh") != 0) {
            snprintf(err, errlen,
                     "%s:%d: device '%s': sw26010 has one device, the register mesh 'mesh'",
                     conf_file(c), conf_line(conf_at(devs, i)), conf_key(devs, i));
            return -1;
        }
    if (conf_get(conf_root(c), "devices.mesh") &&
        strcmp(conf_str(c, "devices.mesh.type", ""), "mesh") != 0)
        return check_bad(c, "devices.mesh.type", err, errlen, "is mesh");
    return 0;
}

// The shape of the chip, from the file.
struct Shape {
    int cgs, rows, cols;
    int per_cg() const { return 1 + rows * cols; } // the MPE, then the CPEs
};

static Shape shape(const struct conf *c)
{
    return {(int)conf_num(c, "cgs", 1), (int)conf_num(c, "devices.mesh.rows", 8),
            (int)conf_num(c, "devices.mesh.cols", 8)};
}

// Cycles of the chip's clock in ns.
static double cyc_ns(const struct conf *c, const char *path)
{
    return conf_num(c, path, 0) * 1e3 / conf_num(c, "clock_mhz", 1450);
}

// A core section; its clock is the chip's; its own memories' latency and
// bandwidth come from the section's cycle counts.
static CoreParams params(const struct conf *c, const char *sect)
{
    std::string s = sect;
    bool mpe = s == "mpe";
    CoreParams p = core_params(c, sect);
    p.clock_mhz = conf_num(c, "clock_mhz", 1450);
    // The MPE's private memory is cached: a hit. The CPE's is its LDM.
    p.local_latency_ns = cyc_ns(c, (s + (mpe ? ".hit_cycles" : ".ldm_cycles")).c_str());
    p.local_bandwidth_MBps =
        conf_num(c, (s + (mpe ? ".cache_bytes_per_cycle" : ".ldm_bytes_per_cycle")).c_str(), 1) *
        p.clock_mhz;
    return p;
}

static std::vector<plat_core_desc> describe(const struct conf *c)
{
    Shape sh = shape(c);
    std::vector<plat_core_desc> v;
    for (int g = 0; g < sh.cgs; g++)
        for (int k = 0; k < sh.per_cg(); k++) {
            const char *sect = k == 0 ? "mpe" : "cpe";
            v.push_back(
                core_desc(params(c, sect), conf_str(c, k == 0 ? "mpe.type" : "cpe.type", sect)));
        }
    return v;
}

// The native mesh gets the layout the sim mesh is built with (models/sw26010/mesh.h).
static void devices(const struct conf *c, DevDescs &out)
{
    describe_devices(c, out);
    Shape sh = shape(c);
    for (size_t i = 0; i < out.devs.size(); i++) {
        if (strcmp(out.devs[i].type ? out.devs[i].type : "", "mesh") != 0) continue;
        dev_desc_set(out, i, "rows", sh.rows);
        dev_desc_set(out, i, "cols", sh.cols);
        dev_desc_set(out, i, "first_core", 1);
        dev_desc_set(out, i, "stride", sh.per_cg());
        dev_desc_set(out, i, "arrays", sh.cgs);
    }
}

static void build(Build &b, const struct conf *c)
{
    register_times(b.kernel, c);
    Kernel &kern = b.kernel;
    const Shape sh = shape(c);
    const double mhz = conf_num(c, "clock_mhz", 1450);
    const double port_MBps = conf_num(c, "network.port_bytes_per_cycle", 32) * mhz;
    Xbar &xbar = b.add_xbar(cyc_ns(c, "network.latency_cycles"),
                            (uint64_t)conf_num(c, "network.burst_bytes", 128));
    Noc *noc = b.own(new Noc("noc", sh.per_cg(),
                             ns_to_ps(cyc_ns(c, "noc.latency_cycles"), "noc.latency_cycles")));
    const CoreParams mpe = params(c, "mpe"), cpe = params(c, "cpe");
    const uint64_t bytes = (uint64_t)conf_num(c, "memory.bytes", 0);
    const double mem_MBps = conf_num(c, "memory.bandwidth_MBps", 1);
    const uint64_t burst = (uint64_t)conf_num(c, "memory.burst_bytes", 128);
    const double request_ns = conf_num(c, "memory.request_ns", 0);

    for (int g = 0; g < sh.cgs; g++) {
        const std::string cg = "cg" + std::to_string(g);
        // The CG's DRAM behind its controller, behind the NoC, behind a
        // crossbar port whose lanes are the DRAM channel: each request holds
        // it for its bursts, and at least memory.request_ns.
        Memory *dram = b.own(
            new Memory((cg + "_dram").c_str(), kern, bytes, conf_num(c, "memory.latency_ns", 0)));
        Mc *mc = b.own(new Mc((cg + "_mc").c_str(),
                              ns_to_ps(conf_num(c, "memory.atomic_ns", 0), "memory.atomic_ns")));
        mc->isock.bind(dram->tsock);
        int port = xbar.add_port(cg + "_mc", mem_MBps, 0, burst, request_ns);
        xbar.attach_target(noc->tsock, port, dram->base(), dram->size());
        noc->isock.bind(mc->tsock);
        if (g == 0) kern.set_shared(dram); // named regions (plat_shared_map) live in CG 0

        for (int k = 0; k < sh.per_cg(); k++) {
            const int i = g * sh.per_cg() + k;
            if (k > 0) {
                b.add_core(i, cpe, port_MBps);
            } else {
                // The MPE reaches memory through its cache: main memory and
                // its own private memory hit; the rest goes to the crossbar.
                Core &m = b.add_core(i, mpe, port_MBps, false);
                Cache *cache =
                    b.own(new Cache((cg + "_mpe_cache").c_str(),
                                    [&kern, &xbar](const void *p) {
                                        return kern.shared_holding(p) != nullptr || !xbar.mapped(p);
                                    },
                                    mpe.local_bandwidth_MBps));
                Memory *lines =
                    b.own(new Memory((cg + "_mpe_lines").c_str(), kern, 0, mpe.local_latency_ns));
                m.mem.bind(cache->tsock);
                cache->hit.bind(lines->tsock);
                xbar.attach_initiator(cache->down, xbar.core_port(i), i);
            }
            kern.set_core_memory(i, dram);
        }
    }

    // The register mesh: one rows x cols array per CG, its CPEs.
    const struct conf_node *mn = conf_get(conf_root(c), "devices.mesh");
    if (mn) {
        MeshLayout lay;
        lay.first = 1;
        lay.stride = sh.per_cg();
        lay.arrays = sh.cgs;
        Mesh *mesh = b.own(new Mesh("dev_mesh", kern, sh.rows, sh.cols, sh.cgs * sh.per_cg(),
                                    (size_t)conf_num(c, "devices.mesh.word_bytes", 32),
                                    (unsigned)conf_num(c, "devices.mesh.depth", 4),
                                    cyc_ns(c, "devices.mesh.latency_cycles"),
                                    cyc_ns(c, "devices.mesh.get_cycles"), lay));
        b.iobus().attach_target(mesh->tsock, mesh->reg(), sizeof(uint64_t));
        Device d;
        d.name = d.api = "mesh";
        d.block = mesh;
        kern.add_device(d);
    }
}

extern const PlatKind sw26010_kind;
const PlatKind sw26010_kind = {"sw26010", rules, check, describe, build, devices};

} // namespace ipcsim
