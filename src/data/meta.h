/* meta.h - the '#'-metadata of a data file: ordered key/value pairs written
 * as "# key: value" before the header row. */
#ifndef GP_META_H
#define GP_META_H

#include <stddef.h>

#define GP_META_MAX 64
typedef struct {
    int n;
    struct {
        char key[48];
        char value[1024];
        int line, col;      /* where the value was read; 0 if set here */
    } kv[GP_META_MAX];
} gp_meta;

void gp_meta_init(gp_meta *m);
/* Set (replace or append) key to a printf-formatted value.  Newlines in the
 * value are replaced by spaces.  Returns -1 if the table is full. */
int gp_meta_set(gp_meta *m, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *gp_meta_get(const gp_meta *m, const char *key); /* NULL if absent */

/* Reading (meta_read.c).  One comment line of a data file: "# key: value"
 * is stored with its line number; other comment lines are prose and
 * ignored, and so is a key that would not survive gp_meta_set. */
void gp_meta_read_line(gp_meta *m, char *line, int lineno);
/* Check what was read: the schema is `schema` (when the file names one:
 * hand-made files may not) and each number gemmprof reads back (GPU facts,
 * clocks, reps) is NA or a finite number >= 0.  0, or -1 with one line
 * "PATH:LINE:COL: ..." in err. */
int gp_meta_check(const gp_meta *m, const char *path, const char *schema,
                  char *err, size_t errlen);

/* Host-side facts every file carries: schema, gemmprof version and commit,
 * build flags, date (UTC, ISO 8601), host name, the exact command line. */
/* Record the process's full argv (main calls this), so a subcommand's
 * files show "gemmprof probe ..." rather than its own shifted argv. */
void gp_meta_set_command(int argc, char **argv);
void gp_meta_host(gp_meta *m, const char *schema, int argc, char **argv);

#endif
