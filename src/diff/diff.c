/* diff.c - `gemmprof diff BASE.csv NEW.csv`: its options, and the whole
 * command as one call that the run command's --baseline reuses.  Usable as
 * a CI gate: exit 0 nothing regressed, 1 something did or NEW lost rows,
 * 2 bad input. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "util/util.h"

typedef struct {
    const char *base, *cur;
    gp_diff_opts o;
    gp_diff_format fmt;
    int help, version;
} diff_args;

static void usage(FILE *f)
{
    fputs("Usage: gemmprof diff BASE.csv NEW.csv [OPTION]...\n"
          "Compare two run files: rows pair on kernel, precision, m, n, k and\n"
          "config; the worst first, each with GFLOP/s, time, registers, spills,\n"
          "stack, local-memory traffic, occupancy and its limiter, DRAM bytes,\n"
          "bank conflicts and verification, and for each regression the probable\n"
          "cause in one line.  Differences in GPU, clocks, driver, CUDA, cuBLAS\n"
          "or build come first.\n"
          "\n"
          "  -t, --threshold PCT   a row regressed when NEW is more than PCT percent\n"
          "                        slower (default 5); one that stops verifying,\n"
          "                        now errors, or now spills regressed at any speed\n"
          "  -f, --format FMT      text (default), md (Markdown) or json\n"
          "  -p, --pair OLD=NEW    pair BASE's kernel OLD with NEW's kernel NEW (a\n"
          "                        renamed kernel; or two variants of one file:\n"
          "                        gemmprof diff run.csv run.csv -p a=b)\n"
          "      --allow-missing   rows only in BASE are listed but do not fail\n"
          "  -h, --help            show this help and exit\n"
          "  -V, --version         show version and build information and exit\n"
          "\n"
          "Exit status:\n"
          "  0  no regression (rows only in NEW are listed, never a failure)\n"
          "  1  a row regressed, or rows of BASE are missing from NEW (each named;\n"
          "     --allow-missing lets them pass)\n"
          "  2  bad input: a missing or malformed file (FILE:LINE:COLUMN), different\n"
          "     schemas, no common rows\n"
          "\n"
          "Examples:\n"
          "  gemmprof diff base.csv new.csv\n"
          "  gemmprof diff -t 3 -f md base.csv new.csv\n"
          "  gemmprof diff run.csv run.csv -p naive=coalesced\n", f);
}

static int parse_threshold(const char *s, double *out, char *err, size_t errlen)
{
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !isfinite(v) || v < 0) {
        snprintf(err, errlen, "--threshold: '%s' is not a percentage >= 0", s);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_format(const char *s, gp_diff_format *out, char *err, size_t errlen)
{
    static const char *const names[] = { "text", "md", "json" };
    for (int i = 0; i < 3; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = (gp_diff_format)i;
            return 0;
        }
    snprintf(err, errlen, "--format: '%s' is not text, md or json", s);
    return -1;
}

/* OLD=NEW, both non-empty; the strings are cut in place. */
static int parse_pair(char *s, gp_diff_opts *o, char *err, size_t errlen)
{
    char *eq = strchr(s, '=');
    if (!eq || eq == s || !eq[1] || strchr(eq + 1, '=')) {
        snprintf(err, errlen, "--pair: '%s' is not OLD=NEW (two kernel names)", s);
        return -1;
    }
    *eq = '\0';
    o->pair_base = s;
    o->pair_new = eq + 1;
    return 0;
}

static int call_threshold(void *p, const char *arg, char *err, size_t errlen)
{
    return parse_threshold(arg, &((diff_args *)p)->o.threshold_pct, err, errlen);
}

static int call_format(void *p, const char *arg, char *err, size_t errlen)
{
    return parse_format(arg, &((diff_args *)p)->fmt, err, errlen);
}

/* argv's own string (the const is getopt's): cut in place. */
static int call_pair(void *p, const char *arg, char *err, size_t errlen)
{
    return parse_pair((char *)arg, &((diff_args *)p)->o, err, errlen);
}

static const gp_opt table[] = {
    { "threshold", 't', GP_OPT_CALL, 0, 0, 0, 0, 0, 0, call_threshold },
    { "format", 'f', GP_OPT_CALL, 0, 0, 0, 0, 0, 0, call_format },
    { "pair", 'p', GP_OPT_CALL, 0, 0, 0, 0, 0, 0, call_pair },
    { "allow-missing", 0, GP_OPT_FLAG, GP_OPT_FIELD(diff_args, o.allow_missing, int),
      0, 0, 0, 0, 0, 0 },
    GP_OPTS_HELP(diff_args, help, version),
    GP_OPTS_END
};

static int parse_args(int argc, char **argv, diff_args *a, char *err, size_t errlen)
{
    *a = (diff_args){ .o = { .threshold_pct = GP_DIFF_THRESHOLD_DEFAULT } };
    if (gp_opts_parse(table, argc, argv, a, err, errlen) < 0)
        return -1;
    if (a->help || a->version)
        return 0;
    if (argc - optind != 2) {
        snprintf(err, errlen, "needs two run files, BASE.csv NEW.csv (got %d)",
                 argc - optind);
        return -1;
    }
    a->base = argv[optind];
    a->cur = argv[optind + 1];
    return 0;
}

int gp_diff_files(const char *base, const char *cur, const gp_diff_opts *o,
                  gp_diff_format fmt, FILE *out)
{
    gp_diff d;
    char err[1024];
    if (gp_diff_load(base, cur, o, &d, err, sizeof err) != 0) {
        gp_error("diff: %s", err);
        gp_diff_free(&d);
        return 2;
    }
    int rc = gp_diff_failed(&d);
    if (gp_diff_print(out, &d, fmt) != 0 || fflush(out) != 0) {
        gp_error("diff: writing the report failed");
        rc = 2;
    }
    gp_diff_free(&d);
    return rc;
}

int gp_cmd_diff(int argc, char **argv)
{
    diff_args a;
    char err[512];
    if (parse_args(argc, argv, &a, err, sizeof err) != 0) {
        gp_error("diff: %s", err);
        return 2;
    }
    int rc = gp_opts_answer(a.help, a.version, usage, "diff", argc, argv,
                            "compare NEW.csv with BASE.csv");
    if (rc >= 0)
        return rc;
    return gp_diff_files(a.base, a.cur, &a.o, a.fmt, stdout);
}
