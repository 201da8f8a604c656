/*
 * msg_procs.c -- two MCAPI nodes in two processes, through shared memory.
 *
 * The program forks: the parent is node 0 of domain 1, the child node 1.
 * Both give mcapi_initialize the same shared region name (a name starting
 * with '/', POSIX shared memory, in mcapi_param_t.shm_name; the environment
 * variable MCAPI_SHM does the same for programs that pass no parameters).
 * The parent sends ROUNDS messages with changing sizes and contents, the
 * child adds one to every byte and sends the message back, the parent checks.
 *
 * The two processes also share a pipe, used once at the end: each node drops
 * its reference to the other's endpoint before either finalizes.
 *
 *     cc -std=c11 msg_procs.c $(pkg-config --cflags --libs mcapi)
 *
 * Exit status 0 only if every answer was right and the child succeeded.
 */
#define _POSIX_C_SOURCE 200809L
#include <mcapi.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define DOMAIN 1
#define PARENT 0
#define CHILD 1
#define PORT 7
#define ROUNDS 500
#define TIMEOUT_MS 10000 /* a lost message fails the example instead of hanging it */

static const char *who = "parent";

static void check(mcapi_status_t st, const char *what)
{
    if (st == MCAPI_SUCCESS) return;
    char name[MCAPI_MAX_STATUS_MSG_LEN];
    fprintf(stderr, "msg_procs: %s: %s: %s\n", who, what,
            mcapi_display_status(st, name, sizeof name));
    exit(EXIT_FAILURE);
}

static unsigned char pattern(size_t i, int round)
{
    return (unsigned char)(i * 17u + (unsigned)round * 3u);
}

static size_t size_of(int round)
{
    return 1 + ((size_t)round * 37u) % MCAPI_MAX_MSG_SIZE;
}

/* Become node `me` in the region `shm`; create our endpoint, find the peer's. */
static mcapi_endpoint_t start(const char *shm, mcapi_node_t me, mcapi_endpoint_t *peer)
{
    mcapi_param_t param = {MCAPI_PARAM_INITIALIZER, .shm_name = shm, .routes = NULL, .nroutes = 0};
    mcapi_info_t info;
    mcapi_status_t st;
    mcapi_initialize(DOMAIN, me, NULL, &param, &info, &st);
    check(st, "mcapi_initialize");
    mcapi_endpoint_t ep = mcapi_endpoint_create(PORT, &st);
    check(st, "mcapi_endpoint_create");
    mcapi_endp_attr_timeout_t t = TIMEOUT_MS; /* for mcapi_msg_send and _recv */
    mcapi_endpoint_set_attribute(ep, MCAPI_ENDP_ATTR_TIMEOUT, &t, sizeof t, &st);
    check(st, "mcapi_endpoint_set_attribute");
    *peer = mcapi_endpoint_get(DOMAIN, me == PARENT ? CHILD : PARENT, PORT, TIMEOUT_MS, &st);
    check(st, "mcapi_endpoint_get");
    return ep;
}

/* Release the peer's endpoint, tell the other process, wait for its word,
 * finalize. */
static void stop(mcapi_endpoint_t peer, int tell, int hear)
{
    mcapi_status_t st;
    mcapi_endpoint_release(peer, &st);
    check(st, "mcapi_endpoint_release");
    char c = 'x';
    if (write(tell, &c, 1) != 1 || read(hear, &c, 1) != 1) {
        fprintf(stderr, "msg_procs: %s: the other process is gone\n", who);
        exit(EXIT_FAILURE);
    }
    mcapi_finalize(&st);
    check(st, "mcapi_finalize");
}

static int child(const char *shm, int tell, int hear)
{
    who = "child";
    mcapi_endpoint_t peer;
    mcapi_endpoint_t ep = start(shm, CHILD, &peer);
    static unsigned char buf[MCAPI_MAX_MSG_SIZE];
    for (int r = 0; r < ROUNDS; r++) {
        size_t n = 0;
        mcapi_status_t st;
        mcapi_msg_recv(ep, buf, sizeof buf, &n, &st);
        check(st, "mcapi_msg_recv");
        for (size_t i = 0; i < n; i++) buf[i]++;
        mcapi_msg_send(ep, peer, buf, n, 0, &st);
        check(st, "mcapi_msg_send");
    }
    stop(peer, tell, hear);
    return EXIT_SUCCESS;
}

static int parent(const char *shm, int tell, int hear)
{
    mcapi_endpoint_t peer;
    mcapi_endpoint_t ep = start(shm, PARENT, &peer);
    static unsigned char out[MCAPI_MAX_MSG_SIZE], in[MCAPI_MAX_MSG_SIZE];
    size_t bytes = 0;
    for (int r = 0; r < ROUNDS; r++) {
        size_t n = size_of(r), got = 0;
        for (size_t i = 0; i < n; i++) out[i] = pattern(i, r);
        mcapi_status_t st;
        mcapi_msg_send(ep, peer, out, n, 0, &st);
        check(st, "mcapi_msg_send");
        mcapi_msg_recv(ep, in, sizeof in, &got, &st);
        check(st, "mcapi_msg_recv");
        int right = got == n;
        for (size_t i = 0; right && i < n; i++) right = in[i] == (unsigned char)(out[i] + 1);
        if (!right) {
            fprintf(stderr, "msg_procs: round %d: the answer to %zu bytes is wrong\n", r, n);
            return EXIT_FAILURE;
        }
        bytes += n;
    }
    stop(peer, tell, hear);
    printf("msg_procs: %d messages (%zu bytes) answered by node 1 in another process, through %s\n",
           ROUNDS, bytes, shm);
    return EXIT_SUCCESS;
}

int main(void)
{
    /* One name per run, so two runs at once do not meet in one region. */
    char shm[64];
    snprintf(shm, sizeof shm, "/mcapi-msg_procs-%ld", (long)getpid());
    int to_child[2], to_parent[2];
    if (pipe(to_child) != 0 || pipe(to_parent) != 0) {
        perror("msg_procs: pipe");
        return EXIT_FAILURE;
    }
    fflush(stdout);
    pid_t pid = fork(); /* before any MCAPI call: each process starts clean */
    if (pid < 0) {
        perror("msg_procs: fork");
        return EXIT_FAILURE;
    }
    if (pid == 0) exit(child(shm, to_parent[1], to_child[0]));
    int rc = parent(shm, to_child[1], to_parent[0]);
    int status = 0;
    if (rc != EXIT_SUCCESS) kill(pid, SIGKILL); /* it may be waiting for us */
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "msg_procs: the child (node 1) failed\n");
        rc = EXIT_FAILURE;
    }
    return rc;
}
