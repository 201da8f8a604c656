// confptr.h -- a loaded conf file that frees itself.
#ifndef IPCSIM_RUNNER_CONFPTR_H
#define IPCSIM_RUNNER_CONFPTR_H

#include "ipcsim/conf.h"

#include <memory>

struct conf_deleter {
    void operator()(struct conf *c) const { conf_free(c); }
};
using conf_ptr = std::unique_ptr<struct conf, conf_deleter>;

#endif
