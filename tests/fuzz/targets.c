/* targets.c - one function per reader of gemmprof's data files (targets.h).
 * The readers take paths, as gemmprof uses them, so each input is written
 * to a file in a private temporary folder first (made once per process). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "targets.h"
#include "data/data.h"
#include "diff/diff.h"
#include "plot/plot.h"
#include "util/util.h"

const gp_fuzz_target gp_fuzz_targets[] = {
    { "runfile",  gp_fuzz_runfile },
    { "ceilings", gp_fuzz_ceilings },
    { "tuning",   gp_fuzz_tuning },
    { "dist",     gp_fuzz_dist },
};
const int gp_fuzz_ntargets = sizeof gp_fuzz_targets / sizeof gp_fuzz_targets[0];

/* A broken invariant is a bug like a crash: say which, and abort so the
 * fuzzer keeps the input. */
static void invariant(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz: invariant broken: %s\n", what);
        abort();
    }
}

/* The second read of a round trip: what gemmprof wrote, it must read. */
static void read_back(int rc, const char *err, const char *what)
{
    if (rc != 0)
        fprintf(stderr, "fuzz: re-read: %s\n", err);
    invariant(rc == 0, what);
}

static char dir[PATH_MAX];

static void remove_workdir(void)
{
    gp_rm_rf(dir);
}

/* The process's own folder, removed at exit; each target's files in a
 * folder of their own (a ceilings.csv beside a run file would be read
 * with it, making one target's result depend on another's input). */
static const char *workdir(void)
{
    if (!dir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/gp-fuzz-XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(dir)) {
            fprintf(stderr, "fuzz: mkdtemp %s: %s\n", dir, strerror(errno));
            abort();
        }
        atexit(remove_workdir);
        static const char *const sub[] = { "runfile", "ceilings", "tuning", "dist", "charts" };
        char err[256], p[PATH_MAX + 16];
        for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
            gp_fmt(p, sizeof p, "%s/%s", dir, sub[i]);
            invariant(gp_mkdir_p(p, err, sizeof err) == 0, "cannot make the work folders");
        }
    }
    return dir;
}

/* DIR/name, created from the bytes (or emptied when data is NULL). */
static const char *put_file(const char *name, const uint8_t *data, size_t size,
                            char *path, size_t len)
{
    gp_fmt(path, len, "%s/%s", workdir(), name);
    FILE *f = fopen(path, "wb");
    invariant(f != NULL, "cannot write the input file");
    if (size)
        invariant(fwrite(data, 1, size, f) == size, "short write of the input");
    invariant(fclose(f) == 0, "cannot close the input file");
    return path;
}

/* ---- numbers: what a writer wrote reads back ----
 * Each writer prints numbers to a precision of its own: run files whole
 * numbers exactly and the rest to 6 significant digits (%.6g), ceilings
 * files %.9g, tuning tables %.6g.  A number read from the input comes back
 * within that precision: half a unit of the last digit, and the nearest
 * double to what was written, at most twice that (relative 1e-5 for six
 * digits, 1e-8 for nine).  A number written once is a number the writer
 * prints exactly: it comes back bit for bit the second time.  NA stays NA
 * and inf stays inf. */
#define SIX_DIGITS  1e-5
#define NINE_DIGITS 1e-8
#define EXACTLY     0.0

static int near_number(double a, double b, double rel)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    if (isinf(a) || isinf(b))
        return a == b;
    return fabs(a - b) <= rel * fabs(a);
}

/* Abort, naming the file kind, the round, the column and both values. */
static void same_number(double a, double b, double rel, const char *what,
                        const char *column)
{
    if (near_number(a, b, rel))
        return;
    fprintf(stderr, "fuzz: %s: %s was %.17g, read back %.17g (allowed: %s)\n", what,
            column, a, b, rel == EXACTLY ? "exactly equal" : rel == SIX_DIGITS ?
            "6 significant digits" : "9 significant digits");
    invariant(0, "a number did not round-trip");
}

/* Every column of row x against row y (gp_columns): strings and whole
 * numbers equal, doubles within rel. */
static void same_row(const gp_row *x, const gp_row *y, double rel, const char *what)
{
    for (int i = 0; i < gp_ncolumns; i++) {
        const gp_column *c = &gp_columns[i];
        const char *p = (const char *)x + c->offset, *q = (const char *)y + c->offset;
        double a, b;
        switch (c->type) {
        case GP_COL_STR:
            if (strcmp(p, q) != 0) {
                fprintf(stderr, "fuzz: %s: %s was '%s', read back '%s'\n", what,
                        c->name, p, q);
                invariant(0, "a string column did not round-trip");
            }
            break;
        case GP_COL_LONG:
            a = (double)*(const long *)p;
            b = (double)*(const long *)q;
            same_number(a, b, EXACTLY, what, c->name);
            break;
        case GP_COL_INT:
            same_number(*(const int *)p, *(const int *)q, EXACTLY, what, c->name);
            break;
        case GP_COL_DBL:
            memcpy(&a, p, sizeof a);
            memcpy(&b, q, sizeof b);
            same_number(a, b, rel, what, c->name);
            break;
        }
    }
}

