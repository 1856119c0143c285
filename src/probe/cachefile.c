/* cachefile.c - where the ceilings of each GPU are kept, whether
 * they are still fresh, and probing when they are not. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "probe.h"

time_t gp_parse_utc(const char *s)
{
    struct tm tm = {0};
    int n = 0;
    if (sscanf(s, "%4d-%2d-%2d%*1[T ]%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon,
               &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6)
        return -1;
    const char *rest = s + n;
    if (*rest == '.')                     /* fractional seconds */
        for (++rest; isdigit((unsigned char)*rest); ++rest)
            ;
    if (strcmp(rest, "") && strcmp(rest, "Z") && strcmp(rest, "+00:00") &&
        strcmp(rest, " UTC"))
        return -1;
    if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
        tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return timegm(&tm);
}

int gp_ceilings_fresh(const char *path, const char *gpu_name,
                      double max_age_s, time_t now, char *err, size_t errlen)
{
    gp_ceilings *c = malloc(sizeof *c);
    int fresh = 0;
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    if (gp_ceilings_read(path, c, err, errlen) == 0) {
        const char *name = gp_meta_get(&c->meta, "gpu_name");
        const char *date = gp_meta_get(&c->meta, "date");
        time_t t = date ? gp_parse_utc(date) : (time_t)-1;
        if (!name || strcmp(name, gpu_name) != 0)
            snprintf(err, errlen, "%s is for %s, not %s", path,
                     name ? name : "an unnamed GPU", gpu_name);
        else if (t == (time_t)-1)
            snprintf(err, errlen, "%s has no valid '# date:' line", path);
        else if (difftime(now, t) > max_age_s)
            snprintf(err, errlen, "%s is %.0f s old (max %.0f s)", path,
                     difftime(now, t), max_age_s);
        else if (c->n == 0)
            snprintf(err, errlen, "%s has no ceilings", path);
        else if (!gp_ceilings_find(c, "tf32_tensor"))   /* written before them */
            snprintf(err, errlen, "%s has no tensor-core rows (an older gemmprof "
                     "wrote it)", path);
        else
            fresh = 1;
    }
    free(c);
    return fresh;
}

int gp_probe_to_file(const gp_gpu *g, const gp_probe_opts *o, const char *path,
                     int argc, char **argv, gp_ceilings *out, char *err,
                     size_t errlen)
{
    gp_ceilings *c = out ? out : malloc(sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memset(c, 0, sizeof *c);
    gp_meta_init(&c->meta);
    gp_meta_host(&c->meta, GP_CEILINGS_SCHEMA, argc, argv);
    gp_gpu_meta(g, &c->meta);
    int rc = gp_probe_measure(g, o, c, err, errlen);
    if (rc == 0)
        rc = gp_ceilings_write(path, c, err, errlen);
    if (!out)
        free(c);
    return rc;
}

int gp_probe_ensure(int device, double max_age_s, int force, char *path,
                    size_t pathlen, char *err, size_t errlen)
{
    gp_gpu g;
    char why[512];
    if (gp_gpu_open(device, &g, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    if (gp_ceilings_cache_path(g.name, path, pathlen, err, errlen) != 0)
        return -1;
    if (!force && gp_ceilings_fresh(path, g.name, max_age_s, time(NULL), why,
                                    sizeof why))
        return 0;
    fprintf(stderr, "gemmprof: probing machine ceilings (%s)\n",
            force ? "asked to" : why);
    gp_probe_opts o = {.reps = GP_PROBE_DEFAULT_REPS};
    char *argv[] = {"gemmprof", "probe", "(automatic)", NULL};
    return gp_probe_to_file(&g, &o, path, 3, argv, NULL, err, errlen);
}
