/* roofs.c - a family's roofs: the precisions of its members, asked of
 * data/roofs.c with the dataset's ceilings file and metadata. */
#include <stdlib.h>

#include "roofs.h"

void gp_family_roofs(const gp_dataset *d, const gp_family *f, int hierarchical,
                     gp_roofs *out)
{
    const char **prec = malloc(((size_t)f->n + 1) * sizeof *prec);
    int n = 0;
    for (int i = 0; prec && i < f->n; i++)
        prec[n++] = f->members[i].precision;
    gp_roofs_of(d->ceil, &d->meta, prec, n, hierarchical, out);
    free(prec);
}
