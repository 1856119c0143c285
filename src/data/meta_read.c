/* meta_read.c - the '#' lines of a data file read back: one parser for
 * run files, ceilings and tuning tables, and the checks of what they say
 * (schema, numbers), each naming the line and column. */
#include <stdio.h>
#include <string.h>

#include "meta.h"
#include "value.h"

void gp_meta_read_line(gp_meta *m, char *line, int lineno)
{
    char *s = line + 1;                 /* the '#' */
    while (*s == ' ')
        s++;
    char *colon = strchr(s, ':');
    if (!colon || colon == s)
        return;
    *colon = '\0';
    if (strpbrk(s, " \t"))              /* prose, not a key */
        return;
    char *v = colon + 1;
    if (*v == ' ')
        v++;
    if (gp_meta_set(m, s, "%s", v) != 0)
        return;
    for (int i = m->n - 1; i >= 0; i--)
        if (strcmp(m->kv[i].key, s) == 0) {
            m->kv[i].line = lineno;
            m->kv[i].col = (int)(v - line) + 1;
            break;
        }
}

/* "PATH:LINE:COL: " of key i (just "PATH: " for a value set in memory). */
static int where(const gp_meta *m, int i, const char *path, char *err, size_t errlen)
{
    int n = m->kv[i].line > 0
                ? snprintf(err, errlen, "%s:%d:%d: ", path, m->kv[i].line, m->kv[i].col)
                : snprintf(err, errlen, "%s: ", path);
    return n < 0 || (size_t)n >= errlen ? (int)errlen - 1 : n;
}

/* Metadata gemmprof reads back as numbers (diff compares them, plot and
 * run use the probe clock); written by gpu.c, output.c, dist and probe. */
static const char *const numeric[] = {
    "sm_count", "sm_clock_max_mhz", "mem_clock_max_mhz", "mem_bus_width_bits",
    "l2_bytes", "gpu_memory_bytes", "gpu_ordinal", "reps", "warmup", "ranks",
    "probe_sm_clock_mhz", "probe_sm_clock_min_mhz", "probe_mem_clock_mhz",
    "probe_reps", "probe_bytes_per_array", "probe_l2_working_set_bytes",
};

int gp_meta_check(const gp_meta *m, const char *path, const char *schema,
                  char *err, size_t errlen)
{
    for (int i = 0; i < m->n; i++) {
        const char *k = m->kv[i].key, *v = m->kv[i].value;
        if (schema && strcmp(k, "schema") == 0 && strcmp(v, schema) != 0) {
            int n = where(m, i, path, err, errlen);
            snprintf(err + n, errlen - (size_t)n, "schema '%.60s': this gemmprof "
                     "reads %s", v, schema);
            return -1;
        }
        for (size_t j = 0; j < sizeof numeric / sizeof numeric[0]; j++) {
            char msg[160];
            double x;
            if (strcmp(k, numeric[j]) != 0 || gp_value_is_na(v) ||
                gp_value_parse(v, &gp_range_nonneg, &x, msg, sizeof msg) == 0)
                continue;
            int n = where(m, i, path, err, errlen);
            snprintf(err + n, errlen - (size_t)n, "%s: %s", k, msg);
            return -1;
        }
    }
    return 0;
}
