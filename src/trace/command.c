/* command.c - `gemmprof trace ... -- CMD`: check everything, run CMD with
 * the injected library in its environment, wait for it, merge the parts
 * its CUDA processes wrote, and exit with CMD's status. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cupti/profiler.h"
#include "run/run.h"
#include "trace.h"

extern char **environ;

/* Counters are checked against the chip offline, before CMD runs; a
 * machine without CUPTI cannot trace at all (the injected library needs
 * its callbacks), so that is an error too. */
static int check_metrics(const gp_trace_opts *o, char *err, size_t errlen)
{
    const gp_metric_list *list = &o->metric_list;      /* parsed by options.c */
    char msg[2048];
    int rc = gp_profiler_validate(list, NULL, msg, sizeof msg);
    if (rc == GP_PROFILER_NO_CUPTI || rc < 0) {
        snprintf(err, errlen, "%s%s", rc < 0 ? "" : "trace needs CUPTI: ", msg);
        return -1;
    }
    if (gp_metric_list_recordable(list, msg, sizeof msg) != 0) {
        snprintf(err, errlen, "--metrics: %s", msg);
        return -1;
    }
    return 0;
}

/* A private folder beside the run file: the parts survive there, named,
 * if gemmprof itself dies. */
static int make_parts_dir(const char *out, char *dir, size_t n, char *err, size_t errlen)
{
    char tmpl[PATH_MAX];
    if (snprintf(tmpl, sizeof tmpl, "%s.parts-XXXXXX", out) >= (int)sizeof tmpl) {
        gp_fmt(err, errlen, "%s: path too long", out);
        return -1;
    }
    char abs[PATH_MAX];
    if (!mkdtemp(tmpl) || !realpath(tmpl, abs) || strlen(abs) >= n) {
        gp_fmt(err, errlen, "cannot create a folder for the parts next to %s: %s",
               out, strerror(errno));
        return -1;
    }
    strcpy(dir, abs);
    return 0;
}

/* fork + execvp with CMD's environment.  An exec failure comes back through
 * a close-on-exec pipe, so "no such command" is gemmprof's one-line error,
 * not a shell's.  Returns the pid, or -1 with err. */
static pid_t start(const gp_trace_opts *o, char **env, char *err, size_t errlen)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        signal(SIGINT, SIG_DFL);
        signal(SIGQUIT, SIG_DFL);
        environ = env;
        execvp(o->cmd[0], o->cmd);
        int e = errno;
        if (write(fds[1], &e, sizeof e) < 0)
            _exit(127);
        _exit(127);
    }
    close(fds[1]);
    int e = 0;
    ssize_t got;
    while ((got = read(fds[0], &e, sizeof e)) < 0 && errno == EINTR)
        ;
    close(fds[0]);
    if (got == (ssize_t)sizeof e) {
        waitpid(pid, NULL, 0);
        snprintf(err, errlen, "%s: %s", o->cmd[0], strerror(e));
        return -1;
    }
    return pid;
}

/* CMD's exit status as a shell gives it: the code, or 128+N for signal N. */
static int wait_for(pid_t pid, int *signo)
{
    int status;
    *signo = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 2;
    if (WIFSIGNALED(status)) {
        *signo = WTERMSIG(status);
        return 128 + *signo;
    }
    return WEXITSTATUS(status);
}

static void report(const gp_trace_opts *o, const char *out,
                   const gp_trace_merge_result *res)
{
    if (res->refused[0])
        gp_warn("hardware counters unavailable, rows carry NA counters: %s", res->refused);
    if (res->warning[0])
        gp_warn("%s", res->warning);
    if (res->parts > 0 && res->rows == 0)
        gp_warn("no kernel launch %s in %d CUDA process%s", o->nvtx_include ?
                "matched --kernel-regex inside --nvtx-include's range" : o->kernel_regex ?
                "matched --kernel-regex" : "was traced", res->parts,
                res->parts == 1 ? "" : "es");
    else if (res->rows > res->timed)
        gp_warn("%d of %d rows have no Activity API duration (time_ms NA)",
                res->rows - res->timed, res->rows);
    if (res->tensor_missing > 0)
        gp_warn("%d of %d rows ran tensor-core math in their one profiled launch and were "
                "not launched again: their tensor-path counters and flop_count are NA "
                "(--tensor-counters always takes them on the first launch)",
                res->tensor_missing, res->rows);
    if (res->counter_timed > 0)
        gp_warn("%d of %d rows: CUPTI gave their profiled launches no Activity "
                "duration; time_ms is the profiler's gpu__time_duration.sum",
                res->counter_timed, res->rows);
    if (!o->quiet && res->parts > 0)
        fprintf(stderr, "gemmprof: trace: %d row%s (%ld launch%s, %ld from CUDA graphs) "
                "from %d CUDA process%s in %s\n", res->rows, res->rows == 1 ? "" : "s",
                res->launches, res->launches == 1 ? "" : "es", res->graph_launches,
                res->parts, res->parts == 1 ? "" : "es", out);
    char err[1024];                              /* where the time went: the top 10 */
    if (!o->quiet && res->rows > 0 && gp_hotspots_print_file(stderr, out, NULL, 10, err,
                                                             sizeof err) != 0)
        gp_warn("%s", err);
}

