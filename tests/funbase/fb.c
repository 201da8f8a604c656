/* fb.c -- load funbase.yaml, run cases on it, read its parameters. */
#include "fb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The platform of the run in progress (this test process runs one). */
static const struct conf *running;

struct conf *fb_platform(const char *const *sets)
{
    const char *root = getenv("IPCSIM_ROOT");
    char path[4096], err[1024] = "";
    snprintf(path, sizeof path, "%s/platforms/funbase.yaml", root && *root ? root : ".");
    struct conf *c = conf_load(path, err, sizeof err);
    ck_assert_msg(c, "funbase: %s", err);
    for (size_t i = 0; sets && sets[i]; i++) {
        char key[256];
        const char *eq = strchr(sets[i], '=');
        ck_assert_msg(eq && (size_t)(eq - sets[i]) < sizeof key, "bad override %s", sets[i]);
        memcpy(key, sets[i], (size_t)(eq - sets[i]));
        key[eq - sets[i]] = '\0';
        ck_assert_msg(conf_set(c, key, eq + 1, err, sizeof err) == 0, "--set %s: %s", sets[i], err);
    }
    return c;
}

void fb_run(const char *const *sets, void (*entry)(void *), void *arg)
{
    struct conf *c = fb_platform(sets);
    running = c;
    harness_run(PLAT_SIM, c, entry, arg);
    running = NULL;
    conf_free(c);
}

struct child {
    const char *const *sets;
    void (*entry)(void *);
    void *arg;
};

static void child_main(void *p)
{
    const struct child *ch = p;
    struct conf *c = fb_platform(ch->sets);
    char err[1024];
    running = c;
    if (harness_try_run(PLAT_SIM, c, HARNESS_SEED, ch->entry, ch->arg, err, sizeof err)) {
        fprintf(stderr, "funbase child run: %s\n", err);
        exit(1);
    }
    exit(0);
}

bool fb_run_child(const char *const *sets, void (*entry)(void *), void *arg)
{
    struct child ch = {sets, entry, arg};
    int st = harness_fork(child_main, &ch);
    return st == 0;
}

double fb_num(const char *path)
{
    ck_assert_msg(running, "fb_num outside a funbase run");
    const struct conf_node *n = conf_get(conf_root(running), path);
    double v = 0;
    ck_assert_msg(n && conf_number(n, &v), "funbase.yaml has no number at %s", path);
    return v;
}

const char *fb_str(const char *path)
{
    ck_assert_msg(running, "fb_str outside a funbase run");
    const char *t = conf_text(conf_get(conf_root(running), path));
    ck_assert_msg(t, "funbase.yaml has no text at %s", path);
    return t;
}

int fb_agents(void)
{
    if (running) return 4 + (int)conf_len(conf_get(conf_root(running), "devices"));
    struct conf *c = fb_platform(NULL);
    int n = 4 + (int)conf_len(conf_get(conf_root(c), "devices"));
    conf_free(c);
    return n;
}

double fb_cycle_ns(void)
{
    return 1e3 / fb_num("clock_mhz");
}

double fb_cycles(uint64_t ns)
{
    return (double)ns / fb_cycle_ns();
}

uint64_t fb_words(uint64_t bytes)
{
    uint64_t w = (uint64_t)fb_num("hibi.width_bits") / 8;
    return (bytes + w - 1) / w;
}

void fb_until(uint64_t t_ns)
{
    uint64_t now = plat_now_ns();
    ck_assert_msg(now < t_ns, "fb_until: %llu ns is past (now %llu ns)", (unsigned long long)t_ns,
                  (unsigned long long)now);
    plat_sleep_ns(t_ns - now);
}

double fb_send_cycles(void)
{
    return fb_num("core.costs.dma_setup") + 2 * fb_num("hpd.read_cycles") +
           5 * fb_num("hpd.write_cycles");
}

void fb_add(const char *name, const TTest *test)
{
    TCase *tc = harness_tcase(harness_suite("funbase"), name);
    tcase_add_test(tc, test);
}

void tests_register(void)
{
    fb_register_hibi();
    fb_register_hpd();
    fb_register_mem();
    fb_register_pcie();
    fb_register_mcapi();
    fb_register_roundtrip();
    fb_register_reach();
}
