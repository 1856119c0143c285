/* guard.c - when the injected library keeps out of the application: in a
 * forked child, and once the process has begun to exit.  Also the files it
 * writes, so a child or an exec'd program never sees them.  Nothing here
 * takes a lock: the fork handler runs where another thread may have held
 * any lock at the moment of fork. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <unistd.h>

#include "inject.h"

#define MAX_FILES 8                     /* the part and times files, so far */

static pid_t owner = -1;                /* the process that loaded us */
static atomic_int forked = 1;           /* until guard_init: keep out */
static atomic_int stopped;
static atomic_int fds[MAX_FILES] = { -1, -1, -1, -1, -1, -1, -1, -1 };

/* In the child, right after fork: only async-signal-safe calls.  The
 * parent's files become /dev/null here (the parent's stay as they are):
 * the child's exit() flushes any stdio buffer it copied into nothing. */
static void in_child(void)
{
    atomic_store(&forked, 1);
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    for (int i = 0; null >= 0 && i < MAX_FILES; i++) {
        int fd = atomic_load(&fds[i]);
        if (fd >= 0)
            dup3(null, fd, O_CLOEXEC);
    }
    if (null >= 0)
        close(null);
}

int gp_inject_guard_init(void)
{
    owner = getpid();
    if (pthread_atfork(NULL, NULL, in_child) != 0)
        return -1;
    atomic_store(&forked, 0);
    return 0;
}

int gp_inject_forked(void)
{
    return atomic_load(&forked) || getpid() != owner;
}

void gp_inject_stop(void)
{
    atomic_store(&stopped, 1);
}

int gp_inject_idle(void)
{
    return atomic_load_explicit(&stopped, memory_order_relaxed) ||
           atomic_load_explicit(&forked, memory_order_relaxed);
}

FILE *gp_inject_fopen(const char *path)
{
    FILE *f = fopen(path, "we");        /* "e": O_CLOEXEC */
    if (!f)
        return NULL;
    for (int i = 0; i < MAX_FILES; i++) {
        int none = -1;
        if (atomic_compare_exchange_strong(&fds[i], &none, fileno(f)))
            return f;
    }
    fclose(f);                          /* a child could write it: refuse */
    errno = EMFILE;
    return NULL;
}

int gp_inject_fclose(FILE *f)
{
    int fd = fileno(f);
    for (int i = 0; i < MAX_FILES; i++) {
        int mine = fd;                  /* its number may be reused after */
        atomic_compare_exchange_strong(&fds[i], &mine, -1);
    }
    return fclose(f);
}
