// params.h -- what `ipcsim params` knows of a platform file that others need.
#ifndef IPCSIM_RUNNER_PARAMS_H
#define IPCSIM_RUNNER_PARAMS_H

#include <string>
#include <vector>

// The keys of a platform file whose source comment says FITTED (the
// `fitted` column of ipcsim params), in file order.
std::vector<std::string> fitted_keys(const std::string &platform_file);

#endif
