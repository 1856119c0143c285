/* registry.c - the one kernel table: the built-in ladder (kernels/
 * ladder.def) followed by plugins in the order they were loaded. */
#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "registry.h"

#define GP_REGISTRY_MAX 256

static gp_kernel table[GP_REGISTRY_MAX];
static gp_feature needs[GP_REGISTRY_MAX];   /* NONE for plugins */
static const char *origin[GP_REGISTRY_MAX]; /* a plugin's file; NULL: built-in */
static int count = -1;                  /* -1: built-ins not copied yet */

static void ensure_init(void)
{
    if (count >= 0)
        return;
    count = 0;
    for (int i = 0; i < gp_builtin_kernel_count && count < GP_REGISTRY_MAX; i++) {
        needs[count] = gp_builtin_needs[i];
        table[count++] = gp_builtin_kernels[i];
    }
}

int gp_registry_count(void)
{
    ensure_init();
    return count;
}

const gp_kernel *gp_registry_get(int i)
{
    ensure_init();
    return i >= 0 && i < count ? &table[i] : NULL;
}

const gp_kernel *gp_registry_find(const char *name)
{
    ensure_init();
    for (int i = 0; i < count; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

/* A CLI name: lowercase letters, digits, '_', '-', '.'; so it survives
 * comma lists, shells and file names. */
static int valid_name(const char *s)
{
    if (!s || !*s || strcmp(s, "all") == 0)
        return 0;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) ||
              *s == '_' || *s == '-' || *s == '.'))
            return 0;
    return 1;
}

/* Also -1 for a kernel no one could select: a bad name, a missing launcher
 * or idea, an unknown precision. */
int gp_registry_add(const gp_kernel *k, const char *from)
{
    ensure_init();
    if (count >= GP_REGISTRY_MAX || !valid_name(k->name) || !k->launch ||
        !k->idea || (unsigned)k->precision > GP_TF32 ||
        gp_registry_find(k->name))
        return -1;
    needs[count] = GP_FEAT_NONE;
    origin[count] = from;
    table[count++] = *k;
    return 0;
}

/* By name: callers may hold a copy of the entry. */
const char *gp_plugin_origin(const gp_kernel *k)
{
    ensure_init();
    for (int i = 0; i < count; i++)
        if (strcmp(table[i].name, k->name) == 0)
            return origin[i];
    return NULL;
}

const gp_kernel *gp_registry_reference(gp_precision p)
{
    switch (p) {
    case GP_FP32: return gp_registry_find("cublas");
    case GP_FP64: return gp_registry_find("cublas_fp64");
    case GP_TF32: return gp_registry_find("cublas_tf32");
    }
    return NULL;
}

/* "unknown kernel 'x' (valid: a, b, c)", cut at errlen. */
static void unknown_kernel(const char *name, size_t len, char *err, size_t errlen)
{
    size_t n = (size_t)snprintf(err, errlen, "unknown kernel '%.*s' (valid: ",
                                (int)len, name);
    for (int i = 0; i < count && n < errlen; i++)
        n += (size_t)snprintf(err + n, errlen - n, "%s%s", i ? ", " : "",
                              table[i].name);
    if (n < errlen)
        snprintf(err + n, errlen - n, ")");
}

/* Append k unless present.  New count, or -1 if out[] is full. */
static int append_unique(const gp_kernel **out, int n, int max,
                         const gp_kernel *k)
{
    for (int i = 0; i < n; i++)
        if (out[i] == k)
            return n;
    if (n >= max)
        return -1;
    out[n] = k;
    return n + 1;
}

/* Add one list element (already trimmed) to out[0..n).  New n, or -1. */
static int select_one(const char *name, size_t len, const gp_kernel **out,
                      int n, int max, char *err, size_t errlen)
{
    int all = len == 3 && memcmp(name, "all", 3) == 0;
    for (int i = 0; i < count; i++) {
        const gp_kernel *k = &table[i];
        if (!all && (strlen(k->name) != len || memcmp(k->name, name, len) != 0))
            continue;
        n = append_unique(out, n, max, k);
        if (n < 0) {
            snprintf(err, errlen, "too many kernels (at most %d)", max);
            return -1;
        }
        if (!all)
            return n;
    }
    if (!all) {
        unknown_kernel(name, len, err, errlen);
        return -1;
    }
    return n;
}

/* The next element of a comma list at *p, trimmed of blanks, in
 * (*item, *len); *p moves past it.  0 when the list is used up. */
