// hwq_dev.cpp -- device type `hwq`: hardware queues (models/hwq.h) behind a
// crossbar port of their own; natively a lock-free queue per queue.
#include "../devtype.h"

#include "../../models/hwq.h"
#include "../../models/xbar.h"

namespace ipcsim
{

static const struct conf_rule rules[] = {
    {"devices.*.type", CONF_T_STR, true, 1, 0},
    {"devices.*.queues", CONF_T_INT, true, 1, 1 << 20},
    {"devices.*.depth", CONF_T_INT, true, 1, 1 << 24},
    // Every access's cost at the manager; push_latency_ns (writes) and
    // pop_latency_ns (pops and count reads) each default to it, for a
    // manager that takes pushes and pops through different ports.
    {"devices.*.latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.push_latency_ns", CONF_T_NUM, false, 0, MAX_NS},
    {"devices.*.pop_latency_ns", CONF_T_NUM, false, 0, MAX_NS},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

static sc_core::sc_module *build(Build &b, const std::string &name, const struct conf_node *n,
                                 double link_MBps)
{
    std::string mod = dev_module(name);
    double lat = dev_param(n, "latency_ns");
    Hwq *q = b.own(new Hwq(mod.c_str(), b.kernel, (unsigned)dev_param(n, "queues"),
                           (unsigned)dev_param(n, "depth"), dev_param_or(n, "push_latency_ns", lat),
                           dev_param_or(n, "pop_latency_ns", lat)));
    int port = b.xbar().add_port(mod, link_MBps);
    b.xbar().attach_target(q->tsock, port, q->regs(), q->regs_size());
    return q;
}

extern const DevType hwq_dev;
const DevType hwq_dev = {"hwq", "hwq", rules, build};

} // namespace ipcsim
