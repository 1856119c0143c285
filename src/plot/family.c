/* family.c - which family each kernel of the data belongs to (the rules
 * are in family.h), and the --family / --kernel choices. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "key.h"       /* series and rows: shared with select.c, not taken from it */
#include "family.h"

/* Precisions cut in two at a kernel of the ladder.  The split kernel is
 * the last rung of the lower part and the first of the upper part. */
static const struct {
    const char *precision, *split;
} splits[] = {
    { "fp32", "warptiling" },
};

enum { UNKNOWN, LOW, HIGH, SPLIT };

typedef struct {
    gp_key *k;               /* every (kernel, precision), ladder order */
    int *side;               /* UNKNOWN, LOW, HIGH, SPLIT               */
    int n;
    const gp_dataset *d;
} ladder;

static int key_is(const gp_key *k, const char *kernel, const char *precision)
{
    return strcmp(k->kernel, kernel) == 0 && strcmp(k->precision, precision) == 0;
}

static int find(const gp_key *k, int n, const char *kernel, const char *precision)
{
    for (int i = 0; i < n; i++)
        if (key_is(&k[i], kernel, precision))
            return i;
    return -1;
}

static const char *split_of(const char *precision)
{
    for (size_t i = 0; i < sizeof splits / sizeof splits[0]; i++)
        if (strcmp(splits[i].precision, precision) == 0)
            return splits[i].split;
    return NULL;
}

/* One file's kernels in the order they first appear: each new one goes
 * right after the one that preceded it in its file, so the merged order
 * keeps every file's order. */
static void merge_file(ladder *l, const gp_row *rows, int nrows)
{
    int prev = -1;
    for (int i = 0; i < nrows; i++) {
        const gp_row *r = &rows[i];
        int at = find(l->k, l->n, r->kernel, r->precision);
        if (at < 0) {
            at = prev + 1;
            memmove(&l->k[at + 1], &l->k[at], (size_t)(l->n - at) * sizeof *l->k);
            memmove(&l->side[at + 1], &l->side[at], (size_t)(l->n - at) * sizeof *l->side);
            l->k[at] = (gp_key){ r->kernel, r->precision, r->config };
            l->side[at] = UNKNOWN;
            l->n++;
        }
        prev = at;
    }
}

/* Which side of its precision's split kernel each kernel is on, from the
 * first file that holds both. */
static void split_sides(ladder *l, const gp_row *rows, int nrows)
{
    for (int i = 0; i < nrows; i++) {
        const char *split = split_of(rows[i].precision);
        if (!split || strcmp(rows[i].kernel, split) != 0)
            continue;
        for (int j = 0; j < nrows; j++) {
            int at = find(l->k, l->n, rows[j].kernel, rows[j].precision);
            if (strcmp(rows[j].precision, rows[i].precision) != 0 || l->side[at] != UNKNOWN)
                continue;
            l->side[at] = j < i ? LOW : j == i ? SPLIT : HIGH;
        }
        return;
    }
}

static int ladder_build(const gp_dataset *d, ladder *l)
{
    l->n = 0;
    l->d = d;
    l->k = malloc((size_t)(d->nrows + 1) * sizeof *l->k);
    l->side = malloc((size_t)(d->nrows + 1) * sizeof *l->side);
    if (!l->k || !l->side)
        return -1;
    for (int f = 0, start = 0; f < d->nfiles; start += d->file_rows[f++]) {
        merge_file(l, d->rows + start, d->file_rows[f]);
        split_sides(l, d->rows + start, d->file_rows[f]);
    }
    return 0;
}

static void ladder_free(ladder *l)
{
    free(l->k);
    free(l->side);
}

static gp_family *add_family(gp_families *fs)
{
    return gp_push(&fs->f, &fs->n, sizeof *fs->f);
}

static void upper(const char *in, char *out, size_t len)
{
    size_t i = 0;
    for (; in[i] && i + 1 < len; i++)
        out[i] = (char)toupper((unsigned char)in[i]);
    out[i] = '\0';
}

/* Has the kernel a row with numbers (not failed, errored or skipped)? */
static int measured(const gp_dataset *d, const gp_key *k)
{
    for (int i = 0; i < d->nrows; i++)
        if (key_is(k, d->rows[i].kernel, d->rows[i].precision) &&
            gp_row_usable(&d->rows[i]))
            return 1;
    return 0;
}

/* "FP32 ladder (naive to warptiling)": the part's first and last rungs
 * that were measured. */
static void title_of(gp_family *f, const gp_dataset *d, const char *precision,
                     const char *part)
{
    char up[16];
    upper(precision[0] ? precision : "other", up, sizeof up);
    const char *first = NULL, *last = NULL;
    for (int i = 0; i < f->n; i++)
        if (!gp_name_is_cublas(f->members[i].kernel) && measured(d, &f->members[i])) {
            first = first ? first : f->members[i].kernel;
            last = f->members[i].kernel;
        }
    char a[40], b[40];
    gp_short_name(first ? first : "", a, sizeof a, 24);
    gp_short_name(last ? last : "", b, sizeof b, 24);
    if (first && last != first)
        gp_fmt(f->title, sizeof f->title, "%s%s%s (%s to %s)", up, *part ? " " : "", part, a, b);
    else
        gp_fmt(f->title, sizeof f->title, "%s%s%s", up, *part ? " " : "", part);
}

