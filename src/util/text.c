/* text.c - formatted strings that grow, lists of strings, slugs. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void gp_fmt(char *out, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, len, fmt, ap);
    va_end(ap);
}

static void (*oom_handler)(void);

void gp_on_out_of_memory(void (*handler)(void))
{
    oom_handler = handler;
}

static int out_of_memory(void)
{
    if (oom_handler)
        oom_handler();
    return -1;
}

int gp_buf_printf(gp_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return 0;                       /* a bad format: nothing to add */
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s)
            return out_of_memory();
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return 0;
}

void gp_buf_free(gp_buf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

void *gp_push(void *arr, int *n, size_t size)
{
    void **p = arr;
    char *grown = realloc(*p, (size_t)(*n + 1) * size);
    if (!grown)
        return NULL;
    *p = grown;
    memset(grown + (size_t)*n * size, 0, size);
    return grown + (size_t)(*n)++ * size;
}

int gp_reserve(void *arr, size_t *cap, size_t need, size_t size, size_t first)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : first ? first : 1;
    while (c < need)
        c *= 2;
    void **p = arr;
    void *grown = realloc(*p, c * size);
    if (!grown)
        return -1;
    *p = grown;
    *cap = c;
    return 0;
}

int gp_list_has(const char *list, char sep, const char *word)
{
    const char seps[2] = { sep, '\0' };
    size_t n = strlen(word);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, seps);
        if (len == n && strncmp(p, word, n) == 0)
            return 1;
        p += len + (p[len] == sep);
    }
    return 0;
}

int gp_strlist_add(gp_strlist *l, const char *s)
{
    char **v = realloc(l->v, (size_t)(l->n + 1) * sizeof *v);
    if (v)
        l->v = v;                       /* the old block may be gone: keep it */
    char *c = v ? strdup(s) : NULL;
    if (!c)
        return out_of_memory();
    v[l->n++] = c;
    return 0;
}

void gp_strlist_free(gp_strlist *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

void gp_slug(const char *s, char *out, size_t outlen)
{
    size_t n = 0;
    int dash = 0;
    if (!outlen)
        return;
    for (; *s && n + 1 < outlen; ++s) {
        if (isalnum((unsigned char)*s)) {
            if (dash && n > 0 && n + 2 < outlen)
                out[n++] = '-';
            out[n++] = (char)tolower((unsigned char)*s);
            dash = 0;
        } else {
            dash = 1;
        }
    }
    out[n] = '\0';
    if (n == 0)
        snprintf(out, outlen, "unknown-gpu");
}
