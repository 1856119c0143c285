/* registry.c - the one kernel table: the built-in ladder (kernels/
 * ladder.def) followed by plugins in the order they were loaded. */
#include <ctype.h>
#include <string.h>

#include "registry.h"

#define GP_REGISTRY_MAX 256

static gp_kernel table[GP_REGISTRY_MAX];
static int count = -1;                  /* -1: built-ins not copied yet */

static void ensure_init(void)
{
    if (count >= 0)
        return;
    count = 0;
    for (int i = 0; i < gp_builtin_kernel_count && count < GP_REGISTRY_MAX; i++)
        table[count++] = gp_builtin_kernels[i];
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
int gp_registry_add(const gp_kernel *k)
{
    ensure_init();
    if (count >= GP_REGISTRY_MAX || !valid_name(k->name) || !k->launch ||
        !k->idea || (unsigned)k->precision > GP_TF32 ||
        gp_registry_find(k->name))
        return -1;
    table[count++] = *k;
    return 0;
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
    const char *p = spec;
    for (;;) {
        size_t len = strcspn(p, ",");
        const char *s = p, *e = p + len;
        while (s < e && isspace((unsigned char)*s))
            s++;
        while (e > s && isspace((unsigned char)e[-1]))
            e--;
        if (s == e) {
            snprintf(err, errlen, "empty kernel name in '%s'", spec);
            return -1;
        }
        n = select_one(s, (size_t)(e - s), out, n, max, err, errlen);
        if (n < 0)
            return -1;
        if (p[len] == '\0')
            return n;
        p += len + 1;
    }
}

/* A header line, then one line per kernel (scripts skip line 1). */
void gp_registry_print(FILE *f)
{
    ensure_init();
    int wname = (int)strlen("name"), wprec = (int)strlen("precision");
    for (int i = 0; i < count; i++) {
        int a = (int)strlen(table[i].name);
        int b = (int)strlen(gp_precision_name(table[i].precision));
        wname = a > wname ? a : wname;
        wprec = b > wprec ? b : wprec;
    }
    fprintf(f, "%-*s  %-*s  %s\n", wname, "name", wprec, "precision", "idea");
    for (int i = 0; i < count; i++)
        fprintf(f, "%-*s  %-*s  %s\n", wname, table[i].name, wprec,
                gp_precision_name(table[i].precision), table[i].idea);
}
