/*
 * gb_test.h -- GB_TEST: a Criterion test that also fails on a memory leak.
 *
 * Criterion runs each test in a worker process and reports the result
 * before the worker exits, so LeakSanitizer's report at exit (and its exit
 * status) comes too late to fail anything: a leaking test passes.  GB_TEST
 * wraps the body (a separate function, never inlined, so its locals are
 * gone when it returns): after it returns, a sanitizer build asks
 * LeakSanitizer for a recoverable leak check and fails the test when the
 * check finds unreachable memory (the report above the failure names the
 * allocation).  A body that fails an assertion never returns here: it has
 * failed already.  In a build without the sanitizer the check is a no-op.
 *
 *   GB_TEST(suite, name) { ... }
 *   GB_TEST(suite, name, .timeout = 60, .init = setup) { ... }
 *
 * A .fini cannot do this: Criterion ignores assertions and even crashes
 * in a test's teardown (it prints a warning and counts the test passing).
 */
#ifndef GB_TEST_H
#define GB_TEST_H

#include <criterion/criterion.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define GB_TEST_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GB_TEST_LSAN 1
#endif
#endif

#ifdef GB_TEST_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#if defined(__GNUC__) || defined(__clang__)
#define GB_TEST_NOINLINE __attribute__((noinline))
#else
#define GB_TEST_NOINLINE
#endif

/* Overwrite the stack below the caller and the scratch registers, so that
 * a dead pointer the body left there does not hide its leak (LeakSanitizer
 * scans stacks and registers conservatively).  gb_test_leak_check, a
 * macro, calls it from the caller's own frame, so that GB_TEST's scrub
 * starts where the body's frame did, and the pad has no AddressSanitizer
 * redzones, which it would never write: at -O0 a dead local of the body
 * survived in either gap and hid the leak of the self-test
 * (tests/selftest/leak_fails.c). */
static GB_TEST_NOINLINE __attribute__((unused, no_sanitize("address"))) void gb_test_scrub(void)
{
    volatile unsigned char pad[1 << 16];
    for (size_t i = 0; i < sizeof pad; i++) pad[i] = 0;
}

/* Fail the running test when LeakSanitizer finds leaked memory now.  A
 * macro, not a function, so that the scrub runs one frame below the
 * caller's, never deeper. */
#ifdef GB_TEST_LSAN
#define gb_test_leak_check()                                                        \
    do {                                                                            \
        gb_test_scrub();                                                            \
        if (__lsan_do_recoverable_leak_check() != 0)                                \
            cr_assert_fail("LeakSanitizer: the test leaked memory (report above)"); \
    } while (0)
#else
#define gb_test_leak_check() ((void)0)
#endif

/* `.disabled = 0` (the default) gives Test() at least one option. */
#define GB_TEST(...) GB_TEST_(__VA_ARGS__, .disabled = 0)
#define GB_TEST_(suite, name, ...)                                    \
    static GB_TEST_NOINLINE void gb_test_body_##suite##_##name(void); \
    Test(suite, name, __VA_ARGS__)                                    \
    {                                                                 \
        gb_test_body_##suite##_##name();                              \
        gb_test_leak_check();                                         \
    }                                                                 \
    static void gb_test_body_##suite##_##name(void)

/* A sed expression that drops the timing columns of a `gridbench run` CSV
 * (header included), counted from the end: time_ns and time_cold_ns
 * (16th and 15th), prep_ns (12th), solver_time_ns (10th), first20_ns and
 * max_call_ns (5th, 4th) and prepare_ns (the last); reps, mem_bytes,
 * time_source, cost_model, euclid_lb, lb_ratio, regime, calls and
 * storage_bytes stay.  Rows equal after it are the same answers. */
#define GB_MASK_TIMES \
    "s/,[^,]*,[^,]*\\(,[^,]*,[^,]*\\),[^,]*\\(,[^,]*\\),[^,]*\\(,[^,]*,[^,]*,[^,]*,[^,]*\\)" \
    ",[^,]*,[^,]*\\(,[^,]*,[^,]*\\),[^,]*$/\\1\\2\\3\\4/"

