/* cause.c - one pair of rows: the verdict, and the probable cause as
 * one line built from the facts that changed, most explanatory first
 * (spills, occupancy, DRAM, bank conflicts, verification, clock). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diff.h"

/* Below these a counter's change is noise, not a cause. */
#define REL_COUNTER 0.10        /* DRAM and local bytes: 10%              */
#define MIN_BYTES 1e6           /* ... and at least 1 MB                  */
#define MIN_ACHIEVED_PTS 5.0    /* achieved occupancy: 5 points           */
#define MIN_CONFLICT 0.05       /* bank-conflict ratio: 0.05 and 25%      */
#define REL_CONFLICT 0.25
#define REL_CLOCK 0.05          /* SM clock: 5%                           */

const char *gp_diff_verdict_name(gp_diff_verdict v)
{
    static const char *const names[] = {
        [GP_DIFF_BROKEN] = "broken", [GP_DIFF_SLOWER] = "regressed",
        [GP_DIFF_SPILLS] = "now spills",
        [GP_DIFF_UNMEASURED] = "unmeasured", [GP_DIFF_SKIPPED] = "skipped",
        [GP_DIFF_SAME] = "same",
        [GP_DIFF_FASTER] = "faster",
    };
    return names[v];
}

const char *gp_diff_fmt_bytes(double b, char *buf, size_t n)
{
    static const char *const unit[] = { "B", "KB", "MB", "GB", "TB", "PB" };
    if (isnan(b)) {
        snprintf(buf, n, "NA");
        return buf;
    }
    if (b == 0) {
        snprintf(buf, n, "0");
        return buf;
    }
    int u = 0;
    while (fabs(b) >= 1000 && u < 5) {
        b /= 1000;
        u++;
    }
    snprintf(buf, n, "%.3g %s", b, unit[u]);
    return buf;
}

double gp_diff_local_bytes(const gp_row *r)
{
    return r->metric[GP_M_LOCAL_LD] + r->metric[GP_M_LOCAL_ST];
}

double gp_diff_dram_bytes(const gp_row *r)
{
    return r->metric[GP_M_DRAM_READ] + r->metric[GP_M_DRAM_WRITE];
}

static int both(double a, double b)
{
    return !isnan(a) && !isnan(b);
}

static int moved(double a, double b)
{
    return both(a, b) && a != b;
}

static int moved_rel(double a, double b, double rel, double min_abs)
{
    double d = fabs(b - a);
    return both(a, b) && d > rel * fmax(fabs(a), fabs(b)) && d >= min_abs;
}

__attribute__((format(printf, 3, 4)))
static void cat(char *buf, size_t n, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, n - len, fmt, ap);
    va_end(ap);
}

typedef struct {
    char *buf;
    size_t n;
    int clauses;
    int regs_said;              /* registers already named              */
} cause;

/* A new clause: "; " between clauses. */
static void clause(cause *c)
{
    if (c->clauses++)
        cat(c->buf, c->n, "; ");
}

static void spill_head(cause *c, double sb, double sn)
{
    if (sb == 0)
        cat(c->buf, c->n, "now spills %g B/thread", sn);
    else if (sn == 0)
        cat(c->buf, c->n, "no longer spills (was %g B/thread)", sb);
    else
        cat(c->buf, c->n, "spills %s: %g -> %g B/thread",
            sn > sb ? "more" : "less", sb, sn);
}

/* Spills (compile time) and local-memory traffic (counters): the first
 * thing to rule out, since either alone explains a large slowdown. */
