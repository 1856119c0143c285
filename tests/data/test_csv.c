/* test_csv.c - run files: what the writer puts on disk, that the reader
 * gets every column back, and one precise message per kind of damage.
 *
 * Decided here: a file cut off mid-row (a writer killed while writing) is
 * refused by gp_csv_read, naming the line; gp_csv_read_salvage (trace's
 * part files) yields every complete row before the cut, the short last
 * line dropped and reported as a warning in err while it returns 0.
 * A short line anywhere else, or one that ends with a newline, is an error.
 * Every message is "FILE:LINE:COLUMN: what". */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "near.h"
#include "data/csv.h"

static char dir[64];
static char path[128];
static char err[1024];
static gp_run_file rf;

static int make_dir(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/gp-test-csv-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *write_text(const char *name, const char *text)
{
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static int read_file(const char *p)
{
    strcpy(err, "(untouched)");
    return gp_csv_read(p, &rf, err, sizeof err);
}

/* Reading `text` fails with a message containing `want`. */
static void bad_file(const char *name, const char *text, const char *want)
{
    const char *p = write_text(name, text);
    int rc = read_file(p);
    if (rc != -1 || !strstr(err, want))
        fail_msg("%s: rc %d, message '%s', wanted '%s'", name, rc, err, want);
    assert_int_equal(rf.nrows, 0);
    assert_null(rf.rows);
}

static void *col(gp_row *r, int i)
{
    return (char *)r + gp_columns[i].offset;
}

/* Every column a distinct value: a swapped or misplaced column shows. */
static void fill_distinct(gp_row *r)
{
    gp_row_init(r);
    for (int i = 0; i < gp_ncolumns; i++) {
        void *p = col(r, i);
        switch (gp_columns[i].type) {
        case GP_COL_STR:  snprintf(p, gp_columns[i].size, "s%d", i); break;
        case GP_COL_LONG: *(long *)p = 1000L * i + 7; break;
        case GP_COL_INT:  *(int *)p = 1; break;
        case GP_COL_DBL:  *(double *)p = i + 0.125 + (i % 3 ? 1.0 / 3 : 0); break;
        }
    }
}

static void assert_rows_equal(gp_row *a, gp_row *b)
{
    for (int i = 0; i < gp_ncolumns; i++) {
        void *p = col(a, i), *q = col(b, i);
        const char *name = gp_columns[i].name;
        switch (gp_columns[i].type) {
        case GP_COL_STR:
            if (strcmp(p, q) != 0)
                fail_msg("%s: '%s' != '%s'", name, (char *)p, (char *)q);
            break;
        case GP_COL_LONG:
            if (*(long *)p != *(long *)q)
                fail_msg("%s: %ld != %ld", name, *(long *)p, *(long *)q);
            break;
        case GP_COL_INT:
            if (*(int *)p != *(int *)q)
                fail_msg("%s: %d != %d", name, *(int *)p, *(int *)q);
            break;
        case GP_COL_DBL: {
            double x = *(double *)p, y = *(double *)q;
            if (isnan(x) != isnan(y) || (!isnan(x) && fabs(x - y) > 1e-5 * fabs(x)))
                fail_msg("%s: %.17g != %.17g", name, x, y);
            break;
        }
        }
    }
}

static gp_row rows[3];

static void write_three_rows(const char *p)
{
    gp_meta meta;
    gp_meta_init(&meta);
    gp_meta_set(&meta, "schema", GP_RUN_SCHEMA);
    gp_meta_set(&meta, "date", "2026-11-21T22:48:09Z");
    gp_meta_set(&meta, "command", "gemmprof --out 'a b.csv'");
    fill_distinct(&rows[0]);
    gp_row_init(&rows[1]);                  /* all NA, awkward strings */
    strcpy(rows[1].kernel, "#plugin");
    strcpy(rows[1].status, "error: a, b \"c\"\nnext");
    rows[1].m = 1; rows[1].n = 2; rows[1].k = 3;
    fill_distinct(&rows[2]);
    strcpy(rows[2].config, "other");        /* one identity per row */
    rows[2].verified = 0;
    rows[2].alpha = -2.5;
    rows[2].metric[GP_M_FFMA] = 68719476736.0;      /* 4096^3: exact */
    rows[2].metric[GP_M_DRAM_READ] = 1.5e-7;
    rows[2].time_ms = 1.0 / 3;
    rows[2].rel_err_fro = INFINITY;   /* a failed check's error: "inf" */
    gp_csv_writer *w = gp_csv_open(p, &meta, err, sizeof err);
    assert_non_null(w);
    for (int i = 0; i < 3; i++)
        assert_int_equal(gp_csv_write_row(w, &rows[i]), 0);
    assert_int_equal(gp_csv_close(w), 0);
}

static void roundtrip_every_column(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "%s/round.csv", dir);
    write_three_rows(path);
    if (read_file(path) != 0)
        fail_msg("%s", err);
    assert_string_equal(err, "");
    assert_int_equal(rf.nrows, 3);
    for (int i = 0; i < 3; i++)
        assert_rows_equal(&rows[i], &rf.rows[i]);
    for (int i = 0; i < gp_ncolumns; i++)
        assert_int_equal(rf.has_column[i], 1);
    assert_int_equal(rf.meta.n, 3);
    assert_string_equal(gp_meta_get(&rf.meta, "schema"), GP_RUN_SCHEMA);
    assert_string_equal(gp_meta_get(&rf.meta, "date"), "2026-11-21T22:48:09Z");
    assert_string_equal(gp_meta_get(&rf.meta, "command"), "gemmprof --out 'a b.csv'");
    assert_int_equal(rf.rows[2].metric[GP_M_FFMA], 68719476736.0);
    assert_true(isinf(rf.rows[2].rel_err_fro));
    gp_run_file_free(&rf);
    assert_null(rf.rows);
}


/* What gemmprof trace writes: a demangled name with commas, spaces, angle
 * brackets and parentheses, as long as the column holds, comes back whole;
 * a row without a GEMM shape has NA m, n, k. */
static void demangled_names_roundtrip(void **state)
{
    (void)state;
    static char name[GP_KERNEL_NAME_MAX];
    const char *unit = "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4, "
                       "cute::tuple<int, int> >(Params, \"q\")#";
    size_t n = 0, u = strlen(unit);
    while (n + u < sizeof name - 1) {
        memcpy(name + n, unit, u);
        n += u;
    }
    name[n] = '\0';
    gp_row r;
    gp_row_init(&r);
    gp_row_set_kernel(&r, name);
    strcpy(r.config, "grid=128x1x1 block=256x1x1");
    r.pid = 4242;
    r.correlation_id = 17;
    r.launches = 1;
    snprintf(path, sizeof path, "%s/demangled.csv", dir);
    gp_csv_writer *w = gp_csv_open(path, NULL, err, sizeof err);
    assert_non_null(w);
    assert_int_equal(gp_csv_write_row(w, &r), 0);
    assert_int_equal(gp_csv_close(w), 0);
    assert_int_equal(read_file(path), 0);
    assert_int_equal(rf.nrows, 1);
    assert_string_equal(rf.rows[0].kernel, name);
    assert_int_equal(rf.rows[0].m, -1);
    assert_int_equal(rf.rows[0].k, -1);
    assert_int_equal(rf.rows[0].pid, 4242);
    assert_int_equal(rf.rows[0].correlation_id, 17);
    assert_string_equal(rf.rows[0].config, "grid=128x1x1 block=256x1x1");
    gp_run_file_free(&rf);
}

static char *slurp(const char *p)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void file_text_is_plain_csv(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "%s/text.csv", dir);
    write_three_rows(path);
    char *t = slurp(path);
    const char *head = "# schema: gemmprof-run/1\n# date: 2026-11-21T22:48:09Z\n"
                       "# command: gemmprof --out 'a b.csv'\n"
                       "kernel,precision,config,m,n,k,alpha,beta,time_ms,";
    assert_int_equal(strncmp(t, head, strlen(head)), 0);
    char last[64];                 /* the header ends with the last column */
    snprintf(last, sizeof last, ",%s\n", gp_columns[gp_ncolumns - 1].name);
    assert_non_null(strstr(t, last));
    /* all-NA row: empty strings and numbers NA, verified NA */
    assert_non_null(strstr(t, "\n\"#plugin\",NA,NA,1,2,3,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,"
                              "\"error: a, b \"\"c\"\"\nnext\",NA,"));
    assert_non_null(strstr(t, ",68719476736,"));    /* counters exactly */
    assert_non_null(strstr(t, ",1.5e-07,"));
    assert_non_null(strstr(t, ",0.333333,"));        /* %.6g */
    assert_non_null(strstr(t, ",-2.5,"));
    assert_non_null(strstr(t, ",inf,"));
    assert_null(strstr(t, "nan"));
}

