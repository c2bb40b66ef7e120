/*
 * fuzz_dyn.c -- libFuzzer target for dynamic scenarios:
 * gb_dynscen_parse() on the raw bytes; the invariants of a loaded
 * scenario and a write/read round trip, or a well-formed diagnostic on
 * failure; then a replay of its queries on a small map through D* Lite
 * (gb_dynreplay.h), every plan checked against a reference search.  The
 * checks live in fuzz_checks.h (gb_fuzz_dyn), shared with
 * tests/test_fuzz_regressions.c; a failed check prints what failed and
 * traps, so libFuzzer saves the input (see fuzz/README.md).
 *
 * ASan fills fresh blocks with 0xbe bytes by default: an uninitialised
 * int32 index reads as a negative number, which D* Lite takes for "not
 * queued", and the bug hides.  0x10 bytes read as a huge index that
 * faults at once (issue #26: a fresh gb_dstar never initialised pos[]).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fuzz_checks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__asan_default_options(void);

const char *__asan_default_options(void)
{
    return "malloc_fill_byte=16:max_malloc_fill_size=1048576";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (gb_fuzz_dyn(data, size) != 0) {
        fprintf(stderr, "gb_fuzz_dyn: %s\n", gb_fuzz_msg);
        __builtin_trap();
    }
    return 0;
}
