// simspeed.cpp -- how much host time the sim backend spends per simulated
// operation, measured against the floor: one bare SystemC wait().
//
// On the ideal platform, core 0 DMAs DMA_BYTES to core 1's local memory and
// waits for completion, DMA_BATCH times per round. In the same run, two
// SC_THREADs spawned from inside the simulation hand control back and forth
// with sc_events, WAIT_BATCH waits per round. Rounds interleave both, so host
// noise hits both alike. Prints CSV rows metric,value,unit: medians over the
// rounds (plus min and max) and the ratio of the medians.
//
//   build/bench/simspeed     (IPCSIM_ROOT: where platforms/ is, default .)
#ifndef SC_INCLUDE_DYNAMIC_PROCESSES
#define SC_INCLUDE_DYNAMIC_PROCESSES // sc_spawn
#endif
#include <systemc>

#define BENCH_NAME "bench/simspeed"
#include "bench.h"
#include "ipcsim/conf.h"
#include "ipcsim/plat.h"
#include "ipcsim/run.h"

#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

using namespace sc_core;

namespace
{

const int ROUNDS = 9;
const int DMA_BATCH = 20000;
const int WAIT_BATCH = 200000; // wait() calls per round
const size_t DMA_BYTES = 256;  // one burst on the ideal crossbar

std::vector<double> dma_ns, wait_ns;
double dma_sim_ns;

double host_ns()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

// Two threads alternate: each loop is one wait() in each.
struct PingPong {
    sc_event a, b, done;
    int n = 0;
    void pinger()
    {
        wait(SC_ZERO_TIME); // the ponger waits by now
        for (int i = 0; i < n; i++) {
            b.notify();
            wait(a);
        }
        done.notify();
    }
    void ponger()
    {
        for (int i = 0; i < n; i++) {
            wait(b);
            a.notify();
        }
    }
};

double round_of_waits()
{
    static PingPong pp; // the processes may outlive this call by a delta
    pp.n = WAIT_BATCH / 2;
    double t0 = host_ns();
    sc_spawn(sc_bind(&PingPong::ponger, &pp));
    sc_spawn(sc_bind(&PingPong::pinger, &pp));
    wait(pp.done);
    return (host_ns() - t0) / WAIT_BATCH;
}

double round_of_dmas(void *dst, const void *src)
{
    plat_dma d;
    uint64_t s0 = plat_now_ns();
    double t0 = host_ns();
    for (int i = 0; i < DMA_BATCH; i++) {
        plat_dma_start(&d, dst, src, DMA_BYTES, 0, 0, 0);
        plat_dma_wait(&d, PLAT_FOREVER);
    }
    double per = (host_ns() - t0) / DMA_BATCH;
    dma_sim_ns = (double)(plat_now_ns() - s0) / DMA_BATCH;
    return per;
}

void entry(void *)
{
    uint64_t *board = (uint64_t *)plat_shared_map("simspeed", 64, nullptr, nullptr);
    if (plat_core() == 1) {
        plat_store64(board, (uint64_t)(uintptr_t)plat_local_alloc(DMA_BYTES, 64));
        return;
    }
    if (plat_core() != 0) return;
    while (plat_poll64(board, 0, PLAT_FOREVER) != PLAT_OK) {
    }
    void *dst = (void *)(uintptr_t)plat_load64(board);
    void *src = plat_local_alloc(DMA_BYTES, 64);
    round_of_dmas(dst, src); // warm-up
    round_of_waits();
    for (int r = 0; r < ROUNDS; r++) {
        dma_ns.push_back(round_of_dmas(dst, src));
        wait_ns.push_back(round_of_waits());
    }
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void row(const char *metric, double v, const char *unit)
{
    printf("%s,%.3f,%s\n", metric, v, unit);
}

} // namespace

int main(int argc, char **argv)
{
    bench_args(argc, argv,
               "Host time per simulated DMA transfer on the ideal platform against one\n"
               "bare SystemC wait(), interleaved round by round (IPCSIM_ROOT: where\n"
               "platforms/ is, default .). Metrics: the header of bench/simspeed.cpp.\n");
    // One host CPU: no migrations in the middle of a measurement.
    cpu_set_t set;
    CPU_ZERO(&set);
    int cpu = sched_getcpu();
    CPU_SET(cpu < 0 ? 0 : cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) perror("simspeed: sched_setaffinity");

    const char *root = getenv("IPCSIM_ROOT");
    std::string path = std::string(root && *root ? root : ".") + "/platforms/ideal.yaml";
    char err[1024];
    struct conf *c = conf_load(path.c_str(), err, sizeof err);
    if (!c) {
        fprintf(stderr, "simspeed: %s\n", err);
        return 1;
    }
    struct plat_run r = {};
    r.backend = PLAT_SIM;
    r.platform = c;
    r.entry = entry;
    r.seed = 1;
    if (plat_run(&r, err, sizeof err) != 0) {
        fprintf(stderr, "simspeed: %s\n", err);
        return 1;
    }
    double dma = median(dma_ns), w = median(wait_ns);
    printf("metric,value,unit\n");
    row("dma_host_ns_median", dma, "ns");
    row("dma_host_ns_min", *std::min_element(dma_ns.begin(), dma_ns.end()), "ns");
    row("dma_host_ns_max", *std::max_element(dma_ns.begin(), dma_ns.end()), "ns");
    row("wait_host_ns_median", w, "ns");
    row("wait_host_ns_min", *std::min_element(wait_ns.begin(), wait_ns.end()), "ns");
    row("wait_host_ns_max", *std::max_element(wait_ns.begin(), wait_ns.end()), "ns");
    row("dma_per_wait", dma / w, "ratio");
    row("dma_simulated_ns", dma_sim_ns, "ns");
    row("dma_bytes", (double)DMA_BYTES, "B");
    row("rounds", ROUNDS, "count");
    conf_free(c);
    return 0;
}
