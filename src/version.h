/* version.h - build facts, defined in the generated build/gen/version.c
 * (the Makefile rewrites it whenever the version, commit or flags change). */
#ifndef GP_VERSION_H
#define GP_VERSION_H

extern const char *const gp_version;      /* "0.1.0"                       */
extern const char *const gp_git_commit;   /* short hash, "-dirty" suffix   */
extern const char *const gp_build_arch;   /* "sm_90"                       */
extern const char *const gp_build_flags;  /* NVCCFLAGS of the build        */
extern const char *const gp_cuda_home;    /* toolkit the build used        */

#endif