static void spills(cause *c, const gp_row *b, const gp_row *n)
{
    double sb = b->spill_store_bytes, sn = n->spill_store_bytes;
    double lb = gp_diff_local_bytes(b), ln = gp_diff_local_bytes(n);
    double fb = b->local_bytes_per_thread, fn = n->local_bytes_per_thread;
    int spill = moved(sb, sn);
    int local = moved_rel(lb, ln, REL_COUNTER, MIN_BYTES) ||
                (both(lb, ln) && (lb == 0) != (ln == 0));
    int frame = moved(fb, fn);
    if (!spill && !local && !(frame && !both(sb, sn)))
        return;
    char x[32], y[32];
    const char *sep = ": ";
    clause(c);
    if (spill) {
        spill_head(c, sb, sn);
    } else if (local) {
        cat(c->buf, c->n, "local-memory traffic %s -> %s",
            gp_diff_fmt_bytes(lb, x, sizeof x), gp_diff_fmt_bytes(ln, y, sizeof y));
        local = 0;
    } else {
        cat(c->buf, c->n, "stack frame %g -> %g B/thread", fb, fn);
        frame = 0;
    }
    if (moved(b->regs_per_thread, n->regs_per_thread)) {
        cat(c->buf, c->n, "%sregisters %g -> %g", sep, b->regs_per_thread,
            n->regs_per_thread);
        sep = ", ";
        c->regs_said = 1;
    }
    if (local) {
        cat(c->buf, c->n, "%slocal traffic %s -> %s", sep,
            gp_diff_fmt_bytes(lb, x, sizeof x), gp_diff_fmt_bytes(ln, y, sizeof y));
        sep = ", ";
    }
    if (frame && !spill)
        cat(c->buf, c->n, "%sstack frame %g -> %g B/thread", sep, fb, fn);
}

static const char *limiter(const gp_row *r)
{
    return r->occupancy_limiter[0] ? r->occupancy_limiter : "?";
}

/* Theoretical occupancy and what limits it, then achieved occupancy. */
static void occupancy(cause *c, const gp_row *b, const gp_row *n)
{
    double tb = b->occupancy_theoretical, tn = n->occupancy_theoretical;
    double ab = b->metric[GP_M_WARPS_ACTIVE], an = n->metric[GP_M_WARPS_ACTIVE];
    int theo = moved(tb, tn);
    int lim = strcmp(b->occupancy_limiter, n->occupancy_limiter) != 0 &&
              b->occupancy_limiter[0] && n->occupancy_limiter[0];
    int ach = both(ab, an) && fabs(an - ab) >= MIN_ACHIEVED_PTS;
    int regs = !c->regs_said && moved(b->regs_per_thread, n->regs_per_thread);
    if (!theo && !ach && !regs && !lim)
        return;
    clause(c);
    const char *sep = "";
    if (regs) {
        cat(c->buf, c->n, "registers %g -> %g", b->regs_per_thread,
            n->regs_per_thread);
        sep = ", ";
    }
    if (theo || lim) {
        if (theo)
            cat(c->buf, c->n, "%soccupancy %.3g%% -> %.3g%% limited by %s", sep,
                tb, tn, limiter(n));
        else
            cat(c->buf, c->n, "%soccupancy %.3g%%", sep, tn);
        if (lim)
            cat(c->buf, c->n, " (was %s)", limiter(b));
        sep = ", ";
    }
    if (ach)
        cat(c->buf, c->n, "%sachieved occupancy %.3g%% -> %.3g%%", sep, ab, an);
}

static void dram(cause *c, const gp_row *b, const gp_row *n)
{
    double db = gp_diff_dram_bytes(b), dn = gp_diff_dram_bytes(n);
    if (!moved_rel(db, dn, REL_COUNTER, MIN_BYTES))
        return;
    char x[32], y[32];
    clause(c);
    cat(c->buf, c->n, "DRAM traffic %s -> %s", gp_diff_fmt_bytes(db, x, sizeof x),
        gp_diff_fmt_bytes(dn, y, sizeof y));
}

static void conflicts(cause *c, const gp_row *b, const gp_row *n)
{
    double rb = b->bank_conflict_ratio, rn = n->bank_conflict_ratio;
    if (!moved_rel(rb, rn, REL_CONFLICT, MIN_CONFLICT))
        return;
    clause(c);
    cat(c->buf, c->n, "bank-conflict ratio %.2f -> %.2f", rb, rn);
}

static int is_error(const gp_row *r)
{
    return strncmp(r->status, "error", 5) == 0;
}

