/* plugin.c - `--plugin FILE`: check the file (plugin_elf.c: entry point,
 * ABI version, CUDA runtime) before dlopen runs any of its code, then
 * dlopen it, call gemmprof_plugin, check every kernel, and register them
 * all (or none).
 * A loaded plugin is never unloaded: its kernels are registered with the
 * CUDA runtime and its strings are in the registry. */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "registry.h"

#define GP_MAX_PLUGIN_FILES 64

typedef struct {
    char *file;                 /* as given to --plugin     */
    void *handle;
    const gp_plugin *plugin;
} loaded_plugin;

static loaded_plugin loaded[GP_MAX_PLUGIN_FILES];
static int nloaded;

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The registry's rule for CLI names (registry.c valid_name), plus the
 * length a row's kernel column holds; checked here so that a bad name is
 * reported by name before anything is registered. */
static int valid_name(const char *s)
{
    if (!*s || strlen(s) > 63 || strcmp(s, "all") == 0)
        return 0;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) ||
              *s == '_' || *s == '-' || *s == '.'))
            return 0;
    return 1;
}

/* Who already has this name: "a built-in kernel", "libx.so", or NULL. */
static const char *taken_by(const gp_kernel *k)
{
    const gp_kernel *have = gp_registry_find(k->name);
    if (!have)
        return NULL;
    const char *file = gp_plugin_origin(have);
    return file ? base_name(file) : "a built-in kernel";
}

static int check_kernel(const char *file, const gp_plugin *p, int i,
                        char *err, size_t errlen)
{
    const gp_kernel *k = &p->kernels[i];
    const char *who;
    if (!k->name) {
        snprintf(err, errlen, "%s: kernel %d has no name", file, i);
        return -1;
    }
    if (!valid_name(k->name)) {
        snprintf(err, errlen, "%s: kernel name '%s' is not valid: use up to 63 "
                 "lowercase letters, digits, '_', '-', '.' (not 'all')", file,
                 k->name);
        return -1;
    }
    if (!k->launch || !k->idea) {
        snprintf(err, errlen, "%s: kernel '%s' has no %s", file, k->name,
                 k->launch ? "description (idea)" : "launcher");
        return -1;
    }
    if ((unsigned)k->precision > GP_TF32) {
        snprintf(err, errlen, "%s: kernel '%s' has unknown precision %d "
                 "(GP_FP32, GP_FP64 or GP_TF32)", file, k->name, (int)k->precision);
        return -1;
    }
    for (int j = 0; j < i; j++)
        if (strcmp(p->kernels[j].name, k->name) == 0) {
            snprintf(err, errlen, "%s: kernel '%s' is listed twice", file, k->name);
            return -1;
        }
    if ((who = taken_by(k))) {
        snprintf(err, errlen, "%s: duplicate kernel name '%s': already defined "
                 "by %s", file, k->name, who);
        return -1;
    }
    return 0;
}

/* dlerror() text usually starts with the path: drop it, the message names
 * the file already. */
static const char *dl_reason(const char *opened)
{
    const char *e = dlerror();
    size_t n = strlen(opened);
    if (!e)
        return "unknown dlopen error";
    if (strncmp(e, opened, n) == 0 && strncmp(e + n, ": ", 2) == 0)
        return e + n + 2;
    return e;
}

/* -1 with the message, unless `abi` is gemmprof's. */
static int check_abi(const char *file, int abi, char *err, size_t errlen)
{
    if (abi == GEMMPROF_ABI_VERSION)
        return 0;
    snprintf(err, errlen, "%s: plugin ABI %d, gemmprof speaks ABI %d: rebuild "
             "the plugin against this gemmprof's gemmprof.h", file, abi, GEMMPROF_ABI_VERSION);
    return -1;
}

/* The checks that need only the file, made before dlopen runs any of its
 * code (constructors, gemmprof_plugin()).  0, or -1 with err set. */
static int check_file(const char *file, char *err, size_t errlen)
{
    gp_plugin_facts f;
    if (gp_plugin_inspect(file, &f) < 0) {
        snprintf(err, errlen, "%s: cannot load as a shared object: not an ELF64 shared "
                 "library", file);
        return -1;
    }
    if (!f.has_entry) {
        snprintf(err, errlen, "%s: no %s symbol: not a gemmprof plugin (export "
                 "one with GEMMPROF_PLUGIN from gemmprof.h)", file, GEMMPROF_PLUGIN_SYMBOL);
        return -1;
    }
    if (!f.has_abi) {
        snprintf(err, errlen, "%s: no %s symbol (built with an older gemmprof.h): rebuild "
                 "the plugin against this gemmprof's gemmprof.h", file, GEMMPROF_ABI_SYMBOL);
        return -1;
    }
    if (check_abi(file, f.abi, err, errlen) < 0)
        return -1;
    /* nvcc links its static runtime by default: a plugin with its own copy
     * has kernels gemmprof's runtime does not know (no registers, no
     * occupancy), and a device reset after a fault would strand them */
    if (f.runtime == GP_RT_OWN) {
        snprintf(err, errlen, "%s: links its own copy of the CUDA runtime: rebuild "
                 "it with nvcc -cudart shared (gemmprof-build does)", file);
        return -1;
    }
    return 0;
}