static void number_formats(void **state)
{
    (void)state;
    gp_row r;
    gp_row_init(&r);
    strcpy(r.kernel, "k");
    r.m = 4096; r.reps = 20; r.verified = 1;
    r.alpha = 1; r.beta = 0; r.time_ms = 1234567.5; r.time_min_ms = 0.000123456789;
    r.gflops = -0.0;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gp_csv_write_row_to(f, &r);
    fclose(f);
    /* n and k were never set: a long column is NA (-1) until it is */
    const char *want = "k,NA,NA,4096,NA,NA,1,0,1.23457e+06,0.000123457,NA,20,NA,0,NA,1,NA,";
    if (strncmp(text, want, strlen(want)) != 0)
        fail_msg("row starts '%.60s', wanted '%s'", text, want);
    free(text);
}

static void header_only_gives_no_rows(void **state)
{
    (void)state;
    assert_int_equal(read_file(write_text("head.csv", "# a: b\nkernel,m,n,k\n")), 0);
    assert_int_equal(rf.nrows, 0);
    assert_string_equal(gp_meta_get(&rf.meta, "a"), "b");
    gp_run_file_free(&rf);
    assert_int_equal(read_file(write_text("head2.csv", "kernel,m,n,k")), 0);  /* no newline */
    assert_int_equal(rf.nrows, 0);
    gp_run_file_free(&rf);
}

