// isolate.cpp -- run_app in a child process; its result back over a pipe.
#include "isolate.h"
#include "cli.h"
#include "progress.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <sys/wait.h>
#include <unistd.h>

namespace
{

// The pipe's records: a tag, then strings (32-bit length, bytes) and
// numbers (the double's bytes: the same host, so no conversion and no loss).
enum : char {
    T_SECONDS = 'T', // num
    T_POINT = 'P',   // series, x, unit, value
    T_FAILURE = 'F', // an app_fail reason with its cores
    T_ERROR = 'E',   // a cli_error's message
    T_INTERNAL = 'X',
    T_END = 'Z', // the child finished: anything short of it is a death
};

void put_str(std::string &b, const std::string &s)
{
    uint32_t n = (uint32_t)s.size();
    b.append(reinterpret_cast<const char *>(&n), sizeof n);
    b += s;
}

void put_num(std::string &b, double v)
{
    b.append(reinterpret_cast<const char *>(&v), sizeof v);
}

struct reader {
    const std::string &b;
    size_t pos = 0;
    bool ok = true;

    bool take(void *out, size_t n)
    {
        if (!ok || b.size() - pos < n) return ok = false;
        memcpy(out, b.data() + pos, n);
        pos += n;
        return true;
    }
    std::string str()
    {
        uint32_t n = 0;
        if (!take(&n, sizeof n) || b.size() - pos < n) {
            ok = false;
            return "";
        }
        pos += n;
        return b.substr(pos - n, n);
    }
    double num()
    {
        double v = 0;
        take(&v, sizeof v);
        return v;
    }
};

// The child's side: run, encode, never return.
[[noreturn]] void child(int fd, const scenario &s, run_opts o, bool progress_on,
                        const std::string &label)
{
    std::string b;
    try {
        progress prog(progress_on, label);
        o.prog = prog.active() ? &prog : nullptr;
        auto t0 = std::chrono::steady_clock::now();
        app_result res = run_app(s, o);
        std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
        prog.stop();
        b += T_SECONDS;
        put_num(b, dt.count());
        for (const point &p : res.points) {
            b += T_POINT;
            put_str(b, p.series);
            put_str(b, p.x);
            put_str(b, p.unit);
            put_num(b, p.value);
        }
        for (const std::string &f : res.failures) {
            b += T_FAILURE;
            put_str(b, f);
        }
    } catch (const cli_error &e) {
        b += T_ERROR;
        put_str(b, e.what());
    } catch (const std::exception &e) {
        b += T_INTERNAL;
        put_str(b, e.what());
    }
    b += T_END;
    for (size_t off = 0; off < b.size();) {
        ssize_t n = write(fd, b.data() + off, b.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) _exit(3);
        off += (size_t)n;
    }
    fflush(stdout); // what the app or the models printed
    fflush(stderr);
    _exit(0); // not exit(): the parent's atexit handlers and buffers are the parent's
}

std::string read_all(int fd)
{
    std::string b;
    char buf[65536];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        b.append(buf, (size_t)n);
    }
    return b;
}

// "exit status 3", "signal 11 (Segmentation fault)"
std::string how_it_ended(int status)
{
    if (WIFSIGNALED(status))
        return strf("signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    return strf("exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

} // namespace

app_result run_app_isolated(const scenario &s, const run_opts &o, bool progress_on,
                            const std::string &label, const std::string &who, double *host_seconds)
{
    int fds[2];
    if (pipe(fds) != 0) fail(who + ": cannot create a pipe: " + strerror(errno));
    fflush(stdout); // else the child's exit would print what is buffered twice
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        fail(who + ": cannot start its process: " + strerror(e));
    }
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], s, o, progress_on, label);
    }
    close(fds[1]);
    std::string b = read_all(fds[0]);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }

    app_result res;
    reader r{b};
    bool ended = false;
    std::string error, internal;
    while (r.ok && r.pos < b.size() && !ended) {
        char tag = b[r.pos++];
        if (tag == T_SECONDS) {
            *host_seconds = r.num();
        } else if (tag == T_POINT) {
            std::string series = r.str(), x = r.str(), unit = r.str();
            double value = r.num();
            res.points.push_back(point{series, x, unit, value});
        } else if (tag == T_FAILURE) {
            res.failures.push_back(r.str());
        } else if (tag == T_ERROR) {
            error = r.str();
        } else if (tag == T_INTERNAL) {
            internal = r.str();
        } else {
            ended = tag == T_END;
            r.ok = ended;
        }
    }
    if (!ended || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail(who + ": its run's process ended with " + how_it_ended(status) +
             " before its results were read");
    if (!error.empty()) fail(error);
    if (!internal.empty()) throw std::runtime_error(internal);
    return res;
}
