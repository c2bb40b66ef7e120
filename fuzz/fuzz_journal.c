/*
 * fuzz_journal.c -- libFuzzer target for the run journal
 * (harness/io/gb_journal.c): the bytes are an interrupted run's
 * FILE.partial, resumed; a refused journal must stay untouched, a resumed
 * one be cut to its complete queries and read back what is appended to
 * it.  The checks live in fuzz_checks.h (gb_fuzz_journal), shared with
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
    if (gb_fuzz_journal(data, size) != 0) {
        fprintf(stderr, "gb_fuzz_journal: %s\n", gb_fuzz_msg);
        __builtin_trap();
    }
    return 0;
}
