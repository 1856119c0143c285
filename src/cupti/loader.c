/* loader.c - dlopen libcupti and libcuda, resolve what the profiler
 * calls.  Loaded once and never closed: CUPTI keeps state per process. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include "loader.h"
#include "profiler.h"

extern const char *const gp_cuda_home;   /* build/gen/version.c */

#define CUPTI_SONAME "libcupti.so.13"

/* The symbol a name stands for after the header's own renaming: cuda.h
 * maps cuMemAlloc to cuMemAlloc_v2 (the 64-bit ABI), and dlsym must look
 * up the same function the prototype describes. */
#define GP_SYMBOL(name) GP_SYMBOL_(name)
#define GP_SYMBOL_(name) #name
/* AddressSanitizer ends any process that dlopens a library with
 * RTLD_DEEPBIND, and libcupti opens libnvperf_host.so that way
 * (google/sanitizers#611).  A sanitizer build (make SANITIZE=1) therefore
 * runs as if CUPTI were missing: counters NA, CUPTI tests skipped by name. */
#if defined(__SANITIZE_ADDRESS__)
#define GP_ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GP_ASAN_BUILD 1
#endif
#endif

static gp_cupti_api cupti;
static int cupti_state;                  /* 0 untried, 1 loaded, -1 failed */
static char cupti_why[600];

static gp_cudrv_api cudrv;
static int cudrv_state;
static char cudrv_why[300];

/* Try the loader's own search first (LD_LIBRARY_PATH, the binary's RUNPATH,
 * ld.so.cache), then the toolkit the user points at, then the one gemmprof
 * was built with; CUPTI sits in lib64 or extras/CUPTI/lib64 by install. */
static void *open_cupti(char *path, size_t pathlen)
{
#ifdef GP_ASAN_BUILD
    snprintf(path, pathlen, "%s", CUPTI_SONAME);
    return NULL;
#endif
    const char *homes[2] = { getenv("CUDA_HOME"), gp_cuda_home };
    const char *subdirs[2] = { "lib64", "extras/CUPTI/lib64" };
    void *h = dlopen(CUPTI_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (h) {
        snprintf(path, pathlen, "%s", CUPTI_SONAME);
        return h;
    }
    for (int i = 0; i < 2; i++) {
        if (!homes[i] || !*homes[i])
            continue;
        for (int j = 0; j < 2; j++) {
            snprintf(path, pathlen, "%s/%s/%s", homes[i], subdirs[j], CUPTI_SONAME);
            if ((h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
                return h;
        }
    }
    snprintf(path, pathlen, "libcupti.so");
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

static int resolve(void *h, const char *name, void **slot, const char *lib,
                   char *err, size_t errlen)
{
    *slot = dlsym(h, name);
    if (*slot)
        return 0;
    snprintf(err, errlen, "%s has no %s (older than CUDA 13?)", lib, name);
    return -1;
}

const gp_cupti_api *gp_cupti_load(char *err, size_t errlen)
{
    if (cupti_state == 0) {
        void *h = open_cupti(cupti.path, sizeof cupti.path);
        cupti_state = -1;
        if (!h) {
#ifdef GP_ASAN_BUILD
            snprintf(cupti_why, sizeof cupti_why, "CUPTI is not loaded in an "
                     "AddressSanitizer build (it dlopens libnvperf_host.so with "
                     "RTLD_DEEPBIND, which ASan cannot run)");
#else
            gp_profiler_explain(GP_PROF_LIBCUPTI_MISSING, cupti_why, sizeof cupti_why);
#endif
        } else {
            int bad = 0;
#define GP_RESOLVE(name) \
            bad = bad || resolve(h, GP_SYMBOL(name), (void **)&cupti.name, cupti.path, \
                                 cupti_why, sizeof cupti_why);
            GP_CUPTI_FUNCS(GP_RESOLVE)
#undef GP_RESOLVE
            cupti_state = bad ? -1 : 1;
        }
    }
    if (cupti_state < 0) {
        snprintf(err, errlen, "%s", cupti_why);
        return NULL;
    }
    return &cupti;
}

const gp_cudrv_api *gp_cudrv_load(char *err, size_t errlen)
{
    if (cudrv_state == 0) {
        void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        cudrv_state = -1;
        if (!h) {
            gp_profiler_explain(GP_PROF_DRIVER_MISSING, cudrv_why, sizeof cudrv_why);
        } else {
            int bad = 0;
#define GP_RESOLVE(name) \
            bad = bad || resolve(h, GP_SYMBOL(name), (void **)&cudrv.name, "libcuda.so.1", \
                                 cudrv_why, sizeof cudrv_why);
            GP_CUDRV_FUNCS(GP_RESOLVE)
#undef GP_RESOLVE
            cudrv_state = bad ? -1 : 1;
        }
    }
    if (cudrv_state < 0) {
        snprintf(err, errlen, "%s", cudrv_why);
        return NULL;
    }
    return &cudrv;
}

void gp_cupti_error(const gp_cupti_api *api, const char *call, CUptiResult r,
                    char *err, size_t errlen)
{
    char why[400];
    const char *name = NULL;
    gp_profiler_explain((int)r, why, sizeof why);
    /* A code gp_profiler_explain has no advice for: CUPTI's own name for it
     * is still better than a number. */
    if (!strncmp(why, "CUPTI error ", 12) && api &&
        api->cuptiGetResultString(r, &name) == CUPTI_SUCCESS && name)
        snprintf(err, errlen, "%s: %s (%d)", call, name, (int)r);
    else
        snprintf(err, errlen, "%s: %s", call, why);
}
