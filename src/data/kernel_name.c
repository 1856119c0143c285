/* kernel_name.c - the kernel column holds a registry name ("wide_tile")
 * or, in trace rows, a demangled C++ name that can run to hundreds of
 * characters with commas, spaces and angle brackets.  The CSV writer
 * quotes it; these helpers keep it whole in the row and short on a chart. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "row.h"

#define HASH_TAIL 20                     /* "...#" and 16 hex digits */

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 14695981039346656037ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

void gp_row_set_kernel(gp_row *r, const char *name)
{
    size_t len = strlen(name);
    if (len < sizeof r->kernel) {
        memcpy(r->kernel, name, len + 1);
        return;
    }
    size_t keep = sizeof r->kernel - 1 - HASH_TAIL;
    memcpy(r->kernel, name, keep);
    snprintf(r->kernel + keep, HASH_TAIL + 1, "...#%016llx",
             (unsigned long long)fnv1a(name));
}

static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

/* Where the function name of a demangled signature ends: the '(' of its
 * parameter list, the first one outside template brackets that is not
 * "(anonymous namespace)". */
static size_t name_end(const char *s, size_t len)
{
    static const char anon[] = "(anonymous namespace)";
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '<')
            depth++;
        else if (s[i] == '>' && depth > 0)
            depth--;
        else if (s[i] == '(' && depth == 0) {
            if (strncmp(s + i, anon, sizeof anon - 1) == 0)
                i += sizeof anon - 2;
            else
                return i;
        }
    }
    return len;
}

/* After the return type: the last space outside template brackets and
 * parentheses ("(anonymous namespace)"). */
static size_t name_start(const char *s, size_t end)
{
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < end; i++) {
        if (s[i] == '<' || s[i] == '(')
            depth++;
        else if ((s[i] == '>' || s[i] == ')') && depth > 0)
            depth--;
        else if (s[i] == ' ' && depth == 0)
            start = i + 1;
    }
    return start;
}

static void longest_identifier(const char *s, size_t len, size_t *at, size_t *n)
{
    *at = 0;
    *n = 0;
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && ident_char(s[j]))
            j++;
        if (j - i > *n) {
            *at = i;
            *n = j - i;
        }
        i = j > i ? j : i + 1;
    }
}

/* The function's own name in a qualified, templated one: the identifier
 * before its template arguments ("multi_tensor_apply_kernel" in
 * "at::native::multi_tensor_apply_kernel<at::native::TensorList...>"). */
static void own_name(const char *s, size_t len, size_t *at, size_t *n)
{
    size_t e = 0;
    while (e < len && s[e] != '<')
        e++;
    size_t b = e;
    while (b > 0 && ident_char(s[b - 1]))
        b--;
    *at = b;
    *n = e - b;
}

/* A wrapper's name that says nothing of the kernel ("Kernel2",
 * "device_kernel"): what is left without the words kernel, device and
 * global, digits and underscores is under 3 letters. */
static int generic_name(const char *s, size_t n)
{
    static const char *const words[] = { "kernel", "device", "global" };
    size_t left = 0;
    for (size_t i = 0; i < n;) {
        size_t w = 0;
        for (size_t k = 0; k < sizeof words / sizeof words[0] && !w; k++) {
            size_t l = strlen(words[k]);
            if (i + l <= n && strncasecmp(s + i, words[k], l) == 0)
                w = l;
        }
        if (w) {
            i += w;
            continue;
        }
        left += s[i] != '_' && !(s[i] >= '0' && s[i] <= '9');
        i++;
    }
    return left < 3;
}

void gp_kernel_label(const char *kernel, char *out, size_t n)
{
    if (n == 0)
        return;
    size_t len = strlen(kernel);
    size_t end = name_end(kernel, len), start = name_start(kernel, end);
    const char *s = kernel + start;
    size_t slen = end - start;
    if (slen > 40) {                    /* the function's name, or, for a
                                         * wrapper, its longest argument */
        size_t at, idn;
        own_name(s, slen, &at, &idn);
        if (idn == 0 || generic_name(s + at, idn))
            longest_identifier(s, slen, &at, &idn);
        if (idn >= 8) {
            s += at;
            slen = idn;
        }
    }
    if (slen >= n)
        slen = n - 1;
    memcpy(out, s, slen);
    out[slen] = '\0';
}

