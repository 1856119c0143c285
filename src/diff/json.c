/* json.c - `gemmprof diff --format json`, for scripts and CI: the same
 * content as the text, every number raw (NA is null), each fact as
 * {"base": x, "new": y}. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diff.h"

static json_t *num(double v)
{
    return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

/* A string, or null when absent, empty, or not UTF-8 (a path may not be). */
static json_t *str_or_null(const char *s)
{
    json_t *j = s && s[0] ? json_string(s) : NULL;
    return j ? j : json_null();
}

static void set(json_t *o, const char *key, json_t *v)
{
    json_object_set_new(o, key, v ? v : json_null());
}

static json_t *verified(int v)
{
    return v < 0 ? json_null() : json_boolean(v == 1);
}

typedef struct {
    const char *key;
    double (*get)(const gp_row *);
} json_fact;

static double j_gflops(const gp_row *r) { return r->gflops; }
static double j_time(const gp_row *r) { return r->time_ms; }
static double j_regs(const gp_row *r) { return r->regs_per_thread; }
static double j_sst(const gp_row *r) { return r->spill_store_bytes; }
static double j_sld(const gp_row *r) { return r->spill_load_bytes; }
static double j_stack(const gp_row *r) { return r->local_bytes_per_thread; }
static double j_occ(const gp_row *r) { return r->occupancy_theoretical; }
static double j_ach(const gp_row *r) { return r->metric[GP_M_WARPS_ACTIVE]; }
static double j_conf(const gp_row *r) { return r->bank_conflict_ratio; }
static double j_clock(const gp_row *r) { return r->sm_clock_mhz; }

static const json_fact facts[] = {
    { "gflops", j_gflops },
    { "time_ms", j_time },
    { "regs_per_thread", j_regs },
    { "spill_store_bytes", j_sst },
    { "spill_load_bytes", j_sld },
    { "local_bytes_per_thread", j_stack },
    { "local_traffic_bytes", gp_diff_local_bytes },
    { "occupancy_theoretical", j_occ },
    { "occupancy_achieved", j_ach },
    { "dram_bytes", gp_diff_dram_bytes },
    { "bank_conflict_ratio", j_conf },
    { "sm_clock_mhz", j_clock },
};

static json_t *both(json_t *b, json_t *n)
{
    json_t *o = json_object();
    set(o, "base", b);
    set(o, "new", n);
    return o;
}

static json_t *key_of(const gp_row *r)
{
    json_t *o = json_object();
    set(o, "kernel", str_or_null(r->kernel));
    set(o, "precision", str_or_null(r->precision));
    /* trace rows have no GEMM shape: null */
    set(o, "m", r->m < 0 ? json_null() : json_integer(r->m));
    set(o, "n", r->n < 0 ? json_null() : json_integer(r->n));
    set(o, "k", r->k < 0 ? json_null() : json_integer(r->k));
    set(o, "config", json_string(r->config));
    if (r->rank[0]) {
        set(o, "rank", json_string(r->rank));
        set(o, "grid", json_string(r->grid));
    }
    return o;
}

static json_t *row(const gp_diff_row *r)
{
    json_t *o = key_of(r->cur);
    set(o, "verdict", json_string(gp_diff_verdict_name(r->verdict)));
    set(o, "regressed", json_boolean(r->regressed));
    set(o, "change_pct", num(r->change_pct));
    set(o, "cause", str_or_null(r->cause));
    if (strcmp(r->base->kernel, r->cur->kernel) != 0)   /* --pair */
        set(o, "base_kernel", str_or_null(r->base->kernel));
    for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++)
        set(o, facts[i].key, both(num(facts[i].get(r->base)),
                                  num(facts[i].get(r->cur))));
    set(o, "occupancy_limiter", both(str_or_null(r->base->occupancy_limiter),
                                     str_or_null(r->cur->occupancy_limiter)));
    set(o, "verified", both(verified(r->base->verified), verified(r->cur->verified)));
    set(o, "status", both(str_or_null(r->base->status), str_or_null(r->cur->status)));
    return o;
}

static json_t *metadata(const gp_diff *d)
{
    json_t *a = json_array();
    for (int i = 0; i < d->nmeta; i++) {
        const gp_diff_meta *m = &d->meta[i];
        json_t *o = json_object();
        set(o, "key", str_or_null(m->key));
        set(o, "base", str_or_null(m->base));
        set(o, "new", str_or_null(m->cur));
        set(o, "warning", json_boolean(m->warning));
        set(o, "message", str_or_null(m->message));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *unpaired(const gp_row *const *rows, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, key_of(rows[i]));
    return a;
}

static json_t *summary(const gp_diff *d)
{
    json_t *o = json_object();
    set(o, "pairs", json_integer(d->nrows));
    set(o, "regressed", json_integer(d->nregressed));
    set(o, "faster", json_integer(d->nfaster));
    set(o, "only_in_base", json_integer(d->nonly_base));
    set(o, "only_in_new", json_integer(d->nonly_cur));
    /* rows of BASE that NEW lost: they fail the gate unless allowed */
    set(o, "missing", json_integer(d->opts.allow_missing ? 0 : d->nonly_base));
    return o;
}

static json_t *document(const gp_diff *d)
{
    json_t *doc = json_object(), *rows = json_array();
    for (int i = 0; i < d->nrows; i++)
        json_array_append_new(rows, row(&d->rows[i]));
    set(doc, "base", str_or_null(d->base_path));
    set(doc, "new", str_or_null(d->cur_path));
    set(doc, "threshold_pct", json_real(d->opts.threshold_pct));
    set(doc, "regressed", json_boolean(d->nregressed > 0));
    set(doc, "allow_missing", json_boolean(d->opts.allow_missing));
    set(doc, "failed", json_boolean(gp_diff_failed(d)));   /* the exit status */
    if (d->opts.pair_base)
        set(doc, "pair", both(str_or_null(d->opts.pair_base),
                              str_or_null(d->opts.pair_new)));
    set(doc, "summary", summary(d));
    set(doc, "metadata", metadata(d));
    set(doc, "rows", rows);
    set(doc, "only_in_base", unpaired(d->only_base, d->nonly_base));
    set(doc, "only_in_new", unpaired(d->only_cur, d->nonly_cur));
    return doc;
}

int gp_diff_print_json(FILE *f, const gp_diff *d)
{
    json_t *doc = document(d);
    if (!doc)
        return -1;
    int rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                         JSON_REAL_PRECISION(10));
    json_decref(doc);
    if (rc == 0)
        fputc('\n', f);
    return rc != 0 || ferror(f) ? -1 : 0;
}