/* check_file, dlopen, the entry point, and the ABI version the entry
 * point's table states (it must agree with the file's).  NULL with err. */
static const gp_plugin *open_plugin(const char *file, void **handle,
                                    char *err, size_t errlen)
{
    char opened[PATH_MAX + 2];
    struct stat st;
    if (stat(file, &st) != 0) {
        snprintf(err, errlen, "%s: cannot read plugin: %s", file, strerror(errno));
        return NULL;
    }
    if (check_file(file, err, errlen) < 0)
        return NULL;
    /* without a '/', dlopen would search the library path, not "." */
    snprintf(opened, sizeof opened, "%s%s", strchr(file, '/') ? "" : "./", file);
    dlerror();
    if (!(*handle = dlopen(opened, RTLD_NOW | RTLD_LOCAL))) {
        snprintf(err, errlen, "%s: cannot load as a shared object: %s", file,
                 dl_reason(opened));
        return NULL;
    }
    void *sym = dlsym(*handle, GEMMPROF_PLUGIN_SYMBOL);
    if (!sym) {
        snprintf(err, errlen, "%s: no %s symbol: not a gemmprof plugin", file,
                 GEMMPROF_PLUGIN_SYMBOL);
        return NULL;
    }
    gp_plugin_entry entry;
    memcpy(&entry, &sym, sizeof entry);     /* ISO C: no object->function cast */
    const gp_plugin *p = entry();
    if (!p) {
        snprintf(err, errlen, "%s: %s() returned NULL", file, GEMMPROF_PLUGIN_SYMBOL);
        return NULL;
    }
    return check_abi(file, p->abi_version, err, errlen) < 0 ? NULL : p;
}

/* Registry copies of the kernels, their idea prefixed with the file's
 * name so that --list shows where each came from. */
static int register_all(const char *file, const gp_plugin *p, char *err,
                        size_t errlen)
{
    for (int i = 0; i < p->count; i++) {
        gp_kernel k = p->kernels[i];
        size_t n = strlen(base_name(file)) + strlen(k.idea) + 4;
        char *idea = malloc(n);
        if (!idea) {
            snprintf(err, errlen, "%s: out of memory", file);
            return -1;
        }
        snprintf(idea, n, "[%s] %s", base_name(file), k.idea);
        k.idea = idea;
        if (gp_registry_add(&k, file) != 0) {
            snprintf(err, errlen, "%s: kernel '%s': the kernel table is full",
                     file, k.name);
            free(idea);
            return -1;
        }
    }
    return 0;
}

/* The handle stays open on failure too: unloading a library that has
 * registered kernels with the CUDA runtime is not worth the risk. */
int gp_plugin_load(const char *file, char *err, size_t errlen)
{
    void *handle = NULL;
    const gp_plugin *p = open_plugin(file, &handle, err, errlen);
    if (!p)
        return -1;
    for (int i = 0; i < nloaded; i++)
        if (loaded[i].handle == handle) {   /* same file again */
            dlclose(handle);                /* only drops the extra reference */
            return loaded[i].plugin->count;
        }
    if (p->count <= 0 || !p->kernels) {
        snprintf(err, errlen, "%s: plugin '%s' lists no kernels", file,
                 p->name ? p->name : "?");
        return -1;
    }
    if (nloaded == GP_MAX_PLUGIN_FILES) {
        snprintf(err, errlen, "%s: too many plugins (at most %d)", file,
                 GP_MAX_PLUGIN_FILES);
        return -1;
    }
    for (int i = 0; i < p->count; i++)
        if (check_kernel(file, p, i, err, errlen) != 0)
            return -1;
    char *copy = strdup(file);
    if (!copy) {
        snprintf(err, errlen, "%s: out of memory", file);
        return -1;
    }
    loaded[nloaded++] = (loaded_plugin){copy, handle, p};
    if (register_all(copy, p, err, errlen) != 0)
        return -1;
    return p->count;
}

void gp_plugin_describe(char *buf, size_t n)
{
    size_t used = 0;
    if (n)
        buf[0] = '\0';
    for (int i = 0; i < nloaded && used < n; i++) {
        char real[PATH_MAX];
        const gp_plugin *p = loaded[i].plugin;
        const char *path = realpath(loaded[i].file, real) ? real : loaded[i].file;
        int w = snprintf(buf + used, n - used, "%s%s (plugin '%s', %d kernel%s)",
                         i ? "; " : "", path, p->name ? p->name : "?",
                         p->count, p->count == 1 ? "" : "s");
        if (w < 0)
            break;
        used += (size_t)w;
    }
}
