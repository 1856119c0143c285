/* plugin.h - a user's kernels from a shared object (`--plugin FILE`):
 * loaded with dlopen, checked against the ABI in gemmprof.h, appended to
 * the registry so that --list, --kernel and every report treat them like
 * built-in rungs. */
#ifndef GP_PLUGIN_H
#define GP_PLUGIN_H

#include <stddef.h>
#include "gemmprof.h"

/* Load `path` and register its kernels, all or none (unless the kernel
 * table fills up half-way).  Loading a file again is a no-op.  Returns the
 * number of kernels the file provides, or -1 with one line in `err` that
 * names the file: not readable, not a shared object, no gemmprof_plugin
 * symbol, wrong ABI version, a bad or duplicate kernel, its own copy of the
 * CUDA runtime. */
int gp_plugin_load(const char *path, char *err, size_t errlen);

/* The file (as given to --plugin) a registered kernel came from, or NULL
 * for a built-in. */
const char *gp_plugin_origin(const gp_kernel *k);

/* "FILE (plugin NAME, N kernels); ..." for the run file's metadata, "" if
 * no plugin is loaded. */
void gp_plugin_describe(char *buf, size_t n);

/* Which CUDA runtime the shared object `path` uses, from its ELF sections:
 * GP_RT_NONE (no device code), GP_RT_SHARED (libcudart.so, as gemmprof),
 * GP_RT_OWN (a static copy, nvcc's default), -1 (not a readable ELF64). */
enum { GP_RT_NONE = 0, GP_RT_SHARED = 1, GP_RT_OWN = 2 };
int gp_plugin_cuda_runtime(const char *path);

/* Crash guard.  A plugin launcher runs inside the harness, so a segfault in
 * it ends the process; CUDA cannot be used safely after a fork, and jumping
 * out of a signal handler could leave the runtime's locks held.  What the
 * guard does instead: while armed, a fatal signal (SIGSEGV, SIGBUS, SIGILL,
 * SIGFPE, SIGABRT) appends a failed row for the kernel to the run file
 * `csv_path` (every earlier row is already there: rows are flushed as they
 * are written), prints one line naming the kernel, and lets the process die
 * of the same signal. */
void gp_plugin_guard_arm(const char *csv_path, const gp_kernel *k, long m,
                         long n, long kk, double alpha, double beta);
void gp_plugin_guard_disarm(void);

#endif
