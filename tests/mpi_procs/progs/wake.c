/* wake.c -- waking a sleeper in another process of the job. Two ranks map
 * the job's region "wake" (plat_shared_map) and play ping-pong on two words;
 * before each ping rank 0 sleeps 2 ms, so that rank 1 is past its spin and
 * asleep in plat_poll64 when the ping comes. Only a wake that reaches the
 * other process (wait queues in the region, process-shared futexes) answers
 * in microseconds; the sleeper's periodic recheck takes milliseconds.
 * Rank 0 prints the median and the slowest wake-up.
 *
 * wake [store|copy|copy1k]: the ping and the pong are a plat_store64 of the
 * word (default), or a plat_copy of a range holding it -- 21 words, where
 * the wake looks at the queues those words hash to, or 1 KiB (128 words),
 * where it looks at every queue of the region. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcsim/plat.h"

#define TRIPS 21
#define DELAY_NS 2000000u

static int cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Make *word == v, through a copy of `words` words around it if words > 0. */
static void put(uint64_t *word, uint64_t v, size_t words)
{
    if (words == 0) {
        plat_store64(word, v);
        return;
    }
    uint64_t buf[128];
    size_t at = words - words / 5 - 1; /* not the first word: the wake hashes them all */
    for (size_t k = 0; k < words; k++) buf[k] = k == at ? v : ~v;
    plat_copy(word - at, buf, words * sizeof buf[0]);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "store";
    size_t words;
    if (strcmp(mode, "store") == 0)
        words = 0;
    else if (strcmp(mode, "copy") == 0)
        words = 21;
    else if (strcmp(mode, "copy1k") == 0)
        words = 128;
    else {
        fprintf(stderr, "usage: wake [store|copy|copy1k] (not '%s')\n", mode);
        return 2;
    }
    if (plat_cores() != 2) {
        fprintf(stderr, "wake: needs 2 cores, has %d\n", plat_cores());
        return 2;
    }
    int st;
    uint64_t *w = plat_shared_map("wake", 4096, NULL, &st);
    if (!w) {
        fprintf(stderr, "wake: plat_shared_map: %s\n", plat_strerror(st));
        return 1;
    }
    /* the copied ranges around ping and pong stay inside their 128 words */
    uint64_t *ping = &w[128], *pong = &w[384], *ready = &w[500];
    uint64_t lat[TRIPS];
    plat_fetch_add64(ready, 1);
    while (plat_load64(ready) < 2) plat_poll64(ready, 1, PLAT_FOREVER);
    for (uint64_t i = 1; i <= TRIPS; i++) {
        if (plat_core() == 0) {
            plat_sleep_ns(DELAY_NS);
            uint64_t t0 = plat_now_ns();
            put(ping, i, words);
            while (plat_load64(pong) != i) plat_poll64(pong, i - 1, PLAT_FOREVER);
            lat[i - 1] = plat_now_ns() - t0;
        } else {
            while (plat_load64(ping) != i) plat_poll64(ping, i - 1, PLAT_FOREVER);
            put(pong, i, words);
        }
    }
    if (plat_core() == 0) {
        qsort(lat, TRIPS, sizeof lat[0], cmp);
        printf("wake %s: %d round trips, median %llu us, slowest %llu us\n", mode, TRIPS,
               (unsigned long long)(lat[TRIPS / 2] / 1000),
               (unsigned long long)(lat[TRIPS - 1] / 1000));
    }
    plat_fetch_add64(ready, 1); /* nobody unmaps while the other still polls */
    while (plat_load64(ready) < 4) plat_poll64(ready, 3, PLAT_FOREVER);
    plat_shared_unmap(w);
    return 0;
}
