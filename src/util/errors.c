/* errors.c - every message gemmprof prints about a problem is one line,
 * "gemmprof: ..." on stderr, so scripts can grep it and users can read it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "util.h"

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
    fprintf(stderr, "gemmprof: %s", kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void gp_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("", fmt, ap);
    va_end(ap);
}

void gp_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("warning: ", fmt, ap);
    va_end(ap);
}

void gp_exit_out_of_memory(void)
{
    gp_error("out of memory");
    exit(2);
}
