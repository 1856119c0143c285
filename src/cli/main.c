/* main.c - dispatch on the first word through the command table
 * (commands.c); everything after it belongs to the command.  No word
 * (`gemmprof --kernel ...`) is `run`.  --dry-run, global, comes before the
 * word: every command then validates its options and runs nothing. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "data/data.h"
#include "util/util.h"

int main(int argc, char **argv)
{
    gp_on_out_of_memory(gp_exit_out_of_memory);   /* util's default: return -1 */
    gp_meta_set_command(argc, argv);
    gp_run_set_commands(gp_command_words());
    if (argc > 1 && strcmp(argv[1], "--dry-run") == 0) {
        gp_set_dry_run(1);
        argv[1] = argv[0];      /* the rest as if it had not been given */
        argc--;
        argv++;
    }
    if (argc > 1 && argv[1][0] != '-') {
        const gp_command *c = gp_command_find(argv[1]);
        if (c)
            return c->fn(argc - 1, argv + 1);
        char list[256];
        gp_command_list(list, sizeof list);
        gp_error("unknown command '%s' (commands: %s; see --help)", argv[1], list);
        return 2;
    }
    return gp_cmd_run(argc, argv);
}
