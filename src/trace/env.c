/* env.c - what a traced process is given: CMD's environment and where the
 * injected library lives (the command's side of the contract in
 * inject/inject.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace.h"

#define INJECTION_VAR "CUDA_INJECTION64_PATH"
/* NVTX loads this library too (--nvtx-include) and hands it to CUPTI. */
#define NVTX_VAR "NVTX_INJECTION64_PATH"

static int has_prefix(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void add_var(gp_strlist *out, const char *name, const char *value)
{
    gp_buf b = { 0 };
    gp_buf_printf(&b, "%s=%s", name, value);
    gp_strlist_add(out, b.s);
    gp_buf_free(&b);
}

int gp_trace_env(const gp_trace_opts *o, char *const env[], const char *lib,
                 const char *dir, gp_strlist *out, char *err, size_t errlen)
{
    out->v = NULL;
    out->n = 0;
    for (char *const *e = env; e && *e; e++) {
        if (has_prefix(*e, INJECTION_VAR "=")) {
            /* nsys, ncu or another tool: CUDA loads one injection library */
            snprintf(err, errlen, INJECTION_VAR " is already set (%.300s): another "
                     "tool injects into CUDA; unset it to use gemmprof trace",
                     *e + strlen(INJECTION_VAR) + 1);
            gp_strlist_free(out);
            return -1;
        }
        if (o->nvtx_include && has_prefix(*e, NVTX_VAR "=")) {
            snprintf(err, errlen, NVTX_VAR " is already set (%.300s): another tool "
                     "takes NVTX's calls; unset it to use --nvtx-include",
                     *e + strlen(NVTX_VAR) + 1);
            gp_strlist_free(out);
            return -1;
        }
        if (has_prefix(*e, "GEMMPROF_TRACE_"))
            continue;                       /* left over: ours are below */
        gp_strlist_add(out, *e);
    }
    add_var(out, INJECTION_VAR, lib);
    add_var(out, GP_TRACE_ENV_DIR, dir);
    add_var(out, GP_TRACE_ENV_METRICS, o->metrics ? o->metrics : "default");
    add_var(out, GP_TRACE_ENV_SAMPLE, o->sample ? o->sample : "per-config");
    add_var(out, GP_TRACE_ENV_TENSOR, o->tensor_counters ? o->tensor_counters : "auto");
    if (o->nvtx_include) {
        add_var(out, NVTX_VAR, lib);
        add_var(out, GP_TRACE_ENV_NVTX, o->nvtx_include);
    }
    if (o->kernel_regex)
        add_var(out, GP_TRACE_ENV_REGEX, o->kernel_regex);
    char num[32];
    if (o->launch_skip > 0) {
        snprintf(num, sizeof num, "%ld", o->launch_skip);
        add_var(out, GP_TRACE_ENV_SKIP, num);
    }
    if (o->launch_count >= 0) {
        snprintf(num, sizeof num, "%ld", o->launch_count);
        add_var(out, GP_TRACE_ENV_COUNT, num);
    }
    return 0;
}

static int readable(const char *path)
{
    return access(path, R_OK) == 0;
}

int gp_trace_find_lib(const char *exe, char *out, size_t n, char *err, size_t errlen)
{
    const char *env = getenv(GP_TRACE_ENV_LIB);
    char path[PATH_MAX];
    if (env && *env) {
        if (!readable(env) || !realpath(env, path)) {
            snprintf(err, errlen, GP_TRACE_ENV_LIB "=%s: no such file", env);
            return -1;
        }
    } else {
        char bin[PATH_MAX];
        if (!exe || !realpath(exe, bin)) {
            snprintf(err, errlen, "cannot tell where the gemmprof binary is; set "
                     GP_TRACE_ENV_LIB " to the path of " GP_TRACE_LIB_NAME);
            return -1;
        }
        char *slash = strrchr(bin, '/');
        *slash = '\0';
        char want[PATH_MAX + 64];
        snprintf(want, sizeof want, "%s/../" GP_TRACE_LIB_SUBDIR "/" GP_TRACE_LIB_NAME, bin);
        if (!readable(want) || !realpath(want, path)) {
            snprintf(err, errlen, "%s: not found (build it with make, or set "
                     GP_TRACE_ENV_LIB ")", want);
            return -1;
        }
    }
    if (strlen(path) >= n) {
        snprintf(err, errlen, "%s: path too long", path);
        return -1;
    }
    strcpy(out, path);
    return 0;
}
