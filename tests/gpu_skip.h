/* gpu_skip.h - GPU tests SKIP (by name) where no GPU is visible, except
 * when GEMMPROF_REQUIRE_GPU=1 (the device script sets it): then a missing
 * GPU is a failure, so a GPU test can never pass by skipping on the device. */
#ifndef GP_GPU_SKIP_H
#define GP_GPU_SKIP_H

#include <stdlib.h>
#include <string.h>
#include "gpu/gpu.h"

#define GP_REQUIRE_GPU()                                                    \
    do {                                                                    \
        if (gp_gpu_count() == 0) {                                          \
            const char *req_ = getenv("GEMMPROF_REQUIRE_GPU");              \
            if (req_ && strcmp(req_, "1") == 0)                             \
                fail_msg("no GPU but GEMMPROF_REQUIRE_GPU=1");              \
            skip();                                                         \
        }                                                                   \
    } while (0)

/* Skip with the reason on the line tests/run.sh reads ("SKIP reason: ..."):
 * under GEMMPROF_REQUIRE_GPU=1 the runner fails a skip that
 * tests/allowed-skips.txt does not list, and says this reason. */
#define GP_SKIP_BECAUSE(...)                                                \
    do {                                                                    \
        print_message("SKIP reason: " __VA_ARGS__);                         \
        print_message("\n");                                                \
        skip();                                                             \
    } while (0)

#endif