/* ---- run files ---- */

static void write_run_file(const char *path, const gp_run_file *rf)
{
    FILE *f = fopen(path, "w");
    invariant(f != NULL, "cannot write the round-trip file");
    gp_csv_write_meta(f, &rf->meta);
    gp_csv_write_header(f);
    for (int i = 0; i < rf->nrows; i++)
        gp_csv_write_row_to(f, &rf->rows[i]);
    invariant(fclose(f) == 0, "cannot close the round-trip file");
}

/* `from` written to SUB/NAME and read back into `to`: every row's every
 * column within rel of what was written. */
static void write_read(const gp_run_file *from, const char *sub, const char *name,
                       gp_run_file *to, double rel, const char *what)
{
    char path[PATH_MAX], err[1024];
    gp_fmt(path, sizeof path, "%s/%s/%s", workdir(), sub, name);
    write_run_file(path, from);
    read_back(gp_csv_read(path, to, err, sizeof err), err,
              "a run file gemmprof wrote does not read back");
    invariant(!err[0], "a run file gemmprof wrote reads back with a warning");
    invariant(from->nrows == to->nrows, "round trip changed the number of rows");
    for (int i = 0; i < from->nrows; i++)
        same_row(&from->rows[i], &to->rows[i], rel, what);
}

/* The run file at `in`, if it reads: its rows (derived numbers filled)
 * written and read back keep their numbers to the writer's precision, and
 * written again, exactly. */
static void run_file_round_trip(const char *in, const char *sub)
{
    char err[1024];
    gp_run_file a, b, c;
    if (gp_csv_read(in, &a, err, sizeof err) != 0)
        return;
    for (int i = 0; i < a.nrows; i++)
        gp_row_derive(&a.rows[i]);
    write_read(&a, sub, "again.csv", &b, SIX_DIGITS, "run file, first round trip");
    write_read(&b, sub, "third.csv", &c, EXACTLY, "run file, second round trip");
    gp_run_file_free(&a);
    gp_run_file_free(&b);
    gp_run_file_free(&c);
}

int gp_fuzz_runfile(const uint8_t *data, size_t size)
{
    char in[PATH_MAX];
    run_file_round_trip(put_file("runfile/run.csv", data, size, in, sizeof in), "runfile");
    return 0;
}

/* ---- ceilings ---- */

/* `from` written to ceilings/NAME and read back into `to`: the same
 * ceilings, their numbers within rel. */
static void ceilings_round_trip(const gp_ceilings *from, const char *name, gp_ceilings *to,
                                double rel, const char *what)
{
    char out[PATH_MAX], err[1024];
    gp_fmt(out, sizeof out, "%s/ceilings/%s", workdir(), name);
    invariant(gp_ceilings_write(out, from, err, sizeof err) == 0, "cannot write ceilings");
    read_back(gp_ceilings_read(out, to, err, sizeof err), err,
              "a ceilings file gemmprof wrote does not read back");
    invariant(from->n == to->n, "round trip changed the number of ceilings");
    for (int i = 0; i < from->n; i++) {
        const gp_ceiling *x = &from->c[i], *y = &to->c[i];
        invariant(!strcmp(x->name, y->name) && !strcmp(x->unit, y->unit) &&
                  !strcmp(x->method, y->method),
                  "round trip changed a ceiling's name, unit or method");
        same_number(x->measured, y->measured, rel, what, "measured");
        same_number(x->theoretical, y->theoretical, rel, what, "theoretical");
        same_number(x->pct_of_theoretical, y->pct_of_theoretical, rel, what,
                    "pct_of_theoretical");
    }
}

int gp_fuzz_ceilings(const uint8_t *data, size_t size)
{
    static gp_ceilings a, b, c;
    char in[PATH_MAX], err[1024];
    if (gp_ceilings_read(put_file("ceilings/ceilings.csv", data, size, in, sizeof in), &a,
                         err, sizeof err) != 0)
        return 0;
    for (int i = 0; i < a.n; i++)
        invariant(gp_ceilings_find(&a, a.c[i].name) != NULL, "a ceiling read is not found");
    ceilings_round_trip(&a, "again.csv", &b, NINE_DIGITS, "ceilings, first round trip");
    ceilings_round_trip(&b, "third.csv", &c, EXACTLY, "ceilings, second round trip");
    return 0;
}

/* ---- tuning tables ---- */

