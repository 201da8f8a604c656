// trace.cpp -- VCD of busy flags and lanes; the per-core busy chart's files.
#include "trace.h"
#include "../models/core.h"
#include "../models/kernel.h"

#include <cstdio>
#include <cstring>

using namespace sc_core;

namespace ipcsim
{

static std::string path(const std::string &dir, const std::string &stem)
{
    return (dir.empty() ? std::string(".") : dir) + "/" + stem;
}

sc_trace_file *trace_open(Kernel &top, const std::string &dir, const std::string &stem)
{
    sc_trace_file *tf = sc_create_vcd_trace_file(path(dir, stem).c_str());
    tf->set_time_unit(1, SC_NS);
    top.trace_vcd(tf);
    top.tracing = true;
    return tf;
}

// SystemC writes the wall-clock date into the VCD: drop it, so that the same
// run gives the same file.
static void undate(const std::string &vcd)
{
    FILE *in = fopen(vcd.c_str(), "r");
    if (!in) return;
    std::string tmp = vcd + ".tmp";
    FILE *out = fopen(tmp.c_str(), "w");
    if (!out) {
        fclose(in);
        return;
    }
    char line[4096];
    bool in_date = false, dropped = false;
    while (!dropped && fgets(line, sizeof line, in)) {
        if (!in_date && strncmp(line, "$date", 5) == 0) {
            in_date = true;
        } else if (in_date) {
            if (strncmp(line, "$end", 4) == 0) in_date = false, dropped = true;
        } else {
            fputs(line, out);
        }
    }
    if (fgets(line, sizeof line, in) && line[0] != '\n') fputs(line, out); // the blank after it
    size_t n;
    char buf[65536];
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
    fclose(in);
    if (fclose(out) == 0) rename(tmp.c_str(), vcd.c_str());
}

int trace_close(Kernel &top, sc_trace_file *tf, const std::string &dir, const std::string &stem,
                uint64_t end_ps, std::string &err)
{
    std::string base = path(dir, stem);
    if (tf) {
        sc_close_vcd_trace_file(tf);
        undate(base + ".vcd");
    }
    FILE *f = fopen((base + ".busy.dat").c_str(), "w");
    if (!f) {
        err = "cannot write " + base + ".busy.dat";
        return -1;
    }
    fprintf(f, "# core start_ns end_ns (busy: charged work or its own transactions)\n");
    bool any = false;
    for (int i = 0; i < top.cores(); i++)
        for (const auto &iv : top.core(i).busy_log) {
            uint64_t end = iv.second == NEVER ? end_ps : iv.second;
            fprintf(f, "%d %.3f %.3f\n", i, iv.first / 1e3, end / 1e3);
            any = true;
        }
    if (!any) fprintf(f, "0 0 0\n"); // gnuplot refuses an empty file
    fclose(f);

    // Time axis in the unit that keeps the numbers readable.
    double end_ns = end_ps / 1e3, scale = 1;
    const char *unit = "ns";
    if (end_ns >= 1e7)
        scale = 1e6, unit = "ms";
    else if (end_ns >= 1e4)
        scale = 1e3, unit = "us";
    std::string dat = stem + ".busy.dat", png = stem + ".busy.png";
    f = fopen((base + ".busy.gp").c_str(), "w");
    if (!f) {
        err = "cannot write " + base + ".busy.gp";
        return -1;
    }
    int n = top.cores();
    fprintf(f, "# gnuplot %s.busy.gp (from %s/): the busy chart of the run\n", stem.c_str(),
            dir.empty() ? "." : dir.c_str());
    fprintf(f, "set terminal pngcairo size 1000,%d font ',10'\n", 120 + 30 * n);
    fprintf(f, "set output '%s'\n", png.c_str());
    fprintf(f, "set title 'Busy cores (%s)'\n", top.file());
    fprintf(f, "set xlabel 'simulated time (%s)'\n", unit);
    fprintf(f, "set xrange [0:%g]\n", end_ns > 0 ? end_ns / scale : 1.0);
    fprintf(f, "set yrange [%g:-0.5]\n", n - 0.5);
    fprintf(f, "set ytics (");
    for (int i = 0; i < n; i++) {
        uint64_t busy = 0;
        for (const auto &iv : top.core(i).busy_log)
            busy += (iv.second == NEVER ? end_ps : iv.second) - iv.first;
        fprintf(f, "%s'core %d (%.0f%%%% busy)' %d", i ? ", " : "", i,
                end_ps ? 100.0 * (double)busy / (double)end_ps : 0.0, i);
    }
    // A border keeps even the shortest busy spell visible.
    fprintf(f, ")\nset style fill solid 1.0 border lc rgb '#2f6fb0'\nunset key\nset grid xtics\n");
    fprintf(f,
            "plot '%s' using (($2+$3)/2/%g):1:(($3-$2)/2/%g):(0.35) with boxxyerror "
            "lc rgb '#2f6fb0'\n",
            dat.c_str(), scale, scale);
    fclose(f);

    std::string cmd = "cd '" + (dir.empty() ? std::string(".") : dir) + "' && gnuplot '" + stem +
                      ".busy.gp' 2>&1";
    FILE *p = popen(cmd.c_str(), "r");
    if (!p) {
        err = "cannot run gnuplot";
        return -1;
    }
    std::string out;
    char buf[256];
    while (fgets(buf, sizeof buf, p)) out += buf;
    if (pclose(p) != 0) {
        err = "gnuplot failed on " + base + ".busy.gp: " + out;
        return -1;
    }
    return 0;
}

} // namespace ipcsim
