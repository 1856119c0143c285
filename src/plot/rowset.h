/* rowset.h - the type of data files read together (part of plot.h, the
 * folder's interface, which includes this; plot.h declares what fills it,
 * dataset.c).  A header of its own so that family.c, which reads the rows,
 * needs nothing else of plot.h. */
#ifndef GP_PLOT_ROWSET_H
#define GP_PLOT_ROWSET_H

#include "data/data.h"

/* Data files read together, plus the ceilings file if there is one. */
typedef struct gp_dataset_s {
    gp_row *rows;
    int *row_line;           /* each row's line in its file, for messages */
    int nrows;
    char **files;            /* run files in the order given              */
    int *file_rows;          /* how many of `rows` each file gave, in order */
    int nfiles;
    gp_meta meta;            /* metadata of the first file                */
    unsigned char *swept;    /* per row: 1 if its config was measured only
                                by gemmprof sweep files ('# sweep:') and
                                its kernel has a config from another file:
                                the sweep's own series, kept out of the
                                kernel's rows and curves (select.h)      */
    gp_ceilings *ceil;       /* NULL if none                              */
    char ceil_path[4096];
} gp_dataset;

#endif
