/* format.c - `gemmprof diff` as text (a terminal) or Markdown (a pull
 * request comment): run differences first, then each pair worst first,
 * each value "a" when unchanged and "a -> b" when not. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diff.h"

typedef enum { K_GFLOPS, K_MS, K_NUM, K_BYTES, K_PCT, K_RATIO } kind;

/* What a printer shows right after a fact. */
typedef enum { X_NONE, X_CHANGE, X_LIMITER } extra;

typedef struct {
    const char *label, *unit;  /* unit follows the value ("" for none)  */
    kind k;
    double (*get)(const gp_row *);
    extra then;
} fact;

static double f_gflops(const gp_row *r) { return r->gflops; }
static double f_time(const gp_row *r) { return r->time_ms; }
static double f_regs(const gp_row *r) { return r->regs_per_thread; }
static double f_spill(const gp_row *r) { return r->spill_store_bytes; }
static double f_stack(const gp_row *r) { return r->local_bytes_per_thread; }
static double f_occ(const gp_row *r) { return r->occupancy_theoretical; }
static double f_ach(const gp_row *r) { return r->metric[GP_M_WARPS_ACTIVE]; }
static double f_conf(const gp_row *r) { return r->bank_conflict_ratio; }

/* The facts of a pair, in the order the cause line weighs them. */
static const fact facts[] = {
    { "GFLOP/s", "", K_GFLOPS, f_gflops, X_CHANGE },
    { "time", " ms", K_MS, f_time, X_NONE },
    { "registers", "", K_NUM, f_regs, X_NONE },
    { "spill", " B/thread", K_NUM, f_spill, X_NONE },
    { "stack", " B/thread", K_NUM, f_stack, X_NONE },
    { "local traffic", "", K_BYTES, gp_diff_local_bytes, X_NONE },
    { "occupancy", "", K_PCT, f_occ, X_LIMITER },
    { "achieved", "", K_PCT, f_ach, X_NONE },
    { "DRAM", "", K_BYTES, gp_diff_dram_bytes, X_NONE },
    { "bank-conflict ratio", "", K_RATIO, f_conf, X_NONE },
};
#define NFACTS (int)(sizeof facts / sizeof facts[0])

static const char *value(double v, kind k, char *buf, size_t n)
{
    if (isnan(v))
        snprintf(buf, n, "NA");
    else if (k == K_GFLOPS)
        snprintf(buf, n, fabs(v) >= 100 ? "%.0f" : "%.3g", v);
    else if (k == K_MS)
        snprintf(buf, n, "%.3g", v);
    else if (k == K_BYTES)
        gp_diff_fmt_bytes(v, buf, n);
    else if (k == K_PCT)
        snprintf(buf, n, "%.3g%%", v);
    else if (k == K_RATIO)
        snprintf(buf, n, "%.2f", v);
    else
        snprintf(buf, n, "%g", v);
    return buf;
}

/* "a", or "a -> b" when they differ; 0 when both are NA. */
static int pair(const fact *f, const gp_diff_row *r, char *buf, size_t n)
{
    char a[48], b[48];
    double x = f->get(r->base), y = f->get(r->cur);
    value(x, f->k, a, sizeof a);
    value(y, f->k, b, sizeof b);
    if (isnan(x) && isnan(y))
        return 0;
    if (strcmp(a, b) == 0)
        snprintf(buf, n, "%s%s", a, f->unit);
    else
        snprintf(buf, n, "%s -> %s%s", a, b, f->unit);
    return 1;
}

static const char *yesno(int v)
{
    return v == 1 ? "yes" : v == 0 ? "NO" : "NA";
}

static void verified(const gp_diff_row *r, char *buf, size_t n)
{
    if (r->base->verified == r->cur->verified)
        snprintf(buf, n, "%s", yesno(r->cur->verified));
    else
        snprintf(buf, n, "%s -> %s", yesno(r->base->verified), yesno(r->cur->verified));
}

static void limiter(const gp_diff_row *r, char *buf, size_t n)
{
    const char *a = r->base->occupancy_limiter, *b = r->cur->occupancy_limiter;
    if (strcmp(a, b) == 0)
        snprintf(buf, n, "%s", b[0] ? b : "NA");
    else
        snprintf(buf, n, "%s -> %s", a[0] ? a : "NA", b[0] ? b : "NA");
}

static void change(const gp_diff_row *r, char *buf, size_t n)
{
    if (isnan(r->change_pct))
        snprintf(buf, n, "NA");
    else
        snprintf(buf, n, "%+.1f%%", r->change_pct);
}

