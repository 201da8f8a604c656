// outfiles.h -- all-or-nothing output: files are written under temporary
// names in their directory and renamed only when everything succeeded; a
// rename that fails puts back what the names held.
#ifndef IPCSIM_RUNNER_OUTFILES_H
#define IPCSIM_RUNNER_OUTFILES_H

#include <string>
#include <vector>

class out_files
{
  public:
    explicit out_files(std::string dir);
    ~out_files(); // removes whatever was not committed
    out_files(const out_files &) = delete;
    out_files &operator=(const out_files &) = delete;

    // A new empty temporary file (DIR/<name>.XXXXXX.tmp) that commit() renames
    // to DIR/<name>. Returns the temporary path. Creates DIR when needed.
    std::string add(const std::string &name);
    // add() and fill it with text.
    void write(const std::string &name, const std::string &text);
    // A temporary file that is removed, never renamed (scripts, logs).
    std::string scratch(const std::string &name);
    // Rename every added file to its final name, all or nothing: when one
    // rename fails, the names hold what they held before (cli_error). Scratch
    // files go.
    void commit();

    const std::string &dir() const { return dir_; }

  private:
    std::string temp(const std::string &name);
    void undo(const std::vector<std::string> &kept, size_t done);

    std::string dir_;
    std::vector<std::pair<std::string, std::string>> files_; // temporary, final
    std::vector<std::string> scratch_;
};

#endif
