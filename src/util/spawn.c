/* spawn.c - running a helper program (gnuplot, pdfunite, groff) by fork
 * and execv, never through a shell (paths come from the user and the data
 * files), with its output in a log file and its last line as the message
 * on failure. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

/* The line gnuplot ended on: its error message. */
static void last_line(const char *file, char *out, size_t len)
{
    out[0] = '\0';
    FILE *f = fopen(file, "r");
    if (!f)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[strspn(line, " \t^")] != '\0')
            gp_fmt(out, len, "%s", line);
    }
    fclose(f);
}

int gp_which(const char *name, char *path, size_t len)
{
    const char *env = getenv("PATH");
    char dirs[8192];
    gp_fmt(dirs, sizeof dirs, "%s", env ? env : "/usr/bin:/bin");
    for (char *save, *dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save))
        if (gp_path_join(path, len, *dir ? dir : ".", name) == 0 && access(path, X_OK) == 0)
            return 0;
    return -1;
}

/* In the child: stdin from /dev/null, stdout to `outfile` (or the log),
 * stderr to the log, then the program; 126 if a file or cwd failed. */
static void child(char *const argv[], const char *cwd, const char *outfile,
                  const char *logfile)
{
    int fd = open(logfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int out = outfile ? open(outfile, O_WRONLY | O_CREAT | O_TRUNC, 0644) : fd;
    int nul = open("/dev/null", O_RDONLY);
    if (fd < 0 || out < 0 || nul < 0 || (cwd && chdir(cwd) != 0))
        _exit(126);
    dup2(nul, 0);
    dup2(out, 1);
    dup2(fd, 2);
    execv(argv[0], argv);
    fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

int gp_spawn(char *const argv[], const char *cwd, const char *logfile,
             char *err, size_t errlen)
{
    return gp_spawn_to(argv, cwd, NULL, logfile, err, errlen);
}

int gp_spawn_to(char *const argv[], const char *cwd, const char *outfile,
                const char *logfile, char *err, size_t errlen)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        gp_fmt(err, errlen, "cannot start %s: %s", argv[0], strerror(errno));
        return -1;
    }
    if (pid == 0)
        child(argv, cwd, outfile, logfile);
    gp_cleanup_child(pid);             /* an interrupt stops it first */
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            gp_fmt(err, errlen, "waiting for %s: %s", argv[0], strerror(errno));
            gp_cleanup_child(0);
            return -1;
        }
    gp_cleanup_child(0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    char msg[512];
    last_line(logfile, msg, sizeof msg);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 126)
        gp_fmt(msg, sizeof msg, "cannot enter %s or write %s%s%s", cwd ? cwd : ".", logfile,
               outfile ? " or " : "", outfile ? outfile : "");
    else if (!msg[0])
        gp_fmt(msg, sizeof msg, "exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    gp_fmt(err, errlen, "%s", msg);
    return 1;
}
