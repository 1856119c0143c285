/* command.c - `mpirun -np P gemmprof dist ...`: every rank parses and
 * validates the same argv before any communication, so a bad option ends
 * every rank with exit 2 and one line from rank 0; then set-up, the timed
 * repetitions, the check and the rows. */
#include <stdio.h>
#include <string.h>

#include "dist.h"
#include "util/util.h"
#include "run.h"

/* Checks that need the backend table but no communication: which
 * transport --comm names for this local kernel. */
static int check_transport(const gp_dist_options *o, char *err, size_t errlen)
{
    const gp_dist_backend *be = gp_dist_backend_find(o->local);
    if (!be) {
        snprintf(err, errlen, "unknown local kernel '%s'", o->local);
        return -1;
    }
    return gp_dist_transport_find(o->comm, be, err, errlen) ? 0 : -1;
}

static int finish(int code)
{
    MPI_Finalize();
    return code;
}

int gp_cmd_dist(int argc, char **argv)
{
    int rank = 0, size = 1;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    gp_dist_options o;
    char err[1024];
    if (gp_dist_parse(argc, argv, size, &o, err, sizeof err) != 0 ||
        (!o.help && !o.version && check_transport(&o, err, sizeof err) != 0)) {
        if (rank == 0)
            gp_error("%s", err);
        return finish(2);
    }
    if (o.help || o.version || gp_dry_run()) {
        if (rank == 0 && o.help)
            gp_dist_usage(stdout);
        else if (rank == 0 && o.version)
            gp_print_version(stdout);
        else if (rank == 0)
            gp_dist_dry_run(&o, size, argc, argv);
        return finish(0);
    }
    gp_dist_run r = { .o = &o, .argc = argc, .argv = argv, .rank = rank,
                      .nranks = size };
    r.comms.row = r.comms.col = MPI_COMM_NULL;
    int code = 2;
    if (gp_dist_setup(&r) == 0) {
        gp_dist_repeat(&r);
        code = gp_dist_report(&r);
    } else if (rank == 0) {
        gp_error("%s", r.err);
    }
    gp_dist_teardown(&r);
    return finish(code);
}