static int merge_into(const gp_trace_opts *o, const char *dir, const char *out,
                      int argc, char **argv, gp_trace_merge_result *res)
{
    char err[1024];
    gp_trace_merge_opts mo = { .per_launch = o->per_launch, .argc = argc, .argv = argv,
                               .metrics = o->metrics, .o = o->merge_dir ? NULL : o };
    if (gp_trace_merge(dir, &mo, out, res, err, sizeof err) != 0) {
        gp_error("%s (the parts are kept in %s; gemmprof trace --merge %s merges them)",
                 err, dir, dir);
        return -1;
    }
    report(o, out, res);
    return 0;
}

static int merge_only(const gp_trace_opts *o, int argc, char **argv)
{
    char out[PATH_MAX], err[1024];
    gp_trace_merge_result res;
    if (gp_run_out_path(o->out, out, sizeof out, err, sizeof err) != 0) {
        gp_error("%s", err);
        return 2;
    }
    if (merge_into(o, o->merge_dir, out, argc, argv, &res) != 0)
        return 2;
    if (res.parts == 0) {
        gp_error("%s: no part files (*.csv) to merge", o->merge_dir);
        return 2;
    }
    return 0;
}

/* Everything before CMD starts: the metrics, the library, the output. */
static int prepare(const gp_trace_opts *o, char *lib, char *out, char *dir, size_t n)
{
    char err[2560], exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[len > 0 ? len : 0] = '\0';
    if (check_metrics(o, err, sizeof err) != 0 ||
        gp_trace_find_lib(len > 0 ? exe : NULL, lib, n, err, sizeof err) != 0 ||
        gp_run_out_path(o->out, out, n, err, sizeof err) != 0 ||
        make_parts_dir(out, dir, n, err, sizeof err) != 0) {
        gp_error("%s", err);
        return -1;
    }
    return 0;
}

static int run_traced(const gp_trace_opts *o, int argc, char **argv)
{
    char lib[PATH_MAX], out[PATH_MAX], dir[PATH_MAX], err[1024];
    if (prepare(o, lib, out, dir, sizeof lib) != 0)
        return 2;
    gp_strlist env = { 0 };
    if (gp_trace_env(o, environ, lib, dir, &env, err, sizeof err) != 0) {
        gp_error("%s", err);
        gp_rm_rf(dir);
        return 2;
    }
    char **envp = calloc((size_t)env.n + 1, sizeof *envp);
    if (!envp) {
        gp_error("out of memory");
        gp_strlist_free(&env);
        gp_rm_rf(dir);
        return 2;
    }
    memcpy(envp, env.v, (size_t)env.n * sizeof *envp);
    /* Like a shell running a job: ^C and ^\ go to CMD; gemmprof stays to
     * merge what was measured. */
    struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    pid_t pid = start(o, envp, err, sizeof err);
    int signo = 0, status = pid < 0 ? 2 : wait_for(pid, &signo);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    free(envp);
    gp_strlist_free(&env);
    if (pid < 0) {
        gp_error("%s", err);
        gp_rm_rf(dir);
        return 2;
    }
    gp_trace_merge_result res;
    if (merge_into(o, dir, out, argc, argv, &res) != 0)
        return 2;
    gp_rm_rf(dir);
    if (signo)
        gp_error("%s was killed by signal %d (%s); the %d row%s measured before are in %s",
                 o->cmd[0], signo, strsignal(signo), res.rows, res.rows == 1 ? "" : "s",
                 res.parts ? out : "no file");
    if (res.parts == 0) {
        gp_error("%s is not a CUDA program: no process it ran created a CUDA context "
                 "(or none could: no GPU?), nothing to profile", o->cmd[0]);
        return status ? status : 2;
    }
    return status;
}

int gp_cmd_trace(int argc, char **argv)
{
    gp_trace_opts o;
    char err[1024];
    if (gp_trace_parse(argc, argv, &o, err, sizeof err) != 0) {
        gp_error("trace: %s", err);
        return 2;
    }
    int rc = gp_opts_answer(o.help, o.version, gp_trace_usage, "trace", argc, argv,
                            o.merge_dir ? "merge the part files of --merge DIR" :
                            "run CMD with its kernel launches profiled");
    if (rc >= 0)
        return rc;
    return o.merge_dir ? merge_only(&o, argc, argv) : run_traced(&o, argc, argv);
}