static int next_item(const char **p, const char **item, size_t *len)
{
    if (!*p)
        return 0;
    size_t n = strcspn(*p, ",");
    const char *s = *p, *e = *p + n;
    while (s < e && isspace((unsigned char)*s))
        s++;
    while (e > s && isspace((unsigned char)e[-1]))
        e--;
    *item = s;
    *len = (size_t)(e - s);
    *p = (*p)[n] ? *p + n + 1 : NULL;
    return 1;
}

/* Elements are trimmed of blanks, so "naive, cublas" works too; "all" may
 * appear anywhere and means every registered kernel in table order. */
int gp_registry_select(const char *spec, const gp_kernel **out, int max,
                       char *err, size_t errlen)
{
    ensure_init();
    if (!spec || !*spec) {
        snprintf(err, errlen, "empty kernel list");
        return -1;
    }
    int n = 0;
    const char *p = spec, *s;
    size_t len;
    while (next_item(&p, &s, &len)) {
        if (len == 0) {
            snprintf(err, errlen, "empty kernel name in '%s'", spec);
            return -1;
        }
        n = select_one(s, len, out, n, max, err, errlen);
        if (n < 0)
            return -1;
    }
    return n;
}

/* Each distinct reason once, with the kernels it applies to (why[i]: the
 * reason kernel i is skipped, "" if it runs). */
static void print_reasons(FILE *notes, char (*why)[160])
{
    for (int i = 0; i < count; i++) {
        int first = 1;
        for (int j = 0; j < i && first; j++)
            first = strcmp(why[i], why[j]) != 0;
        if (!why[i][0] || !first)
            continue;
        fprintf(notes, "gemmprof: skipped here (%s):", why[i]);
        for (int j = i; j < count; j++)
            if (strcmp(why[i], why[j]) == 0)
                fprintf(notes, " %s", table[j].name);
        fputc('\n', notes);
    }
}

/* A header line, then one line per kernel (scripts skip line 1). */
void gp_registry_print(FILE *f, int cc, const gp_build *b, FILE *notes)
{
    ensure_init();
    enum { NCOL = 4 };
    static const char *const head[NCOL] = {"name", "precision", "needs", "here"};
    static char cell[GP_REGISTRY_MAX][NCOL][64], why[GP_REGISTRY_MAX][160];
    int w[NCOL];
    for (int c = 0; c < NCOL; c++)
        w[c] = (int)strlen(head[c]);
    for (int i = 0; i < count; i++) {
        gp_feature f = needs[i];
        char target[16];
        gp_feature_target(f, target, sizeof target);
        snprintf(cell[i][0], 64, "%s", table[i].name);
        snprintf(cell[i][1], 64, "%s", gp_precision_name(table[i].precision));
        snprintf(cell[i][2], 64, "%s%s%s", f == GP_FEAT_NONE ? "-" : target,
                 f == GP_FEAT_NONE ? "" : " ", gp_feature_name(f));
        why[i][0] = '\0';
        snprintf(cell[i][3], 64, "%s", cc == 0 ? "no GPU" :
                 gp_registry_can_run(&table[i], cc, b, NULL, 0, why[i],
                                     sizeof why[i]) ? "yes" : "skipped");
        for (int c = 0; c < NCOL; c++)
            w[c] = (int)strlen(cell[i][c]) > w[c] ? (int)strlen(cell[i][c]) : w[c];
    }
    fprintf(f, "%-*s  %-*s  %-*s  %-*s  idea\n", w[0], head[0], w[1], head[1],
            w[2], head[2], w[3], head[3]);
    for (int i = 0; i < count; i++)
        fprintf(f, "%-*s  %-*s  %-*s  %-*s  %s\n", w[0], cell[i][0], w[1],
                cell[i][1], w[2], cell[i][2], w[3], cell[i][3], table[i].idea);
    if (notes)
        print_reasons(notes, why);
}

gp_feature gp_registry_needs(const gp_kernel *k)
{
    ensure_init();
    ptrdiff_t i = k - table;
    return i >= 0 && i < count ? needs[i] : GP_FEAT_NONE;
}

int gp_registry_can_run(const gp_kernel *k, int cc, const gp_build *b,
                        char *status, size_t sn, char *err, size_t errlen)
{
    if (gp_plugin_origin(k))
        return 1;
    return gp_arch_can_run(gp_registry_needs(k), cc, b, status, sn, err, errlen);
}

int gp_registry_named(const char *spec, const char *name)
{
    const char *p = spec, *s;
    size_t len;
    while (next_item(&p, &s, &len))
        if (len == strlen(name) && memcmp(s, name, len) == 0)
            return 1;
    return 0;
}
