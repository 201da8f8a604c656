/*
 * pipeline.c -- coroutines and channels in a plain C program.
 *
 * Two executor threads (each becomes a core of its own on its first call
 * into the platform) run a three-stage pipeline: a producer coroutine sends
 * 1..N into a channel, a squarer on the other executor squares them into a
 * second channel, a summer adds them up; the main thread (the scheduler)
 * waits for all three. A channel holds 8 elements: the stages block and
 * wake each other all the time. Exits 0 if the sum is right.
 *
 *     cc pipeline.c $(pkg-config --cflags --libs coro) -o pipeline
 */
#define _POSIX_C_SOURCE 200809L
#include <coro.h>
#include <ipcsim/plat.h>

#include <pthread.h>
#include <stdio.h>

#define N 10000

static coro_chan *numbers, *squares;
static long long sum;
static volatile int core_of[2] = {-1, -1};

static void produce(void *arg)
{
    (void)arg;
    for (long long i = 1; i <= N; i++) coro_chan_send(numbers, &i);
    coro_chan_close(numbers); /* the squarer drains it, then stops */
}

static void square(void *arg)
{
    (void)arg;
    long long v;
    while (coro_chan_recv(numbers, &v) == CORO_OK) {
        v *= v;
        coro_chan_send(squares, &v);
    }
    coro_chan_close(squares);
}

static void add(void *arg)
{
    (void)arg;
    long long v;
    while (coro_chan_recv(squares, &v) == CORO_OK) sum += v;
}

static void *executor(void *arg)
{
    int i = (int)(long)arg;
    core_of[i] = plat_core(); /* becomes a core of its own */
    coro_exec_run("pipeline");
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    for (long i = 0; i < 2; i++) pthread_create(&t[i], NULL, executor, (void *)i);
    while (core_of[0] < 0 || core_of[1] < 0) plat_sleep_ns(100000);

    int cores[2] = {core_of[0], core_of[1]};
    coro_rt *rt = coro_rt_new("pipeline", cores, 2, NULL);
    numbers = coro_chan_new(sizeof(long long), 8);
    squares = coro_chan_new(sizeof(long long), 8);
    if (!rt || !numbers || !squares) return 1;

    coro *c[3] = {coro_spawn_on(rt, 0, produce, NULL), coro_spawn_on(rt, 1, square, NULL),
                  coro_spawn_on(rt, 0, add, NULL)};
    for (int i = 0; i < 3; i++) coro_join(c[i]);
    coro_rt_free(rt); /* the executors return */
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);

    struct coro_chan_stats st;
    coro_chan_stats(numbers, &st);
    long long want = (long long)N * (N + 1) * (2 * N + 1) / 6;
    printf("sum of squares 1..%d = %lld (want %lld); numbers: %llu sent, %llu waits\n", N, sum,
           want, (unsigned long long)st.sends, (unsigned long long)st.blocks);
    coro_chan_free(numbers);
    coro_chan_free(squares);
    return sum == want ? 0 : 1;
}
