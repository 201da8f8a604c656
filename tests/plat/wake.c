/* wake.c -- native: a write wakes only the pollers that may poll it.
 *
 * The native backend once kept one wait queue for every plat_poll64 of the
 * process: while any thread slept in one, every store, add and copy of
 * every core made a futex system call and woke it (a channel operation
 * went from 0.1 to 20 us while a thread waited in coro_join). Pollers now
 * sleep in a queue per address bucket. */
#include "pt.h"

#include "../../plat/native/native.h"

struct sleeper {
    uint64_t word;
    uint64_t asleep;
    uint64_t left; /* 1 + the poll's return code, once it returned */
};

/* No deadline: a stalled host (a CI run once lost 10 s in this case) must
 * not let the poll time out before the store it waits for; the poll's
 * recheck ends it even if that store woke nobody. */
static void poll_far(void *arg)
{
    struct sleeper *s = arg;
    plat_store64(&s->asleep, 1);
    int rc = plat_poll64(&s->word, 0, PLAT_FOREVER);
    plat_store64(&s->left, 1 + (uint64_t)rc);
}

static void case_bucket_wake(void *arg)
{
    (void)arg;
    /* 64 neighbouring words spread over many buckets. */
    static uint64_t words[64];
    int distinct = 0;
    for (int i = 0; i < 64; i++) {
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = nat_poll_wq(&words[i]) == nat_poll_wq(&words[j]);
        distinct += !seen;
    }
    ck_assert_int_ge(distinct, 32);

    /* A thread sleeps polling s.word; stores to a word of another bucket
     * leave its queue's epoch alone, a store to s.word advances it. */
    static struct sleeper s;
    int other = 0;
    while (nat_poll_wq(&words[other]) == nat_poll_wq(&s.word)) other++;
    plat_thread *t = plat_thread_spawn(poll_far, &s, "poller");
    ck_assert_ptr_nonnull(t);
    while (!plat_load64(&s.asleep)) plat_sleep_ns(PT_MS);
    struct nat_wq *q = nat_poll_wq(&s.word);
    while (!__atomic_load_n(&q->waiters, __ATOMIC_SEQ_CST))
        plat_sleep_ns(PT_MS); /* past its spin */
    uint32_t e = __atomic_load_n(&q->epoch, __ATOMIC_SEQ_CST);
    for (int i = 0; i < 100; i++) plat_store64(&words[other], (uint64_t)i);
    plat_copy(&words[other], &words[other + 1 < 64 ? other + 1 : 0], 8);
    ck_assert_uint_eq(__atomic_load_n(&q->epoch, __ATOMIC_SEQ_CST), e);
    ck_assert_uint_eq(plat_load64(&s.left), 0); /* still asleep in the queue */
    plat_store64(&s.word, 1);
    uint32_t after = __atomic_load_n(&q->epoch, __ATOMIC_SEQ_CST);
    plat_thread_join(t);
    ck_assert_uint_eq(plat_load64(&s.left), 1 + (uint64_t)PLAT_OK);
    ck_assert_msg(after != e, "a store to the polled word left its bucket's epoch at %u", e);
}

static const struct harness_case cases[] = {
    {.name = "poll_wakes_its_bucket",
     .core = case_bucket_wake,
     .cores = 1,
     .backends = HARNESS_NATIVE},
};

void pt_wake(void)
{
    harness_add_cases("plat", cases, HARNESS_COUNT(cases));
}