static void subset_any_order_unknown_ignored(void **state)
{
    (void)state;
    assert_int_equal(read_file(write_text("subset.csv",
        "k,future_column,kernel,n,m,time_ms\n8,zzz,naive,2,4,0.5\n9,?,cublas,3,5,NA\n")), 0);
    assert_int_equal(rf.nrows, 2);
    assert_string_equal(rf.rows[0].kernel, "naive");
    assert_int_equal(rf.rows[0].m, 4);
    assert_int_equal(rf.rows[0].n, 2);
    assert_int_equal(rf.rows[0].k, 8);
    assert_near(rf.rows[0].time_ms, 0.5, 0);
    assert_true(isnan(rf.rows[1].time_ms));
    assert_true(isnan(rf.rows[0].gflops));            /* missing column: NA */
    assert_int_equal(rf.rows[0].verified, -1);
    assert_int_equal(rf.has_column[gp_column_index("time_ms")], 1);
    assert_int_equal(rf.has_column[gp_column_index("gflops")], 0);
    gp_run_file_free(&rf);
}

static void na_and_empty_read_as_na(void **state)
{
    (void)state;
    assert_int_equal(read_file(write_text("na.csv",
        "kernel,m,n,k,time_ms,verified,reps\nx,1,1,1,NA,NA,NA\ny,1,1,1,,,\nz,1,1,1, 2 ,0,3\n")), 0);
    assert_int_equal(rf.nrows, 3);
    assert_true(isnan(rf.rows[0].time_ms));
    assert_int_equal(rf.rows[0].verified, -1);
    assert_true(isnan(rf.rows[1].time_ms));
    assert_int_equal(rf.rows[1].verified, -1);
    assert_int_equal(rf.rows[1].reps, -1);          /* a long NA is -1 */
    assert_near(rf.rows[2].time_ms, 2, 0);
    assert_int_equal(rf.rows[2].verified, 0);
    assert_int_equal(rf.rows[2].reps, 3);
    gp_run_file_free(&rf);
}

static void quotes_crlf_and_bom(void **state)
{
    (void)state;
    assert_int_equal(read_file(write_text("crlf.csv",
        "\xEF\xBB\xBF# tool: pandas\r\nkernel,m,n,k,status,config\r\n"
        "\"a,b\",1,2,3,\"line1\nline2\",\"\"\r\n"
        "\"say \"\"hi\"\"\",4,5,6,ok,\"x\"\r\n")), 0);
    assert_int_equal(rf.nrows, 2);
    assert_string_equal(gp_meta_get(&rf.meta, "tool"), "pandas");
    assert_string_equal(rf.rows[0].kernel, "a,b");
    assert_string_equal(rf.rows[0].status, "line1\nline2");
    assert_string_equal(rf.rows[0].config, "");
    assert_int_equal(rf.rows[0].k, 3);
    assert_string_equal(rf.rows[1].kernel, "say \"hi\"");
    assert_string_equal(rf.rows[1].status, "ok");
    assert_string_equal(rf.rows[1].config, "x");
    assert_int_equal(rf.rows[1].k, 6);
    gp_run_file_free(&rf);
    /* line numbers count the lines inside quoted fields */
    bad_file("crlf-bad.csv", "kernel,m,n,k,status\r\nx,1,2,3,\"a\nb\"\r\ny,1,2,q,ok\r\n",
             "crlf-bad.csv:4:7: column k: 'q' is not a number");
}

