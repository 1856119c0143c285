/* meta.h - the '#'-metadata of a data file: ordered key/value pairs written
 * as "# key: value" before the header row. */
#ifndef GP_META_H
#define GP_META_H

#include <stddef.h>

#define GP_META_MAX 64
typedef struct {
    int n;
    struct { char key[48]; char value[1024]; } kv[GP_META_MAX];
} gp_meta;

void gp_meta_init(gp_meta *m);
/* Set (replace or append) key to a printf-formatted value.  Newlines in the
 * value are replaced by spaces.  Returns -1 if the table is full. */
int gp_meta_set(gp_meta *m, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *gp_meta_get(const gp_meta *m, const char *key); /* NULL if absent */

/* Host-side facts every file carries: schema, gemmprof version and commit,
 * build flags, date (UTC, ISO 8601), host name, the exact command line. */
/* Record the process's full argv (main calls this), so a subcommand's
 * files show "gemmprof probe ..." rather than its own shifted argv. */
void gp_meta_set_command(int argc, char **argv);
void gp_meta_host(gp_meta *m, const char *schema, int argc, char **argv);

#endif
