/* meta.c - the "# key: value" lines at the top of every data file. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "meta.h"
#include "util/util.h"

void gp_meta_init(gp_meta *m)
{
    m->n = 0;
}

static int meta_find(const gp_meta *m, const char *key)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->kv[i].key, key) == 0)
            return i;
    return -1;
}

const char *gp_meta_get(const gp_meta *m, const char *key)
{
    int i = meta_find(m, key);
    return i < 0 ? NULL : m->kv[i].value;
}

/* Also -1 for a key that does not fit, or one that would not survive the
 * "# key: value" line (empty, or holding ':' or white space). */
int gp_meta_set(gp_meta *m, const char *key, const char *fmt, ...)
{
    size_t klen = strlen(key);
    if (klen == 0 || klen >= sizeof m->kv[0].key || strpbrk(key, ": \t\r\n"))
        return -1;
    int i = meta_find(m, key);
    if (i < 0) {
        if (m->n >= GP_META_MAX)
            return -1;
        i = m->n++;
        memcpy(m->kv[i].key, key, klen + 1);
    }
    m->kv[i].line = m->kv[i].col = 0;
    char *v = m->kv[i].value;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof m->kv[i].value, fmt, ap);
    va_end(ap);
    for (; *v; v++)         /* one line per key in the file */
        if (*v == '\n' || *v == '\r')
            *v = ' ';
    return 0;
}

static int shell_safe(const char *s)
{
    if (!*s)
        return 0;
    return s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                       "0123456789_./=:,+-")] == '\0';
}

/* Append c to out if it fits (out always stays terminated). */
static void put(char *out, size_t len, size_t *n, char c)
{
    if (*n + 1 < len) {
        out[(*n)++] = c;
        out[*n] = '\0';
    }
}

/* argv as it would have to be typed again: unsafe words in single quotes,
 * an embedded ' as '\''.  Cut at len (the meta value size). */
static void join_command(char *out, size_t len, int argc, char **argv)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < argc; i++) {
        if (i > 0)
            put(out, len, &n, ' ');
        int quote = !shell_safe(argv[i]);
        if (quote)
            put(out, len, &n, '\'');
        for (const char *p = argv[i]; *p; p++) {
            if (*p == '\'' && quote) {
                for (const char *q = "'\\''"; *q; q++)
                    put(out, len, &n, *q);
            } else {
                put(out, len, &n, *p);
            }
        }
        if (quote)
            put(out, len, &n, '\'');
    }
}

static int g_argc;
static char **g_argv;

void gp_meta_set_command(int argc, char **argv)
{
    g_argc = argc;
    g_argv = argv;
}

void gp_meta_host(gp_meta *m, const char *schema, int argc, char **argv)
{
    gp_meta_set(m, "schema", "%s", schema);
    gp_meta_set(m, "gemmprof_version", "%s", gp_version);
    gp_meta_set(m, "git_commit", "%s", gp_git_commit);
    gp_meta_set(m, "build_arch", "%s", gp_build_arch);
    gp_meta_set(m, "build_flags", "%s", gp_build_flags);

    char date[32] = "unknown";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    gp_meta_set(m, "date", "%s", date);

    char host[256] = "unknown";
    if (gethostname(host, sizeof host) != 0)
        strcpy(host, "unknown");
    host[sizeof host - 1] = '\0';
    gp_meta_set(m, "host", "%s", host);

    char cmd[sizeof m->kv[0].value];
    if (g_argv)   /* the whole command, not just the subcommand's argv */
        join_command(cmd, sizeof cmd, g_argc, g_argv);
    else
        join_command(cmd, sizeof cmd, argc, argv);
    gp_meta_set(m, "command", "%s", cmd);
}
