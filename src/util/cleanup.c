/* cleanup.c - what an interrupted gemmprof removes: its hidden temp
 * folders and files.  A signal handler may only call async-signal-safe
 * functions, so the paths are copied into a fixed table beforehand, the
 * tree is walked with openat/getdents64/unlinkat (no opendir, no malloc),
 * and the helper program running now (gnuplot writing into the folder) is
 * stopped and reaped before its folder goes. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

#define MAX_PATHS 8
#define MAX_DEPTH 24            /* deeper than any folder gemmprof makes */

static char paths[MAX_PATHS][PATH_MAX];
static volatile sig_atomic_t child_pid;
static pid_t owner;             /* a forked child before exec is not it  */
static const int signals[] = { SIGINT, SIGTERM, SIGHUP };

/* The kernel's getdents64 record (no glibc wrapper before 2.30). */
struct dirent64_raw {
    unsigned long long ino;
    long long off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

/* Remove `name` in `dir`: a file, or a folder and all in it. */
static void remove_at(int dir, const char *name, int depth)
{
    if (unlinkat(dir, name, 0) == 0 || (errno != EISDIR && errno != EPERM) ||
        depth > MAX_DEPTH)
        return;
    int fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    /* entries removed while reading may shift the rest: read again from
     * the start until a pass finds nothing (or it gives up) */
    for (int pass = 0; pass < 8; pass++) {
        char buf[2048] __attribute__((aligned(8)));
        long n;
        int found = 0;
        lseek(fd, 0, SEEK_SET);
        while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
            for (long off = 0; off < n; ) {
                struct dirent64_raw *d = (struct dirent64_raw *)(buf + off);
                off += d->reclen;
                if (strcmp(d->name, ".") != 0 && strcmp(d->name, "..") != 0) {
                    remove_at(fd, d->name, depth + 1);
                    found = 1;
                }
            }
        if (!found)
            break;
    }
    close(fd);
    unlinkat(dir, name, AT_REMOVEDIR);
}

static void on_signal(int sig)
{
    if (getpid() == owner) {
        pid_t c = (pid_t)child_pid;
        if (c > 0) {
            kill(c, SIGTERM);
            waitpid(c, NULL, 0);
        }
        for (int i = 0; i < MAX_PATHS; i++)
            if (paths[i][0])
                remove_at(AT_FDCWD, paths[i], 0);
    }
    /* SA_RESETHAND put the default action back: die of the same signal */
    raise(sig);
}

/* The handlers, once (a fork keeps them); the table belongs to the process
 * that fills it: a forked child starts with an empty one. */
static void install(void)
{
    static int installed;
    if (owner != getpid()) {
        memset(paths, 0, sizeof paths);
        owner = getpid();
    }
    if (installed)
        return;
    installed = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
        sigaddset(&sa.sa_mask, signals[i]);
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction old;
        /* a signal the user's shell ignores (nohup) stays ignored */
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(signals[i], &sa, NULL);
    }
}

/* The table changes with the three signals blocked, so the handler never
 * sees a half-copied path. */
static void block(int how, sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
        sigaddset(&set, signals[i]);
    sigprocmask(how, &set, old);
}

int gp_cleanup_add(const char *path)
{
    if (strlen(path) >= PATH_MAX)
        return -1;
    install();
    sigset_t old;
    block(SIG_BLOCK, &old);
    int i = 0;
    while (i < MAX_PATHS && paths[i][0])
        i++;
    if (i < MAX_PATHS)
        memcpy(paths[i], path, strlen(path) + 1);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return i < MAX_PATHS ? 0 : -1;
}

void gp_cleanup_drop(const char *path)
{
    sigset_t old;
    block(SIG_BLOCK, &old);
    for (int i = 0; i < MAX_PATHS; i++)
        if (strcmp(paths[i], path) == 0) {
            paths[i][0] = '\0';
            break;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
}

void gp_cleanup_child(int pid)
{
    child_pid = pid;
}
