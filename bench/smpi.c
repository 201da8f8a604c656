/*
 * smpi.c -- ipcsim against SimGrid SMPI on the same OSU-compatible programs
 * (issue 15 item 9; docs/smpi.md).
 *
 *   ipcsim  BUILD/ipcsim run SCEN --out DIR on an osu_latency and an osu_bw
 *           scenario: our models, per packet and per slot.
 *   smpi    BUILD/osu-ref/smpi/<prog> (mpi_lite/osu/ built with smpicc),
 *           smpirun -np 2 on a two-host platform written here: one
 *           full-duplex link whose latency is ipcsim's one-way latency at the
 *           smallest size and whose bandwidth is ipcsim's osu_bw plateau (its
 *           largest size), SMPI's factors 1, computation not simulated.
 *
 * Both run the same OSU arguments (the scenario's workload.args.args, or
 * --lat-args/--bw-args, which are then also given to ipcsim as --set
 * args.args=...), so both simulate the same iterations and their host
 * seconds compare. ROUNDS rounds, each ipcsim latency, ipcsim bandwidth,
 * SMPI latency, SMPI bandwidth; every run is a process, timed from fork to
 * exit (CLOCK_MONOTONIC). Both simulators are deterministic: the curves of
 * every round must equal the first round's (rounds_identical).
 *
 * Output: CSV `metric,value,unit` on stdout (make bench: results/bench/smpi.csv)
 *   link_latency_us, link_bw_MBps   the SMPI link derived from ipcsim's curves
 *   lat_<ipcsim|smpi>_<size>        osu_latency's column, us
 *   lat_diff_pct_<size>             (smpi - ipcsim) / ipcsim, %
 *   bw_<ipcsim|smpi>_<size>, bw_diff_pct_<size>   osu_bw's column, MB/s
 *   host_s_<ipcsim|smpi>_<prog>     host seconds of one run: median, _min, _max
 *   cpu_s_<sim>_<prog>              CPU seconds (user + system) of one run,
 *                                   median
 *   smpi_engine_s_<prog>            SMPI's own "simulation took" (after
 *                                   parsing and platform setup), median
 *   ratio_host_<prog>, ratio_cpu_<prog>   median ipcsim / median smpi (below
 *                                   1: ipcsim is faster)
 *
 * Usage: bench/smpi [options]   (BUILD is where this program sits: BUILD/bench/smpi)
 */
#define _GNU_SOURCE
#define BENCH_NAME "bench/smpi"
#include "bench.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml.h>

#define DEFAULT_ROUNDS 3
#define DEFAULT_LAT_SCEN "scenarios/mpc8640_srio/osu_latency.yaml"
#define DEFAULT_BW_SCEN "scenarios/mpc8640_srio/osu_bw.yaml"
#define DEFAULT_LAT_SERIES "latency_us"
#define DEFAULT_BW_SERIES "bandwidth_MBps"
#define DEFAULT_EAGER 16384 /* mpi_lite's eager_max (docs/mpi_lite.md) */
#define RUN_TIMEOUT_S 600   /* one simulator run; a hang fails the bench */
#define MAX_POINTS 64
#define MAX_SETS 16
#define MAX_ARGV 64
#define OUT_BYTES (1 << 20)

enum sim { IPCSIM, SMPI, NSIM };
static const char *const sim_name[NSIM] = {"ipcsim", "smpi"};
enum prog { LAT, BW, NPROG };
static const char *const prog_name[NPROG] = {"osu_latency", "osu_bw"};
static const char *const prog_what[NPROG] = {"lat", "bw"};
static const char *const prog_unit[NPROG] = {"us", "MB/s"};

struct curve {
    int n;
    size_t x[MAX_POINTS];
    double v[MAX_POINTS];
};

static struct {
    char build[PATH_MAX];
    char tmp[PATH_MAX];
    const char *smpirun;
    const char *scen[NPROG], *series[NPROG], *args[NPROG];
    bool args_given[NPROG];
    const char *set[MAX_SETS];
    int nset;
    long eager;
    int rounds;
    bool keep;
    struct curve curve[NSIM][NPROG];
    double host_s[NSIM][NPROG][BENCH_MAX_ROUNDS];
    double cpu_s[NSIM][NPROG][BENCH_MAX_ROUNDS];
    double engine_s[NPROG][BENCH_MAX_ROUNDS];
    bool engine_seen[NPROG];
    bool identical;
    double link_lat_us, link_bw_MBps;
    volatile pid_t child;
} g;

