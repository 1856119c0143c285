/* global_options.c - what every command answers the same way: -V/--version,
 * and the end of a `gemmprof --dry-run COMMAND ...` (options parsed and
 * validated, nothing run), so the docs' command lines can be checked
 * without a GPU (tests/docs.sh).  The flag is the program's, set once by
 * main before dispatch. */
#include <stdio.h>
#include "util.h"

static int dry_run;

void gp_set_dry_run(int on)
{
    dry_run = on;
}

int gp_dry_run(void)
{
    return dry_run;
}

int gp_print_version(FILE *f)
{
    fprintf(f, "gemmprof %s (commit %s, built for %s)\n", gp_version,
            gp_git_commit, gp_build_arch);
    return 0;
}

int gp_dry_run_report(const char *command, int argc, char **argv,
                      const char *what)
{
    printf("dry run: gemmprof%s%s", *command ? " " : "", command);
    for (int i = 1; i < argc; ++i)
        printf(" %s", argv[i]);
    printf("\n  options valid; would %s; nothing run\n", what);
    return 0;
}

int gp_opts_answer(int help, int version, void (*usage)(FILE *),
                   const char *command, int argc, char **argv, const char *what)
{
    if (help) {
        usage(stdout);
        return 0;
    }
    if (version)
        return gp_print_version(stdout);
    if (gp_dry_run())
        return gp_dry_run_report(command, argc, argv, what);
    return -1;
}