/* "not run in new: needs sm_90a (wgmma)" */
static void skipped(cause *c, const gp_row *b, const gp_row *n)
{
    const gp_row *s = gp_row_skipped(n) ? n : gp_row_skipped(b) ? b : NULL;
    if (!s)
        return;
    clause(c);
    cat(c->buf, c->n, "not run in %s: %s", s == n ? "new" : "base",
        s->status + strlen("skipped: "));
}

static void verification(cause *c, const gp_row *b, const gp_row *n)
{
    if (is_error(n) && !is_error(b)) {
        clause(c);
        cat(c->buf, c->n, "now fails: %s", n->status);
    } else if (n->verified == 0 && b->verified == 1) {
        clause(c);
        cat(c->buf, c->n, "stopped verifying: error %.3g > tolerance %.3g",
            n->rel_err_fro, n->tolerance);
    } else if (n->verified == 1 && b->verified == 0) {
        clause(c);
        cat(c->buf, c->n, "verifies again");
    }
}

static void clock(cause *c, const gp_row *b, const gp_row *n)
{
    if (!moved_rel(b->sm_clock_mhz, n->sm_clock_mhz, REL_CLOCK, 0))
        return;
    clause(c);
    cat(c->buf, c->n, "SM clock %.0f -> %.0f MHz", b->sm_clock_mhz, n->sm_clock_mhz);
}

/* GFLOP/s of cur over base, or the inverse time ratio where GFLOP/s is
 * missing; NAN when neither side has a speed. */
static double speed_ratio(const gp_row *b, const gp_row *n)
{
    if (both(b->gflops, n->gflops) && b->gflops > 0 && n->gflops > 0)
        return n->gflops / b->gflops;
    if (both(b->time_ms, n->time_ms) && b->time_ms > 0 && n->time_ms > 0)
        return b->time_ms / n->time_ms;
    return NAN;
}

/* 0 -> >0 spill bytes, or 0 -> >0 local-memory traffic. */
static int newly_spills(const gp_row *b, const gp_row *n)
{
    double lb = gp_diff_local_bytes(b), ln = gp_diff_local_bytes(n);
    return (both(b->spill_store_bytes, n->spill_store_bytes) &&
            b->spill_store_bytes == 0 && n->spill_store_bytes > 0) ||
           (both(lb, ln) && lb == 0 && ln > 0);
}

static gp_diff_verdict verdict(const gp_row *b, const gp_row *n, double pct,
                               double threshold)
{
    if (gp_row_skipped(b) || gp_row_skipped(n))
        return GP_DIFF_SKIPPED;
    if ((is_error(n) && !is_error(b)) || (n->verified == 0 && b->verified == 1))
        return GP_DIFF_BROKEN;
    if (!isnan(pct) && pct < -threshold)
        return GP_DIFF_SLOWER;
    if (newly_spills(b, n))
        return GP_DIFF_SPILLS;
    if (isnan(pct))
        return GP_DIFF_UNMEASURED;
    return pct > threshold ? GP_DIFF_FASTER : GP_DIFF_SAME;
}

void gp_diff_rows(const gp_row *base, const gp_row *cur, double threshold_pct,
                  gp_diff_row *out)
{
    memset(out, 0, sizeof *out);
    out->base = base;
    out->cur = cur;
    out->change_pct = 100.0 * (speed_ratio(base, cur) - 1.0);
    out->verdict = verdict(base, cur, out->change_pct, threshold_pct);
    out->regressed = out->verdict == GP_DIFF_BROKEN ||
                     out->verdict == GP_DIFF_SLOWER || out->verdict == GP_DIFF_SPILLS;
    cause c = { out->cause, sizeof out->cause, 0, 0 };
    skipped(&c, base, cur);
    if (out->verdict != GP_DIFF_SKIPPED) {   /* NA on one side says nothing */
        spills(&c, base, cur);
        occupancy(&c, base, cur);
        dram(&c, base, cur);
        conflicts(&c, base, cur);
        verification(&c, base, cur);
        clock(&c, base, cur);
    }
    out->facts_changed = c.clauses;
}
