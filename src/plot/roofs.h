/* roofs.h - the roofs a family's roofline is drawn under (private to
 * plot/): those of its members' precisions (data/roofs.h, where every
 * source of ceilings is looked up: the ceilings file, the table of
 * architectures). */
#ifndef GP_PLOT_ROOFS_H
#define GP_PLOT_ROOFS_H

#include "plot.h"

/* gp_roofs_of for the precisions of f's members, from the dataset's
 * ceilings file and metadata. */
void gp_family_roofs(const gp_dataset *d, const gp_family *f, int hierarchical,
                     gp_roofs *out);

#endif
