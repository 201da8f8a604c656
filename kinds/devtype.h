/*
 * kinds/devtype.h -- device types: what `type:` in a `devices:` section means.
 *
 * A device type is described once, in kinds/devices/<type>_dev.cpp, and
 * listed in kinds/list.h. Its description says
 *   - its keys in the platform file (rules checked under devices.<name>);
 *   - which plat.h device it is (`api`: hwq, mesh, accel, stream). That is
 *     also its native equivalent: natively the device is the backend's
 *     software <api> (plat/native/<api>.c: a lock-free queue, an SPSC mesh
 *     of rings, a function call, a socket), given the section's numeric
 *     keys as parameters;
 *   - how to build its SystemC block on a crossbar platform: the block, of
 *     the class the glue of its api drives (plat/sim/sim_dev.cpp: Hwq, Mesh,
 *     Accel; sim_stream.cpp: Net), attached to the crossbar or the device
 *     bus. Build::add_devices registers it with the kernel under its name.
 * So a new block behind an existing plat.h device (a hardware queue manager
 * with its own timing, another network) is a new type and one list line; a
 * new kind of device for the libraries is a new plat.h call family.
 */
#ifndef IPCSIM_KINDS_DEVTYPE_H
#define IPCSIM_KINDS_DEVTYPE_H

#include "build.h"
#include "kind.h" // BIG, TINY for rules

#include "ipcsim/conf.h"

#include <string>

namespace ipcsim
{

struct DevType {
    const char *name;              // the `type:` value
    const char *api;               // the plat.h device it implements
    const struct conf_rule *rules; // its keys, paths "devices.*.<key>"
    // Its block for device `name` (section n, checked) behind a crossbar
    // port of link_MBps or on the device bus.
    sc_core::sc_module *(*build)(Build &b, const std::string &name, const struct conf_node *n,
                                 double link_MBps);
};

// The device types this build knows, NULL-terminated (registry.cpp).
extern const DevType *const devtypes[];
const DevType *devtype_find(const char *name);

// The number at key (a dotted path) of a device's section; throws if absent.
double dev_param(const struct conf_node *dev, const char *key);
// The same, dflt if absent.
double dev_param_or(const struct conf_node *dev, const char *key, double dflt);

} // namespace ipcsim

#endif
