// ideal.cpp -- the `ideal` platform kind: N identical cores on a crossbar
// with a shared memory and the devices of the file (docs/ideal.md).
#include "kind.h"
#include "../models/xbar.h"

namespace ipcsim
{

static const struct conf_rule rules[] = {
    {"platform", CONF_T_STR, true, 1, 0},
    {"title", CONF_T_STR, false, 1, 0},
    {"cores", CONF_T_INT, true, 1, 4096},
    {"core", CONF_T_MAP, true, 1, 0},
    {"core.type", CONF_T_STR, true, 1, 0},
    {"core.clock_mhz", CONF_T_NUM, true, MIN_MHZ, BIG},
    {"core.caps", CONF_T_LIST, true, 1, 0},
    {"core.local_bytes", CONF_T_INT, true, 0, BIG},
    {"core.local_latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"core.local_bandwidth_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},
    {"core.rx_channels", CONF_T_INT, true, 0, 1 << 16},
    {"core.timeslice_ns", CONF_T_NUM, false, 0, MAX_NS},
    KIND_CORE_COSTS("core"),
    KIND_OTHER_COSTS("core"),
    {"link", CONF_T_MAP, true, 1, 0},
    {"link.latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"link.bandwidth_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},
    {"link.burst_bytes", CONF_T_INT, true, 1, BIG},
    {"memory", CONF_T_MAP, true, 1, 0},
    {"memory.bytes", CONF_T_INT, true, 0, BIG},
    {"memory.latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    // Optional further memories every core reaches (plat_mem_alloc by their
    // key), each behind a crossbar port of its own; "shared" is memory's.
    {"memories", CONF_T_MAP, false, 1, 0},
    {"memories.*", CONF_T_MAP, false, 1, 0},
    {"memories.*.bytes", CONF_T_INT, true, 1, BIG},
    {"memories.*.latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices", CONF_T_MAP, false, 1, 0},
    {"devices.*", CONF_T_ANY, false, 1, 0},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

// Counted in cycles of core.clock_mhz.
static const char *const cycles[] = {"core.costs.*", nullptr};

static int check(const struct conf *c, char *err, size_t errlen)
{
    if (check_caps(c, "core.caps", err, errlen)) return -1;
    if (check_clocked(c, "core.clock_mhz", cycles, nullptr, err, errlen)) return -1;
    if (conf_get(conf_root(c), "memories.shared"))
        return check_bad(c, "memories.shared", err, errlen,
                         "is not allowed: \"shared\" names the memory section");
    return check_devices(c, err, errlen);
}

static std::vector<plat_core_desc> describe(const struct conf *c)
{
    return std::vector<plat_core_desc>(
        (size_t)conf_num(c, "cores", 1),
        core_desc(core_params(c, "core"), conf_str(c, "core.type", "generic")));
}

static void build(Build &b, const struct conf *c)
{
    register_times(b.kernel, c);
    double link = conf_num(c, "link.bandwidth_MBps", 0);
    b.add_xbar(conf_num(c, "link.latency_ns", 0), (uint64_t)conf_num(c, "link.burst_bytes", 1));
    CoreParams p = core_params(c, "core");
    int n = (int)conf_num(c, "cores", 1);
    for (int i = 0; i < n; i++) b.add_core(i, p, link);
    b.add_shared((uint64_t)conf_num(c, "memory.bytes", 0), conf_num(c, "memory.latency_ns", 0),
                 link);
    const struct conf_node *mems = conf_get(conf_root(c), "memories");
    for (size_t i = 0; mems && i < conf_len(mems); i++) {
        const struct conf_node *m = conf_at(mems, i);
        double bytes = 0, lat = 0;
        conf_number(conf_get(m, "bytes"), &bytes); // checked by the rules
        conf_number(conf_get(m, "latency_ns"), &lat);
        b.add_memory(conf_key(mems, i), (uint64_t)bytes, lat, link);
    }
    b.add_devices(conf_get(conf_root(c), "devices"), link);
}

extern const PlatKind ideal_kind;
const PlatKind ideal_kind = {"ideal", rules, check, describe, build, nullptr};

} // namespace ipcsim