static void cut_off_file_refused_or_salvaged(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "%s/cut.csv", dir);
    write_three_rows(path);
    FILE *f = fopen(path, "a");
    fputs("naive,fp32,,64,64", f);               /* died mid-row */
    fclose(f);
    assert_int_equal(read_file(path), -1);
    assert_null(rf.rows);
    assert_non_null(strstr(err, "cut.csv:9:18: last line is cut off (5 of"));
    assert_int_equal(gp_csv_read_salvage(path, &rf, err, sizeof err), 0);
    assert_int_equal(rf.nrows, 3);
    assert_rows_equal(&rows[2], &rf.rows[2]);
    assert_non_null(strstr(err, "cut.csv:"));
    assert_non_null(strstr(err, "last line is cut off (5 of"));
    assert_non_null(strstr(err, "; ignored"));
    gp_run_file_free(&rf);

    /* cut inside a quoted status */
    const char *q = "kernel,m,n,k,status\nx,1,2,3,ok\ny,1,2,3,\"error: oh";
    bad_file("cutq.csv", q, "cutq.csv:3:19: last line is cut off");
    assert_int_equal(gp_csv_read_salvage(write_text("cutq.csv", q), &rf, err, sizeof err), 0);
    assert_int_equal(rf.nrows, 1);
    gp_run_file_free(&rf);

    /* a complete last row without a newline is a row */
    assert_int_equal(read_file(write_text("nonl.csv", "kernel,m,n,k\nx,1,2,3")), 0);
    assert_int_equal(rf.nrows, 1);
    assert_string_equal(err, "");
    gp_run_file_free(&rf);
}

static void short_or_long_rows_are_errors(void **state)
{
    (void)state;
    bad_file("short.csv", "kernel,m,n,k,time_ms\nx,1,2,3,1\ny,1,2,3\nz,1,2,3,1\n",
             "short.csv:3:8: 4 fields, header has 5");
    bad_file("shortnl.csv", "kernel,m,n,k,time_ms\nx,1,2,3,1\ny,1,2,3\n",
             "shortnl.csv:3:8: 4 fields, header has 5");
    bad_file("long.csv", "# c: d\nkernel,m,n,k\nx,1,2,3,4\n",
             "long.csv:3:9: 5 fields, header has 4");
}

static void malformed_numbers_name_line_and_column(void **state)
{
    (void)state;
    bad_file("num.csv", "# a: b\n\nkernel,m,n,k,time_ms\nx,1,2,3,1.5\nnaive,1,2,3,abc\n",
             "num.csv:5:13: column time_ms: 'abc' is not a number");
    bad_file("num2.csv", "kernel,m,n,k\nx,1,2x,3\n", "num2.csv:2:5: column n: '2x' is not a number");
    bad_file("int.csv", "kernel,m,n,k\nx,1.5,2,3\n", "int.csv:2:3: column m: '1.5' is not an integer");
    bad_file("ver.csv", "kernel,m,n,k,verified\nx,1,2,3,2\n",
             "ver.csv:2:9: column verified: '2' is not 0, 1 or NA");
    bad_file("metric.csv", "kernel,m,n,k,dram__bytes_read.sum\nx,1,2,3,1e\n",
             "metric.csv:2:9: column dram__bytes_read.sum: '1e' is not a number");
}