__attribute__((format(printf, 2, 3), noreturn)) static void die(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, BENCH_NAME ": ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    /* What the runs left is what explains the failure. */
    if (g.tmp[0]) fprintf(stderr, BENCH_NAME ": its files are kept in %s\n", g.tmp);
    exit(status);
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = BENCH_NAME ": a run took over 600 s: killed\n";
    if (g.child > 0) kill(-g.child, SIGKILL);
    (void)!write(2, msg, sizeof msg - 1);
    _exit(EXIT_FAILURE);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: bench/smpi [options]\n"
            "  ipcsim against SimGrid SMPI on the OSU-compatible osu_latency and osu_bw:\n"
            "  ipcsim runs the two scenarios, SMPI the same programs (built with smpicc)\n"
            "  on a two-host link with ipcsim's latency and bandwidth; CSV on stdout\n"
            "  (docs/smpi.md).\n"
            "  -l SCEN           the osu_latency scenario (default %s)\n"
            "  -b SCEN           the osu_bw scenario (default %s)\n"
            "  --lat-series S    ipcsim's latency series (default %s)\n"
            "  --bw-series S     ipcsim's bandwidth series (default %s)\n"
            "  --lat-args ARGS   osu_latency's arguments for both simulators (default:\n"
            "                    the scenario's workload.args.args; given, ipcsim gets\n"
            "                    --set args.args=ARGS)\n"
            "  --bw-args ARGS    osu_bw's arguments, likewise\n"
            "  -s KEY=VALUE      an ipcsim --set for both scenarios (repeatable)\n"
            "  -e BYTES          SMPI's eager limit: smpi/send-is-detached-thresh and\n"
            "                    smpi/async-small-thresh (default %d, mpi_lite's eager_max)\n"
            "  -r ROUNDS         runs of each simulator and program (1 .. %d, default %d)\n"
            "  -k                keep the temporary directory (platform XML, outputs)\n"
            "Exit status: 0 ok, 1 a run failed, 2 a usage error or something missing.\n",
            DEFAULT_LAT_SCEN, DEFAULT_BW_SCEN, DEFAULT_LAT_SERIES, DEFAULT_BW_SERIES, DEFAULT_EAGER,
            BENCH_MAX_ROUNDS, DEFAULT_ROUNDS);
}

__attribute__((noreturn)) static void bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, BENCH_NAME ": ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    usage(stderr);
    exit(2);
}

static long whole(const char *opt, const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, BENCH_NAME ": %s %s: expected a whole number %ld .. %ld\n", opt, s, lo, hi);
        usage(stderr);
        exit(2);
    }
    return v;
}

static void options(int argc, char **argv)
{
    g.scen[LAT] = DEFAULT_LAT_SCEN;
    g.scen[BW] = DEFAULT_BW_SCEN;
    g.series[LAT] = DEFAULT_LAT_SERIES;
    g.series[BW] = DEFAULT_BW_SERIES;
    g.eager = DEFAULT_EAGER;
    g.rounds = DEFAULT_ROUNDS;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        }
        if (strcmp(a, "-k") == 0) {
            g.keep = true;
            continue;
        }
        static const char *const valued[] = {
            "-l", "-b", "--lat-series", "--bw-series", "--lat-args", "--bw-args", "-s", "-e", "-r"};
        bool known = false;
        for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
            known |= !strcmp(a, valued[k]);
        if (!known) bad_usage("unknown argument '%s'", a);
        if (i + 1 >= argc) bad_usage("%s needs a value", a);
        const char *v = argv[++i];
        if (!strcmp(a, "-l"))
            g.scen[LAT] = v;
        else if (!strcmp(a, "-b"))
            g.scen[BW] = v;
        else if (!strcmp(a, "--lat-series"))
            g.series[LAT] = v;
        else if (!strcmp(a, "--bw-series"))
            g.series[BW] = v;
        else if (!strcmp(a, "--lat-args"))
            g.args[LAT] = v, g.args_given[LAT] = true;
        else if (!strcmp(a, "--bw-args"))
            g.args[BW] = v, g.args_given[BW] = true;
        else if (!strcmp(a, "-e"))
            g.eager = whole(a, v, 0, 1L << 30);
        else if (!strcmp(a, "-r"))
            g.rounds = (int)whole(a, v, 1, BENCH_MAX_ROUNDS);
        else if (g.nset == MAX_SETS)
            bad_usage("more than 16 -s (at %s)", v);
        else if (!strchr(v, '='))
            bad_usage("-s %s: expected KEY=VALUE", v);
        else
            g.set[g.nset++] = v;
    }
}

