/* sizes.c - the size grammar of --size, --sizes and --mnk (see util.h). */
#include <stdio.h>
#include <string.h>

#include "util.h"

#define SIZE_LIMIT (1L << 20)

/* Decimal digits only, 1..2^20: no sign, blank, exponent or suffix (and,
 * as ever, at most 9 of them: leading zeros are not a size). */
static int parse_size(const char *s, size_t len, long *out)
{
    unsigned long long v;
    if (len > 9 || gp_parse_decimal(s, len, SIZE_LIMIT, &v) < 0 || v < 1)
        return -1;
    *out = (long)v;
    return 0;
}

static int bad_size(const char *s, size_t len, const char *spec,
                    char *err, size_t errlen)
{
    if (len == 0)
        snprintf(err, errlen, "empty size in '%s'", spec);
    else if (len == strlen(spec))
        snprintf(err, errlen, "bad size '%s' (sizes are integers 1..%ld)",
                 spec, SIZE_LIMIT);
    else
        snprintf(err, errlen, "bad size '%.*s' in '%s' (sizes are integers 1..%ld)",
                 (int)len, s, spec, SIZE_LIMIT);
    return -1;
}

static int push(gp_shape *out, int *n, int max, long m, long nn, long k,
                const char *spec, char *err, size_t errlen)
{
    if (*n >= max) {
        snprintf(err, errlen, "'%s' gives more than %d sizes", spec, max);
        return -1;
    }
    out[(*n)++] = (gp_shape){ m, nn, k };
    return 0;
}

/* "A:B:STEP" (one list element, len bytes at s): A, A+STEP, ... <= B. */
static int parse_range(const char *s, size_t len, const char *spec,
                       gp_shape *out, int *n, int max, char *err, size_t errlen)
{
    const char *c1 = memchr(s, ':', len);
    const char *c2 = memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - s));
    if (!c2 || memchr(c2 + 1, ':', len - (size_t)(c2 + 1 - s))) {
        snprintf(err, errlen, "bad range '%.*s' (want A:B:STEP)", (int)len, s);
        return -1;
    }
    const char *e = s + len;
    long a, b, step;
    if (parse_size(s, (size_t)(c1 - s), &a) < 0)
        return bad_size(s, (size_t)(c1 - s), spec, err, errlen);
    if (parse_size(c1 + 1, (size_t)(c2 - c1 - 1), &b) < 0)
        return bad_size(c1 + 1, (size_t)(c2 - c1 - 1), spec, err, errlen);
    if (parse_size(c2 + 1, (size_t)(e - c2 - 1), &step) < 0) {
        if (e - c2 - 1 > 0 && strspn(c2 + 1, "0") >= (size_t)(e - c2 - 1))
            snprintf(err, errlen, "STEP must be > 0 in '%.*s'", (int)len, s);
        else
            bad_size(c2 + 1, (size_t)(e - c2 - 1), spec, err, errlen);
        return -1;
    }
    if (a > b) {
        snprintf(err, errlen, "empty range '%.*s' (A > B)", (int)len, s);
        return -1;
    }
    for (long v = a; v <= b; v += step)
        if (push(out, n, max, v, v, v, spec, err, errlen) < 0)
            return -1;
    return 0;
}

/* A comma list whose elements are N or A:B:STEP, all square. */
int gp_parse_sizes(const char *spec, gp_shape *out, int max, char *err, size_t errlen)
{
    int n = 0;
    const char *p = spec;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len > 0 && memchr(p, ':', len)) {
            if (parse_range(p, len, spec, out, &n, max, err, errlen) < 0)
                return -1;
        } else {
            long v;
            if (parse_size(p, len, &v) < 0)
                return bad_size(p, len, spec, err, errlen);
            if (push(out, &n, max, v, v, v, spec, err, errlen) < 0)
                return -1;
        }
        if (p[len] == '\0')
            return n;
        p += len + 1;
    }
}

int gp_parse_mnk(const char *spec, gp_shape *out, int max, char *err, size_t errlen)
{
    long v[3];
    const char *p = spec;
    for (int i = 0; i < 3; i++) {
        size_t len = strcspn(p, ",");
        int last = p[len] == '\0';
        if (last != (i == 2)) {
            snprintf(err, errlen, "want M,N,K, got '%s'", spec);
            return -1;
        }
        if (parse_size(p, len, &v[i]) < 0)
            return bad_size(p, len, spec, err, errlen);
        p += len + 1;
    }
    int n = 0;
    if (push(out, &n, max, v[0], v[1], v[2], spec, err, errlen) < 0)
        return -1;
    return n;
}