/* Does side s belong in the part (0 whole, LOW, HIGH)? */
static int in_part(int part, int side, const gp_key *k)
{
    if (part == 0 || gp_name_is_cublas(k->kernel) || side == SPLIT)
        return 1;
    return part == LOW ? side == LOW : side != LOW;
}

/* The part's members; 0 if it has no rung of its own (only references
 * and the split kernel), then it is not made. */
static int fill_part(gp_family *f, const ladder *l, const char *precision, int part)
{
    int own = 0;
    f->members = malloc((size_t)(l->n + 1) * sizeof *f->members);
    if (!f->members)
        return -1;
    /* kernels of no known side (beside cuBLAS, in the top half) come last */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < l->n; i++) {
            const gp_key *k = &l->k[i];
            int late = part == HIGH && l->side[i] == UNKNOWN && !gp_name_is_cublas(k->kernel);
            if (strcmp(k->precision, precision) != 0 || !in_part(part, l->side[i], k) ||
                late != pass)
                continue;
            f->members[f->n++] = *k;
            own += !gp_name_is_cublas(k->kernel) && l->side[i] != SPLIT;
        }
    return own;
}

static int add_precision(gp_families *fs, const ladder *l, const char *precision)
{
    const char *split = split_of(precision);
    int have_split = split && find(l->k, l->n, split, precision) >= 0;
    static const struct { int part; const char *suffix, *title; } parts[] = {
        { LOW, "-ladder", "ladder" }, { HIGH, "-top", "top" },
    };
    int made = 0;
    for (size_t p = 0; have_split && p < 2; p++) {
        gp_family *f = add_family(fs);
        if (!f)
            return -1;
        int own = fill_part(f, l, precision, parts[p].part);
        if (own < 0)
            return -1;
        if (own == 0) {                   /* nothing but cuBLAS and the split */
            free(f->members);
            fs->n--;
            continue;
        }
        gp_fmt(f->name, sizeof f->name, "%s%s", precision, parts[p].suffix);
        title_of(f, l->d, precision, parts[p].title);
        made++;
    }
    if (made)
        return 0;
    gp_family *f = add_family(fs);
    if (!f || fill_part(f, l, precision, 0) < 0)
        return -1;
    gp_fmt(f->name, sizeof f->name, "%s", precision[0] ? precision : "other");
    title_of(f, l->d, precision, "");
    return 0;
}

int gp_families_of(const gp_dataset *d, gp_families *out)
{
    memset(out, 0, sizeof *out);
    ladder l;
    int rc = ladder_build(d, &l);
    /* Precisions in the order of their first kernel that is not a reference. */
    for (int pass = 0; rc == 0 && pass < 2; pass++)
        for (int i = 0; rc == 0 && i < l.n; i++) {
            if (gp_name_is_cublas(l.k[i].kernel) != pass)
                continue;
            int seen = 0;
            for (int j = 0; j < out->n && !seen; j++)
                seen = strcmp(out->f[j].members[0].precision, l.k[i].precision) == 0;
            if (!seen)
                rc = add_precision(out, &l, l.k[i].precision);
        }
    ladder_free(&l);
    return rc;
}

/* One family of the keys that pass `pick`. */
static int family_of(const gp_dataset *d, gp_families *out, const char *name,
                     int (*pick)(const gp_key *, const void *), const void *arg)
{
    memset(out, 0, sizeof *out);
    ladder l;
    gp_family *f = ladder_build(d, &l) == 0 ? add_family(out) : NULL;
    if (f)
        f->members = malloc((size_t)(l.n + 1) * sizeof *f->members);
    if (!f || !f->members) {
        ladder_free(&l);
        return -1;
    }
    for (int i = 0; i < l.n; i++)
        if (pick(&l.k[i], arg))
            f->members[f->n++] = l.k[i];
    gp_fmt(f->name, sizeof f->name, "%s", name);
    f->whole = 1;
    ladder_free(&l);
    return 0;
}

static int pick_all(const gp_key *k, const void *arg)
{
    (void)k, (void)arg;
    return 1;
}

int gp_family_all(const gp_dataset *d, gp_families *out)
{
    if (family_of(d, out, "all", pick_all, NULL) < 0)
        return -1;
    gp_fmt(out->f[0].title, sizeof out->f[0].title, "every kernel");
    return 0;
}

static int pick_listed(const gp_key *k, const void *list)
{
    return gp_list_has(list, ',', k->kernel);
}

