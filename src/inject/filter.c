/* filter.c - which launches are profiled, with ncu's meaning of
 * --kernel-name regex:RE, --launch-skip and --launch-count: only launches
 * whose kernel matches are counted, and of those the ones numbered
 * skip .. skip+count-1 are profiled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inject.h"

static int number(const char *what, const char *s, long *out, char *err, size_t errlen)
{
    char *end;
    long v = s && *s >= '0' && *s <= '9' ? strtol(s, &end, 10) : -1;
    if (v < 0 || *end) {
        snprintf(err, errlen, "%s: '%s' is not a count", what, s ? s : "");
        return -1;
    }
    *out = v;
    return 0;
}

int gp_trace_filter_init(gp_trace_filter *f, const char *regex, const char *skip,
                         const char *count, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->count = -1;
    if ((skip && number(GP_TRACE_ENV_SKIP, skip, &f->skip, err, errlen)) ||
        (count && number(GP_TRACE_ENV_COUNT, count, &f->count, err, errlen)))
        return -1;
    if (regex && *regex) {
        int rc = regcomp(&f->re, regex, REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char msg[200];
            regerror(rc, &f->re, msg, sizeof msg);
            snprintf(err, errlen, "kernel regex '%s': %s", regex, msg);
            return -1;
        }
        f->has_re = 1;
    }
    return 0;
}

int gp_trace_filter_select(gp_trace_filter *f, const char *name)
{
    if (f->has_re && regexec(&f->re, name, 0, NULL, 0) != 0)
        return 0;
    long i = f->matched++;
    return i >= f->skip && (f->count < 0 || i - f->skip < f->count);
}

int gp_trace_filter_done(const gp_trace_filter *f)
{
    return f->count >= 0 && f->matched >= f->skip + f->count;
}

void gp_trace_filter_free(gp_trace_filter *f)
{
    if (f->has_re)
        regfree(&f->re);
    f->has_re = 0;
}
