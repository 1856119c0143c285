/* escape.c - text on its way into groff, Markdown, LaTeX or a file name.
 * Strings from data files (kernel names, statuses, metadata, file names)
 * are whatever the file said: a newline in a kernel name would start a
 * groff request, a '|' would split a table cell, a '/' would leave the
 * folder.  One function per target, called where the text is written. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

/* A control character (newline, tab, escape, DEL) as it is written out:
 * a space, so a row stays on its line. */
static int plain(char c)
{
    unsigned char u = (unsigned char)c;
    return u < 0x20 || u == 0x7f ? ' ' : c;
}

/* groff reads '.' and '\'' at a line start as a request; tbl reads a cell
 * of "_" or "=" as a rule and "T{" / "T}" as a text block's ends. */
static int roff_special_start(const char *s)
{
    return *s == '.' || *s == '\'' || *s == '_' || *s == '=' ||
           (s[0] == 'T' && (s[1] == '{' || s[1] == '}'));
}

void gp_esc_roff(FILE *f, const char *s)
{
    if (roff_special_start(s))
        fputs("\\&", f);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '|')
            fputc('/', f);
        else
            fputc(plain(*s), f);
    }
}

/* CommonMark: '_' opens or closes emphasis only next to a non-word
 * character; inside a word (cublas_fp64) it is plain and stays as it is. */
static int md_underscore_plain(const char *start, const char *p)
{
    return p > start && isalnum((unsigned char)p[-1]) && isalnum((unsigned char)p[1]);
}

void gp_esc_markdown(FILE *f, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (strchr("\\|`*<[]", *p) || (*p == '_' && !md_underscore_plain(s, p)))
            fputc('\\', f);
        fputc(plain(*p), f);
    }
}

static void put_str(char *out, size_t outlen, size_t *o, const char *rep)
{
    size_t n = strlen(rep);
    if (*o + n < outlen) {
        memcpy(out + *o, rep, n);
        *o += n;
    }
}

void gp_esc_latex(const char *in, char *out, size_t outlen)
{
    size_t o = 0;
    if (!outlen)
        return;
    for (const char *p = in; *p && o + 1 < outlen; p++) {
        char c = (char)plain(*p);
        switch (c) {
        case '\\': put_str(out, outlen, &o, "\\textbackslash{}"); break;
        case '~':  put_str(out, outlen, &o, "\\textasciitilde{}"); break;
        case '^':  put_str(out, outlen, &o, "\\textasciicircum{}"); break;
        case '_': case '%': case '&': case '#': case '$': case '{': case '}':
            put_str(out, outlen, &o, (char[]){ '\\', c, 0 });
            break;
        default:
            out[o++] = c;
        }
    }
    out[o] = '\0';
}

void gp_file_word(const char *in, char *out, size_t outlen)
{
    size_t o = 0;
    if (!outlen)
        return;
    for (; in[o] && o + 1 < outlen; o++) {
        char c = in[o];
        out[o] = isalnum((unsigned char)c) && (unsigned char)c < 0x80 ? c
               : c == '_' || c == '-' || (c == '.' && o > 0) ? c : '_';
    }
    if (o == 0 && outlen > 1)
        out[o++] = '_';
    out[o] = '\0';
}
