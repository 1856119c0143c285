/* output.c - output path and metadata shared by run, sweep and dist. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "data/data.h"
#include "run.h"

static int is_dir_target(const char *p)
{
    struct stat st;
    size_t n = strlen(p);
    if (n && p[n - 1] == '/')
        return 1;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int gp_run_out_path(const char *out, char *path, size_t n, char *err, size_t errlen)
{
    char stamp[32];
    time_t t = time(NULL);
    strftime(stamp, sizeof stamp, "run-%Y%m%d-%H%M%S.csv", gmtime(&t));
    const char *dir = out ? (is_dir_target(out) ? out : NULL) : "results";
    if (!dir) {
        snprintf(path, n, "%s", out);
        return 0;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create output directory '%s': %s", dir,
                 strerror(errno));
        return -1;
    }
    snprintf(path, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", stamp);
    return 0;
}

void gp_run_meta_base(gp_meta *m, const gp_gpu *g, int argc, char **argv,
                      unsigned long long seed, int reps, int warmup,
                      const char *cache_control, const gp_scrub *scrub)
{
    char flush[256];
    gp_scrub_describe(scrub, flush, sizeof flush);
    gp_meta_host(m, GP_RUN_SCHEMA, argc, argv);
    gp_gpu_meta(g, m);
    gp_meta_set(m, "seed", "%llu", seed);
    gp_meta_set(m, "reps", "%d", reps);
    gp_meta_set(m, "warmup", "%d", warmup);
    gp_meta_set(m, "cache_control", "%s", cache_control);
    /* an experiment's scrub (scrub.h) says so, so no one takes its file
     * for a run with the standard one */
    const char *env = getenv(GP_SCRUB_ENV);
    if (strcmp(cache_control, "all") == 0 && env && *env)
        gp_meta_set(m, "l2_flush", "%s (%s=%s)", flush, GP_SCRUB_ENV, env);
    else
        gp_meta_set(m, "l2_flush", "%s", flush);
    gp_meta_set(m, "timing", "CUDA events per rep; time_ms is the median");
}
