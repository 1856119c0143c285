/* build.c - features, the code a build contains, and whether a kernel can
 * run on a device with it.  The build's list of code objects is what the
 * Makefile compiled (gp_build_arch, e.g. "sm_80 sm_90 sm_90a compute_90");
 * a kernel's device code is its real body only where the code object's
 * architecture has the kernel's feature, an empty body elsewhere
 * (kernels/rung.cuh), so the question "does the code this GPU runs contain
 * the kernel?" is answered from the list alone. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arch.h"

static const struct {
    const char *id, *name;
    int cc, specific, library;
} features[GP_FEAT_COUNT] = {
#define GP_FEATURE_ROW(id, name, cc, specific, lib) {#id, name, cc, specific, lib},
    GP_FEATURES(GP_FEATURE_ROW)
#undef GP_FEATURE_ROW
};

const char *gp_feature_name(gp_feature f)
{
    return (unsigned)f < GP_FEAT_COUNT ? features[f].name : "";
}

const char *gp_feature_id(gp_feature f)
{
    return (unsigned)f < GP_FEAT_COUNT ? features[f].id : "";
}

gp_feature gp_feature_parse(const char *id)
{
    for (int f = 0; f < GP_FEAT_COUNT; f++)
        if (strcmp(features[f].id, id) == 0)
            return (gp_feature)f;
    return GP_FEAT_COUNT;
}

int gp_feature_min_cc(gp_feature f)
{
    return (unsigned)f < GP_FEAT_COUNT ? features[f].cc : 0;
}

void gp_feature_target(gp_feature f, char *buf, size_t n)
{
    snprintf(buf, n, "sm_%d%s", gp_feature_min_cc(f),
             (unsigned)f < GP_FEAT_COUNT && features[f].specific ? "a" : "");
}

void gp_code_name(gp_code c, char *buf, size_t n)
{
    snprintf(buf, n, "%s_%d%s", c.ptx ? "compute" : "sm", c.cc, c.specific ? "a" : "");
}

/* "sm_86", "compute_90", "sm_90a" -> code; 0, or -1 if not that shape. */
static int parse_code(const char *s, size_t len, gp_code *c)
{
    char tok[32];
    if (len == 0 || len >= sizeof tok)
        return -1;
    memcpy(tok, s, len);
    tok[len] = '\0';
    const char *digits;
    if (strncmp(tok, "sm_", 3) == 0)
        digits = tok + 3, c->ptx = 0;
    else if (strncmp(tok, "compute_", 8) == 0)
        digits = tok + 8, c->ptx = 1;
    else
        return -1;
    char *end;
    long cc = strtol(digits, &end, 10);
    if (!isdigit((unsigned char)*digits) || cc < 10 || cc > 999)
        return -1;
    c->cc = (int)cc;
    c->specific = *end == 'a';
    return *end == '\0' || (end[0] == 'a' && end[1] == '\0') ? 0 : -1;
}

int gp_build_parse(const char *list, gp_build *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    for (const char *p = list ? list : ""; *p;) {
        size_t skip = strspn(p, " ,\t"), len;
        p += skip;
        if (!*p)
            break;
        len = strcspn(p, " ,\t");
        if (b->n == GP_BUILD_MAX_CODES) {
            snprintf(err, errlen, "build: more than %d architectures", GP_BUILD_MAX_CODES);
            return -1;
        }
        if (parse_code(p, len, &b->code[b->n]) != 0) {
            snprintf(err, errlen, "build: '%.*s' is not an architecture "
                     "(sm_XY or compute_XY)", (int)len, p);
            return -1;
        }
        b->n++;
        p += len;
    }
    if (b->n == 0) {
        snprintf(err, errlen, "build: no architecture");
        return -1;
    }
    return 0;
}

