/*
 * kinds/list.h -- the platform kinds and device types this build knows.
 *
 * Adding one is one line here and a file of its own: a kind `foo` is
 * kinds/foo.cpp defining `const PlatKind foo_kind` (kind.h); a device type
 * `bar` is kinds/devices/bar_dev.cpp defining `const DevType bar_dev`
 * (devtype.h). The order is the order of the "known: ..." lists in error
 * messages.
 */
#ifndef IPCSIM_KINDS_LIST_H
#define IPCSIM_KINDS_LIST_H

// clang-format off
#define IPCSIM_KINDS(X) \
    X(ideal)            \
    X(funbase)          \
    X(sw26010)          \
    X(mpc8640_srio)     \
    X(keystone_c6678)   \
    /* end of list */

#define IPCSIM_DEVTYPES(X) \
    X(hwq)                 \
    X(mesh)                \
    X(accel)               \
    X(stream)              \
    X(tcp)                 \
    /* end of list */
// clang-format on

#endif