static void label(const gp_row *r, char *buf, size_t n)
{
    char shape[64];
    gp_row_shape(r, shape, sizeof shape);
    size_t u = (size_t)snprintf(buf, n, "%s %s %s%s%s", r->kernel, r->precision,
                                shape, r->config[0] ? " " : "", r->config);
    /* dist rows of one run differ only in rank (and grid between runs) */
    if (r->rank[0] && u < n)
        snprintf(buf + u, n - u, " rank %s%s%s", r->rank, r->grid[0] ? " grid " : "",
                 r->grid);
}

static void summary(FILE *f, const gp_diff *d, const char *bold)
{
    int same = 0, unmeasured = 0, skipped = 0;
    for (int i = 0; i < d->nrows; i++) {
        same += d->rows[i].verdict == GP_DIFF_SAME;
        unmeasured += d->rows[i].verdict == GP_DIFF_UNMEASURED;
        skipped += d->rows[i].verdict == GP_DIFF_SKIPPED;
    }
    fprintf(f, "%s%d pair%s: %d regressed, %d faster, %d within %g%%", bold,
            d->nrows, d->nrows == 1 ? "" : "s", d->nregressed, d->nfaster, same,
            d->opts.threshold_pct);
    if (unmeasured)
        fprintf(f, ", %d without a speed", unmeasured);
    if (skipped)
        fprintf(f, ", %d not run on one side (skipped)", skipped);
    fprintf(f, "; %d row%s only in base%s, %d only in new%s\n", d->nonly_base,
            d->nonly_base == 1 ? "" : "s",
            !d->nonly_base ? "" : d->opts.allow_missing ? " (allowed)" : " (missing: a failure)",
            d->nonly_cur, bold);
}

/* The unpaired rows, one a line, as text (in the verdict column) or as a
 * Markdown list: BASE's are missing from NEW (a failure unless
 * --allow-missing, so upper case like a regression), NEW's are new. */
static void unpaired(FILE *f, const gp_diff *d, int markdown)
{
    char name[320];
    const char *missing = d->opts.allow_missing ? "missing" : "MISSING";
    for (int i = 0; i < d->nonly_base + d->nonly_cur; i++) {
        int base = i < d->nonly_base;
        const gp_row *r = base ? d->only_base[i] : d->only_cur[i - d->nonly_base];
        label(r, name, sizeof name);
        if (markdown)
            fprintf(f, "- %s `%s`: only in %s\n", base ? missing : "new", name,
                    base ? "base" : "new");
        else
            fprintf(f, "%-10s %7s  %s  (only in %s)\n", base ? missing : "new", "",
                    name, base ? "base" : "new");
    }
}

/* ---------- text ---------- */

static void text_facts(FILE *f, const gp_diff_row *r)
{
    char buf[128], v[64];
    int col = 0;
    for (int i = 0; i < NFACTS; i++) {
        if (!pair(&facts[i], r, v, sizeof v))
            continue;
        int len = snprintf(buf, sizeof buf, "%s %s", facts[i].label, v);
        if (facts[i].then == X_LIMITER) {
            char lim[64];
            limiter(r, lim, sizeof lim);
            len = snprintf(buf, sizeof buf, "%s %s (%s)", facts[i].label, v, lim);
        }
        if (col && col + len + 2 > 96) {
            fputc('\n', f);
            col = 0;
        }
        col += fprintf(f, "%s%s", col ? ", " : "    ", buf);
    }
    verified(r, v, sizeof v);
    fprintf(f, "%sverified %s\n", col ? ", " : "    ", v);
}

static void text_row(FILE *f, const gp_diff_row *r)
{
    char name[256], ch[32], v[64];
    label(r->cur, name, sizeof name);
    change(r, ch, sizeof ch);
    char tag[16];
    snprintf(tag, sizeof tag, "%s", gp_diff_verdict_name(r->verdict));
    if (r->regressed)
        for (char *p = tag; *p; p++)
            *p = (char)(*p - 'a' + 'A');
    if (r->verdict == GP_DIFF_SKIPPED) {     /* nothing to compare: why */
        fprintf(f, "%-10s %7s  %s: %s\n", tag, ch, name, r->cause);
        return;
    }
    if (!r->regressed && r->verdict != GP_DIFF_FASTER && !r->cause[0]) {
        if (!pair(&facts[0], r, v, sizeof v))
            snprintf(v, sizeof v, "NA");
        fprintf(f, "%-10s %7s  %s  (%s GFLOP/s)\n", tag, ch, name, v);
        return;
    }
    fprintf(f, "%-10s %7s  %s\n", tag, ch, name);
    text_facts(f, r);
    if (r->cause[0] || r->regressed)
        fprintf(f, "    %s: %s\n", r->regressed ? "cause" : "changed",
                r->cause[0] ? r->cause : "nothing recorded changed (registers, "
                "spills, occupancy, DRAM, conflicts, clock): timing noise? "
                "compare time_min_ms/time_max_ms, or rerun with more --reps");
}

