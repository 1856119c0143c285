/* plugin_guard.c - the last words of a run that a plugin crashed: a failed
 * row for the kernel and one line on stderr.  Everything the signal handler
 * writes is formatted when the guard is armed; the handler itself only
 * calls async-signal-safe functions (open, write, close, sigaction, raise). */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/data.h"
#include "registry/registry.h"
#include "run.h"

static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
static const char *const fatal_name[] = { "SIGSEGV", "SIGBUS", "SIGILL",
                                          "SIGFPE", "SIGABRT" };
#define NFATAL (int)(sizeof fatal / sizeof fatal[0])

static volatile sig_atomic_t armed;
static struct sigaction previous[NFATAL];
static char csv_path[4096];
static char row_line[NFATAL][4096];     /* one per signal: the status names it */
static char message[NFATAL][1024];
/* rows a crash must not lose that are not in the file yet (--energy holds
 * a shape's rows until its windows): written before and after the crash row */
static char *kept[2];

static void write_all(int fd, const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

static void restore(void)
{
    for (int i = 0; i < NFATAL; i++)
        sigaction(fatal[i], &previous[i], NULL);
}

static void on_fatal(int sig)
{
    int i = 0;
    while (i < NFATAL - 1 && fatal[i] != sig)
        i++;
    if (armed) {
        armed = 0;
        int fd = open(csv_path, O_WRONLY | O_APPEND);
        if (fd >= 0) {
            if (kept[0])
                write_all(fd, kept[0]);
            write_all(fd, row_line[i]);
            if (kept[1])
                write_all(fd, kept[1]);
            close(fd);
        }
        write_all(2, message[i]);
    }
    restore();      /* whoever handled it before (or the default) ends it */
    raise(sig);
}

/* The row as the CSV writer would write it; "" if it does not fit. */
static void format_row(const gp_row *r, char *buf, size_t n)
{
    FILE *f = fmemopen(buf, n, "w");
    buf[0] = '\0';
    if (!f)
        return;
    gp_csv_write_row_to(f, r);
    int bad = ferror(f) || ftell(f) >= (long)n - 1;
    fclose(f);
    if (bad)
        buf[0] = '\0';
}

void gp_plugin_guard_arm(const char *path, const gp_kernel *k, long m, long n,
                         long kk, double alpha, double beta)
{
    gp_row r;
    const char *file = gp_plugin_origin(k);
    gp_plugin_guard_disarm();
    gp_row_identify(&r, k, m, n, kk, alpha, beta);
    snprintf(csv_path, sizeof csv_path, "%s", path);
    for (int i = 0; i < NFATAL; i++) {
        snprintf(r.status, sizeof r.status, "error: crashed: %s in the "
                 "plugin's launcher or during its run", fatal_name[i]);
        format_row(&r, row_line[i], sizeof row_line[i]);
        snprintf(message[i], sizeof message[i], "gemmprof: %s (%s) crashed the "
                 "process with %s at %ldx%ldx%ld; the rows before it%s are in %s\n",
                 k->name, file ? file : "built-in", fatal_name[i], m, n, kk,
                 row_line[i][0] ? " and a row saying so" : "", path);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NFATAL; i++)
        sigaction(fatal[i], &sa, &previous[i]);
    armed = 1;
}

/* The rows formatted one after another, malloc'd; NULL for none (or if
 * memory ran out: the crash row still goes). */
static char *format_rows(const gp_row *rows, int n)
{
    size_t line = 4096, used = 0;
    char *text = n > 0 ? malloc((size_t)n * line) : NULL;
    for (int i = 0; text && i < n; ++i) {
        format_row(&rows[i], text + used, line);
        used += strlen(text + used);
    }
    return text;
}

void gp_plugin_guard_keep(const gp_row *before, int nbefore,
                          const gp_row *after, int nafter)
{
    char *b = format_rows(before, nbefore), *a = format_rows(after, nafter);
    sig_atomic_t was = armed;
    armed = 0;          /* the handler never sees a half-made pair */
    free(kept[0]);
    free(kept[1]);
    kept[0] = b;
    kept[1] = a;
    armed = was;
}

void gp_plugin_guard_disarm(void)
{
    if (!armed)
        return;
    armed = 0;
    restore();
    free(kept[0]);
    free(kept[1]);
    kept[0] = kept[1] = NULL;
}
