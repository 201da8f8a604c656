/*
 * mpisim.h -- the forced header (gcc -include) an MPI program is compiled
 * with to become a scenario workload, as SimGrid's smpicc does.
 *
 * The Makefile compiles the program a second time with
 *     -Dmain=mpisim_main_<prog> -include apps/mpi_lite/mpisim.h
 * so its main is an ordinary function that apps/mpi_lite/mpi_progs.c calls on
 * every simulated core (every rank), and the stdio calls below write into
 * the calling rank's capture (capture.c) instead of the process's stdout
 * and stderr: all ranks share one process, and their lines must neither
 * interleave with one another nor with ipcsim's own output. Other streams
 * (files the program opens) are untouched.
 *
 * What the program must do for this to work (docs/mpi_lite.md, "Programs as
 * scenario workloads"): keep its state in locals (every rank runs in the
 * same process, on one host thread in simulation), and return from main
 * rather than call exit().
 */
#ifndef IPCSIM_MPISIM_H
#define IPCSIM_MPISIM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

int mpisim_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int mpisim_vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
int mpisim_fprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int mpisim_vfprintf(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
int mpisim_puts(const char *s);
int mpisim_fputs(const char *s, FILE *f);
int mpisim_putchar(int c);
int mpisim_fputc(int c, FILE *f);
size_t mpisim_fwrite(const void *p, size_t size, size_t n, FILE *f);
int mpisim_fflush(FILE *f);

#ifdef __cplusplus
}
#endif

/* After <stdio.h>, so its declarations keep their names; a program's own
 * #include <stdio.h> is then a no-op. capture.c, which calls the real
 * functions, takes the declarations alone (MPISIM_NO_MACROS). */
#ifndef MPISIM_NO_MACROS
#undef printf
#undef vprintf
#undef fprintf
#undef vfprintf
#undef puts
#undef fputs
#undef putchar
#undef fputc
#undef putc
#undef fwrite
#undef fflush
#define printf(...) mpisim_printf(__VA_ARGS__)
#define vprintf(fmt, ap) mpisim_vprintf(fmt, ap)
#define fprintf(...) mpisim_fprintf(__VA_ARGS__)
#define vfprintf(f, fmt, ap) mpisim_vfprintf(f, fmt, ap)
#define puts(s) mpisim_puts(s)
#define fputs(s, f) mpisim_fputs(s, f)
#define putchar(c) mpisim_putchar(c)
#define fputc(c, f) mpisim_fputc(c, f)
#define putc(c, f) mpisim_fputc(c, f)
#define fwrite(p, size, n, f) mpisim_fwrite(p, size, n, f)
#define fflush(f) mpisim_fflush(f)
#endif

#endif
