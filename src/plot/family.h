/* family.h - the families a chart is split into, so that no default chart
 * carries more than about ten series (part of plot.h, the folder's
 * interface, which includes this).
 *
 * Membership comes from the data, never from lists of names:
 *   - the precision column: fp32, fp64, tf32 (any other value, e.g. a
 *     plugin's bf16, makes a family of its own; an empty one is "other");
 *   - the ladder position: the order in which kernels first appear in each
 *     run file (gemmprof writes rows in ladder order).  A precision with a
 *     split kernel (family.c's table: fp32 at warptiling) is cut in two
 *     there: the kernels before it in some file form "<prec>-ladder", the
 *     kernels after it "<prec>-top", and the split kernel is in both.  A
 *     kernel never seen in a file with the split kernel (a plugin's, a
 *     trace's) goes to -top, beside cuBLAS.  Without the split kernel in
 *     the data the precision stays whole ("fp32");
 *   - the references (names starting with "cublas") are members of every
 *     family of their precision.
 * So the H200 ladder gives fp32-ladder (naive to warptiling, 10 + cuBLAS),
 * fp32-top (warptiling onwards, 9 + cuBLAS), fp64 and tf32.  `--family all`
 * is one family of everything; `--kernel A,B` one family of those. */
#ifndef GP_PLOT_FAMILY_H
#define GP_PLOT_FAMILY_H

/* Part of plot.h, the folder's interface, which includes this.  It needs
 * only the series keys (key.h) and the rows (rowset.h), so that family.c
 * sees nothing of select.c (which uses family.c). */
#include "key.h"
#include "rowset.h"
typedef struct gp_families_s gp_families;
typedef struct gp_family_s gp_family;

struct gp_family_s {         /* gp_family (plot.h) */
    char name[32];           /* "fp32-ladder", "fp64", "all", "kernels"    */
    char title[160];         /* "FP32 ladder (naive to warptiling)"        */
    int whole;               /* all / --kernel: charts keep their old names */
    int n;
    gp_key *members;         /* ladder order, references included          */
};

struct gp_families_s {       /* gp_families (plot.h) */
    int n;
    gp_family *f;
};

/* The default families of the data (see above), in ladder order of their
 * first member.  0, or -1 (out of memory). */
int gp_families_of(const gp_dataset *d, gp_families *out);
/* One family of every kernel: --family all. */
int gp_family_all(const gp_dataset *d, gp_families *out);
/* One family of the named kernels (comma-separated; every precision a name
 * occurs in): --kernel.  -1 with err naming a kernel not in the data. */
int gp_family_kernels(const gp_dataset *d, const char *list, gp_families *out,
                      char *err, size_t errlen);
/* Keep only the families named in `list` (comma-separated): --family.
 * "all" gives gp_family_all.  -1 with err naming an unknown family and the
 * ones there are. */
int gp_families_choose(const gp_dataset *d, const char *list, gp_families *out,
                       char *err, size_t errlen);
/* The families --family FAMILY / --kernel KERNELS ask for (either may be
 * NULL): 1 chosen into *out, 0 neither given (the data's own families
 * apply), -1 with err (an unknown name, or both given). */
int gp_families_pick(const gp_dataset *d, const char *family, const char *kernels,
                     gp_families *out, char *err, size_t errlen);
void gp_families_free(gp_families *fs);

int gp_family_has(const gp_family *f, const gp_row *r);
/* Position of the series in the family (ladder order), -1 if not in it:
 * the series' colour, marker and dash in every chart of the family. */
int gp_family_index(const gp_family *f, const char *kernel, const char *precision);
/* Sort keys (series of the family) into ladder order with the references
 * last; keys not in the family are dropped.  Returns how many remain, and
 * in *nref how many of them are references. */
int gp_family_sort(const gp_family *f, gp_key *k, int n, int *nref);
/* The series' linetype in style.gp: 1, 2, ... 40 for the rungs in ladder
 * order (colour, marker and dash), 41, 42, 43 for the references (black). */
int gp_family_lt(const gp_family *f, const char *kernel, const char *precision);
/* The precisions of the family's members, "fp32", "fp32, tf32". */
void gp_family_precisions(const gp_family *f, char *out, size_t len);

#endif
