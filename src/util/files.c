/* files.c - files and folders: mkdir -p, rm -rf, copy, move, paths,
 * writing a file whole or not at all. */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

int gp_mkdir_p(const char *path, char *err, size_t errlen)
{
    char p[4096];
    if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p) {
        gp_fmt(err, errlen, "%s: path too long", path);
        return -1;
    }
    for (char *s = p + 1; ; s++) {
        if (*s != '/' && *s != '\0')
            continue;
        char c = *s;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            gp_fmt(err, errlen, "%s: %s", p, strerror(errno));
            return -1;
        }
        *s = c;
        if (c == '\0')
            break;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        gp_fmt(err, errlen, "%s: not a directory", path);
        return -1;
    }
    return 0;
}

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

int gp_rm_rf(const char *path)
{
    return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int gp_copy_file(const char *from, const char *to, char *err, size_t errlen)
{
    FILE *in = fopen(from, "rb");
    if (!in) {
        gp_fmt(err, errlen, "%s: %s", from, strerror(errno));
        return -1;
    }
    FILE *out = fopen(to, "wb");
    if (!out) {
        gp_fmt(err, errlen, "%s: %s", to, strerror(errno));
        fclose(in);
        return -1;
    }
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            break;
    int bad = ferror(in) || ferror(out);
    fclose(in);
    if (fclose(out) != 0 || bad) {
        gp_fmt(err, errlen, "%s: write failed", to);
        unlink(to);
        return -1;
    }
    return 0;
}

/* rename, or copy where the two are on different file systems. */
int gp_move_file(const char *from, const char *to, char *err, size_t errlen)
{
    if (rename(from, to) == 0)
        return 0;
    if (errno != EXDEV) {
        gp_fmt(err, errlen, "%s: %s", to, strerror(errno));
        return -1;
    }
    if (gp_copy_file(from, to, err, errlen) < 0)
        return -1;
    unlink(from);
    return 0;
}

int gp_path_join(char *out, size_t len, const char *dir, const char *base)
{
    int n = snprintf(out, len, "%s/%s", dir, base);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

void gp_path_stem(const char *path, char *out, size_t len)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    gp_fmt(out, len, "%s", b);
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = '\0';
}

FILE *gp_open_in(const char *dir, const char *name, char *path, size_t plen,
                 char *err, size_t errlen)
{
    if (gp_path_join(path, plen, dir, name) < 0) {
        gp_fmt(err, errlen, "%s: path too long", dir);
        return NULL;
    }
    FILE *f = fopen(path, "w");
    if (!f)
        gp_fmt(err, errlen, "%s: %s", path, strerror(errno));
    return f;
}

/* mkstemp makes the file 0600; a data file gets what fopen would give. */
static void usual_mode(int fd)
{
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
}

int gp_write_atomic(const char *path, void (*body)(FILE *, const void *),
                    const void *arg, char *err, size_t errlen)
{
    char dir[4096], tmp[4096], base[256];
    const char *slash = strrchr(path, '/');
    gp_fmt(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    gp_fmt(base, sizeof base, "%s", slash ? slash + 1 : path);
    if (snprintf(tmp, sizeof tmp, "%s/.%s.tmp-XXXXXX", slash == path ? "" : dir, base) >=
        (int)sizeof tmp) {
        gp_fmt(err, errlen, "%s: path too long", path);
        return -1;
    }
    int fd = mkstemp(tmp);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
    if (!f) {
        gp_fmt(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return -1;
    }
    gp_cleanup_add(tmp);                 /* an interrupt leaves no temp file */
    usual_mode(fd);
    body(f, arg);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        gp_fmt(err, errlen, "%s: write failed: %s", path, strerror(errno));
        unlink(tmp);
        gp_cleanup_drop(tmp);
        return -1;
    }
    gp_cleanup_drop(tmp);
    return 0;
}
