/* value.c - numbers in data files: parsed once, checked against what the
 * column holds.  strtod alone reads "1e400" as infinity and "nan" as NaN,
 * which then surface as "+inf%" in diff or an empty gnuplot chart. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "value.h"

const gp_range gp_range_any = { -HUGE_VAL, HUGE_VAL, 0, "a finite number" };
const gp_range gp_range_nonneg = { 0, HUGE_VAL, 0, "a number >= 0" };
const gp_range gp_range_size = { 1, HUGE_VAL, 0, "a size >= 1" };
const gp_range gp_range_pct = { 0, 100, 0, "a percentage from 0 to 100" };
const gp_range gp_range_error = { 0, HUGE_VAL, 1, "an error >= 0 (or inf)" };

int gp_value_is_na(const char *s)
{
    return *s == '\0' || strcmp(s, "NA") == 0;
}

/* strtod's spellings of infinity, with or without a sign. */
static int spells_inf(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    return strcasecmp(s, "inf") == 0 || strcasecmp(s, "infinity") == 0;
}

int gp_value_parse(const char *s, const gp_range *r, double *out,
                   char *err, size_t errlen)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0') {
        snprintf(err, errlen, "'%.40s' is not a number", s);
        return -1;
    }
    if (isnan(v)) {
        snprintf(err, errlen, "'%.40s' is not a number (a missing value is NA)", s);
        return -1;
    }
    if (isinf(v) && !spells_inf(s)) {     /* ERANGE: beyond a double */
        snprintf(err, errlen, "'%.40s' is out of range (larger than any double)", s);
        return -1;
    }
    if (isinf(v) && !(r->inf_ok && v > 0)) {
        snprintf(err, errlen, "'%.40s' is infinite, not %s", s, r->what);
        return -1;
    }
    if (!isinf(v) && (v < r->lo || v > r->hi)) {
        snprintf(err, errlen, "'%.40s' is out of range: not %s", s, r->what);
        return -1;
    }
    *out = v;
    return 0;
}
