/*
 * funbase_pcie.c -- FUNCAPI's PC <-> Nios throughput over PCIe.
 *
 * Two roles, nios and pc (MCAPI nodes 0 and 1, DMA transport): the same
 * MCAPI code as Nios -> Nios, with node 1 mapped to the PC's core; how the
 * bytes cross (the PC's single-word user-space driver, the PCIe link, the
 * PCIe-to-HIBI bridge) is the platform's business. For every size of
 * `sizes`, one packet channel per direction, in this order (one MCAPI
 * session; funbase_stream.c):
 *
 *   pcie_MBps          PC -> Nios: the PC sends, the Nios receives.
 *   pcie_nios_pc_MBps  Nios -> PC.
 *
 * The receiver reports MB/s (10^6 bytes/s) with x = the packet size.
 * docs/funbase-apps.md says which series the paper's 15 MB/s is compared
 * with.
 */
#include "funbase_common.h"

enum { NIOS, PC };

static const char *const roles[] = {"nios", "pc", NULL};

static void run(struct app_ctx *ctx)
{
    struct fb f;
    fb_setup(&f, ctx, "funbase_pcie", roles);
    if (f.node < 0) return;
    struct fb_stream s;
    if (!fb_stream_params(&f, &s)) return;
    const char *dirs = app_str(ctx, "directions");
    if (fb_start(&f) &&
        (!apps_listed(dirs, "pc_nios") || fb_pkt_stream(&f, &s, PC, NIOS, 1, "pcie_MBps")))
        if (apps_listed(dirs, "nios_pc"))
            (void)fb_pkt_stream(&f, &s, NIOS, PC, 2, "pcie_nios_pc_MBps");
    fb_finish(&f);
}

static const struct app_arg args[] = {
    {"sizes", APP_INT_LIST, "[64, 256, 1024, 2048]", "packet sizes in bytes", FB_SIZE_MIN,
     FB_SIZE_MAX, 0},
    {"packets", APP_INT, "50", "timed packets per size", 1, APPS_REPS_MAX, 0},
    FB_STREAM_ARGS,
    {"warmup", APP_INT, "5", "untimed packets per size before the timed ones (at least 1)", 1,
     APPS_REPS_MAX, 0},
    {"directions", APP_STR, "pc_nios,nios_pc", "directions to measure: pc_nios, nios_pc", 0, 0, 0},
    APP_ARGS_END,
};

static const char *const series[] = {"pcie_MBps", "pcie_nios_pc_MBps", NULL};

const struct app app_funbase_pcie = {
    .name = "funbase_pcie",
    .summary = "FUNCAPI PC <-> Nios throughput over PCIe (packet channels, DMA transport), MB/s",
    .roles = roles,
    .args = args,
    .series = series,
    .run = run,
};
