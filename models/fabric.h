/*
 * models/fabric.h -- what the plat_* glue asks of a platform's interconnect,
 * whatever it is (the crossbar of xbar.h, the HIBI segment of hibi.h).
 */
#ifndef IPCSIM_MODELS_FABRIC_H
#define IPCSIM_MODELS_FABRIC_H

namespace ipcsim
{

class Vcd;

class Fabric
{
  public:
    virtual ~Fabric() = default;
    // p lies in `core`'s own tile (its local or private memory): the core
    // reaches it without crossing the interconnect.
    virtual bool near(const void *p, int core) const = 0;
    // Add the interconnect's signals to the VCD.
    virtual void trace(Vcd &vcd) = 0;
};

} // namespace ipcsim

#endif
