// sim_ops.cpp -- the sim backend's table.
#include "sim.h"

#define SIM_ENTRY(ret, name, params, args) ipcsim::sim_##name,
#define SIM_ENTRY_V(name, params, args) ipcsim::sim_##name,

extern "C" const struct plat_ops plat_sim_ops;
const struct plat_ops plat_sim_ops = {"sim", PLAT_OPS(SIM_ENTRY, SIM_ENTRY_V) ipcsim::sim_abort};
