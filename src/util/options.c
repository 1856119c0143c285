/* options.c - the one option parser of every command (see util.h): a
 * command's table of gp_opt entries becomes getopt_long's table, each
 * value is checked by its kind, and every mistake is worded here, once:
 * "--NAME: 'VALUE' is not ..." for a bad value, getopt_errors.c's words
 * for an unknown option or a missing argument. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

int gp_parse_decimal(const char *s, size_t len, unsigned long long max,
                     unsigned long long *out)
{
    if (len == 0)
        return -1;
    unsigned long long v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (max - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

int gp_opt_integer(const char *opt, const char *s, unsigned long long lo,
                   unsigned long long hi, unsigned long long *out,
                   char *err, size_t errlen)
{
    if (gp_parse_decimal(s, strlen(s), hi, out) < 0 || *out < lo) {
        gp_fmt(err, errlen, "%s: '%s' is not an integer in %llu..%llu", opt, s, lo, hi);
        return -1;
    }
    return 0;
}

int gp_opt_path(const char *opt, const char *s, char *err, size_t errlen)
{
    if (!*s) {
        gp_fmt(err, errlen, "%s: empty path", opt);
        return -1;
    }
    return 0;
}

/* "all|none" -> "all or none"; "a|b|c" -> "a, b or c". */
static void choices_words(const char *choices, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (const char *p = choices; *p && n < len;) {
        size_t w = strcspn(p, "|");
        const char *sep = p == choices ? "" : p[w] ? ", " : " or ";
        n += (size_t)snprintf(out + n, len - n, "%s%.*s", sep, (int)w, p);
        p += w + (p[w] == '|');
    }
}

int gp_opt_choice(const char *opt, const char *s, const char *choices,
                  char *err, size_t errlen)
{
    if (gp_list_has(choices, '|', s))
        return 0;
    char words[256];
    choices_words(choices, words, sizeof words);
    gp_fmt(err, errlen, "%s: '%s' is not %s", opt, s, words);
    return -1;
}

int gp_opt_shapes(const char *opt, const char *spec, int mnk, gp_shape *shapes,
                  int *n, int max, char *err, size_t errlen)
{
    gp_shape tmp[GP_MAX_SHAPES];
    char msg[256];
    int got = (mnk ? gp_parse_mnk : gp_parse_sizes)(spec, tmp, GP_MAX_SHAPES,
                                                     msg, sizeof msg);
    if (got < 0) {
        gp_fmt(err, errlen, "%s: %s", opt, msg);
        return -1;
    }
    if (*n + got > max) {
        gp_fmt(err, errlen, "%s: too many sizes (at most %d in all)", opt, max);
        return -1;
    }
    memcpy(shapes + *n, tmp, (size_t)got * sizeof tmp[0]);
    *n += got;
    return 0;
}

static int takes_argument(gp_opt_kind k)
{
    return k != GP_OPT_FLAG && k != GP_OPT_SET && k != GP_OPT_HELP &&
           k != GP_OPT_VERSION && k != GP_OPT_ACTION;
}

#define AT(o, off, type) ((type *)(void *)((char *)(o) + (off)))

/* An integer kind: checked, stored in the field's own type, and the
 * "given" int (also - 1) set. */
static int store_integer(const gp_opt *e, const char *opt, const char *arg, void *o,
                         char *err, size_t errlen)
{
    unsigned long long hi = e->hi ? e->hi : e->kind == GP_OPT_INT ? INT_MAX
                          : e->kind == GP_OPT_LONG ? LONG_MAX : ULLONG_MAX;
    unsigned long long v;
    if (gp_opt_integer(opt, arg, e->lo, hi, &v, err, errlen) < 0)
        return -1;
    if (e->kind == GP_OPT_INT)
        *AT(o, e->at, int) = (int)v;
    else if (e->kind == GP_OPT_LONG)
        *AT(o, e->at, long) = (long)v;
    else
        *AT(o, e->at, unsigned long long) = v;
    if (e->also)
        *AT(o, e->also - 1, int) = 1;
    return 0;
}

