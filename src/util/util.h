/* util.h - the helpers every part of gemmprof shares, in one place: one-line
 * messages, formatted strings that grow, lists of strings, files and
 * folders, running a helper program.  Depends on nothing else in src/. */
#ifndef GP_UTIL_H
#define GP_UTIL_H

#include <stddef.h>
#include <stdio.h>

/* "gemmprof: <msg>" on stderr, one line (errors.c).  Every message about a
 * problem goes through these, so scripts can grep it. */
void gp_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void gp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* After getopt_long returned '?' or ':' (with opterr = 0): a one-line
 * message naming the bad option as it was spelled (getopt_errors.c). */
struct option;
void gp_option_error(int c, char **argv, const struct option *long_opts,
                     char *err, size_t errlen);

/* snprintf that says nothing about truncation: messages and paths here are
 * cut to their buffers on purpose. */
void gp_fmt(char *out, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Out of memory, a growing string or list is left as it was and its
 * function returns -1; 0 otherwise.  Nothing here exits: the injection
 * library shares these inside other people's processes.  A program that
 * would rather stop sets a handler, called before the -1 (gemmprof's main
 * sets gp_exit_out_of_memory). */
void gp_on_out_of_memory(void (*handler)(void));
/* "gemmprof: out of memory" on stderr and exit(2) (errors.c). */
void gp_exit_out_of_memory(void);

typedef struct { char *s; size_t len, cap; } gp_buf;
int gp_buf_printf(gp_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void gp_buf_free(gp_buf *b);

/* One more zeroed element at the end of the array *arr of *n elements of
 * `size` bytes: the array grows, *n counts it, its address is returned
 * (NULL, the array unchanged, if memory ran out). */
void *gp_push(void *arr, int *n, size_t size);
/* Room for `need` elements of `size` bytes in the array *arr of capacity
 * *cap: the capacity doubles (from `first`) until it holds them, so a
 * long run of appends copies each element O(1) times.  0, or -1 with the
 * array and *cap as they were if memory ran out. */
int gp_reserve(void *arr, size_t *cap, size_t need, size_t size, size_t first);

typedef struct { char **v; int n; } gp_strlist;
int gp_strlist_add(gp_strlist *l, const char *s);
void gp_strlist_free(gp_strlist *l);
/* 1 if `word` is one of the items of `list` ("a,b,c" with sep ','; the
 * empty list has none), whole items only. */
int gp_list_has(const char *list, char sep, const char *word);

/* Seconds on a monotonic clock, for measuring host time (clock.c). */
double gp_seconds(void);

/* The median of v[0..n), which it sorts; NAN for n = 0 (stats.c). */
double gp_median_inplace(double *v, size_t n);

/* A GPU name as a file-name word: "NVIDIA H200" -> "nvidia-h200". */
void gp_slug(const char *s, char *out, size_t outlen);

/* Run argv[0] (a path) with its output going to `logfile`, in `cwd` (NULL:
 * here).  0 exit status 0; 1 it failed (its last output line in err); -1
 * it could not be run. */
int gp_spawn(char *const argv[], const char *cwd, const char *logfile,
             char *err, size_t errlen);

/* The same with its stdout going to `outfile` (created or truncated; a
 * PDF, say) and its stderr to `logfile`: the redirection a shell would do,
 * with no shell to read the paths (spawn.c). */
int gp_spawn_to(char *const argv[], const char *cwd, const char *outfile,
                const char *logfile, char *err, size_t errlen);

/* The executable `name` on $PATH (or /usr/bin:/bin), as a path in `path`.
 * 0, or -1 if there is none. */
int gp_which(const char *name, char *path, size_t len);

/* Files and folders.  Each returns 0, or -1 with "PATH: reason" in err. */
int gp_mkdir_p(const char *path, char *err, size_t errlen);
int gp_rm_rf(const char *path);                  /* best effort */
int gp_copy_file(const char *from, const char *to, char *err, size_t errlen);
int gp_move_file(const char *from, const char *to, char *err, size_t errlen);
/* "dir/base" into out; -1 if it does not fit. */
int gp_path_join(char *out, size_t len, const char *dir, const char *base);
/* The last path component without its extension ("a/b/run.csv" -> "run"). */
void gp_path_stem(const char *path, char *out, size_t len);

/* Write `path` whole or not at all: `body` writes into a fresh file made
 * by mkstemp in path's folder, which is then renamed over `path`, so a
 * reader never sees half a file and a symlink planted at a guessable temp
 * name is never followed.  0, or -1 with err (the temp file removed). */
int gp_write_atomic(const char *path, void (*body)(FILE *, const void *),
                    const void *arg, char *err, size_t errlen);

/* fopen for writing intermediates: "DIR/NAME", NULL with err. */
FILE *gp_open_in(const char *dir, const char *name, char *path, size_t plen,
                 char *err, size_t errlen);

/* ---- clean-up when SIGINT, SIGTERM or SIGHUP stops gemmprof (cleanup.c):
 * the helper program running now is stopped, then every path added here
 * (a temp file, or a temp folder and all in it) is removed, and the process
 * dies of the same signal (exit status 128+N).  The handler only calls
 * async-signal-safe functions on paths recorded beforehand. ---- */
int gp_cleanup_add(const char *path);   /* 0, or -1 if the table is full   */
void gp_cleanup_drop(const char *path); /* done with it (renamed, removed) */
void gp_cleanup_child(int pid);         /* the helper running now; 0: none */

/* ---- text on its way into another language (escape.c): every string
 * that comes from data (kernel names, file names, metadata, captions)
 * passes one of these where it is written out.  Control characters (a
 * newline in a kernel name) become spaces in all of them. ---- */

/* groff/tbl text: backslashes as \e, '|' (the tables' column separator)
 * as '/', and a leading character groff or tbl would take as a request, a
 * rule or a text block ('.', '\'', '_', '=', "T{", "T}") made plain by \&. */
void gp_esc_roff(FILE *f, const char *s);
/* Markdown (a table cell, a list item, a heading): '\', '|', '`', '*',
 * '<', '[' and ']' escaped, and '_' where it could start or end emphasis. */
void gp_esc_markdown(FILE *f, const char *s);
/* LaTeX text: \ ~ ^ as \text...{} commands, _ % & # $ { } backslashed. */
void gp_esc_latex(const char *in, char *out, size_t outlen);
/* A file-name component: letters, digits, '.', '_' and '-' kept, anything
 * else (a '/', a quote, a space, a newline) as '_'; never "", never
 * starting with '.' (hidden, or "..").  Character by character, so
 * "roofline-" + a cleaned name is the cleaned "roofline-NAME". */
void gp_file_word(const char *in, char *out, size_t outlen);

/* Build facts, defined in the generated build/gen/version.c (the Makefile
 * rewrites it whenever the version, commit or flags change). */
extern const char *const gp_version;      /* "0.1.0"                       */
extern const char *const gp_git_commit;   /* short hash, "-dirty" suffix   */
extern const char *const gp_build_arch;   /* "sm_90"                       */
extern const char *const gp_build_flags;  /* NVCCFLAGS of the build        */
extern const char *const gp_cuda_home;    /* toolkit the build used        */

/* The one wording for a machine without the NVIDIA driver: the run
 * command's (gpu/gpu.c) and the counters' (cupti/explain.c). */
#define GP_NO_DRIVER "no NVIDIA driver (libcuda.so.1 not found)"

/* Answers every command gives alike (global_options.c).  --version:
 * "gemmprof VERSION (commit C, built for ARCH)", returns 0.  --dry-run
 * (global, before COMMAND; main sets it): a command that sees
 * gp_dry_run() after validating its options calls gp_dry_run_report,
 * which prints "dry run: gemmprof COMMAND ARGS" and what it would do
 * (`what`, e.g. "run 3 kernel(s) at 2 size(s)"), and returns 0. */
void gp_set_dry_run(int on);
int gp_dry_run(void);
int gp_print_version(FILE *f);
int gp_dry_run_report(const char *command, int argc, char **argv,
                      const char *what);

/* ---- the size grammar of --size, --sizes and --mnk (sizes.c), shared by
 * run, sweep and dist ---- */

#define GP_MAX_SHAPES 256
typedef struct { long m, n, k; } gp_shape;

/* Size specs.  Each returns the number of shapes appended, or -1 with err.
 *   "N"            -> N x N x N
 *   "A:B:STEP"     -> A, A+STEP, ... <= B (square)
 *   "A,B,C"        -> square sizes
 *   "M,N,K"        -> for --mnk: one rectangular shape
 * Sizes must be integers 1 .. 1<<20 (no signs, no junk, no overflow). */
int gp_parse_sizes(const char *spec, gp_shape *out, int max, char *err, size_t errlen);
int gp_parse_mnk(const char *spec, gp_shape *out, int max, char *err, size_t errlen);

/* ---- command-line options (options.c): one parser, one set of value
 * kinds and one wording of mistakes for every command.  A command's table
 * names its options: gp_opt entries ending with name NULL, each storing its
 * value into the command's own struct at offset `at` (GP_OPT_FIELD checks
 * the field's type at compile time).  Mistakes read "--NAME: 'VALUE' is not
 * ..." (a bad value) or as gp_option_error words them (unknown option,
 * missing argument); one line, without the "gemmprof: " prefix. ---- */

typedef enum {
    GP_OPT_FLAG,     /* no argument: the int at `at` becomes 1             */
    GP_OPT_SET,      /* no argument: the const char * at `at` becomes text */
    GP_OPT_TEXT,     /* const char *, passed to check (if any) first; its
                      * message comes back as "--NAME: message"           */
    GP_OPT_PATH,     /* const char *, not empty                            */
    GP_OPT_CHOICE,   /* const char *, one of text ("all|none")             */
    GP_OPT_INT,      /* int, decimal digits only, lo..hi (hi 0: INT_MAX)   */
    GP_OPT_LONG,     /* long, the same (hi 0: LONG_MAX)                    */
    GP_OPT_ULL,      /* unsigned long long, the same (hi 0: ULLONG_MAX)    */
    GP_OPT_SHAPES,   /* --size/--sizes grammar: appended to the gp_shape
                      * array at `at`; the int count is `also`; at most hi
                      * in all (0: GP_MAX_SHAPES)                          */
    GP_OPT_MNK,      /* the same for M,N,K                                 */
    GP_OPT_CALL,     /* the command's own: call(struct, arg, err, errlen)  */
    GP_OPT_ACTION,   /* the same with no argument (arg NULL)               */
    GP_OPT_HELP,     /* the int at `at` becomes 1 and parsing stops there  */
    GP_OPT_VERSION   /* (like GNU tools: what follows is not looked at)    */
} gp_opt_kind;

typedef struct {
    const char *name;            /* --NAME                                  */
    char letter;                 /* -L, or 0                                */
    gp_opt_kind kind;
    size_t at;                   /* GP_OPT_FIELD of the field it sets       */
    size_t also;                 /* GP_OPT_ALSO: the integers' "given" int,
                                  * the shapes' count; 0: none             */
    unsigned long long lo, hi;   /* integers: the range; shapes: hi = max   */
    const char *text;            /* SET: the value; CHOICE: "a|b|c"         */
    int (*check)(const char *arg, char *err, size_t errlen);
    int (*call)(void *o, const char *arg, char *err, size_t errlen);
} gp_opt;

/* offsetof(T, f), refused at compile time unless T's f is of `type`. */
#define GP_OPT_FIELD(T, f, type) \
    (offsetof(T, f) + 0 * sizeof(char[_Generic(((T *)0)->f, type: 1, default: -1)]))
#define GP_OPT_ALSO(T, f) (GP_OPT_FIELD(T, f, int) + 1)

/* The limits every command shares.  --device: CUDA ordinals are small; a
 * node with more than 1024 GPUs does not exist, so a larger number is a
 * typo, refused before any GPU is touched. */
#define GP_DEVICE_MAX 1023
#define GP_REPS_MAX 1000000

/* The shared options, said once: a command's table lists these. */
#define GP_OPTS_DEVICE(T, f, letter) \
    { "device", letter, GP_OPT_INT, GP_OPT_FIELD(T, f, int), 0, 0, GP_DEVICE_MAX, 0, 0, 0 }
#define GP_OPTS_REPS(T, f) \
    { "reps", 0, GP_OPT_INT, GP_OPT_FIELD(T, f, int), 0, 1, GP_REPS_MAX, 0, 0, 0 }
#define GP_OPTS_WARMUP(T, f) \
    { "warmup", 0, GP_OPT_INT, GP_OPT_FIELD(T, f, int), 0, 0, GP_REPS_MAX, 0, 0, 0 }
/* Any 64-bit seed: run files record it with %llu, and any of them can be
 * given back to every command that draws inputs. */
#define GP_OPTS_SEED(T, f, given) \
    { "seed", 0, GP_OPT_ULL, GP_OPT_FIELD(T, f, unsigned long long), \
      GP_OPT_ALSO(T, given), 0, 0, 0, 0, 0 }
#define GP_OPTS_SIZES(T, shapes, n) \
    { "size", 's', GP_OPT_SHAPES, GP_OPT_FIELD(T, shapes, gp_shape *), \
      GP_OPT_ALSO(T, n), 0, 0, 0, 0, 0 }, \
    { "sizes", 0, GP_OPT_SHAPES, GP_OPT_FIELD(T, shapes, gp_shape *), \
      GP_OPT_ALSO(T, n), 0, 0, 0, 0, 0 }, \
    { "mnk", 0, GP_OPT_MNK, GP_OPT_FIELD(T, shapes, gp_shape *), \
      GP_OPT_ALSO(T, n), 0, 0, 0, 0, 0 }
#define GP_OPTS_CACHE_CONTROL(T, f) \
    { "cache-control", 0, GP_OPT_CHOICE, GP_OPT_FIELD(T, f, const char *), \
      0, 0, 0, "all|none", 0, 0 }, \
    { "no-flush", 0, GP_OPT_SET, GP_OPT_FIELD(T, f, const char *), 0, 0, 0, "none", 0, 0 }
#define GP_OPTS_OUT(T, f) \
    { "out", 'o', GP_OPT_PATH, GP_OPT_FIELD(T, f, const char *), 0, 0, 0, 0, 0, 0 }
#define GP_OPTS_QUIET(T, f) \
    { "quiet", 'q', GP_OPT_FLAG, GP_OPT_FIELD(T, f, int), 0, 0, 0, 0, 0, 0 }
#define GP_OPTS_HELP(T, help, version) \
    { "help", 'h', GP_OPT_HELP, GP_OPT_FIELD(T, help, int), 0, 0, 0, 0, 0, 0 }, \
    { "version", 'V', GP_OPT_VERSION, GP_OPT_FIELD(T, version, int), 0, 0, 0, 0, 0, 0 }
#define GP_OPTS_END { NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

/* Parse argv[1..] against `table` into `o` (its defaults set before).
 * Stops at --help or --version, else at the end of the options: optind is
 * then the first operand.  0, or -1 with the message in err. */
int gp_opts_parse(const gp_opt *table, int argc, char **argv, void *o,
                  char *err, size_t errlen);
/* The same for a command followed by another program's (gemmprof trace
 * [OPTION]... CMD [ARG]...): the options end at the first word that is not
 * one, so CMD's own options stay CMD's. */
int gp_opts_parse_command(const gp_opt *table, int argc, char **argv, void *o,
                          char *err, size_t errlen);

/* The kinds' checks, for a value read some other way (an environment
 * variable, a list).  Each returns 0, or -1 with "OPT: 'S' is not ..." in
 * err. */
int gp_opt_integer(const char *opt, const char *s, unsigned long long lo,
                   unsigned long long hi, unsigned long long *out,
                   char *err, size_t errlen);
int gp_opt_path(const char *opt, const char *s, char *err, size_t errlen);
int gp_opt_choice(const char *opt, const char *s, const char *choices,
                  char *err, size_t errlen);
/* Shapes of spec (mnk: M,N,K; else the --sizes grammar) appended to
 * shapes[*n..], at most max in all. */
int gp_opt_shapes(const char *opt, const char *spec, int mnk, gp_shape *shapes,
                  int *n, int max, char *err, size_t errlen);
/* The one integer reader: len bytes of decimal digits (no sign, blank or
 * suffix) worth at most max.  0, or -1. */
int gp_parse_decimal(const char *s, size_t len, unsigned long long max,
                     unsigned long long *out);

/* What every command does once its options are parsed (global_options.c):
 * --help (usage on stdout), --version, and --dry-run (gp_dry_run_report
 * with `what`).  The exit status to return, or -1: none of them, run. */
int gp_opts_answer(int help, int version, void (*usage)(FILE *),
                   const char *command, int argc, char **argv, const char *what);

#endif
