/* key.c - series keys and which rows count (key.h). */
#include <string.h>

#include "util/util.h"
#include "key.h"

int gp_row_usable(const gp_row *r)
{
    if (r->verified == 0)
        return 0;
    return r->status[0] == '\0' || strcmp(r->status, "ok") == 0;
}

int gp_name_is_cublas(const char *kernel)
{
    return strncmp(kernel, "cublas", 6) == 0;
}

int gp_row_is_cublas(const gp_row *r)
{
    return gp_name_is_cublas(r->kernel);
}

/* Length of the part of a config that names its series: all of it, or a
 * size-dispatched kernel's policy, up to the last ':' (its tile after). */
static size_t series_len(const char *config)
{
    const char *last = strrchr(config, ':');
    return last ? (size_t)(last - config) : strlen(config);
}

static int same_series_config(const char *a, const char *b)
{
    size_t n = series_len(a);
    return n == series_len(b) && strncmp(a, b, n) == 0 &&
           (strchr(a, ':') != NULL) == (strchr(b, ':') != NULL);
}

int gp_key_match(const gp_key *k, const gp_row *r, int by_config)
{
    if (strcmp(k->kernel, r->kernel) != 0 || strcmp(k->precision, r->precision) != 0)
        return 0;
    return by_config ? strcmp(k->config, r->config) == 0
                     : same_series_config(k->config, r->config);
}

int gp_key_same_series(const gp_key *a, const gp_key *b)
{
    return strcmp(a->kernel, b->kernel) == 0 && strcmp(a->precision, b->precision) == 0 &&
           same_series_config(a->config, b->config);
}

void gp_series_config(const char *config, char *out, size_t len)
{
    if (strchr(config, ':'))
        gp_fmt(out, len, "%.*s:*", (int)series_len(config), config);
    else
        gp_fmt(out, len, "%s", config[0] ? config : "-");
}

void gp_config_short(const char *config, char *out, size_t len)
{
    const char *last = strrchr(config, ':');
    if (!last)
        gp_fmt(out, len, "%s", config);
    else
        gp_fmt(out, len, "%s (%.*s)", last + 1, (int)strcspn(config, ":"), config);
}

static const char *key_kernel(const void *k, int j)
{
    return ((const gp_key *)k)[j].kernel;
}

void gp_series_name(const gp_key *k, int n, int i, int with_config, char *out, size_t len)
{
    char label[128], cfg[96], word[84];
    gp_kernel_label(k[i].kernel, label, sizeof label);
    gp_kernel_tell_apart(key_kernel, k, n, i, word, sizeof word);
    gp_series_config(k[i].config, cfg, sizeof cfg);
    if (with_config && k[i].config[0])
        gp_fmt(out, len, "%s%s[%s]", label, word, cfg);
    else
        gp_fmt(out, len, "%s%s", label, word);
}

void gp_series_label(const gp_key *k, int n, int i, int with_config, int max, char *out,
                     size_t len)
{
    char shortn[128], word[84];
    gp_kernel_tell_apart(key_kernel, k, n, i, word, sizeof word);
    int room = max - (int)strlen(word);
    gp_short_name(k[i].kernel, shortn, sizeof shortn, room > 8 ? room : 8);
    gp_fmt(shortn + strlen(shortn), sizeof shortn - strlen(shortn), "%s", word);
    const char *config = k[i].config;
    size_t policy = strcspn(config, ":");
    if (!with_config || !config[0])
        gp_fmt(out, len, "%s", shortn);
    else if (config[policy])
        gp_fmt(out, len, "%s[%.*s]", shortn, (int)policy, config);
    else if (strlen(config) > 20)
        gp_fmt(out, len, "%s[%.17s...]", shortn, config);
    else
        gp_fmt(out, len, "%s[%s]", shortn, config);
}

int gp_key_kernel_twice(const gp_key *k, int n, int i)
{
    for (int j = 0; j < n; j++)
        if (j != i && strcmp(k[i].kernel, k[j].kernel) == 0 &&
            strcmp(k[i].precision, k[j].precision) == 0)
            return 1;
    return 0;
}

void gp_short_name(const char *kernel, char *out, size_t len, int max)
{
    char label[256];   /* "void ns::gemm<float, 128>(float const*)" -> "ns::gemm<float, 128>" */
    gp_kernel_label(kernel, label, sizeof label);
    int n = (int)strlen(label);
    if (max > 3 && n > max)
        gp_fmt(out, len, "%.*s...", max - 3, label);
    else
        gp_fmt(out, len, "%s", label);
}
