/* value.h - what a number in a data file may be, and reading one.  Every
 * reader (run files, ceilings, tuning tables, '#' metadata) parses its
 * numbers here, so "1e400", "nan" or "-3" for a size are refused the same
 * way everywhere, before anything is drawn, compared or written up. */
#ifndef GP_VALUE_H
#define GP_VALUE_H

#include <stddef.h>

typedef struct {
    double lo, hi;          /* inclusive bounds of a finite value          */
    int inf_ok;             /* +inf is a value too (an error that is       */
                            /* infinite: a failed check, written "inf")    */
    const char *what;       /* "a size >= 1", for the message              */
} gp_range;

extern const gp_range gp_range_any;        /* any finite number           */
extern const gp_range gp_range_nonneg;     /* >= 0: counts, times, rates  */
extern const gp_range gp_range_size;       /* >= 1: m, n, k, ranks        */
extern const gp_range gp_range_pct;        /* 0 to 100                    */
extern const gp_range gp_range_error;      /* >= 0, or inf                */

/* 1 if s is how the files spell a missing number: "NA" or empty. */
int gp_value_is_na(const char *s);

/* Parse s (already trimmed, not NA) as a number within r.  0, or -1 with
 * "'TEXT' is ..." in err: not a number, NaN (a missing value is NA), too
 * large for a double, infinite, out of r. */
int gp_value_parse(const char *s, const gp_range *r, double *out,
                   char *err, size_t errlen);

#endif
