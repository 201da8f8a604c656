/*
 * capture.c -- the stdio calls of mpisim.h: text for stdout or stderr goes
 * into the calling rank's capture (its core's PLAT_SLOT_APP slot), anything
 * else, or any call outside a capture, to the real stream.
 *
 * Not compiled with mpisim.h: it calls the real functions.
 */
/* The declarations of mpisim.h, not its macros. */
#define MPISIM_NO_MACROS
#include "mpisim.h"

#include "capture.h"

#include "ipcsim/plat.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mpisim_capture_begin(struct mpisim_capture *cap)
{
    *plat_core_slot(PLAT_SLOT_APP) = cap;
}

void mpisim_capture_end(void)
{
    *plat_core_slot(PLAT_SLOT_APP) = NULL;
}

void mpisim_capture_free(struct mpisim_capture *cap)
{
    free(cap->out.buf);
    free(cap->err.buf);
    memset(cap, 0, sizeof *cap);
}

/* The capture text for stream f, or NULL when f goes to the real stream. */
static struct mpisim_text *text_of(FILE *f)
{
    struct mpisim_capture *cap = *plat_core_slot(PLAT_SLOT_APP);
    if (!cap) return NULL;
    if (f == stdout) return &cap->out;
    if (f == stderr) return &cap->err;
    return NULL;
}

static int append(struct mpisim_text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap < t->len + n + 1) cap *= 2;
        char *b = realloc(t->buf, cap);
        if (!b) {
            t->lost = 1;
            return EOF;
        }
        t->buf = b;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = '\0';
    return 0;
}

int mpisim_vfprintf(FILE *f, const char *fmt, va_list ap)
{
    struct mpisim_text *t = text_of(f);
    if (!t) return vfprintf(f, fmt, ap);
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0) return n;
    char small[512];
    char *s = (size_t)n < sizeof small ? small : malloc((size_t)n + 1);
    if (!s) {
        t->lost = 1;
        return -1;
    }
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    int rc = append(t, s, (size_t)n);
    if (s != small) free(s);
    return rc ? -1 : n;
}

int mpisim_fprintf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = mpisim_vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

int mpisim_vprintf(const char *fmt, va_list ap)
{
    return mpisim_vfprintf(stdout, fmt, ap);
}

int mpisim_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = mpisim_vfprintf(stdout, fmt, ap);
    va_end(ap);
    return n;
}

int mpisim_fputs(const char *s, FILE *f)
{
    struct mpisim_text *t = text_of(f);
    return t ? append(t, s, strlen(s)) : fputs(s, f);
}

int mpisim_puts(const char *s)
{
    struct mpisim_text *t = text_of(stdout);
    if (!t) return puts(s);
    return append(t, s, strlen(s)) ? EOF : append(t, "\n", 1);
}

int mpisim_fputc(int c, FILE *f)
{
    struct mpisim_text *t = text_of(f);
    if (!t) return fputc(c, f);
    char ch = (char)c;
    return append(t, &ch, 1) ? EOF : (unsigned char)c;
}

int mpisim_putchar(int c)
{
    return mpisim_fputc(c, stdout);
}

size_t mpisim_fwrite(const void *p, size_t size, size_t n, FILE *f)
{
    struct mpisim_text *t = text_of(f);
    if (!t) return fwrite(p, size, n, f);
    if (size && n > ((size_t)-1) / size) return 0;
    return append(t, p, size * n) ? 0 : n;
}

int mpisim_fflush(FILE *f)
{
    /* NULL flushes every stream: the real ones too. */
    return !f || !text_of(f) ? fflush(f) : 0;
}
