/* sweep_table.c - expands sweep.def into the table of tile configs. */
#include <stdio.h>
#include <string.h>
#include "sweep_table.h"

#define GP_SWEEP_FP32(bm, bn, bk, tm, tn)                                     \
    int gp_sweep_fp32_##bm##x##bn##x##bk##_##tm##x##tn(                       \
        const gemm_args *, cudaStream_t, gp_launch_info *);
#define GP_SWEEP_FP64(bm, bn, bk, tm, tn)                                     \
    int gp_sweep_fp64_##bm##x##bn##x##bk##_##tm##x##tn(                       \
        const gemm_args *, cudaStream_t, gp_launch_info *);
#include "sweep.def"
#undef GP_SWEEP_FP32
#undef GP_SWEEP_FP64

#define GP_SWEEP_ROW(fam, prec, pfx, bm, bn, bk, tm, tn)                      \
    {fam, prec, #bm "x" #bn "x" #bk "/" #tm "x" #tn, bm, bn, bk, tm, tn,      \
     (bm * bn) / (tm * tn), pfx##bm##x##bn##x##bk##_##tm##x##tn},
#define GP_SWEEP_FP32(bm, bn, bk, tm, tn)                                     \
    GP_SWEEP_ROW("blocktile_2d", GP_FP32, gp_sweep_fp32_, bm, bn, bk, tm, tn)
#define GP_SWEEP_FP64(bm, bn, bk, tm, tn)                                     \
    GP_SWEEP_ROW("dgemm_blocktile_2d", GP_FP64, gp_sweep_fp64_, bm, bn, bk, tm, tn)
const gp_sweep_config gp_sweep_configs[] = {
#include "sweep.def"
};
#undef GP_SWEEP_FP32
#undef GP_SWEEP_FP64

const int gp_sweep_config_count =
    (int)(sizeof gp_sweep_configs / sizeof gp_sweep_configs[0]);

const gp_sweep_config *gp_sweep_find(const char *family, const char *name)
{
    for (int i = 0; i < gp_sweep_config_count; ++i)
        if (!strcmp(gp_sweep_configs[i].family, family) &&
            !strcmp(gp_sweep_configs[i].name, name))
            return &gp_sweep_configs[i];
    return NULL;
}

int gp_sweep_family_precision(const char *family)
{
    for (int i = 0; i < gp_sweep_config_count; ++i)
        if (!strcmp(gp_sweep_configs[i].family, family))
            return (int)gp_sweep_configs[i].precision;
    return -1;
}

static int seen_family(int i)
{
    for (int j = 0; j < i; ++j)
        if (!strcmp(gp_sweep_configs[j].family, gp_sweep_configs[i].family))
            return 1;
    return 0;
}

/* "a, b, c": the families (fam == NULL) or the configs of one family. */
static void list_names(const char *fam, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < gp_sweep_config_count && len < n; ++i) {
        const gp_sweep_config *c = &gp_sweep_configs[i];
        if (fam ? strcmp(c->family, fam) != 0 : seen_family(i))
            continue;
        len += (size_t)snprintf(out + len, n - len, "%s%s", len ? ", " : "",
                                fam ? c->name : c->family);
    }
}

static int add_unique(const gp_sweep_config **out, int n, int max,
                      const gp_sweep_config *c)
{
    for (int i = 0; i < n; ++i)
        if (out[i] == c)
            return n;
    if (n < max)
        out[n++] = c;
    return n;
}

int gp_sweep_select(const char *family, const char *spec,
                    const gp_sweep_config **out, int max, char *err, size_t errlen)
{
    char valid[2048];
    int n = 0;
    if (gp_sweep_family_precision(family) < 0) {
        list_names(NULL, valid, sizeof valid);
        snprintf(err, errlen, "unknown kernel family '%s' (families: %s)", family, valid);
        return -1;
    }
    if (!strcmp(spec, "all")) {
        for (int i = 0; i < gp_sweep_config_count; ++i)
            if (!strcmp(gp_sweep_configs[i].family, family))
                n = add_unique(out, n, max, &gp_sweep_configs[i]);
        return n;
    }
    for (const char *p = spec;;) {
        size_t len = strcspn(p, ",");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), p);
        const gp_sweep_config *c = len < 63 ? gp_sweep_find(family, name) : NULL;
        if (!c) {
            list_names(family, valid, sizeof valid);
            snprintf(err, errlen, "unknown %s config '%.*s' (configs: %s, or all)",
                     family, (int)len, p, valid);
            return -1;
        }
        n = add_unique(out, n, max, c);
        if (!p[len])
            return n;
        p += len + 1;
    }
}