/* `from` written to tuning/NAME and read back into `to`: the same entries,
 * gflops within rel. */
static void tuning_round_trip(const gp_tuning *from, const char *name, gp_tuning *to,
                              double rel, const char *what)
{
    char out[PATH_MAX], err[1024];
    gp_fmt(out, sizeof out, "%s/tuning/%s", workdir(), name);
    invariant(gp_tuning_write(out, from, err, sizeof err) == 0, "cannot write the tuning table");
    read_back(gp_tuning_read(out, to, err, sizeof err), err,
              "a tuning table gemmprof wrote does not read back");
    invariant(from->n == to->n, "round trip changed the number of entries");
    for (int i = 0; i < from->n; i++) {
        const gp_tuning_entry *x = &from->e[i], *y = &to->e[i];
        invariant(!strcmp(x->family, y->family) && !strcmp(x->precision, y->precision) &&
                  !strcmp(x->config, y->config) &&
                  x->min_size == y->min_size && x->max_size == y->max_size,
                  "round trip changed an entry");
        same_number(x->gflops, y->gflops, rel, what, "gflops");
    }
}

int gp_fuzz_tuning(const uint8_t *data, size_t size)
{
    static gp_tuning a, b, c;
    char in[PATH_MAX], err[1024];
    if (gp_tuning_read(put_file("tuning/tuning.csv", data, size, in, sizeof in), &a, err,
                       sizeof err) != 0)
        return 0;
    static const long keys[] = { 1, 31, 1024, 4097, GP_TUNING_MAX_SIZE, LONG_MAX };
    for (int i = 0; i < a.n; i++)
        for (size_t j = 0; j < sizeof keys / sizeof keys[0]; j++)
            (void)gp_tuning_lookup(&a, a.e[i].family, keys[j]);
    tuning_round_trip(&a, "again.csv", &b, SIX_DIGITS, "tuning table, first round trip");
    tuning_round_trip(&b, "third.csv", &c, EXACTLY, "tuning table, second round trip");
    return 0;
}

/* ---- dist run files: plot's charts and diff's pairing ---- */

/* A file against itself: every row pairs with its own copy (repeated keys
 * pair in order), so nothing regressed or got faster, and every speed
 * change is 0 (or unknown). */
static void self_diff_changes_nothing(const char *path)
{
    gp_diff d;
    char err[1024];
    gp_diff_opts opts = { .threshold_pct = GP_DIFF_THRESHOLD_DEFAULT };
    if (gp_diff_load(path, path, &opts, &d, err, sizeof err) == 0) {
        invariant(d.nonly_base == 0 && d.nonly_cur == 0 && d.nrows == d.cur.nrows,
                  "a file against itself left rows unpaired");
        invariant(d.nregressed == 0 && d.nfaster == 0,
                  "a file against itself regressed or got faster");
        for (int i = 0; i < d.nrows; i++) {
            const gp_diff_row *r = &d.rows[i];
            invariant(r->base - d.base.rows == r->cur - d.cur.rows,
                      "a file against itself paired a row with another");
            if (!isnan(r->change_pct))
                same_number(0, r->change_pct, EXACTLY, "a file against itself", "change_pct");
        }
    }
    gp_diff_free(&d);
}

int gp_fuzz_dist(const uint8_t *data, size_t size)
{
    char in[PATH_MAX], out[PATH_MAX], err[1024];
    put_file("dist/dist.csv", data, size, in, sizeof in);
    gp_dataset d;
    char *paths[] = { in };
    if (gp_dataset_load(&d, paths, 1, NULL, err, sizeof err) == 0) {
        /* an unknown format: each chart prepares its data files, then
         * stops before gnuplot would run */
        gp_fmt(out, sizeof out, "%s/charts", workdir());
        gp_chart_opts o = { .format = "fuzz", .outdir = out, .workdir = out,
                            .plotsdir = out, .gnuplot = "/nonexistent" };
        for (int c = 0; c < GP_NCHARTS; c++) {
            gp_strlist written = { 0 };
            char msg[1024];
            gp_chart_render((gp_chart)c, &d, &o, &written, msg, sizeof msg);
            gp_strlist_free(&written);
        }
        gp_dataset_free(&d);
    }
    FILE *sink = fopen("/dev/null", "w");
    invariant(sink != NULL, "cannot open /dev/null");
    gp_diff_opts opts = { .threshold_pct = GP_DIFF_THRESHOLD_DEFAULT };
    for (int f = GP_DIFF_TEXT; f <= GP_DIFF_JSON; f++)
        gp_diff_files(in, in, &opts, (gp_diff_format)f, sink);
    fclose(sink);
    self_diff_changes_nothing(in);
    /* the dist columns (rank, grid, panel, comm_ms, ...) keep their numbers */
    run_file_round_trip(in, "dist");
    return 0;
}