static void structural_errors(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "%s/nope.csv", dir);
    assert_int_equal(read_file(path), -1);
    char want[256];
    snprintf(want, sizeof want, "%s: No such file or directory", path);
    assert_string_equal(err, want);
    bad_file("empty.csv", "", "empty.csv:1:1: empty file");
    bad_file("comments.csv", "# a: b\n# c: d\n", "comments.csv:3:1: no header row");
    bad_file("nok.csv", "kernel,m,n,time_ms\nx,1,2,3\n",
             "nok.csv:1:1: no column 'k' in the header row 'kernel,m,n,time_ms'");
    bad_file("nokernel.csv", "name,m,n,k\n", "no column 'kernel'");
    bad_file("noheader.csv", "# a: b\nnaive,fp32,,64,64,64\n",
             "noheader.csv:2:1: no column 'kernel' in the header row 'naive,fp32,,64,64,64' "
             "(not a gemmprof run file, or its header row is missing)");
    bad_file("twice.csv", "kernel,m,n,k,m\n", "twice.csv:1:14: column 'm' appears twice");
    bad_file("quote.csv", "kernel,m,n,k\n\"x\"y,1,2,3\n", "quote.csv:2:4: text after a closing quote");
    bad_file("toolong.csv",
             "kernel,m,n,k,precision\n"
             "a,1,2,3,abcdefgh\n",
             "toolong.csv:2:9: column precision: value longer than 7 characters");
    snprintf(path, sizeof path, "%s", dir);
    assert_int_equal(read_file(path), -1);                 /* a directory */
    assert_non_null(strstr(err, "Is a directory"));
}

/* What strtod would take and no run file means: each refused at its
 * column.  NA and empty stay missing values; an error may be inf. */
static void numbers_out_of_range_are_refused(void **state)
{
    (void)state;
    const char *h = "kernel,m,n,k,time_ms,gflops,occupancy_theoretical,rel_err_fro,alpha\n";
    char text[512];
    static const struct { const char *row, *want; } c[] = {
        { "x,1,2,3,1,1e400,50,0,1", "r.csv:2:11: column gflops: '1e400' is out of range (larger than any double)" },
        { "x,1,2,3,nan,1,50,0,1", "r.csv:2:9: column time_ms: 'nan' is not a number (a missing value is NA)" },
        { "x,1,2,3,1,inf,50,0,1", "r.csv:2:11: column gflops: 'inf' is infinite, not a number >= 0" },
        { "x,1,2,3,1,-inf,50,0,1", "r.csv:2:11: column gflops: '-inf' is infinite" },
        { "x,-4,2,3,1,1,50,0,1", "r.csv:2:3: column m: '-4' is out of range: not a size >= 1" },
        { "x,1,0,3,1,1,50,0,1", "r.csv:2:5: column n: '0' is out of range: not a size >= 1" },
        { "x,1,2,3,-1,1,50,0,1", "r.csv:2:9: column time_ms: '-1' is out of range: not a number >= 0" },
        { "x,1,2,3,1,1,150,0,1", "r.csv:2:13: column occupancy_theoretical: '150' is out of range: not a percentage from 0 to 100" },
        { "x,1,2,3,1,1,50,-inf,1", "r.csv:2:16: column rel_err_fro: '-inf' is infinite" },
        { "x,1,2,3,fast,1,50,0,1", "r.csv:2:9: column time_ms: 'fast' is not a number" },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        snprintf(text, sizeof text, "%s%s\n", h, c[i].row);
        bad_file("r.csv", text, c[i].want);
    }
    /* allowed: NA, empty, a negative alpha, an infinite error, 1e-400 (0) */
    snprintf(text, sizeof text, "%sx,1,2,3,NA,,100,inf,-1\ny,1,2,3,1e-400,0,0,0,1\n", h);
    assert_int_equal(read_file(write_text("ok.csv", text)), 0);
    assert_int_equal(rf.nrows, 2);
    assert_true(isnan(rf.rows[0].time_ms) && isnan(rf.rows[0].gflops));
    assert_true(isinf(rf.rows[0].rel_err_fro) && rf.rows[0].alpha == -1);
    gp_run_file_free(&rf);
}