/* BUILD: two levels above this program (BUILD/bench/smpi). */
static void find_build(void)
{
    char self[PATH_MAX];
    if (!realpath("/proc/self/exe", self))
        die(2, "cannot resolve /proc/self/exe: %s", strerror(errno));
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(self, '/');
        if (!slash || slash == self) die(2, "%s is not BUILD/bench/smpi", self);
        *slash = '\0';
    }
    snprintf(g.build, sizeof g.build, "%s", self);
}

/* The first `name` on PATH that is executable, or NULL. */
static const char *on_path(const char *name)
{
    static char found[PATH_MAX];
    const char *path = getenv("PATH");
    if (!path) return NULL;
    for (const char *p = path;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        int n = snprintf(found, sizeof found, "%.*s/%s", (int)len, len ? p : ".", name);
        if (n > 0 && (size_t)n < sizeof found && access(found, X_OK) == 0) return found;
        if (!colon) return NULL;
        p = colon + 1;
    }
}

/* The scalar at workload.args.args of a scenario, or NULL; *line its line. */
static char *scenario_args(const char *path, int *line)
{
    FILE *f = fopen(path, "rb");
    if (!f) die(2, "%s: cannot open: %s", path, strerror(errno));
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    if (!yaml_parser_load(&parser, &doc))
        die(2, "%s:%zu: not YAML: %s", path, parser.problem_mark.line + 1,
            parser.problem ? parser.problem : "?");
    const char *const keys[] = {"workload", "args", "args"};
    yaml_node_t *node = yaml_document_get_root_node(&doc);
    for (size_t k = 0; node && k < 3; k++) {
        yaml_node_t *next = NULL;
        if (node->type == YAML_MAPPING_NODE)
            for (yaml_node_pair_t *p = node->data.mapping.pairs.start;
                 p < node->data.mapping.pairs.top && !next; p++) {
                yaml_node_t *key = yaml_document_get_node(&doc, p->key);
                if (key && key->type == YAML_SCALAR_NODE &&
                    strcmp((const char *)key->data.scalar.value, keys[k]) == 0)
                    next = yaml_document_get_node(&doc, p->value);
            }
        node = next;
    }
    char *args = NULL;
    if (node && node->type == YAML_SCALAR_NODE) {
        args = strdup((const char *)node->data.scalar.value);
        *line = (int)node->start_mark.line + 1;
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    fclose(f);
    return args;
}

/* Everything the runs need, or exit 2 naming what is missing: the
 * scenarios and their arguments first (they do not depend on this machine),
 * then SMPI and what make builds. */
static void check_inputs(void)
{
    for (int p = 0; p < NPROG; p++) {
        const char *dflt = p == LAT ? DEFAULT_LAT_SCEN : DEFAULT_BW_SCEN;
        if (access(g.scen[p], R_OK) != 0)
            die(2, "%s: no such scenario (%s; %s SCEN names another)", g.scen[p],
                strcmp(g.scen[p], dflt) == 0 ? "the default" : "given", p == LAT ? "-l" : "-b");
        if (g.args_given[p]) continue;
        int line = 0;
        char *args = scenario_args(g.scen[p], &line);
        if (!args)
            die(2, "%s: no workload.args.args (the OSU arguments; give %s)", g.scen[p],
                p == LAT ? "--lat-args" : "--bw-args");
        g.args[p] = args;
        fprintf(stderr, BENCH_NAME ": %s:%d: %s %s\n", g.scen[p], line, prog_name[p], args);
    }
    const char *smpirun = on_path("smpirun");
    if (!smpirun)
        die(2, "smpirun is not on PATH: install Debian's libsimgrid-dev (tools/deps.sh install)");
    g.smpirun = strdup(smpirun);
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/ipcsim", g.build);
    if (access(path, X_OK) != 0) die(2, "%s is not built (make all)", path);
    for (int p = 0; p < NPROG; p++) {
        snprintf(path, sizeof path, "%s/osu-ref/smpi/%s", g.build, prog_name[p]);
        if (access(path, X_OK) != 0) die(2, "%s is not built (make osu-ref)", path);
    }
}

/* Run argv (argv[0] an absolute path) with stdout and stderr into the files
 * out and err, and TMPDIR=tmpdir unless NULL; the host seconds from fork to
 * exit, and in *cpu the CPU seconds (user + system) of the run and its
 * children: on a loaded machine the wall clock also counts waiting for a
 * CPU. A failure is fatal. */
static double run_timed(const char *const *argv, const char *out, const char *err,
                        const char *tmpdir, double *cpu)
{
    fflush(NULL);
    uint64_t t0 = now_ns();
    pid_t pid = fork();
    if (pid < 0) die(1, "fork: %s", strerror(errno));
    if (pid == 0) {
        setpgid(0, 0); /* the whole run is killed on a timeout */
        if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr)) _exit(126);
        if (tmpdir) setenv("TMPDIR", tmpdir, 1);
        execv(argv[0], (char *const *)argv);
        fprintf(stderr, BENCH_NAME ": cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    g.child = pid;
    alarm(RUN_TIMEOUT_S);
    int st;
    struct rusage ru;
    while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR) {
    }
    alarm(0);
    g.child = 0;
    double s = (double)(now_ns() - t0) / 1e9;
    *cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, BENCH_NAME ": failed (status %d):", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        for (const char *const *a = argv; *a; a++) fprintf(stderr, " %s", *a);
        fprintf(stderr, "\n  its stdout: %s\n  its stderr: %s (kept)\n", out, err);
        exit(EXIT_FAILURE);
    }
    return s;
}