/* ---- helpers the CLI-level tests share --------------------------------- */

/* The full proofs (GB_TEST_FULL=1: `make test-full`, which CI runs) or
 * their sample (`make test`, minutes instead of many): tests that sweep
 * every query of a real map or every allocation of a process take every
 * k-th one unless this is 1. */
static inline int gb_test_full(void)
{
    const char *fe = getenv("GB_TEST_FULL");
    return fe && *fe && strcmp(fe, "0") != 0;
}

/* Three tiers of the heavy sweeps: the full proof (GB_TEST_FULL=1, `make
 * test-full` in CI), the sample of `make test`, and a thinner sample in a
 * sanitizer build (`make check`), where every process start and every
 * search costs several times more and what is sought -- a memory error,
 * undefined behaviour, a leak -- shows on the first query that takes a
 * path, not on the thousandth that takes it again.  The plain build has
 * already checked the sample's answers; check-cli runs every solver on
 * every queue of every shared file under the sanitizers besides.
 * GB_TEST_PICK(full, plain, san) is the value of the running tier. */
static inline int gb_test_san(void)
{
#ifdef GB_TEST_LSAN
    return !gb_test_full();
#else
    return 0;
#endif
}
#define GB_TEST_PICK(full, plain, san) (gb_test_full() ? (full) : gb_test_san() ? (san) : (plain))

/* Prefix of a `gridbench gppc build` into the suite's cache: tests that
 * build the same entry run side by side (two Criterion workers), and
 * without the lock both would compile it (seconds of c++ each); with it
 * the second finds the first's build in the cache. */
#define GB_TEST_GPPC_LOCK "flock \"${XDG_CACHE_HOME:-/tmp}/gb-test-gppc.lock\" "

/* A test of a shell script's own logic (datasets/fetch.sh, the scripts/ folder)
 * is skipped in a sanitizer build: the sanitizers see compiled code only,
 * and each such test starts dozens of processes (curl, zip, sh) under
 * make check for nothing.  The first statement of such a test. */
#define GB_TEST_SCRIPT_ONLY()                                                                   \
    do {                                                                                        \
        if (gb_test_san()) cr_skip_test("a script's logic: make test runs it, not make check"); \
    } while (0)

/* The end-to-end runs of a whole script (scripts/report.sh with gnuplot,
 * a browser) take a minute each on 2 cores: `make test` leaves them to
 * `make test-full` (its FULL_FILTERS name them), keeping one of them
 * (report_e2e::report_script_on_tiny_dataset) as the smoke test, so that
 * the quick loop stays in minutes.  The first statement of such a test. */
#define GB_TEST_E2E()                                                              \
    do {                                                                         \
        if (!gb_test_full()) cr_skip_test("end to end: runs under make test-full"); \
    } while (0)

/* The gridbench binary under test ($GB_BIN, set by `make test`); skips the
 * test when it is not set. */
static __attribute__((unused)) const char *gb_test_bin(void)
{
    const char *b = getenv("GB_BIN");
    if (!b || !*b) cr_skip_test("GB_BIN not set (run through make test)");
    return b;
}

/* Run a shell command (printf-style), stdout and stderr together; the
 * first n-1 bytes of its output go to out (NUL-terminated; out may be
 * NULL).  Returns its exit status, 128 when it did not exit normally. */
static int gb_test_sh(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4), unused));
static int gb_test_sh(char *out, size_t n, const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    cr_assert(w > 0 && (size_t)w < sizeof cmd, "command too long");
    char full[4200];
    snprintf(full, sizeof full, "(%s) 2>&1", cmd);
    FILE *p = popen(full, "r");
    cr_assert_not_null(p);
    size_t len = 0;
    if (out && n) {
        len = fread(out, 1, n - 1, p);
        out[len] = '\0';
    }
    char sink[4096];
    while (fread(sink, 1, sizeof sink, p) > 0) {}
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

#endif
