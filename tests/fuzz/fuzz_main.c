/* fuzz_main.c - libFuzzer's entry point for one target of targets.c,
 * chosen at build time: -DGP_FUZZ_FN=gp_fuzz_runfile (see `make fuzz`). */
#include "targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return GP_FUZZ_FN(data, size);
}
