/* plot_util.c - strings, files and the gnuplot process for the charts. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "plot_util.h"

void gp_fmt(char *out, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, len, fmt, ap);
    va_end(ap);
}

void gp_buf_printf(gp_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            perror("gemmprof");
            exit(2);
        }
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void gp_buf_free(gp_buf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

void gp_var_str(gp_buf *b, const char *name, const char *value)
{
    gp_buf_printf(b, "%s='", name);
    for (const char *p = value; *p; p++)
        gp_buf_printf(b, *p == '\'' ? "''" : "%c", *p);
    gp_buf_printf(b, "'; ");
}

void gp_var_num(gp_buf *b, const char *name, double value)
{
    if (isnan(value) || isinf(value))
        gp_buf_printf(b, "%s=NaN; ", name);
    else
        gp_buf_printf(b, "%s=%.10g; ", name, value);
}

void gp_chart_text(const char *format, const char *in, int word,
                   char *out, size_t outlen)
{
    int latex = strcmp(format, "cairolatex") == 0;
    size_t o = 0;
    for (const char *p = in; *p && o + 1 < outlen; p++) {
        char c = (word && (*p == ' ' || *p == '\t')) ? '_' : *p;
        const char *rep = NULL;
        if (latex) {
            switch (c) {
            case '\\': rep = "\\textbackslash{}"; break;
            case '~':  rep = "\\textasciitilde{}"; break;
            case '^':  rep = "\\textasciicircum{}"; break;
            case '_': case '%': case '&': case '#': case '$': case '{': case '}':
                if (o + 2 < outlen) {
                    out[o++] = '\\';
                    out[o++] = c;
                }
                continue;
            }
        }
        if (rep) {
            size_t n = strlen(rep);
            if (o + n < outlen) {
                memcpy(out + o, rep, n);
                o += n;
            }
            continue;
        }
        out[o++] = c;
    }
    if (outlen)
        out[o] = '\0';
}

void gp_data_text(const char *format, const char *in, char *out, size_t outlen)
{
    char tmp[1024];
    gp_chart_text(format, in, 0, tmp, sizeof tmp);
    size_t o = 0;
    for (const char *p = tmp; *p && o + 2 < outlen; p++) {
        if (*p == '\\')
            out[o++] = '\\';
        out[o++] = *p == ',' ? ';' : *p;
    }
    if (outlen)
        out[o] = '\0';
}

/* The line gnuplot ended on: its error message. */
static void last_line(const char *file, char *out, size_t len)
{
    out[0] = '\0';
    FILE *f = fopen(file, "r");
    if (!f)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[strspn(line, " \t^")] != '\0')
            gp_fmt(out, len, "%s", line);
    }
    fclose(f);
}

static void print_warnings(const char *file, const char *what)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strstr(line, "arning"))
            gp_warn("gnuplot (%s): %s", what, line);
    }
    fclose(f);
}

int gp_spawn(char *const argv[], const char *cwd, const char *logfile,
             char *err, size_t errlen)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        gp_fmt(err, errlen, "cannot start %s: %s", argv[0], strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int fd = open(logfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int nul = open("/dev/null", O_RDONLY);
        if (fd < 0 || nul < 0 || (cwd && chdir(cwd) != 0))
            _exit(126);
        dup2(nul, 0);
        dup2(fd, 1);
        dup2(fd, 2);
        execv(argv[0], argv);
        fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            gp_fmt(err, errlen, "waiting for %s: %s", argv[0], strerror(errno));
            return -1;
        }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    char msg[512];
    last_line(logfile, msg, sizeof msg);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 126)
        gp_fmt(msg, sizeof msg, "cannot enter %s or write %s", cwd ? cwd : ".", logfile);
    else if (!msg[0])
        gp_fmt(msg, sizeof msg, "exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    gp_fmt(err, errlen, "%s", msg);
    return 1;
}

int gp_gnuplot_run(const char *gnuplot, const char *script, const char *vars,
                   const char *cwd, const char *errfile, const char *what,
                   char *err, size_t errlen)
{
    char *argv[] = { (char *)gnuplot, "-e", (char *)vars, (char *)script, NULL };
    char msg[1024];
    int rc = gp_spawn(argv, cwd, errfile, msg, sizeof msg);
    if (rc == 0) {
        print_warnings(errfile, what);
        return 0;
    }
    gp_fmt(err, errlen, "%s: gnuplot failed: %s", what, msg);
    return -1;
}

int gp_mkdir_p(const char *path, char *err, size_t errlen)
{
    char p[4096];
    if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p) {
        gp_fmt(err, errlen, "%s: path too long", path);
        return -1;
    }
    for (char *s = p + 1; ; s++) {
        if (*s != '/' && *s != '\0')
            continue;
        char c = *s;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            gp_fmt(err, errlen, "%s: %s", p, strerror(errno));
            return -1;
        }
        *s = c;
        if (c == '\0')
            break;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        gp_fmt(err, errlen, "%s: not a directory", path);
        return -1;
    }
    return 0;
}

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

int gp_rm_rf(const char *path)
{
    return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int gp_copy_file(const char *from, const char *to, char *err, size_t errlen)
{
    FILE *in = fopen(from, "rb");
    if (!in) {
        gp_fmt(err, errlen, "%s: %s", from, strerror(errno));
        return -1;
    }
    FILE *out = fopen(to, "wb");
    if (!out) {
        gp_fmt(err, errlen, "%s: %s", to, strerror(errno));
        fclose(in);
        return -1;
    }
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            break;
    int bad = ferror(in) || ferror(out);
    fclose(in);
    if (fclose(out) != 0 || bad) {
        gp_fmt(err, errlen, "%s: write failed", to);
        unlink(to);
        return -1;
    }
    return 0;
}

/* rename, or copy where the two are on different file systems. */
int gp_move_file(const char *from, const char *to, char *err, size_t errlen)
{
    if (rename(from, to) == 0)
        return 0;
    if (errno != EXDEV) {
        gp_fmt(err, errlen, "%s: %s", to, strerror(errno));
        return -1;
    }
    if (gp_copy_file(from, to, err, errlen) < 0)
        return -1;
    unlink(from);
    return 0;
}

int gp_path_join(char *out, size_t len, const char *dir, const char *base)
{
    int n = snprintf(out, len, "%s/%s", dir, base);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

void gp_path_stem(const char *path, char *out, size_t len)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    gp_fmt(out, len, "%s", b);
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = '\0';
}

FILE *gp_open_in(const char *dir, const char *name, char *path, size_t plen,
                 char *err, size_t errlen)
{
    if (gp_path_join(path, plen, dir, name) < 0) {
        gp_fmt(err, errlen, "%s: path too long", dir);
        return NULL;
    }
    FILE *f = fopen(path, "w");
    if (!f)
        gp_fmt(err, errlen, "%s: %s", path, strerror(errno));
    return f;
}
