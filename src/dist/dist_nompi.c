/* dist_nompi.c - `gemmprof dist` in a build without MPI (make MPI=0, or no
 * mpicc on PATH): say how to get it.  A build with MPI compiles src/dist/
 * instead of this file. */
#include "dist_options.h"
#include "util/util.h"

int gp_cmd_dist(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    gp_error("dist: this gemmprof was built without MPI (apt-get install "
             "libopenmpi-dev openmpi-bin; make MPI=1)");
    return 2;
}