static char *slurp(const char *path)
{
    static char buf[OUT_BYTES];
    FILE *f = fopen(path, "rb");
    if (!f) die(1, "%s: cannot open: %s", path, strerror(errno));
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void add_point(struct curve *c, size_t x, double v, const char *from)
{
    if (c->n == MAX_POINTS) die(1, "%s: more than %d points", from, MAX_POINTS);
    c->x[c->n] = x;
    c->v[c->n] = v;
    c->n++;
}

/* The rows `series,x,value,...` of the one CSV ipcsim wrote into dir. */
static void read_ipcsim_csv(const char *dir, const char *series, struct curve *c)
{
    DIR *d = opendir(dir);
    if (!d) die(1, "%s: %s", dir, strerror(errno));
    char csv[PATH_MAX + 512] = "";
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".csv") == 0)
            snprintf(csv, sizeof csv, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (!csv[0]) die(1, "%s: ipcsim wrote no CSV", dir);
    char *text = slurp(csv);
    char names[512] = "";
    c->n = 0;
    int lineno = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        lineno++;
        char *comma = strchr(line, ',');
        if (lineno == 1 || !comma) continue;
        *comma = '\0';
        if (strcmp(line, series) != 0) {
            size_t len = strlen(line);
            char *at = strstr(names, line);
            bool listed = at && (at == names || at[-1] == ' ') && (at[len] == ',' || !at[len]);
            if (!listed && strlen(names) + len + 3 < sizeof names)
                strcat(strcat(names, names[0] ? ", " : ""), line);
            continue;
        }
        size_t x;
        double v;
        int at = 0;
        if (sscanf(comma + 1, "%zu,%n", &x, &at) != 1 || at == 0)
            die(1, "%s:%d: not 'series,x,value': %s,%s", csv, lineno, line, comma + 1);
        if (comma[1 + at] == ',') continue; /* a reference point the run did not reach */
        if (sscanf(comma + 1 + at, "%lf", &v) != 1)
            die(1, "%s:%d: not 'series,x,value': %s,%s", csv, lineno, line, comma + 1);
        add_point(c, x, v, csv);
    }
    if (c->n == 0)
        die(2, "%s: no series '%s' (it has: %s; --lat-series/--bw-series name another)", csv,
            series, names[0] ? names : "none");
}

