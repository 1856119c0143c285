/* getopt_errors.c - one message for every command whose options getopt
 * parses with its own messages off (opterr = 0): what was wrong with the
 * option, named from its spelling in argv. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

/* A long option: unknown, ambiguous (the candidates named), missing its
 * argument or given one it does not take. */
static void bad_long_option(int c, const char *arg, const struct option *long_opts,
                            char *err, size_t errlen)
{
    const char *name = arg + 2;
    size_t len = strcspn(name, "=");
    int matches = 0;
    const struct option *hit = NULL;
    char list[256] = "";
    for (const struct option *lo = long_opts; lo->name; lo++) {
        if (strncmp(lo->name, name, len) != 0)
            continue;
        if (strlen(lo->name) == len) {        /* exact beats prefixes */
            hit = lo;
            matches = 1;
            break;
        }
        hit = lo;
        matches++;
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, "%s--%s", n ? ", " : "", lo->name);
    }
    if (matches > 1)
        snprintf(err, errlen, "option '--%.*s' is ambiguous (%s)", (int)len, name, list);
    else if (matches == 0)
        snprintf(err, errlen, "unknown option '--%.*s'", (int)len, name);
    else if (c == ':')
        snprintf(err, errlen, "option '--%s' needs an argument", hit->name);
    else
        snprintf(err, errlen, "option '--%s' takes no argument", hit->name);
}

static int is_long_error(const char *arg, const struct option *long_opts)
{
    if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0')
        return 0;
    if (optopt == 0 || optopt >= 256)
        return 1;
    /* optopt is a short letter: the long option spelled in arg has it? */
    size_t len = strcspn(arg + 2, "=");
    for (const struct option *lo = long_opts; lo->name; lo++)
        if (lo->val == optopt && strncmp(lo->name, arg + 2, len) == 0)
            return 1;
    return 0;
}

void gp_option_error(int c, char **argv, const struct option *long_opts,
                     char *err, size_t errlen)
{
    const char *arg = argv[optind - 1];
    if (is_long_error(arg, long_opts))
        bad_long_option(c, arg, long_opts, err, errlen);
    else if (c == ':')
        snprintf(err, errlen, "option '-%c' needs an argument", optopt);
    else
        snprintf(err, errlen, "unknown option '-%c'", optopt);
}

