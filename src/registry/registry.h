/* registry.h - the one table of kernels (built-ins from kernels/ladder.def,
 * plugins appended at run time).  --list, --kernel all, sweeps and reports
 * all read it through these functions.  Plugins (plugin.c, plugin_elf.c):
 * a user's kernels from a shared object (`--plugin FILE`), loaded with
 * dlopen, checked against the ABI in gemmprof.h and appended to the table,
 * so that every command treats them like built-in rungs. */
#ifndef GP_REGISTRY_H
#define GP_REGISTRY_H

#include <stdio.h>
#include "gemmprof.h"
#include "arch/arch.h"

extern const gp_kernel gp_builtin_kernels[];
extern const gp_feature gp_builtin_needs[];   /* ladder.def's `needs` column */
extern const int gp_builtin_kernel_count;

int gp_registry_count(void);
const gp_kernel *gp_registry_get(int i);
const gp_kernel *gp_registry_find(const char *name);      /* NULL if unknown */
/* Append a kernel (plugins) with the file it came from (as given to
 * --plugin; kept, not copied).  Returns 0, or -1 if the name is taken/full. */
int gp_registry_add(const gp_kernel *k, const char *origin);

/* The file (as given to --plugin) a registered kernel came from, or NULL
 * for a built-in (registry.c: the table records it). */
const char *gp_plugin_origin(const gp_kernel *k);

/* The cuBLAS entry every kernel of precision `p` is verified against. */
const gp_kernel *gp_registry_reference(gp_precision p);

/* Parse "name[,name...]" or "all" into `out` (ladder order for "all",
 * given order otherwise, duplicates dropped).  Returns the count, or -1
 * with a one-line message in `err` naming the bad name and the valid ones. */
int gp_registry_select(const char *spec, const gp_kernel **out, int max,
                       char *err, size_t errlen);

/* 1 if `name` is named in the --kernel list `spec` itself, not only
 * reached through "all". */
int gp_registry_named(const char *spec, const char *name);

/* ---- what a kernel needs, and whether it can run here ---- */

/* The feature `k`'s device code needs (ladder.def); GP_FEAT_NONE for a
 * plugin, whose code and build gemmprof does not know. */
gp_feature gp_registry_needs(const gp_kernel *k);

/* 1 if `k` can run on a device of compute capability `cc` with the code of
 * build `b`; else 0 with the row status ("skipped: needs sm_90a (wgmma)")
 * in `status` and the reason ("this GPU is sm_80") in `err`. */
int gp_registry_can_run(const gp_kernel *k, int cc, const gp_build *b,
                        char *status, size_t sn, char *err, size_t errlen);

/* Print `--list` output, a header line, then one line per kernel: name,
 * precision, needs ("-" or "sm_80 cp.async"), here ("yes", "skipped", or
 * "no GPU" when cc is 0), idea.  For each reason kernels are skipped, one
 * line on `notes` (stderr), so scripts reading the table see only it. */
void gp_registry_print(FILE *f, int cc, const gp_build *b, FILE *notes);

/* ---- plugins ---- */

/* Load `path` and register its kernels, all or none (unless the kernel
 * table fills up half-way).  Loading a file again is a no-op.  Returns the
 * number of kernels the file provides, or -1 with one line in `err` that
 * names the file: not readable, not a shared object, no gemmprof_plugin
 * symbol, no or another ABI version, its own copy of the CUDA runtime (all
 * read from the file before it is loaded, so none of its code runs), a bad
 * or duplicate kernel. */
int gp_plugin_load(const char *path, char *err, size_t errlen);

/* "FILE (plugin NAME, N kernels); ..." for the run file's metadata, "" if
 * no plugin is loaded. */
void gp_plugin_describe(char *buf, size_t n);

/* Which CUDA runtime the shared object `path` uses, from its ELF sections:
 * GP_RT_NONE (no device code), GP_RT_SHARED (libcudart.so, as gemmprof),
 * GP_RT_OWN (a static copy, nvcc's default), -1 (not a readable ELF64). */
enum { GP_RT_NONE = 0, GP_RT_SHARED = 1, GP_RT_OWN = 2 };
int gp_plugin_cuda_runtime(const char *path);

/* What the loader checks before dlopen runs any of the file's code, read
 * from its ELF sections (plugin_elf.c). */
typedef struct {
    int runtime;        /* GP_RT_*                                        */
    int has_entry;      /* exports GEMMPROF_PLUGIN_SYMBOL                 */
    int has_abi;        /* exports GEMMPROF_ABI_SYMBOL, a 4-byte int ...  */
    int abi;            /* ... of this value                              */
} gp_plugin_facts;
/* 0, or -1 if `path` is not a readable ELF64 shared object. */
int gp_plugin_inspect(const char *path, gp_plugin_facts *out);

#endif