/* OSU's output rows `size value` (comment lines start '#'). */
static void read_osu(const char *path, struct curve *c)
{
    char *text = slurp(path);
    c->n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        size_t x;
        double v;
        if (line[0] != '#' && sscanf(line, "%zu %lf", &x, &v) == 2) add_point(c, x, v, path);
    }
    if (c->n == 0) die(1, "%s: no OSU rows", path);
}

/* SMPI's "The simulation took S seconds" (display-timing), or -1. */
static double engine_seconds(const char *err)
{
    const char *p = strstr(slurp(err), "The simulation took ");
    double s;
    return p && sscanf(p, "The simulation took %lf", &s) == 1 ? s : -1;
}

static bool same_curve(const struct curve *a, const struct curve *b)
{
    if (a->n != b->n) return false;
    for (int i = 0; i < a->n; i++)
        if (a->x[i] != b->x[i] || a->v[i] != b->v[i]) return false;
    return true;
}

static void run_ipcsim(enum prog p, int round)
{
    char ipcsim[PATH_MAX + 16], dir[PATH_MAX + 64], out[PATH_MAX + 80], err[PATH_MAX + 80];
    static char setargs[NPROG][8192];
    snprintf(ipcsim, sizeof ipcsim, "%s/ipcsim", g.build);
    snprintf(dir, sizeof dir, "%s/ipcsim-%s-%d", g.tmp, prog_what[p], round);
    snprintf(out, sizeof out, "%s.out", dir);
    snprintf(err, sizeof err, "%s.err", dir);
    if (mkdir(dir, 0777) != 0) die(1, "mkdir %s: %s", dir, strerror(errno));
    const char *argv[MAX_ARGV];
    int n = 0;
    argv[n++] = ipcsim;
    argv[n++] = "run";
    argv[n++] = g.scen[p];
    argv[n++] = "--out";
    argv[n++] = dir;
    argv[n++] = "--quiet";
    argv[n++] = "--variants"; /* the base run alone: the scenario's SRIO series */
    argv[n++] = "none";
    for (int i = 0; i < g.nset; i++) {
        argv[n++] = "--set";
        argv[n++] = g.set[i];
    }
    if (g.args_given[p]) {
        snprintf(setargs[p], sizeof setargs[p], "args.args=%s", g.args[p]);
        argv[n++] = "--set";
        argv[n++] = setargs[p];
    }
    argv[n] = NULL;
    g.host_s[IPCSIM][p][round] = run_timed(argv, out, err, NULL, &g.cpu_s[IPCSIM][p][round]);
    struct curve c;
    read_ipcsim_csv(dir, g.series[p], &c);
    if (round == 0)
        g.curve[IPCSIM][p] = c;
    else if (!same_curve(&c, &g.curve[IPCSIM][p]))
        g.identical = false;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0)
        die(1, "cannot write %s: %s", path, strerror(errno));
}

/* The two-host platform and its hostfile, from ipcsim's curves: the link
 * has the one-way latency at the smallest size and the bandwidth of the
 * largest size. SPLITDUPLEX: a direction each, as SRIO's lanes (with one
 * shared link SMPI's cross-traffic, 5 % of each flow in the reverse
 * direction, would take 1/1.05 of the bandwidth off a ping-pong). */
