/*
 * models/fabric.h -- what the plat_* glue asks of a platform's interconnect,
 * whatever it is (the crossbar of xbar.h, the HIBI segment of hibi.h).
 */
#ifndef IPCSIM_MODELS_FABRIC_H
#define IPCSIM_MODELS_FABRIC_H

namespace sc_core
{
class sc_trace_file;
}

namespace ipcsim
{

class Fabric
{
  public:
    virtual ~Fabric() = default;
    // p lies in `core`'s own tile (its local or private memory): the core
    // reaches it without crossing the interconnect.
    virtual bool near(const void *p, int core) const = 0;
    // Add the interconnect's signals to the VCD.
    virtual void trace(sc_core::sc_trace_file *tf) const = 0;
};

} // namespace ipcsim

#endif