void gp_row_shape(const gp_row *r, char *out, size_t n)
{
    if (r->m < 0 || r->n < 0 || r->k < 0)
        snprintf(out, n, "NA");
    else
        snprintf(out, n, "%ldx%ldx%ld", r->m, r->n, r->k);
}

/* Is the identifier w in a kernel of kernels[0..n), other than i's own
 * name, whose label is `label` (kernel `only` alone, if >= 0)? */
static int in_another(const char *const *kernels, const char (*labels)[GP_KERNEL_NAME_MAX],
                      int n, int i, int only, const char *label, const char *w)
{
    for (int j = 0; j < n; j++) {
        if (j == i || (only >= 0 && j != only) || strcmp(kernels[j], kernels[i]) == 0)
            continue;
        if (strcmp(labels[j], label) == 0 && strstr(kernels[j], w))
            return 1;
    }
    return 0;
}

/* The longest identifier of kernels[i] that is not its label and is in no
 * other kernel of that label (in kernel `only`'s, if >= 0). */
static void telling_word(const char *const *kernels, const char (*labels)[GP_KERNEL_NAME_MAX],
                         int n, int i, int only, char *out, size_t len)
{
    const char *label = labels[i];
    size_t best = 0;
    out[0] = '\0';
    for (const char *p = kernels[i]; *p;) {
        size_t k = 0;
        while (ident_char(p[k]) && (k || !(p[k] >= '0' && p[k] <= '9')))
            k++;
        if (k > best && k < len && (strlen(label) != k || strncmp(p, label, k) != 0)) {
            char w[256];
            snprintf(w, sizeof w, "%.*s", (int)k, p);
            if (!in_another(kernels, labels, n, i, only, label, w)) {
                memcpy(out, p, k);
                out[k] = '\0';
                best = k;
            }
        }
        p += k ? k : 1;
    }
}

/* Where the names differ only in numbers or repeated words
 * ("reduce_kernel<128, 4, ...>" and "<256, 2, ...>"): a's token (a run of
 * letters, digits and _) where the two first differ, "128". */
static void first_difference(const char *a, const char *b, char *out, size_t len)
{
    while (*a && *b) {
        while (*a && !ident_char(*a))
            a++;
        while (*b && !ident_char(*b))
            b++;
        size_t na = 0, nb = 0;
        while (ident_char(a[na]))
            na++;
        while (ident_char(b[nb]))
            nb++;
        if (na != nb || strncmp(a, b, na) != 0) {
            snprintf(out, len, "%.*s", (int)na, a);
            return;
        }
        a += na;
        b += nb;
    }
}

void gp_kernel_tell_apart(const char *(*kernel)(const void *set, int j), const void *set,
                          int n, int i, char *out, size_t len)
{
    out[0] = '\0';
    const char **kernels = n > 1 ? malloc((size_t)n * sizeof *kernels) : NULL;
    char (*labels)[GP_KERNEL_NAME_MAX] = kernels ? malloc((size_t)n * sizeof *labels) : NULL;
    int first = -1;
    for (int j = 0; labels && j < n; j++) {
        kernels[j] = kernel(set, j);
        gp_kernel_label(kernels[j], labels[j], sizeof labels[j]);
    }
    for (int j = 0; labels && j < n && first < 0; j++)
        if (j != i && strcmp(kernels[j], kernels[i]) != 0 && strcmp(labels[j], labels[i]) == 0)
            first = j;
    if (first >= 0) {                   /* against all of that label, else the first */
        char w[80];
        telling_word(kernels, labels, n, i, -1, w, sizeof w);
        if (!w[0])
            telling_word(kernels, labels, n, i, first, w, sizeof w);
        if (!w[0])
            first_difference(kernels[i], kernels[first], w, sizeof w);
        if (w[0])
            snprintf(out, len, "<%s>", w);
    }
    free(labels);
    free(kernels);
}
