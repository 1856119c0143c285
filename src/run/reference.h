/* reference.h - the no-GPU fallback of --roofline (run_reference.c). */
#ifndef GP_RUN_REFERENCE_H
#define GP_RUN_REFERENCE_H

/* Draw the roofline of every committed reference data set into
 * OUTDIR/reference-<gpu>/; returns how many were drawn. */
int gp_run_reference_roofline(const char *outdir);

#endif