/* SASS of cc X.y runs on X.z for z >= y; an 'a' variant only on exactly
 * its own CC (CUDA Programming Guide, "Binary Compatibility"; nvcc manual,
 * "GPU Feature List" on arch-specific targets).  PTX compiles for any
 * device at least as new. */
static int runs_on(gp_code c, int cc)
{
    if (c.specific)
        return c.cc == cc;
    if (c.ptx)
        return c.cc <= cc;
    return c.cc / 10 == cc / 10 && c.cc <= cc;
}

gp_code gp_build_pick(const gp_build *b, int cc)
{
    gp_code best = {0, 0, 0};
    for (int pass = 0; pass < 2 && best.cc == 0; pass++)   /* SASS, then PTX */
        for (int i = 0; i < b->n; i++) {
            gp_code c = b->code[i];
            if (c.specific || c.ptx != pass || !runs_on(c, cc))
                continue;
            if (c.cc > best.cc)
                best = c;
        }
    return best;
}

static void list_codes(const gp_build *b, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < b->n && len < n; i++) {
        char name[24];
        gp_code_name(b->code[i], name, sizeof name);
        len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? " " : "", name);
    }
}

int gp_build_check_device(const gp_build *b, int cc, char *err, size_t errlen)
{
    if (cc < GP_CC_MIN) {
        snprintf(err, errlen, "this GPU is compute capability %d.%d: CUDA 13 "
                 "and gemmprof support %d.%d and newer", cc / 10, cc % 10,
                 GP_CC_MIN / 10, GP_CC_MIN % 10);
        return -1;
    }
    if (gp_build_pick(b, cc).cc != 0)
        return 0;
    char codes[256];
    list_codes(b, codes, sizeof codes);
    snprintf(err, errlen, "this build (%s) has no code for this GPU (compute "
             "capability %d.%d): rebuild with make ARCH=sm_%d, or plain make "
             "on this machine", codes, cc / 10, cc % 10, cc);
    return -1;
}

int gp_code_has_feature(gp_code c, gp_feature f)
{
    if ((unsigned)f >= GP_FEAT_COUNT)
        return 0;
    if (features[f].specific)
        return c.specific && c.cc == features[f].cc;
    return c.cc >= features[f].cc;
}

/* The build's code for an arch-specific feature on this device: an 'a'
 * code object of exactly this CC. */
static int has_specific(const gp_build *b, gp_feature f, int cc)
{
    for (int i = 0; i < b->n; i++)
        if (runs_on(b->code[i], cc) && gp_code_has_feature(b->code[i], f))
            return 1;
    return 0;
}

int gp_arch_can_run(gp_feature f, int cc, const gp_build *b,
                    char *status, size_t sn, char *err, size_t errlen)
{
    if ((unsigned)f >= GP_FEAT_COUNT)
        f = GP_FEAT_NONE;
    int need = features[f].cc, ok;
    char target[16], have[24] = "";
    gp_feature_target(f, target, sizeof target);
    gp_code code = gp_build_pick(b, cc);
    gp_code_name(code, have, sizeof have);
    if (features[f].library)
        ok = cc >= need;
    else if (features[f].specific)
        ok = cc == need && has_specific(b, f, cc);
    else
        ok = code.cc != 0 && gp_code_has_feature(code, f);
    if (ok)
        return 1;
    if (status)
        snprintf(status, sn, "skipped: needs %s (%s)", target,
                 f == GP_FEAT_NONE ? "a build for this GPU" : features[f].name);
    if (!err)
        return 0;
    if (code.cc == 0)
        snprintf(err, errlen, "this build has no code for compute capability %d.%d",
                 cc / 10, cc % 10);
    else if (features[f].specific ? cc != need : cc < need)
        snprintf(err, errlen, "this GPU is sm_%d", cc);
    else
        snprintf(err, errlen, "this build runs %s on this GPU%s: rebuild with "
                 "ARCH including sm_%d", have, code.ptx ? " (JIT)" : "", need);
    return 0;
}
