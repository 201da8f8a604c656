// accel_dev.cpp -- device type `accel`: a fixed-function accelerator
// (models/accel.h) behind a crossbar port, a target for its job register
// and an initiator for its results; natively a function call.
#include "../devtype.h"

#include "../../models/accel.h"
#include "../../models/xbar.h"

#include <algorithm>

namespace ipcsim
{

static const struct conf_rule rules[] = {
    {"devices.*.type", CONF_T_STR, true, 1, 0},
    {"devices.*.latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.bandwidth_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

static sc_core::sc_module *build(Build &b, const std::string &name, const struct conf_node *n,
                                 double link_MBps)
{
    std::string mod = dev_module(name);
    Accel *a = b.own(new Accel(mod.c_str(), b.kernel, dev_param(n, "latency_ns")));
    int port = b.xbar().add_port(mod, std::min(link_MBps, dev_param(n, "bandwidth_MBps")));
    b.xbar().attach_target(a->tsock, port, a->reg(), sizeof(uint64_t));
    b.xbar().attach_initiator(a->isock, port, -1, true);
    return a;
}

extern const DevType accel_dev;
const DevType accel_dev = {"accel", "accel", rules, build};

} // namespace ipcsim
