/* cli.h - the program's commands, in one table (commands.c): main's
 * dispatch, `gemmprof --help`'s list, `gemmprof help COMMAND` and the hint
 * on a command word given after options all read it.  A new command is
 * one line there plus its own folder. */
#ifndef GP_CLI_H
#define GP_CLI_H

#include "run/run.h"

typedef struct {
    gp_command_word w;             /* word, one-line summary       */
    int (*fn)(int argc, char **argv);   /* argv[0] is the word          */
} gp_command;

/* The table, ending with w.word NULL. */
extern const gp_command gp_commands[];
/* The words alone, for run/ (gp_run_set_commands), same order. */
const gp_command_word *gp_command_words(void);
/* The command named `word`, or NULL. */
const gp_command *gp_command_find(const char *word);
/* "run, probe, ..." into out. */
void gp_command_list(char *out, size_t len);

#endif
