/* test_needs.c - which kernels each build lists as runnable or skipped on a
 * GPU of each supported compute capability (src/arch/archs.def: 7.5 to
 * 12.0), and why; the PTX-only builds the lead uses to emulate an A100 or a
 * T4 on an H100; a build with no code for the GPU; --list on a T4.  The
 * expectations are written out by hand from the PTX ISA's target notes, not
 * derived from the code under test.  CPU only. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/registry.h"

/* What `make` builds on a machine without a GPU: every architecture of
 * src/arch/archs.def, its 'a' target too where it has one (sm_90a, for the
 * *_sm90a.cu files), and PTX of the newest. */
static const char *all_arch(void)
{
    static char s[256];
    size_t n = 0;
    int newest = 0;
#define GP_ARCH(cc, specific, ...)                                     \
    n += (size_t)snprintf(s + n, sizeof s - n, "sm_%d ", cc);          \
    if (specific)                                                       \
        n += (size_t)snprintf(s + n, sizeof s - n, "sm_%da ", cc);     \
    newest = cc;
#include "arch/archs.def"
#undef GP_ARCH
    snprintf(s + n, sizeof s - n, "compute_%d", newest);
    return s;
}
#define ALL_ARCH all_arch()

/* The compute capabilities of src/arch/archs.def. */
static const int supported[] = {
#define GP_ARCH(cc, ...) cc,
#include "arch/archs.def"
#undef GP_ARCH
};

typedef struct { const char *kernel, *status; } skip;

#define CP     "skipped: needs sm_80 (cp.async)"
#define DMMA   "skipped: needs sm_80 (FP64 mma.sync m8n8k4)"
#define K16    "skipped: needs sm_90 (FP64 mma.sync m16n8k16)"
#define K8     "skipped: needs sm_90 (FP64 mma.sync m16n8k8)"
#define TF32M  "skipped: needs sm_80 (TF32 mma.sync)"
#define TF32T  "skipped: needs sm_80 (TF32 tensor cores)"
#define WGMMA  "skipped: needs sm_90a (wgmma)"

/* Turing: no cp.async, no TF32 or FP64 MMA, no wgmma. */
static const skip turing[] = {
    {"cp_async", CP}, {"frag_prefetch", CP}, {"swizzle", CP}, {"bk16", CP},
    {"wide_tile", CP}, {"split_tail", CP}, {"subgemm_tail", CP}, {"steady_loop", CP},
    {"dgemm_dmma", DMMA}, {"dgemm_dmma_k16", K16},
    {"dgemm_warptiling", CP}, {"dgemm_dmma_tuned", K16},
    {"dgemm_dmma_interior", K16}, {"dgemm_dmma_k8", K8},
    {"dgemm_dfma_reuse", CP}, {"tf32_mma", TF32M}, {"tf32_wgmma", WGMMA},
    {"tf32_wgmma_rs", WGMMA}, {"tf32_wgmma_mc", WGMMA}, {"tf32_wgmma_persist", WGMMA},
    {"cublas_tf32", TF32T},
    {NULL, NULL},
};
/* Ampere and Ada: all but sm_90's FP64 MMA shapes and wgmma. */
static const skip ampere[] = {
    {"dgemm_dmma_k16", K16}, {"dgemm_dmma_tuned", K16},
    {"dgemm_dmma_interior", K16}, {"dgemm_dmma_k8", K8},
    {"tf32_wgmma", WGMMA}, {"tf32_wgmma_rs", WGMMA}, {"tf32_wgmma_mc", WGMMA},
    {"tf32_wgmma_persist", WGMMA},
    {NULL, NULL},
};
static const skip hopper[] = { {NULL, NULL} };
/* Blackwell: everything but wgmma, which exists on sm_90a alone. */
static const skip blackwell[] = {
    {"tf32_wgmma", WGMMA}, {"tf32_wgmma_rs", WGMMA}, {"tf32_wgmma_mc", WGMMA},
    {"tf32_wgmma_persist", WGMMA},
    {NULL, NULL},
};
/* A compute_75 build JIT-compiled on an H100: only the plain kernels have
 * code; cuBLAS TF32 is cuBLAS's own code and the GPU has TF32. */
