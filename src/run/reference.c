/* reference.c - `gemmprof --kernel ... --roofline` on a machine with no
 * GPU: nothing can be measured, but the roofline of the committed reference
 * data (reports/data/<gpu>/ladder-4096.csv against its ceilings.csv) can
 * still be drawn, so the README's main command shows what the tool makes.
 * The exit status stays 2: nothing was measured. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "util/util.h"
#include "plot/plot.h"
#include "reference.h"

/* reports/data beside the plots folder: <src>/plots -> <src>/reports/data,
 * <prefix>/share/gemmprof/plots -> <prefix>/share/gemmprof/reports/data. */
static int reference_root(char *root, size_t n)
{
    char plots[4096], err[256];
    if (gp_find_plots_dir(plots, sizeof plots, err, sizeof err) != 0)
        return -1;
    snprintf(root, n, "%s/../reports/data", plots);
    return access(root, R_OK) == 0 ? 0 : -1;
}

int gp_run_reference_roofline(const char *outdir)
{
    char root[4200];   /* plots dir (<4096) + "/../reports/data" */
    if (reference_root(root, sizeof root) != 0)
        return 0;
    DIR *d = opendir(root);
    if (!d)
        return 0;
    int drawn = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char data[4600], ceil[4600], out[4600], written[4096], err[1024];
        if (e->d_name[0] == '.')
            continue;
        snprintf(data, sizeof data, "%s/%s/ladder-4096.csv", root, e->d_name);
        snprintf(ceil, sizeof ceil, "%s/%s/ceilings.csv", root, e->d_name);
        snprintf(out, sizeof out, "%s/reference-%s", outdir, e->d_name);
        if (access(data, R_OK) || access(ceil, R_OK))
            continue;
        if (gp_plot_roofline(data, ceil, out, "pdf", written, sizeof written,
                             err, sizeof err) == 0) {
            for (char *c = written; (c = strchr(c, '\n')); )   /* one line */
                *c = ' ';
            fprintf(stderr, "gemmprof: no GPU here, so nothing was measured; drew "
                    "the committed %s reference data instead: %s\n", e->d_name,
                    written);
            drawn++;
        } else {
            gp_warn("reference roofline %s: %s", e->d_name, err);
        }
    }
    closedir(d);
    return drawn;
}
