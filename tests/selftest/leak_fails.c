/*
 * leak_fails.c -- proof that GB_TEST fails a leaking test (make check).
 *
 * Built only in the sanitizer build; `make check` runs it and requires it
 * to report exactly one failing test (the leak) and one passing test (the
 * same allocation, freed).  If LeakSanitizer stopped failing tests, this
 * binary would pass and `make check` would stop with an error.
 */
#include <stdlib.h>

#include "../gb_test.h"

static void *volatile sink;

GB_TEST(leakcheck, leaking_test_fails)
{
    void *p = malloc(100);
    cr_assert_not_null(p);
    sink = p;
    sink = NULL;   /* the only pointer is gone: a leak */
}

GB_TEST(leakcheck, freed_allocation_passes)
{
    void *p = malloc(100);
    cr_assert_not_null(p);
    free(p);
}