static const skip ptx75_on_h100[] = {
    {"cp_async", CP}, {"frag_prefetch", CP}, {"swizzle", CP}, {"bk16", CP},
    {"wide_tile", CP}, {"split_tail", CP}, {"subgemm_tail", CP}, {"steady_loop", CP},
    {"dgemm_dmma", DMMA}, {"dgemm_dmma_k16", K16},
    {"dgemm_warptiling", CP}, {"dgemm_dmma_tuned", K16},
    {"dgemm_dmma_interior", K16}, {"dgemm_dmma_k8", K8},
    {"dgemm_dfma_reuse", CP}, {"tf32_mma", TF32M}, {"tf32_wgmma", WGMMA},
    {"tf32_wgmma_rs", WGMMA}, {"tf32_wgmma_mc", WGMMA}, {"tf32_wgmma_persist", WGMMA},
    {NULL, NULL},
};

static const char *expected(const skip *s, const char *kernel)
{
    for (; s->kernel; s++)
        if (strcmp(s->kernel, kernel) == 0)
            return s->status;
    return NULL;
}

/* Every registered kernel: runnable unless listed, and then with exactly
 * the listed status and a reason containing `why`. */
static void check(const char *build, int cc, const skip *skips, const char *why)
{
    gp_build b;
    char err[256], status[96], reason[160];
    if (gp_build_parse(build, &b, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(gp_build_check_device(&b, cc, err, sizeof err), 0);
    for (const skip *s = skips; s->kernel; s++)
        if (!gp_registry_find(s->kernel))
            fail_msg("fixture names %s, which is not in the kernel table", s->kernel);
    for (int i = 0; i < gp_registry_count(); i++) {
        const gp_kernel *k = gp_registry_get(i);
        const char *want = expected(skips, k->name);
        strcpy(status, "(untouched)");
        strcpy(reason, "(untouched)");
        int ok = gp_registry_can_run(k, cc, &b, status, sizeof status, reason,
                                     sizeof reason);
        if (!want && !ok)
            fail_msg("CC %d, build '%s': %s should run, got '%s' (%s)", cc,
                     build, k->name, status, reason);
        if (want && ok)
            fail_msg("CC %d, build '%s': %s should be '%s', but runs", cc, build,
                     k->name, want);
        if (want && strcmp(status, want) != 0)
            fail_msg("CC %d: %s: got '%s', wanted '%s'", cc, k->name, status, want);
        if (want && !strstr(reason, why))
            fail_msg("CC %d: %s: reason '%s' lacks '%s'", cc, k->name, reason, why);
    }
}

/* What each architecture of src/arch/archs.def skips, and why: written out
 * by hand, one line each, so an architecture added there fails here until
 * its line says what it can run. */
static const struct {
    int cc;
    const skip *skips;
    const char *why;
} per_arch[] = {
    {75, turing, "this GPU is sm_75"},
    {80, ampere, "this GPU is sm_80"},
    {86, ampere, "this GPU is sm_86"},
    {89, ampere, "this GPU is sm_89"},
    {90, hopper, ""},
    {100, blackwell, "this GPU is sm_100"},
    {120, blackwell, "this GPU is sm_120"},
};
enum { N_SUPPORTED = sizeof supported / sizeof supported[0],
       N_PER_ARCH = sizeof per_arch / sizeof per_arch[0] };

static int is_supported(int cc)
{
    for (int i = 0; i < N_SUPPORTED; i++)
        if (supported[i] == cc)
            return 1;
    return 0;
}

/* Turing runs the SIMT ladder; Ampere and Ada all but sm_90's FP64 MMA
 * shapes and wgmma; Hopper everything; Blackwell all but wgmma. */
static void every_supported_arch_runs_what_it_has(void **state)
{
    (void)state;
    for (int i = 0; i < N_SUPPORTED; i++) {
        int j = 0;
        while (j < N_PER_ARCH && per_arch[j].cc != supported[i])
            j++;
        if (j == N_PER_ARCH)
            fail_msg("CC %d is in src/arch/archs.def but has no line in "
                     "per_arch here (what it skips)", supported[i]);
        check(ALL_ARCH, per_arch[j].cc, per_arch[j].skips, per_arch[j].why);
    }
    for (int j = 0; j < N_PER_ARCH; j++)
        if (!is_supported(per_arch[j].cc))
            fail_msg("per_arch names CC %d, which src/arch/archs.def lacks",
                     per_arch[j].cc);
}

static void hopper_build_of_make_on_an_h100(void **state)
{
    (void)state;
    check("sm_90 sm_90a compute_90", 90, hopper, "");
}

/* The lead's emulation of an A100 and a T4 on an H100: PTX only, which the
 * driver compiles for sm_90, so the build, not the GPU, is what lacks the
 * sm_90 code. */
static void ptx_builds_on_hopper_skip_what_they_lack(void **state)
{
    (void)state;
    check("compute_80", 90, ampere,
          "this build runs compute_80 on this GPU (JIT): rebuild with ARCH including sm_90");
    check("compute_75", 90, ptx75_on_h100, "compute_75 on this GPU (JIT)");
    /* sm_80 SASS cannot run on 9.0: the compute_80 PTX is what loads */
    check("sm_80 compute_80", 90, ampere, "compute_80 on this GPU (JIT)");
}

static void a_build_without_code_for_the_gpu_is_refused(void **state)
{
    (void)state;
    gp_build b;
    char err[256];
    assert_int_equal(gp_build_parse("sm_90 sm_90a compute_90", &b, err, sizeof err), 0);
    assert_int_equal(gp_build_check_device(&b, 80, err, sizeof err), -1);
    assert_non_null(strstr(err, "no code for this GPU (compute capability 8.0)"));
    assert_non_null(strstr(err, "make ARCH=sm_80"));
    assert_int_equal(gp_build_parse("sm_80", &b, err, sizeof err), 0);
    assert_int_equal(gp_build_check_device(&b, 70, err, sizeof err), -1);
    assert_non_null(strstr(err, "7.5 and newer"));
}

/* ladder.def's needs column reaches the registry; "all" does not name a kernel. */
static void needs_come_from_the_table_and_names_from_the_list(void **state)
{
    (void)state;
    assert_int_equal(gp_registry_needs(gp_registry_find("naive")), GP_FEAT_NONE);
    assert_int_equal(gp_registry_needs(gp_registry_find("tf32_wgmma")), GP_FEAT_WGMMA);
    assert_int_equal(gp_registry_named("naive, all ,cp_async", "cp_async"), 1);
    assert_int_equal(gp_registry_named("all", "cp_async"), 0);
    assert_int_equal(gp_registry_named("cp_async_x", "cp_async"), 0);
}

/* --list on a T4 with the all-arch build: the skipped rows say so, the
 * reason goes to the notes stream once, naming the kernels. */
static void list_on_turing_says_what_is_skipped(void **state)
{
    (void)state;
    gp_build b;
    char err[256], *text = NULL, *notes = NULL;
    size_t len = 0, nlen = 0;
    assert_int_equal(gp_build_parse(ALL_ARCH, &b, err, sizeof err), 0);
    FILE *f = open_memstream(&text, &len), *n = open_memstream(&notes, &nlen);
    gp_registry_print(f, 75, &b, n);
    fclose(f);
    fclose(n);
    const char *cp = strstr(text, "\ncp_async "), *naive = strstr(text, "\nnaive ");
    assert_non_null(cp);
    assert_non_null(naive);
    char line[512];
    sscanf(cp + 1, "%511[^\n]", line);
    if (!strstr(line, "sm_80 cp.async") || !strstr(line, "skipped"))
        fail_msg("cp_async line: %s", line);
    sscanf(naive + 1, "%511[^\n]", line);
    if (!strstr(line, "  -  ") || !strstr(line, "yes"))
        fail_msg("naive line: %s", line);
    if (strcmp(notes, "gemmprof: skipped here (this GPU is sm_75): cp_async "
               "frag_prefetch swizzle bk16 wide_tile split_tail subgemm_tail steady_loop dgemm_dmma "
               "dgemm_dmma_k16 "
               "dgemm_warptiling dgemm_dmma_tuned dgemm_dmma_interior dgemm_dmma_k8 "
               "dgemm_dfma_reuse tf32_mma tf32_wgmma tf32_wgmma_rs tf32_wgmma_mc "
               "tf32_wgmma_persist cublas_tf32\n") != 0)
        fail_msg("notes: %s", notes);
    free(text);
    free(notes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_supported_arch_runs_what_it_has),
        cmocka_unit_test(hopper_build_of_make_on_an_h100),
        cmocka_unit_test(ptx_builds_on_hopper_skip_what_they_lack),
        cmocka_unit_test(a_build_without_code_for_the_gpu_is_refused),
        cmocka_unit_test(needs_come_from_the_table_and_names_from_the_list),
        cmocka_unit_test(list_on_turing_says_what_is_skipped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
