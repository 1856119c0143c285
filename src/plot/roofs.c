/* roofs.c - which ceilings a family is drawn under, from the ceilings
 * file (gemmprof probe: measured; the GPU's attributes: theoretical). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"
#include "roofs.h"

/* The compute roofs of each precision, in the order they are drawn. */
static const struct {
    const char *precision, *ceiling, *what;
} compute_roofs[] = {
    { "fp32", "fp32_fma", "FP32 FMA" },
    { "tf32", "fp32_fma", "FP32 FMA" },
    { "tf32", "tf32_tensor", "TF32 tensor" },
    { "fp64", "fp64_fma", "FP64 FMA" },
    { "fp64", "fp64_tensor", "FP64 tensor" },
};

static const struct {
    const char *ceiling, *what;
    int hierarchical_only;
} memory_roofs[] = {
    { "dram_bw", "DRAM", 0 },
    { "l2_bw", "L2", 0 },
    { "smem_bw", "shared mem", 1 },
};

static int has_roof(const gp_roofs *r, const char *ceiling)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->r[i].ceiling, ceiling) == 0)
            return 1;
    return 0;
}

/* Both numbers of one ceilings row; a row the file lacks is noted. */
static void add(const gp_dataset *d, gp_roofs *out, const char *ceiling,
                const char *what, int compute)
{
    if (has_roof(out, ceiling) || strstr(out->missing, ceiling))
        return;
    const gp_ceiling *c = d->ceil ? gp_ceilings_find(d->ceil, ceiling) : NULL;
    if (!c) {
        size_t len = strlen(out->missing);
        gp_fmt(out->missing + len, sizeof out->missing - len, "%s%s", len ? ", " : "",
               ceiling);
        return;
    }
    const double v[2] = { c->measured, c->theoretical };
    for (int m = 0; m < 2 && out->n < GP_ROOFS_MAX; m++) {
        if (isnan(v[m]) || v[m] <= 0)
            continue;
        gp_roof *r = &out->r[out->n++];
        r->compute = compute;
        gp_fmt(r->ceiling, sizeof r->ceiling, "%s", ceiling);
        gp_fmt(r->what, sizeof r->what, "%s", what);
        r->value = v[m];
        r->measured = m == 0;
    }
}

void gp_family_roofs(const gp_dataset *d, const gp_family *f, int hierarchical,
                     gp_roofs *out)
{
    memset(out, 0, sizeof *out);
    for (size_t j = 0; j < sizeof compute_roofs / sizeof compute_roofs[0]; j++) {
        int used = 0;
        for (int i = 0; i < f->n && !used; i++)
            used = strcmp(f->members[i].precision, compute_roofs[j].precision) == 0;
        if (used)
            add(d, out, compute_roofs[j].ceiling, compute_roofs[j].what, 1);
    }
    for (size_t j = 0; j < sizeof memory_roofs / sizeof memory_roofs[0]; j++)
        if (hierarchical || !memory_roofs[j].hierarchical_only)
            add(d, out, memory_roofs[j].ceiling, memory_roofs[j].what, 0);
}

double gp_roofs_top(const gp_roofs *r)
{
    double top = NAN;
    for (int i = 0; i < r->n; i++)
        if (r->r[i].compute && !(r->r[i].value <= top))
            top = r->r[i].value;
    return top;
}

double gp_roofs_value(const gp_roofs *r, const char *ceiling, int measured)
{
    double other = NAN;
    for (int i = 0; i < r->n; i++) {
        if (strcmp(r->r[i].ceiling, ceiling) != 0)
            continue;
        if (r->r[i].measured == measured)
            return r->r[i].value;
        other = r->r[i].value;
    }
    return other;
}
