/*
 * fuzz_dyn.c -- libFuzzer target for the dynamic-scenario loader:
 * gb_dynscen_parse() on the raw bytes; the invariants of a loaded
 * scenario and a write/read round trip, or a well-formed diagnostic on
 * failure.  The checks live in fuzz_checks.h (gb_fuzz_dyn), shared with
 * tests/test_fuzz_regressions.c; a failed check prints what failed and
 * traps, so libFuzzer saves the input (see fuzz/README.md).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fuzz_checks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (gb_fuzz_dyn(data, size) != 0) {
        fprintf(stderr, "gb_fuzz_dyn: %s\n", gb_fuzz_msg);
        __builtin_trap();
    }
    return 0;
}
