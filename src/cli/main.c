/* main.c - dispatch on the first word; everything else belongs to the
 * subcommand.  `gemmprof --kernel ...` (no subcommand word) is `run`. */
#include <stdio.h>
#include <string.h>
#include "diff/diff.h"
#include "dist/dist_options.h"
#include "plot/plot.h"
#include "probe/probe.h"
#include "report/report.h"
#include "run/run.h"
#include "sweep/sweep.h"
#include "trace/trace.h"
#include "util/util.h"
#include "data/data.h"

static const struct {
    const char *word;
    int (*fn)(int, char **);
} subcommands[] = {
    {"run", gp_cmd_run},
    {"probe", gp_cmd_probe},
    {"plot", gp_cmd_plot},
    {"report", gp_cmd_report},
    {"diff", gp_cmd_diff},
    {"sweep", gp_cmd_sweep},
    {"dist", gp_cmd_dist},
    {"trace", gp_cmd_trace},
};

int main(int argc, char **argv)
{
    gp_on_out_of_memory(gp_exit_out_of_memory);   /* util's default: return -1 */
    gp_meta_set_command(argc, argv);
    if (argc > 1 && argv[1][0] != '-') {
        for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; ++i)
            if (strcmp(argv[1], subcommands[i].word) == 0)
                return subcommands[i].fn(argc - 1, argv + 1);
        gp_error("unknown command '%s' (commands: run, probe, plot, report, "
                 "diff, sweep, dist, trace; "
                 "see --help)", argv[1]);
        return 2;
    }
    return gp_cmd_run(argc, argv);
}
