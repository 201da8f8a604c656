// mesh_dev.cpp -- device type `mesh`: a register mesh of rows x cols cores
// (models/sw26010/mesh.h) on the device bus; natively SPSC rings between the cores.
#include "../devtype.h"

#include "../../models/iobus.h"
#include "../../models/sw26010/mesh.h"

namespace ipcsim
{

static const struct conf_rule rules[] = {
    {"devices.*.type", CONF_T_STR, true, 1, 0},
    {"devices.*.rows", CONF_T_INT, true, 1, 4096},
    {"devices.*.cols", CONF_T_INT, true, 1, 4096},
    {"devices.*.word_bytes", CONF_T_INT, true, 1, 1 << 20},
    {"devices.*.depth", CONF_T_INT, true, 1, 1 << 20},
    {"devices.*.latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.get_latency_ns", CONF_T_NUM, true, 0, MAX_NS},
    // The layout of several arrays (models/sw26010/mesh.h); default one array from core 0.
    {"devices.*.first_core", CONF_T_INT, false, 0, 1 << 20},
    {"devices.*.stride", CONF_T_INT, false, 1, 1 << 20},
    {"devices.*.arrays", CONF_T_INT, false, 1, 4096},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

static sc_core::sc_module *build(Build &b, const std::string &name, const struct conf_node *n,
                                 double)
{
    MeshLayout lay;
    lay.first = (int)dev_param_or(n, "first_core", 0);
    lay.stride = (int)dev_param_or(n, "stride", 0);
    lay.arrays = (int)dev_param_or(n, "arrays", 1);
    Mesh *m = b.own(new Mesh(dev_module(name).c_str(), b.kernel, (int)dev_param(n, "rows"),
                             (int)dev_param(n, "cols"), b.kernel.cores(),
                             (size_t)dev_param(n, "word_bytes"), (unsigned)dev_param(n, "depth"),
                             dev_param(n, "latency_ns"), dev_param(n, "get_latency_ns"), lay));
    b.iobus().attach_target(m->tsock, m->reg(), sizeof(uint64_t));
    return m;
}

extern const DevType mesh_dev;
const DevType mesh_dev = {"mesh", "mesh", rules, build};

} // namespace ipcsim
