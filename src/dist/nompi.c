/* nompi.c - `gemmprof dist` in a build without MPI (make MPI=0, or no
 * mpicc on PATH): its options are parsed as in a build with MPI (one
 * process), so --help, --version and --dry-run answer the same; running
 * says how to get MPI.  A build with MPI compiles command.c instead. */
#include <stdio.h>
#include "dist.h"
#include "util/util.h"

#define NO_MPI "this gemmprof was built without MPI (apt-get install " \
               "libopenmpi-dev openmpi-bin; make MPI=1)"

int gp_cmd_dist(int argc, char **argv)
{
    gp_dist_options o;
    char err[1024];
    int ok = gp_dist_parse(argc, argv, 1, &o, err, sizeof err) == 0;
    if (ok && o.help) {
        gp_dist_usage(stdout);
        printf("\nNote: %s.\n", NO_MPI);
        return 0;
    }
    if (ok && o.version)
        return gp_print_version(stdout);
    if (!ok && gp_dry_run()) {
        gp_error("dist: %s", err);
        return 2;
    }
    if (gp_dry_run())
        return gp_dist_dry_run(&o, 1, argc, argv);
    gp_error("dist: %s", NO_MPI);
    return 2;
}
