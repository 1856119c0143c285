/* kernel_name.c - the kernel column holds a registry name ("wide_tile")
 * or, in trace rows, a demangled C++ name that can run to hundreds of
 * characters with commas, spaces and angle brackets.  The CSV writer
 * quotes it; these helpers keep it whole in the row and short on a chart. */
#include <stdint.h>
#include <stdio.h>
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
