// stream_dev.cpp -- device type `stream`: byte streams over a plain wire of
// a latency and a bandwidth (models/net.h) on the device bus; natively TCP
// sockets.
#include "../devtype.h"

#include "../../models/iobus.h"
#include "../../models/net.h"

namespace ipcsim
{

static const struct conf_rule rules[] = {
    {"devices.*.type", CONF_T_STR, true, 1, 0},
    {"devices.*.latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.bandwidth_MBps", CONF_T_NUM, true, MIN_MBPS, BIG},
    {"devices.*.buffer_bytes", CONF_T_INT, true, 1, 1 << 30},
    {"devices.*.call_ns", CONF_T_NUM, true, 0, MAX_NS},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

static sc_core::sc_module *build(Build &b, const std::string &name, const struct conf_node *n,
                                 double)
{
    Net *net = b.own(new Net(dev_module(name).c_str(), b.kernel, dev_param(n, "latency_ns"),
                             dev_param(n, "bandwidth_MBps"), (uint64_t)dev_param(n, "buffer_bytes"),
                             dev_param(n, "call_ns")));
    b.iobus().attach_target(net->tsock, net->reg(), sizeof(uint64_t));
    return net;
}

extern const DevType stream_dev;
const DevType stream_dev = {"stream", "stream", rules, build};

} // namespace ipcsim
