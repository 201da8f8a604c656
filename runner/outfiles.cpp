// outfiles.cpp -- temporary names, rename on commit, cleanup on failure and
// on SIGINT/SIGTERM (so an interrupted `make -j results` leaves no debris).
#include "outfiles.h"
#include "cli.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace
{

// Temporaries the signal handler removes: fixed storage, since a handler may
// only call async-signal-safe functions (unlink).
constexpr int MAX_TEMPS = 256;
char temps[MAX_TEMPS][4096];
volatile sig_atomic_t ntemps = 0;

void on_signal(int sig)
{
    for (int i = 0; i < ntemps; i++)
        if (temps[i][0]) unlink(temps[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

void track(const std::string &path)
{
    static bool installed = false;
    if (!installed) {
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
        signal(SIGHUP, on_signal);
        installed = true;
    }
    if (ntemps < MAX_TEMPS && path.size() < sizeof temps[0]) {
        snprintf(temps[ntemps], sizeof temps[0], "%s", path.c_str());
        ntemps = ntemps + 1;
    }
}

void untrack(const std::string &path)
{
    for (int i = 0; i < ntemps; i++)
        if (path == temps[i]) temps[i][0] = '\0';
}

} // namespace

out_files::out_files(std::string dir) : dir_(std::move(dir))
{
    if (dir_.empty()) dir_ = ".";
}

out_files::~out_files()
{
    for (const auto &f : files_) {
        unlink(f.first.c_str());
        untrack(f.first);
    }
    for (const std::string &s : scratch_) {
        unlink(s.c_str());
        untrack(s);
    }
}

// "DIR/x.csv" -> "x.csv"
static std::string fs_name(const std::string &path)
{
    return std::filesystem::path(path).filename().string();
}

std::string out_files::temp(const std::string &name)
{
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) fail(dir_ + ": cannot create the directory: " + ec.message());
    std::string path = dir_ + "/" + name + ".XXXXXX.tmp";
    std::vector<char> buf(path.begin(), path.end());
    buf.push_back('\0');
    int fd = mkstemps(buf.data(), 4);
    if (fd < 0) fail(dir_ + "/" + name + ": cannot create: " + strerror(errno));
    close(fd);
    track(buf.data());
    return buf.data();
}

std::string out_files::add(const std::string &name)
{
    std::string t = temp(name);
    files_.emplace_back(t, dir_ + "/" + name);
    return t;
}

std::string out_files::scratch(const std::string &name)
{
    std::string t = temp(name);
    scratch_.push_back(t);
    return t;
}

void out_files::write(const std::string &name, const std::string &text)
{
    std::string t = add(name);
    FILE *f = fopen(t.c_str(), "wb");
    if (!f) fail(t + ": cannot write: " + strerror(errno));
    size_t n = fwrite(text.data(), 1, text.size(), f);
    bool bad = n != text.size() || ferror(f);
    if (fclose(f) != 0 || bad) fail(dir_ + "/" + name + ": cannot write: " + strerror(errno));
}

// Each final name that holds a file is first kept under a temporary name
// (a hard link, so the name never goes missing), then the new files are
// renamed in order; when a rename fails, the ones already done are undone
// and every kept file goes back: the directory holds either all the new
// files or what it held before (the CSV and its .meta.yaml always match).
void out_files::commit()
{
    mode_t um = umask(0);
    umask(um);
    std::vector<std::string> kept(files_.size()); // "": the name held no file
    for (size_t i = 0; i < files_.size(); i++) {
        const std::string &final = files_[i].second;
        struct stat st;
        if (lstat(final.c_str(), &st) != 0 || S_ISDIR(st.st_mode)) continue;
        std::string k = temp(fs_name(final) + ".old");
        unlink(k.c_str());
        // No hard links on this file system: move it aside instead.
        if (link(final.c_str(), k.c_str()) != 0 && rename(final.c_str(), k.c_str()) != 0) {
            undo(kept, 0);
            fail(final + ": cannot keep the previous file: " + strerror(errno));
        }
        kept[i] = k;
    }
    for (size_t i = 0; i < files_.size(); i++) {
        // mkstemps made it 0600; results are ordinary files.
        chmod(files_[i].first.c_str(), 0666 & ~um);
        if (rename(files_[i].first.c_str(), files_[i].second.c_str()) != 0) {
            int e = errno;
            undo(kept, i);
            fail(files_[i].second + ": cannot rename " + files_[i].first + ": " + strerror(e) +
                 " (nothing was replaced)");
        }
        untrack(files_[i].first);
    }
    for (const std::string &k : kept)
        if (!k.empty()) {
            unlink(k.c_str());
            untrack(k);
        }
    files_.clear();
    for (const std::string &s : scratch_) {
        unlink(s.c_str());
        untrack(s);
    }
    scratch_.clear();
}

// Undo the first `done` renames of commit(), then put back what was kept.
void out_files::undo(const std::vector<std::string> &kept, size_t done)
{
    for (size_t i = 0; i < done; i++)
        if (kept[i].empty()) unlink(files_[i].second.c_str());
    for (size_t i = 0; i < kept.size(); i++)
        if (!kept[i].empty()) {
            // A name not renamed yet still holds the file: renaming its hard
            // link onto it does nothing, so the link is removed as well.
            rename(kept[i].c_str(), files_[i].second.c_str());
            unlink(kept[i].c_str());
            untrack(kept[i]);
        }
}