/* One option of the table and its argument (NULL for none). */
static int apply(const gp_opt *e, const char *arg, void *o, char *err, size_t errlen)
{
    char opt[64];
    gp_fmt(opt, sizeof opt, "--%s", e->name);
    switch (e->kind) {
    case GP_OPT_FLAG:
    case GP_OPT_HELP:
    case GP_OPT_VERSION:
        *AT(o, e->at, int) = 1;
        return 0;
    case GP_OPT_SET:
        *AT(o, e->at, const char *) = e->text;
        return 0;
    case GP_OPT_PATH:
        if (gp_opt_path(opt, arg, err, errlen) < 0)
            return -1;
        *AT(o, e->at, const char *) = arg;
        return 0;
    case GP_OPT_CHOICE:
        if (gp_opt_choice(opt, arg, e->text, err, errlen) < 0)
            return -1;
        *AT(o, e->at, const char *) = arg;
        return 0;
    case GP_OPT_TEXT: {
        char msg[512];
        if (e->check && e->check(arg, msg, sizeof msg) < 0) {
            gp_fmt(err, errlen, "%s: %s", opt, msg);
            return -1;
        }
        *AT(o, e->at, const char *) = arg;
        return 0;
    }
    case GP_OPT_INT:
    case GP_OPT_LONG:
    case GP_OPT_ULL:
        return store_integer(e, opt, arg, o, err, errlen);
    case GP_OPT_SHAPES:
    case GP_OPT_MNK:
        return gp_opt_shapes(opt, arg, e->kind == GP_OPT_MNK, AT(o, e->at, gp_shape),
                             AT(o, e->also - 1, int), e->hi ? (int)e->hi : GP_MAX_SHAPES,
                             err, errlen);
    case GP_OPT_CALL:
    case GP_OPT_ACTION:
        return e->call(o, arg, err, errlen);
    }
    gp_fmt(err, errlen, "internal error: option --%s has no kind", e->name);
    return -1;
}

#define MAX_OPTS 64

/* stop: at the first word that is not an option (getopt's "+"), as a
 * command followed by another program's command line needs. */
static int parse(const gp_opt *table, int argc, char **argv, void *o, int stop,
                 char *err, size_t errlen)
{
    struct option lo[MAX_OPTS + 1];
    char shorts[2 * MAX_OPTS + 3] = "+:";
    char *const from = shorts + !stop;      /* "+:" or ":" */
    size_t ns = 2;
    int n = 0;
    for (; table[n].name; n++) {
        if (n == MAX_OPTS) {
            gp_fmt(err, errlen, "internal error: more than %d options", MAX_OPTS);
            return -1;
        }
        int arg = takes_argument(table[n].kind);
        int val = table[n].letter ? table[n].letter : 256 + n;
        lo[n] = (struct option){ table[n].name, arg ? required_argument : no_argument,
                                 NULL, val };
        if (table[n].letter) {
            shorts[ns++] = table[n].letter;
            if (arg)
                shorts[ns++] = ':';
        }
    }
    lo[n] = (struct option){ NULL, 0, NULL, 0 };
    shorts[ns] = '\0';
    optind = 0;                 /* full re-initialisation: callable again */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, from, lo, NULL)) != -1) {
        if (c == '?' || c == ':') {
            gp_option_error(c, argv, lo, err, errlen);
            return -1;
        }
        const gp_opt *e = c >= 256 ? &table[c - 256] : NULL;
        for (int i = 0; !e && i < n; i++)
            if (table[i].letter == c)
                e = &table[i];
        if (apply(e, optarg, o, err, errlen) < 0)
            return -1;
        if (e->kind == GP_OPT_HELP || e->kind == GP_OPT_VERSION)
            return 0;           /* like GNU tools: answer, whatever follows */
    }
    return 0;
}

int gp_opts_parse(const gp_opt *table, int argc, char **argv, void *o,
                  char *err, size_t errlen)
{
    return parse(table, argc, argv, o, 0, err, errlen);
}

int gp_opts_parse_command(const gp_opt *table, int argc, char **argv, void *o,
                          char *err, size_t errlen)
{
    return parse(table, argc, argv, o, 1, err, errlen);
}
