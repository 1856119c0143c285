/* test_fuzz_replay.c - every input that ever crashed a reader, replayed
 * (tests/fuzz/regressions/TARGET/, one test each), and each target's seed
 * corpus (tests/fuzz/corpus/TARGET/, one test per target), through the same
 * functions the fuzzers call (targets.c).  A crash, a sanitizer report
 * (make SANITIZE=1 test) or a broken round-trip invariant fails it.  CPU
 * only; run from the repository root (make test does). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "targets.h"

#define MAX_CASES 512

typedef struct {
    const gp_fuzz_target *t;
    char path[512];          /* a file, or a folder replayed as a whole */
    char name[640];
} replay_case;

static long replay_file(const gp_fuzz_target *t, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("%s: cannot open", path);
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len == cap) {
            cap = cap ? 2 * cap : 4096;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    t->fn(buf, len);
    free(buf);
    return 1;
}

static int is_input(const struct dirent *e)
{
    return e->d_name[0] != '.' && strcmp(e->d_name, "README") != 0;
}

static void replay(void **state)
{
    const replay_case *c = *state;
    DIR *d = opendir(c->path);
    if (!d) {                        /* one regression input */
        replay_file(c->t, c->path);
        return;
    }
    long n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!is_input(e))
            continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", c->path, e->d_name);
        n += replay_file(c->t, p);
    }
    closedir(d);
    if (n == 0)
        fail_msg("%s: no seed inputs (run from the repository root)", c->path);
}

int main(void)
{
    static replay_case cs[MAX_CASES];
    static struct CMUnitTest t[MAX_CASES];
    int n = 0;
    for (int i = 0; i < gp_fuzz_ntargets; i++) {
        const gp_fuzz_target *tg = &gp_fuzz_targets[i];
        replay_case *c = &cs[n];
        c->t = tg;
        snprintf(c->path, sizeof c->path, "tests/fuzz/corpus/%s", tg->name);
        snprintf(c->name, sizeof c->name, "fuzz/%s/seed_corpus", tg->name);
        t[n] = (struct CMUnitTest){ c->name, replay, NULL, NULL, c };
        n++;
        char dir[256];
        snprintf(dir, sizeof dir, "tests/fuzz/regressions/%s", tg->name);
        struct dirent **list;
        int m = scandir(dir, &list, is_input, alphasort);
        for (int j = 0; j < m; j++) {
            if (n < MAX_CASES) {
                c = &cs[n];
                c->t = tg;
                snprintf(c->path, sizeof c->path, "%s/%s", dir, list[j]->d_name);
                snprintf(c->name, sizeof c->name, "fuzz/%s/regression/%s", tg->name,
                         list[j]->d_name);
                t[n] = (struct CMUnitTest){ c->name, replay, NULL, NULL, c };
                n++;
            }
            free(list[j]);
        }
        if (m > 0)
            free(list);
    }
    return _cmocka_run_group_tests("fuzz_replay", t, (size_t)n, NULL, NULL);
}
