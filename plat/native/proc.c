/*
 * proc.c -- process tokens (native): plat_proc_token, plat_proc_alive.
 *
 * A token is the process id (below 2^22, Linux's largest pid_max) with the
 * process's start time since boot (/proc/<pid>/stat, field 22, in clock
 * ticks) above it, so a pid the kernel hands out again after the process
 * ended does not make the old token alive. A zombie (ended, not yet reaped
 * by its parent) is dead: it runs no code and holds no locks.
 */
#define _GNU_SOURCE
#include "native.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PID_BITS 22
#define PID_MASK ((1ull << PID_BITS) - 1)

/* The state letter and start time of process pid: false if it is gone. */
static bool stat_of(unsigned long pid, char *state, unsigned long long *start)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%lu/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f) return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* "pid (comm) S ppid ...": comm may hold anything, ')' included. */
    const char *p = strrchr(buf, ')');
    if (!p) return false;
    unsigned long long v = 0;
    /* After ')': field 3 (state), then fields 4..22; the start time is 22. */
    if (sscanf(p + 1,
               " %c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu",
               state, &v) != 2)
        return false;
    *start = v;
    return true;
}

uint64_t nat_proc_token(void)
{
    unsigned long pid = (unsigned long)getpid();
    char state = 0;
    unsigned long long start = 0;
    if (pid > PID_MASK || !stat_of(pid, &state, &start))
        nat_die("plat_proc_token: cannot read /proc/%lu/stat", pid);
    return (uint64_t)start << PID_BITS | pid;
}

bool nat_proc_alive(uint64_t token)
{
    unsigned long pid = (unsigned long)(token & PID_MASK);
    char state = 0;
    unsigned long long start = 0;
    if (!pid || !stat_of(pid, &state, &start)) return false;
    return start == token >> PID_BITS && state != 'Z' && state != 'X' && state != 'x';
}
