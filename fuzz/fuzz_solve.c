/*
 * fuzz_solve.c -- libFuzzer target for the solvers: a small grid and
 * queries decoded from the bytes; every solver on every queue, each path
 * validated and compared with Dijkstra, Dijkstra with an independent
 * reference.
 * The checks live in fuzz_checks.h (gb_fuzz_solve), shared with
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
    if (gb_fuzz_solve(data, size) != 0) {
        fprintf(stderr, "gb_fuzz_solve: %s\n", gb_fuzz_msg);
        __builtin_trap();
    }
    return 0;
}
