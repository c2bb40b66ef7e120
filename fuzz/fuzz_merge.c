/*
 * fuzz_merge.c -- libFuzzer target for `gridbench merge`
 * (harness/io/gb_shard.c): the bytes are up to four shards, each a
 * manifest and a CSV, split on "%%" lines, merged into memory.  The
 * checks live in fuzz_checks.h (gb_fuzz_merge), shared with
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
    if (gb_fuzz_merge(data, size) != 0) {
        fprintf(stderr, "gb_fuzz_merge: %s\n", gb_fuzz_msg);
        __builtin_trap();
    }
    return 0;
}