static void duplicate_rows_and_other_schemas_are_refused(void **state)
{
    (void)state;
    bad_file("dup.csv", "kernel,config,m,n,k\na,c1,1,2,3\nb,c1,1,2,3\na,c2,1,2,3\na,c1,1,2,3\n",
             "dup.csv:5:1: duplicate row: a 1x2x3 c1 is also on line 2");
    /* trace rows: one identity per launch (pid, correlation id) */
    assert_int_equal(read_file(write_text("trace.csv", "kernel,m,n,k,pid,correlation_id\n"
        "a,NA,NA,NA,7,1\na,NA,NA,NA,7,2\na,NA,NA,NA,8,1\n")), 0);
    assert_int_equal(rf.nrows, 3);
    gp_run_file_free(&rf);
    /* kernels of one CUDA graph launch share its correlation id: two nodes
     * of one kernel and configuration are two facts (torch.compile's
     * graphs have them), one node twice is a duplicate */
    assert_int_equal(read_file(write_text("graph.csv", "kernel,m,n,k,pid,correlation_id,"
        "graph_id,graph_node_id\na,NA,NA,NA,7,5,3,11\na,NA,NA,NA,7,5,3,12\n")), 0);
    assert_int_equal(rf.nrows, 2);
    gp_run_file_free(&rf);
    bad_file("graph2.csv", "kernel,m,n,k,pid,correlation_id,graph_id,graph_node_id\n"
             "a,NA,NA,NA,7,5,3,11\na,NA,NA,NA,7,5,3,11\n", "graph2.csv:3:1: duplicate row: a");
    bad_file("v2.csv", "# schema: gemmprof-run/2\nkernel,m,n,k\n",
             "v2.csv:1:11: schema 'gemmprof-run/2': this gemmprof reads gemmprof-run/1");
    bad_file("ceil.csv", "# schema: gemmprof-ceilings/1\nkernel,m,n,k\n",
             "ceil.csv:1:11: schema 'gemmprof-ceilings/1'");
    bad_file("clock.csv", "# sm_clock_max_mhz: 1e400\nkernel,m,n,k\n",
             "clock.csv:1:21: sm_clock_max_mhz: '1e400' is out of range");
}

static void writer_reports_open_failure(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "%s/no/such/dir.csv", dir);
    gp_csv_writer *w = gp_csv_open(path, NULL, err, sizeof err);
    assert_null(w);
    char want[256];
    snprintf(want, sizeof want, "%s: No such file or directory", path);
    assert_string_equal(err, want);
}

/* Rows are on disk as soon as gp_csv_write_row returns. */
static void writer_flushes_each_row(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "%s/flush.csv", dir);
    gp_csv_writer *w = gp_csv_open(path, NULL, err, sizeof err);
    assert_non_null(w);
    gp_row r;
    gp_row_init(&r);
    strcpy(r.kernel, "first");
    r.m = r.n = r.k = 8;
    assert_int_equal(gp_csv_write_row(w, &r), 0);
    assert_int_equal(read_file(path), 0);                  /* writer still open */
    assert_int_equal(rf.nrows, 1);
    assert_string_equal(rf.rows[0].kernel, "first");
    gp_run_file_free(&rf);
    assert_int_equal(gp_csv_close(w), 0);
}

static void big_file_reads_every_row(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "%s/big.csv", dir);
    gp_csv_writer *w = gp_csv_open(path, NULL, err, sizeof err);
    assert_non_null(w);
    gp_row r;
    fill_distinct(&r);
    for (long i = 0; i < 2000; i++) {
        r.m = i + 1;
        assert_int_equal(gp_csv_write_row(w, &r), 0);
    }
    assert_int_equal(gp_csv_close(w), 0);
    assert_int_equal(read_file(path), 0);
    assert_int_equal(rf.nrows, 2000);
    assert_int_equal(rf.rows[1999].m, 2000);
    gp_run_file_free(&rf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(roundtrip_every_column),
        cmocka_unit_test(demangled_names_roundtrip),
        cmocka_unit_test(file_text_is_plain_csv),
        cmocka_unit_test(number_formats),
        cmocka_unit_test(header_only_gives_no_rows),
        cmocka_unit_test(subset_any_order_unknown_ignored),
        cmocka_unit_test(na_and_empty_read_as_na),
        cmocka_unit_test(quotes_crlf_and_bom),
        cmocka_unit_test(cut_off_file_refused_or_salvaged),
        cmocka_unit_test(numbers_out_of_range_are_refused),
        cmocka_unit_test(duplicate_rows_and_other_schemas_are_refused),
        cmocka_unit_test(short_or_long_rows_are_errors),
        cmocka_unit_test(malformed_numbers_name_line_and_column),
        cmocka_unit_test(structural_errors),
        cmocka_unit_test(writer_reports_open_failure),
        cmocka_unit_test(writer_flushes_each_row),
        cmocka_unit_test(big_file_reads_every_row),
    };
    return cmocka_run_group_tests_name("csv", tests, make_dir, remove_dir);
}