static void write_platform(void)
{
    const struct curve *lat = &g.curve[IPCSIM][LAT], *bw = &g.curve[IPCSIM][BW];
    int lo = 0, hi = 0;
    for (int i = 1; i < lat->n; i++)
        if (lat->x[i] < lat->x[lo]) lo = i;
    for (int i = 1; i < bw->n; i++)
        if (bw->x[i] > bw->x[hi]) hi = i;
    g.link_lat_us = lat->v[lo];
    g.link_bw_MBps = bw->v[hi];
    if (!(g.link_lat_us > 0) || !(g.link_bw_MBps > 0))
        die(1, "ipcsim's latency at %zu B (%g us) and bandwidth at %zu B (%g MB/s) must be > 0",
            lat->x[lo], g.link_lat_us, bw->x[hi], g.link_bw_MBps);
    fprintf(stderr,
            BENCH_NAME ": SMPI link: latency %g us (ipcsim at %zu B), bandwidth %g MB/s "
                       "(ipcsim at %zu B)\n",
            g.link_lat_us, lat->x[lo], g.link_bw_MBps, bw->x[hi]);
    char xml[2048], path[PATH_MAX + 32];
    snprintf(xml, sizeof xml,
             "<?xml version='1.0'?>\n"
             "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
             "<!-- written by bench/smpi: the link from ipcsim's curves -->\n"
             "<platform version=\"4.1\">\n"
             "  <zone id=\"zone0\" routing=\"Full\">\n"
             "    <host id=\"host0\" speed=\"1Gf\"/>\n"
             "    <host id=\"host1\" speed=\"1Gf\"/>\n"
             "    <link id=\"link0\" bandwidth=\"%.9gMBps\" latency=\"%.9gus\" "
             "sharing_policy=\"SPLITDUPLEX\"/>\n"
             "    <route src=\"host0\" dst=\"host1\" symmetrical=\"NO\">"
             "<link_ctn id=\"link0\" direction=\"UP\"/></route>\n"
             "    <route src=\"host1\" dst=\"host0\" symmetrical=\"NO\">"
             "<link_ctn id=\"link0\" direction=\"DOWN\"/></route>\n"
             "  </zone>\n"
             "</platform>\n",
             g.link_bw_MBps, g.link_lat_us);
    snprintf(path, sizeof path, "%s/platform.xml", g.tmp);
    write_file(path, xml);
    snprintf(path, sizeof path, "%s/hostfile", g.tmp);
    write_file(path, "host0\nhost1\n");
}

static void run_smpi(enum prog p, int round)
{
    char exe[PATH_MAX + 32], plat[PATH_MAX + 32], hosts[PATH_MAX + 32];
    char out[PATH_MAX + 64], err[PATH_MAX + 64], detached[64], small[64];
    snprintf(exe, sizeof exe, "%s/osu-ref/smpi/%s", g.build, prog_name[p]);
    snprintf(plat, sizeof plat, "%s/platform.xml", g.tmp);
    snprintf(hosts, sizeof hosts, "%s/hostfile", g.tmp);
    snprintf(out, sizeof out, "%s/smpi-%s-%d.out", g.tmp, prog_what[p], round);
    snprintf(err, sizeof err, "%s/smpi-%s-%d.err", g.tmp, prog_what[p], round);
    snprintf(detached, sizeof detached, "--cfg=smpi/send-is-detached-thresh:%ld", g.eager);
    snprintf(small, sizeof small, "--cfg=smpi/async-small-thresh:%ld", g.eager);
    const char *argv[MAX_ARGV];
    int n = 0;
    const char *fixed[] = {g.smpirun,
                           "-np",
                           "2",
                           "-platform",
                           plat,
                           "-hostfile",
                           hosts,
                           "--cfg=smpi/bw-factor:0:1",
                           "--cfg=smpi/lat-factor:0:1",
                           "--cfg=smpi/simulate-computation:no",
                           "--cfg=smpi/display-timing:yes",
                           detached,
                           small,
                           exe};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) argv[n++] = fixed[i];
    /* OSU's arguments are words without quoting: split on blanks. */
    static char words[NPROG][4096];
    snprintf(words[p], sizeof words[p], "%s", g.args[p]);
    for (char *w = strtok(words[p], " \t"); w; w = strtok(NULL, " \t")) {
        if (n == MAX_ARGV - 1) die(2, "%s: too many arguments: %s", prog_name[p], g.args[p]);
        argv[n++] = w;
    }
    argv[n] = NULL;
    /* smpirun copies the program there once per rank. Through TMPDIR, as
     * smpirun 3.32's -tmpdir DIR takes DIR for the program (it shifts one
     * word instead of two). */
    g.host_s[SMPI][p][round] = run_timed(argv, out, err, g.tmp, &g.cpu_s[SMPI][p][round]);
    g.engine_s[p][round] = engine_seconds(err);
    if (g.engine_s[p][round] >= 0) g.engine_seen[p] = true;
    struct curve c;
    read_osu(out, &c);
    if (round == 0)
        g.curve[SMPI][p] = c;
    else if (!same_curve(&c, &g.curve[SMPI][p]))
        g.identical = false;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void print_curves(enum prog p)
{
    const struct curve *ours = &g.curve[IPCSIM][p], *smpi = &g.curve[SMPI][p];
    const char *fmt = "%s_%s_%zu,%.2f,%s\n"; /* OSU prints 2 decimals */
    for (int i = 0; i < ours->n; i++) {
        int j = 0;
        while (j < smpi->n && smpi->x[j] != ours->x[i]) j++;
        if (j == smpi->n)
            die(1,
                "SMPI's %s printed no row for %zu bytes (ipcsim has one: the arguments "
                "differ?)",
                prog_name[p], ours->x[i]);
        printf(fmt, prog_what[p], sim_name[IPCSIM], ours->x[i], ours->v[i], prog_unit[p]);
        printf(fmt, prog_what[p], sim_name[SMPI], ours->x[i], smpi->v[j], prog_unit[p]);
        printf("%s_diff_pct_%zu,%.2f,%%\n", prog_what[p], ours->x[i],
               ours->v[i] != 0 ? (smpi->v[j] - ours->v[i]) / ours->v[i] * 100 : 0.0);
    }
}

