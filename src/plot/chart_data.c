/* chart_data.c - the data file behind each chart, written so that it
 * says what it holds: the report keeps these files, and a test reads
 * them to check that every chart shows the numbers the tables show. */
#include <stdio.h>

#include "util/util.h"
#include "plot.h"

FILE *gp_chart_data_open(const gp_chart_opts *o, const char *name, const char *where,
                         const char *columns, char *path, size_t plen,
                         char *err, size_t errlen)
{
    const char *dir = o->datadir ? o->datadir : o->workdir;
    char word[256];
    gp_file_word(name, word, sizeof word);   /* a family is named by the data */
    FILE *f = gp_open_in(dir, word, path, plen, err, errlen);
    if (f)
        fprintf(f, "# chart: %s\n# %s\n# columns: %s\n", word, where, columns);
    return f;
}

void gp_chart_data_series(FILE *f, const gp_key *k, int by_config)
{
    char label[128], config[96];
    gp_kernel_label(k->kernel, label, sizeof label);
    if (by_config)
        gp_fmt(config, sizeof config, "%s", k->config);
    else
        gp_series_config(k->config, config, sizeof config);
    fprintf(f, "# series: %s|%s|%s\n", label, k->precision, config);
}