static void header(FILE *f, const gp_diff *d, const char *code)
{
    fprintf(f, "gemmprof diff: base %s%s%s, new %s%s%s; a regression is more "
            "than %g%% slower, or no longer verifying\n", code, d->base_path,
            code, code, d->cur_path, code, d->opts.threshold_pct);
    if (d->opts.pair_base)
        fprintf(f, "pairing base's kernel %s with new's kernel %s\n",
                d->opts.pair_base, d->opts.pair_new);
}

int gp_diff_print_text(FILE *f, const gp_diff *d)
{
    header(f, d, "");
    for (int i = 0; i < d->nmeta; i++)
        fprintf(f, "%s%s\n", d->meta[i].warning ? "warning: " : "note: ",
                d->meta[i].message);
    fputc('\n', f);
    for (int i = 0; i < d->nrows; i++)
        text_row(f, &d->rows[i]);
    unpaired(f, d, 0);
    fputc('\n', f);
    summary(f, d, "");
    return ferror(f) ? -1 : 0;
}

/* ---------- Markdown ---------- */

/* A table cell: '|' would end it. */
static void cell(FILE *f, const char *s)
{
    fputs("| ", f);
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputc(' ', f);
}

static void md_row(FILE *f, const gp_diff_row *r)
{
    char buf[256];
    const gp_row *c = r->cur;
    snprintf(buf, sizeof buf, r->regressed ? "**%s**" : "%s",
             gp_diff_verdict_name(r->verdict));
    cell(f, buf);
    cell(f, c->kernel);
    cell(f, c->precision);
    char shape[64];
    gp_row_shape(c, shape, sizeof shape);
    if (c->rank[0])
        snprintf(buf, sizeof buf, "%s rank %s%s%s", shape, c->rank,
                 c->grid[0] ? " grid " : "", c->grid);   /* trace rows: no grid */
    else
        snprintf(buf, sizeof buf, "%s", shape);
    cell(f, buf);
    cell(f, c->config);
    for (int i = 0; i < NFACTS; i++) {
        if (!pair(&facts[i], r, buf, sizeof buf))
            snprintf(buf, sizeof buf, "NA");
        cell(f, buf);
        if (facts[i].then == X_CHANGE) {
            change(r, buf, sizeof buf);
            cell(f, buf);
        } else if (facts[i].then == X_LIMITER) {
            limiter(r, buf, sizeof buf);
            cell(f, buf);
        }
    }
    verified(r, buf, sizeof buf);
    cell(f, buf);
    fputs("|\n", f);
}

static void md_causes(FILE *f, const gp_diff *d)
{
    int any = 0;
    char name[256];
    for (int i = 0; i < d->nrows; i++) {
        const gp_diff_row *r = &d->rows[i];
        if (!r->cause[0])
            continue;
        if (!any++)
            fputs("\n### Probable causes\n\n", f);
        label(r->cur, name, sizeof name);
        fprintf(f, r->regressed ? "- `%s` (**%s**): %s\n" : "- `%s` (%s): %s\n",
                name, gp_diff_verdict_name(r->verdict), r->cause);
    }
}

int gp_diff_print_md(FILE *f, const gp_diff *d)
{
    fputs("## gemmprof diff\n\n", f);
    header(f, d, "`");
    fputc('\n', f);
    for (int i = 0; i < d->nmeta; i++)
        fprintf(f, "%s%s\n", d->meta[i].warning ? "> **warning**: " : "> note: ",
                d->meta[i].message);
    if (d->nmeta)
        fputc('\n', f);
    fputs("| verdict | kernel | precision | size | config | GFLOP/s | change "
          "| time | registers | spill | stack | local traffic | occupancy "
          "| limiter | achieved | DRAM | bank-conflict ratio | verified |\n", f);
    fputs("|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
          "---:|---:|---:|---|\n", f);
    for (int i = 0; i < d->nrows; i++)
        md_row(f, &d->rows[i]);
    md_causes(f, d);
    if (d->nonly_base + d->nonly_cur) {
        fputs("\n### Rows without a partner\n\n", f);
        unpaired(f, d, 1);
    }
    fputc('\n', f);
    summary(f, d, "**");
    return ferror(f) ? -1 : 0;
}

int gp_diff_print(FILE *f, const gp_diff *d, gp_diff_format fmt)
{
    if (fmt == GP_DIFF_JSON)
        return gp_diff_print_json(f, d);
    return fmt == GP_DIFF_MD ? gp_diff_print_md(f, d) : gp_diff_print_text(f, d);
}
