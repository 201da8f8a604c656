// paths.h -- where ipcsim finds its data and how it names files.
#ifndef IPCSIM_RUNNER_PATHS_H
#define IPCSIM_RUNNER_PATHS_H

#include <string>

// The directory that holds platforms/ and scenarios/: $IPCSIM_ROOT if set,
// else the first of <exe dir>/.., <exe dir>/../.., ... (four levels, so that
// build trees like build/asan/ipcsim work) that has them, where an installed
// tree keeps them in share/ipcsim. Throws cli_error when there is none.
std::string data_root();

// "dir/sub/name.yaml" -> "name"
std::string file_stem(const std::string &path);
// "dir/sub/name.yaml" -> "sub" (the scenario's group); "" for a bare name
std::string file_group(const std::string &path);
// "dir/sub/name.yaml" -> "dir/sub"; "." for a bare name
std::string file_dir(const std::string &path);
// path as short as possible for messages: relative to the working directory
// when below it, else as is.
std::string display_path(const std::string &path);
// The whole file; cli_error "PATH: cannot open: <why><hint>" if it cannot be read.
std::string read_text(const std::string &path, const std::string &hint = "");
bool is_file(const std::string &path);
bool is_dir(const std::string &path);
// The path of an executable found on $PATH, "" if none.
std::string find_program(const std::string &name);

#endif
