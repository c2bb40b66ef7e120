/*
 * gb_test_lsan.c -- LeakSanitizer's defaults for the test binary, in a
 * sanitizer build only (make check).
 *
 * Every test looks for leaks itself, at its end, in the process that ran
 * it (gb_test_leak_check in gb_test.h), and the leak self-test (make
 * check-leak) proves that a leaking test fails.  What is left for the
 * check at exit is the runner's own process, which runs no project code:
 * Criterion's main.  In a full `make check` it once reported 48 bytes of
 * Criterion's state (one calloc inside libcriterion.so.3) with all 533
 * tests passed, and its exit status failed the run.  So this binary turns
 * the check at exit off.  The gridbench binaries the tests start are
 * linked apart and keep theirs: a leak in a command still fails its test.
 * LSAN_OPTIONS in the environment overrides this default.
 */
#include "gb_test.h"

#ifdef GB_TEST_LSAN
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
    return "leak_check_at_exit=0";
}
#endif
