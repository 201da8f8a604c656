// registry.cpp -- the tables of platform kinds and device types (list.h).
#include "devtype.h"
#include "kind.h"
#include "list.h"

#include <cstring>

namespace ipcsim
{

#define DECLARE_KIND(k) extern const PlatKind k##_kind;
#define DECLARE_DEVTYPE(t) extern const DevType t##_dev;
IPCSIM_KINDS(DECLARE_KIND)
IPCSIM_DEVTYPES(DECLARE_DEVTYPE)
#undef DECLARE_KIND
#undef DECLARE_DEVTYPE

#define KIND_ENTRY(k) &k##_kind,
#define DEVTYPE_ENTRY(t) &t##_dev,
const PlatKind *const kinds[] = {IPCSIM_KINDS(KIND_ENTRY) nullptr};
const DevType *const devtypes[] = {IPCSIM_DEVTYPES(DEVTYPE_ENTRY) nullptr};
#undef KIND_ENTRY
#undef DEVTYPE_ENTRY

const PlatKind *kind_find(const char *name)
{
    for (size_t i = 0; name && kinds[i]; i++)
        if (strcmp(kinds[i]->name, name) == 0) return kinds[i];
    return nullptr;
}

const DevType *devtype_find(const char *name)
{
    for (size_t i = 0; name && devtypes[i]; i++)
        if (strcmp(devtypes[i]->name, name) == 0) return devtypes[i];
    return nullptr;
}

} // namespace ipcsim
