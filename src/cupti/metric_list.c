/* metric_list.c - parse --metrics: "default", "none" or a comma-separated
 * list of ncu metric names.  Syntax only; names are checked against the
 * chip by gp_profiler_validate. */
#include <stdio.h>
#include <string.h>
#include "profiler.h"


/* Metric names are identifiers joined by dots ("dram__bytes_read.sum";
 * a few chip-level ones carry capitals, "CTC.TriageCompute.ctc__rx_bytes"). */
static int valid_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '.';
}

int gp_metric_list_add(gp_metric_list *out, const char *name, size_t len,
                       int from_default, char *err, size_t errlen)
{
    for (int i = 0; i < out->count; i++)
        if (strlen(out->names[i]) == len && !strncmp(out->names[i], name, len)) {
            out->from_default[i] &= (unsigned char)from_default; /* named: explicit */
            return 0;                             /* duplicate: keep the first */
        }
    if (out->count == GP_MAX_METRICS) {
        snprintf(err, errlen, "too many metrics (at most %d)", GP_MAX_METRICS);
        return -1;
    }
    memcpy(out->names[out->count], name, len);
    out->names[out->count][len] = '\0';
    out->from_default[out->count] = (unsigned char)from_default;
    out->count++;
    return 0;
}

static int add_item(gp_metric_list *out, const char *s, size_t len,
                    char *err, size_t errlen)
{
    if (len == 0) {
        snprintf(err, errlen, "empty metric name in the list");
        return -1;
    }
    if (len == 7 && !strncmp(s, "default", 7)) {
        for (int i = 0; i < GP_NMETRICS; i++)
            if (gp_metric_list_add(out, gp_metric_names[i], strlen(gp_metric_names[i]), 1,
                         err, errlen))
                return -1;
        return 0;
    }
    if (len == 4 && !strncmp(s, "none", 4)) {
        snprintf(err, errlen, "\"none\" cannot be combined with other metrics");
        return -1;
    }
    if (len >= GP_METRIC_NAME_MAX) {
        snprintf(err, errlen, "metric name too long (%zu characters, at most %d): %.40s...",
                 len, GP_METRIC_NAME_MAX - 1, s);
        return -1;
    }
    for (size_t i = 0; i < len; i++)
        if (!valid_char(s[i])) {
            snprintf(err, errlen, "bad character '%c' in metric name \"%.*s\"",
                     s[i], (int)len, s);
            return -1;
        }
    return gp_metric_list_add(out, s, len, 0, err, errlen);
}

/* A counter the chip has but the run file has no column for would cost
 * its passes and then be dropped while the header's metrics line named it:
 * refused, naming every such name and the ones that are recorded. */
int gp_metric_list_recordable(const gp_metric_list *l, char *err, size_t errlen)
{
    size_t used = 0;
    int bad = 0;
    err[0] = '\0';
    for (int i = 0; i < l->count; i++) {
        if (gp_metric_index(l->names[i]) >= 0)
            continue;
        used += (size_t)snprintf(err + used, used < errlen ? errlen - used : 0, "%s%s",
                                 bad++ ? ", " : "no run-file column for ", l->names[i]);
    }
    if (!bad)
        return 0;
    for (int m = 0; m < GP_NMETRICS; m++)
        used += (size_t)snprintf(err + used, used < errlen ? errlen - used : 0, "%s%s",
                                 m ? ", " : " (gemmprof records only these counters: ",
                                 gp_metric_names[m]);
    snprintf(err + used, used < errlen ? errlen - used : 0, "; ncu collects any)");
    return -1;
}

int gp_metric_list_parse(const char *spec, gp_metric_list *out,
                         char *err, size_t errlen)
{
    out->count = 0;
    if (!spec || !*spec) {
        snprintf(err, errlen, "empty metric name (use default, none or a list of names)");
        return -1;
    }
    if (!strcmp(spec, "none"))
        return 0;
    for (const char *s = spec;;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        while (len && (*s == ' ' || *s == '\t'))
            s++, len--;
        while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
            len--;
        if (add_item(out, s, len, err, errlen)) {
            out->count = 0;
            return -1;
        }
        if (!comma)
            return 0;
        s = comma + 1;
    }
}

int gp_metric_spec_check(const char *spec, char *err, size_t errlen)
{
    gp_metric_list l;
    return gp_metric_list_parse(spec, &l, err, errlen);
}
