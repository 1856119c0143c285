/* scrub.c - L2 scrub specs: parsing, naming, --cache-control (scrub.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scrub.h"

static const char *const kind_names[] = {
    [GP_SCRUB_NONE] = "none", [GP_SCRUB_READ] = "read", [GP_SCRUB_WRITE] = "write",
    [GP_SCRUB_WRITE_READ] = "write-read", [GP_SCRUB_FLUSH] = "flush",
};
#define NKINDS (int)(sizeof kind_names / sizeof kind_names[0])

/* ":x4" or ":p2": one or two digits after the letter, lo..hi. */
static int modifier_num(const char *m, size_t len, int lo, int hi, int *out)
{
    char digits[3] = "";
    if (len < 2 || len > 3)
        return -1;
    memcpy(digits, m + 1, len - 1);
    if (strspn(digits, "0123456789") != len - 1)
        return -1;
    int v = atoi(digits);
    if (v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int modifier(const char *m, size_t len, gp_scrub *s)
{
    if (len == 4 && !strncmp(m, "once", 4)) {
        s->once = 1;
        return 0;
    }
    if (m[0] == 'x')
        return modifier_num(m, len, 1, 16, &s->factor);
    if (m[0] == 'p')
        return modifier_num(m, len, 1, 4, &s->passes);
    return -1;
}

int gp_scrub_parse(const char *spec, gp_scrub *out, char *err, size_t errlen)
{
    gp_scrub s = { GP_SCRUB_NONE, 2, 1, 0 };
    size_t len = strcspn(spec, ":");
    int k = 0;
    while (k < NKINDS && !(strlen(kind_names[k]) == len && !strncmp(spec, kind_names[k], len)))
        k++;
    if (k == NKINDS) {
        snprintf(err, errlen, "unknown L2 scrub '%.*s' (none, read, write, write-read "
                 "or flush, then :xF, :pN, :once)", (int)len, spec);
        return -1;
    }
    s.kind = (gp_scrub_kind)k;
    for (const char *p = spec + len; *p == ':';) {
        const char *m = p + 1;
        size_t ml = strcspn(m, ":");
        if (ml == 0 || modifier(m, ml, &s) < 0) {
            snprintf(err, errlen, "bad L2 scrub modifier ':%.*s' in '%s' (:x1..:x16 "
                     "buffer size in L2s, :p1..:p4 read passes, :once)", (int)ml, m, spec);
            return -1;
        }
        p = m + ml;
    }
    *out = s;
    return 0;
}

void gp_scrub_spec(const gp_scrub *s, char *out, size_t len)
{
    if (s->kind == GP_SCRUB_NONE)
        snprintf(out, len, "none");
    else
        snprintf(out, len, "%s:x%d:p%d%s", kind_names[s->kind], s->factor, s->passes,
                 s->once ? ":once" : "");
}

void gp_scrub_describe(const gp_scrub *s, char *out, size_t len)
{
    char reads[64];
    snprintf(reads, sizeof reads, "%s over %dx L2",
             s->passes == 1 ? "read pass" : s->passes == 2 ? "two read passes" :
             s->passes == 3 ? "three read passes" : "four read passes", s->factor);
    const char *when = s->once ? "before each rep and before the first counter pass"
                               : "before each rep and before counters";
    switch (s->kind) {
    case GP_SCRUB_NONE:
        snprintf(out, len, "off");
        return;
    case GP_SCRUB_READ:
        snprintf(out, len, "%s %s", reads, when);
        return;
    case GP_SCRUB_WRITE:
        snprintf(out, len, "write pass over %dx L2 (L2 left dirty) %s", s->factor, when);
        return;
    case GP_SCRUB_WRITE_READ:
        snprintf(out, len, "write pass, then %s, %s", reads, when);
        return;
    case GP_SCRUB_FLUSH:
        snprintf(out, len, "%s, then its lines discarded (L2 written back and "
                 "empty, as after a flush) %s", reads, when);
        return;
    }
}

size_t gp_scrub_bytes(const gp_scrub *s, size_t l2_bytes)
{
    return s->kind == GP_SCRUB_NONE ? 0 : (size_t)s->factor * l2_bytes;
}

int gp_cache_control_scrub(const char *cache_control, gp_scrub *out,
                           char *err, size_t errlen)
{
    if (!strcmp(cache_control, "none"))
        return gp_scrub_parse("none", out, err, errlen);
    if (strcmp(cache_control, "all") != 0) {
        snprintf(err, errlen, "--cache-control: '%s' is not all or none", cache_control);
        return -1;
    }
    const char *env = getenv(GP_SCRUB_ENV);
    if (!env || !*env)
        return gp_scrub_parse(GP_CACHE_CONTROL_ALL, out, err, errlen);
    char why[256];
    if (gp_scrub_parse(env, out, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s=%s: %s", GP_SCRUB_ENV, env, why);
        return -1;
    }
    return 0;
}