int main(int argc, char **argv)
{
    options(argc, argv);
    find_build();
    check_inputs();
    const char *tmpdir = getenv("TMPDIR");
    snprintf(g.tmp, sizeof g.tmp, "%s/bench-smpi.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(g.tmp)) die(1, "mkdtemp %s: %s", g.tmp, strerror(errno));
    signal(SIGALRM, on_alarm);
    g.identical = true;
    for (int r = 0; r < g.rounds; r++) {
        run_ipcsim(LAT, r);
        run_ipcsim(BW, r);
        if (r == 0) write_platform();
        run_smpi(LAT, r);
        run_smpi(BW, r);
        fprintf(stderr, BENCH_NAME ": round %d of %d done\n", r + 1, g.rounds);
    }

    printf("metric,value,unit\n");
    printf("rounds,%d,count\n", g.rounds);
    printf("rounds_identical,%d,bool\n", g.identical ? 1 : 0);
    printf("link_latency_us,%.4f,us\n", g.link_lat_us);
    printf("link_bw_MBps,%.2f,MB/s\n", g.link_bw_MBps);
    printf("smpi_eager_bytes,%ld,B\n", g.eager);
    for (int p = 0; p < NPROG; p++) print_curves((enum prog)p);
    for (int p = 0; p < NPROG; p++) {
        double med[NSIM];
        for (int s = 0; s < NSIM; s++) {
            char name[64];
            snprintf(name, sizeof name, "host_s_%s_%s", sim_name[s], prog_name[p]);
            med[s] = print_stats(name, "", g.host_s[s][p], g.rounds, "s", "%.4f");
        }
        double cpu[NSIM];
        for (int s = 0; s < NSIM; s++) {
            double lo, hi;
            cpu[s] = median_of(g.cpu_s[s][p], g.rounds, &lo, &hi);
            printf("cpu_s_%s_%s,%.4f,s\n", sim_name[s], prog_name[p], cpu[s]);
        }
        if (g.engine_seen[p]) {
            double lo, hi;
            printf("smpi_engine_s_%s,%.4f,s\n", prog_name[p],
                   median_of(g.engine_s[p], g.rounds, &lo, &hi));
        }
        printf("ratio_host_%s,%.3f,x\n", prog_name[p], med[IPCSIM] / med[SMPI]);
        printf("ratio_cpu_%s,%.3f,x\n", prog_name[p], cpu[IPCSIM] / cpu[SMPI]);
    }
    if (!g.identical)
        fprintf(stderr, BENCH_NAME ": a round's curve differs from the first round's\n");
    if (g.keep)
        fprintf(stderr, BENCH_NAME ": kept %s\n", g.tmp);
    else if (nftw(g.tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
        fprintf(stderr, BENCH_NAME ": could not remove %s\n", g.tmp);
    return g.identical ? 0 : 1;
}
