/* targets.h - the readers of gemmprof's data files as fuzz targets: the
 * same functions run under libFuzzer (fuzz_main.c, `make fuzz`) and replay
 * the committed corpus and every input that ever crashed one of them
 * (test_fuzz_replay.c, part of `make test`). */
#ifndef GP_FUZZ_TARGETS_H
#define GP_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/* Feed one input to a reader.  Returns 0; a reader bug shows up as a crash,
 * a sanitizer report, or an abort() from a broken invariant (the message
 * names it). */
typedef int (*gp_fuzz_fn)(const uint8_t *data, size_t size);

typedef struct {
    const char *name;        /* the corpus folder: tests/fuzz/corpus/NAME */
    gp_fuzz_fn fn;
} gp_fuzz_target;

extern const gp_fuzz_target gp_fuzz_targets[];
extern const int gp_fuzz_ntargets;

/* Each reader's round trip: what it read, written and read back, keeps
 * every string and whole number, and every other number to the writer's
 * precision; written a second time, exactly (targets.c says how close). */
/* Run files (data/csv.c): read, derived numbers filled, round trip. */
int gp_fuzz_runfile(const uint8_t *data, size_t size);
/* Ceilings files (data/ceilings.c): read, look every ceiling up, round trip. */
int gp_fuzz_ceilings(const uint8_t *data, size_t size);
/* Tuning tables (data/tuning.c): read, look sizes up, round trip. */
int gp_fuzz_tuning(const uint8_t *data, size_t size);
/* Dist run files as plot and diff use them: the dataset loader, every
 * chart's data preparation (plot/, gnuplot not run), diff's pairing (on
 * rank and grid among the rest) of the file with itself, which must pair
 * each row with its own copy and find no change, and the run-file round
 * trip of the dist columns. */
int gp_fuzz_dist(const uint8_t *data, size_t size);

#endif
