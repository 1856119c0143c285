/* filter.c - which launches are timed and which profiled, with ncu's
 * meaning of --kernel-name regex:RE, --launch-skip, --launch-count and
 * --filter-mode per-launch-config: only launches whose kernel matches are
 * counted; --sample per-config:N (the default, N = 1) profiles launches
 * skip .. skip+N-1 of each launch configuration, --sample all launches
 * skip .. skip+count-1 of all; and the launch after a gated one that ran
 * tensor-core math.  Every matching launch is timed. */
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

int gp_trace_sample_parse(const char *spec, long *per_config, char *err, size_t errlen)
{
    static const char pc[] = "per-config";
    if (spec && strcmp(spec, "all") == 0) {
        *per_config = 0;
        return 0;
    }
    if (spec && strncmp(spec, pc, sizeof pc - 1) == 0) {
        const char *n = spec + sizeof pc - 1;
        if (*n == '\0') {
            *per_config = 1;
            return 0;
        }
        char *end;
        long v = n[0] == ':' && n[1] >= '0' && n[1] <= '9' ? strtol(n + 1, &end, 10) : -1;
        if (v >= 1 && *end == '\0' && v < 1000000000L) {
            *per_config = v;
            return 0;
        }
    }
    snprintf(err, errlen, "--sample: '%s' is not all, per-config or per-config:N "
             "(N a count, 1 or more)", spec ? spec : "");
    return -1;
}

int gp_trace_filter_init(gp_trace_filter *f, const char *regex, const char *skip,
                         const char *count, const char *sample, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->count = -1;
    f->per_config = 1;
    if ((skip && number(GP_TRACE_ENV_SKIP, skip, &f->skip, err, errlen)) ||
        (count && number(GP_TRACE_ENV_COUNT, count, &f->count, err, errlen)) ||
        (sample && gp_trace_sample_parse(sample, &f->per_config, err, errlen)))
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

int gp_trace_filter_matches(const gp_trace_filter *f, const char *name)
{
    return !f->has_re || regexec(&f->re, name, 0, NULL, 0) == 0;
}

/* FNV-1a over the key (keys are built zeroed, so padding compares). */
static size_t hash(const gp_trace_config_key *k)
{
    const unsigned char *p = (const unsigned char *)k;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < sizeof *k; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return (size_t)h;
}

static gp_trace_config_slot *find(gp_trace_config_slot *v, size_t cap,
                                  const gp_trace_config_key *k)
{
    size_t h = hash(k) % cap;
    while (v[h].used && memcmp(&v[h].key, k, sizeof *k) != 0)
        h = (h + 1) % cap;
    return &v[h];
}

static int grow(gp_trace_filter *f)
{
    size_t cap = f->cap ? 2 * f->cap : 256;
    gp_trace_config_slot *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < f->cap; i++)
        if (f->slots[i].used)
            *find(t, cap, &f->slots[i].key) = f->slots[i];
    free(f->slots);
    f->slots = t;
    f->cap = cap;
    return 0;
}

/* The configuration's slot, new if unseen; NULL when memory ran out. */
static gp_trace_config_slot *slot_of(gp_trace_filter *f, const gp_trace_config_key *k,
                                     uint32_t corr)
{
    if ((f->nslots + 1) * 2 > f->cap && grow(f) != 0) {
        f->out_of_memory = 1;
        return NULL;
    }
    gp_trace_config_slot *s = find(f->slots, f->cap, k);
    if (!s->used) {
        *s = (gp_trace_config_slot){ .key = *k, .used = 1, .first_corr = corr };
        f->nslots++;
    }
    return s;
}

void gp_trace_filter_pick(gp_trace_filter *f, const char *name, const gp_trace_config_key *k,
                          uint32_t corr, gp_trace_pick *p)
{
    memset(p, 0, sizeof *p);
    if (!gp_trace_filter_matches(f, name))
        return;
    p->timed = 1;
    long i = f->matched++;
    gp_trace_config_slot *s = slot_of(f, k, corr);
    /* without its slot the launch is its own configuration: a row each */
    long j = s ? s->seen++ : 0;
    p->first = !s || j == 0;
    p->first_corr = s ? s->first_corr : corr;
    long n = f->per_config ? j : i, window = f->per_config ? f->per_config : f->count;
    int in_window = n >= f->skip && (window < 0 || n - f->skip < window);
    int full = s && s->want_full;
    if ((in_window || full) && (f->count < 0 || f->profiled < f->count)) {
        p->profiled = 1;
        p->full = full;
        if (full)
            s->want_full = 0;
        f->profiled++;
    }
}

void gp_trace_filter_want_full(gp_trace_filter *f, const gp_trace_config_key *k)
{
    gp_trace_config_slot *s = f->cap ? find(f->slots, f->cap, k) : NULL;
    if (s && s->used)
        s->want_full = 1;
}

void gp_trace_filter_free(gp_trace_filter *f)
{
    if (f->has_re)
        regfree(&f->re);
    f->has_re = 0;
    free(f->slots);
    f->slots = NULL;
    f->cap = f->nslots = 0;
}
