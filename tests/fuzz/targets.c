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

int gp_fuzz_runfile(const uint8_t *data, size_t size)
{
    char in[PATH_MAX], out[PATH_MAX], err[1024];
    gp_run_file a, b;
    if (gp_csv_read(put_file("runfile/run.csv", data, size, in, sizeof in), &a, err,
                    sizeof err) != 0)
        return 0;
    for (int i = 0; i < a.nrows; i++)
        gp_row_derive(&a.rows[i]);
    /* what gemmprof writes, it reads back: same rows, same identities */
    write_run_file(put_file("runfile/again.csv", NULL, 0, out, sizeof out), &a);
    read_back(gp_csv_read(out, &b, err, sizeof err), err,
              "a run file gemmprof wrote does not read back");
    invariant(!err[0], "a run file gemmprof wrote reads back with a warning");
    invariant(a.nrows == b.nrows, "round trip changed the number of rows");
    for (int i = 0; i < a.nrows; i++) {
        const gp_row *x = &a.rows[i], *y = &b.rows[i];
        invariant(!strcmp(x->kernel, y->kernel) && !strcmp(x->status, y->status) &&
                  !strcmp(x->config, y->config) && x->m == y->m && x->n == y->n &&
                  x->k == y->k, "round trip changed a row's identity");
    }
    gp_run_file_free(&a);
    gp_run_file_free(&b);
    return 0;
}

/* ---- ceilings ---- */

int gp_fuzz_ceilings(const uint8_t *data, size_t size)
{
    static gp_ceilings a, b;
    char in[PATH_MAX], out[PATH_MAX], err[1024];
    if (gp_ceilings_read(put_file("ceilings/ceilings.csv", data, size, in, sizeof in), &a,
                         err, sizeof err) != 0)
        return 0;
    for (int i = 0; i < a.n; i++)
        invariant(gp_ceilings_find(&a, a.c[i].name) != NULL, "a ceiling read is not found");
    gp_fmt(out, sizeof out, "%s/ceilings/again.csv", workdir());
    invariant(gp_ceilings_write(out, &a, err, sizeof err) == 0, "cannot write ceilings");
    read_back(gp_ceilings_read(out, &b, err, sizeof err), err,
              "a ceilings file gemmprof wrote does not read back");
    invariant(a.n == b.n, "round trip changed the number of ceilings");
    for (int i = 0; i < a.n; i++)
        invariant(!strcmp(a.c[i].name, b.c[i].name) && !strcmp(a.c[i].unit, b.c[i].unit) &&
                  !strcmp(a.c[i].method, b.c[i].method),
                  "round trip changed a ceiling's name, unit or method");
    return 0;
}

/* ---- tuning tables ---- */

int gp_fuzz_tuning(const uint8_t *data, size_t size)
{
    static gp_tuning a, b;
    char in[PATH_MAX], out[PATH_MAX], err[1024];
    if (gp_tuning_read(put_file("tuning/tuning.csv", data, size, in, sizeof in), &a, err,
                       sizeof err) != 0)
        return 0;
    static const long keys[] = { 1, 31, 1024, 4097, GP_TUNING_MAX_SIZE, LONG_MAX };
    for (int i = 0; i < a.n; i++)
        for (size_t j = 0; j < sizeof keys / sizeof keys[0]; j++)
            (void)gp_tuning_lookup(&a, a.e[i].family, keys[j]);
    gp_fmt(out, sizeof out, "%s/tuning/again.csv", workdir());
    invariant(gp_tuning_write(out, &a, err, sizeof err) == 0, "cannot write the tuning table");
    read_back(gp_tuning_read(out, &b, err, sizeof err), err,
              "a tuning table gemmprof wrote does not read back");
    invariant(a.n == b.n, "round trip changed the number of entries");
    for (int i = 0; i < a.n; i++)
        invariant(!strcmp(a.e[i].family, b.e[i].family) &&
                  !strcmp(a.e[i].config, b.e[i].config) &&
                  a.e[i].min_size == b.e[i].min_size && a.e[i].max_size == b.e[i].max_size,
                  "round trip changed an entry");
    return 0;
}

/* ---- dist run files: plot's charts and diff's pairing ---- */

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
    return 0;
}