int gp_family_kernels(const gp_dataset *d, const char *list, gp_families *out,
                      char *err, size_t errlen)
{
    if (family_of(d, out, "kernels", pick_listed, list) < 0) {
        gp_fmt(err, errlen, "out of memory");
        return -1;
    }
    gp_family *f = &out->f[0];
    char buf[512];
    gp_fmt(buf, sizeof buf, "%s", list);
    for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (int i = 0; i < f->n && !found; i++)
            found = strcmp(f->members[i].kernel, t) == 0;
        if (!found) {
            gp_fmt(err, errlen, "--kernel: no kernel '%s' in the data", t);
            gp_families_free(out);
            return -1;
        }
    }
    gp_fmt(f->title, sizeof f->title, "%s", list);
    for (char *c = f->title; *c; c++)
        if (*c == ',')
            *c = ' ';
    return 0;
}

/* "fp32" names both halves of a split precision. */
static int family_named(const gp_family *f, const char *name)
{
    size_t n = strlen(name);
    return strcmp(f->name, name) == 0 ||
           (strncmp(f->name, name, n) == 0 && f->name[n] == '-');
}

int gp_families_choose(const gp_dataset *d, const char *list, gp_families *out,
                       char *err, size_t errlen)
{
    if (gp_list_has(list, ',', "all"))
        return gp_family_all(d, out) == 0 ? 0 : (gp_fmt(err, errlen, "out of memory"), -1);
    gp_families all;
    if (gp_families_of(d, &all) < 0) {
        gp_fmt(err, errlen, "out of memory");
        return -1;
    }
    memset(out, 0, sizeof *out);
    int rc = 0;
    for (int i = 0; i < all.n; i++) {
        int want = 0;
        char buf[512];
        gp_fmt(buf, sizeof buf, "%s", list);
        for (char *save, *t = strtok_r(buf, ",", &save); t && !want; t = strtok_r(NULL, ",", &save))
            want = family_named(&all.f[i], t);
        if (!want)
            continue;
        gp_family *f = add_family(out);
        if (!f) {
            rc = -1;
            break;
        }
        *f = all.f[i];
        all.f[i].members = NULL;            /* moved */
    }
    char buf[512], names[512] = "";
    gp_fmt(buf, sizeof buf, "%s", list);
    for (char *save, *t = strtok_r(buf, ",", &save); rc == 0 && t; t = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (int i = 0; i < all.n && !found; i++)
            found = family_named(&all.f[i], t);
        if (found)
            continue;
        for (int i = 0; i < all.n; i++)
            gp_fmt(names + strlen(names), sizeof names - strlen(names), "%s, ", all.f[i].name);
        gp_fmt(err, errlen, "--family: no family '%s' in this data (it has %sall)", t, names);
        rc = -1;
    }
    gp_families_free(&all);
    if (rc < 0)
        gp_families_free(out);
    return rc;
}

int gp_families_pick(const gp_dataset *d, const char *family, const char *kernels,
                     gp_families *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (family && kernels) {
        gp_fmt(err, errlen, "--family and --kernel both given: one chart set at a time");
        return -1;
    }
    if (family)
        return gp_families_choose(d, family, out, err, errlen) == 0 ? 1 : -1;
    if (kernels)
        return gp_family_kernels(d, kernels, out, err, errlen) == 0 ? 1 : -1;
    return 0;
}

void gp_families_free(gp_families *fs)
{
    for (int i = 0; i < fs->n; i++)
        free(fs->f[i].members);
    free(fs->f);
    memset(fs, 0, sizeof *fs);
}

int gp_family_index(const gp_family *f, const char *kernel, const char *precision)
{
    return find(f->members, f->n, kernel, precision);
}

int gp_family_sort(const gp_family *f, gp_key *k, int n, int *nref)
{
    gp_key tmp[n > 0 ? n : 1];
    int o = 0;
    *nref = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int at = 0; at < f->n; at++)
            for (int i = 0; i < n; i++)
                if (gp_name_is_cublas(k[i].kernel) == pass &&
                    key_is(&f->members[at], k[i].kernel, k[i].precision)) {
                    tmp[o++] = k[i];
                    *nref += pass;
                }
    memcpy(k, tmp, (size_t)o * sizeof *k);
    return o;
}

int gp_family_lt(const gp_family *f, const char *kernel, const char *precision)
{
    int at = gp_family_index(f, kernel, precision), rung = 0, ref = 0;
    for (int i = 0; i < at; i++) {
        if (gp_name_is_cublas(f->members[i].kernel))
            ref++;
        else
            rung++;
    }
    return at < 0 ? 1 : gp_name_is_cublas(kernel) ? 41 + ref % 3 : 1 + rung % 40;
}

int gp_family_has(const gp_family *f, const gp_row *r)
{
    return gp_family_index(f, r->kernel, r->precision) >= 0;
}

void gp_family_precisions(const gp_family *f, char *out, size_t len)
{
    out[0] = '\0';
    for (int i = 0; i < f->n; i++)
        if (!gp_list_has(out, ',', f->members[i].precision))
            gp_fmt(out + strlen(out), len - strlen(out), "%s%s", out[0] ? "," : "",
                   f->members[i].precision);
    for (char *c = out; *c; c++)
        if (*c == ',')
            *c = '/';
}
