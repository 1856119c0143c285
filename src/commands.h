/* commands.h - gemmprof's subcommands.  main.c parses nothing but the first
 * word; each subcommand owns its options (GNU getopt_long, --help) and
 * returns the process exit code: 0 ok, 1 "found something" (e.g. diff saw
 * a regression, a kernel failed verification), 2 bad input or no device. */
#ifndef GP_COMMANDS_H
#define GP_COMMANDS_H

int gp_cmd_run(int argc, char **argv);     /* default: gemmprof --kernel ... */
int gp_cmd_probe(int argc, char **argv);   /* gemmprof probe ...             */
int gp_cmd_plot(int argc, char **argv);    /* gemmprof plot DATA.csv ...     */
int gp_cmd_report(int argc, char **argv);  /* gemmprof report DATA.csv ...   */
int gp_cmd_diff(int argc, char **argv);    /* gemmprof diff BASE.csv NEW.csv */
int gp_cmd_sweep(int argc, char **argv);   /* gemmprof sweep --kernel FAMILY */
int gp_cmd_dist(int argc, char **argv);    /* mpirun ... gemmprof dist ...   */

/* "gemmprof: <msg>" on stderr, one line. */
void gp_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void gp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
