/*
 * test_layers.c -- scripts/check-layers.sh on small trees made here: an
 * include that points back, and two files that call each other (the
 * circle the executor and the oracle once were), fail it; the same trees
 * without them pass.
 */
#include "gb_test.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A tree under d: harness/{core,run}/ and solvers/ with the given sources,
 * compiled into d/build/ like the Makefile's objects. */
static void make_tree(const char *d, const char *run_a, const char *run_b)
{
    char out[4096];
    int rc = gb_test_sh(
        out, sizeof out,
        "cd %s && mkdir -p harness/core harness/run solvers build/harness/run build/solvers && "
        "printf 'int core_f(void);\\n' > harness/core/gb_c.h && "
        "printf '#include \"gb_c.h\"\\nint core_f(void) { return 1; }\\n' > harness/core/gb_c.c && "
        "printf '%%s' '%s' > harness/run/gb_a.c && printf '%%s' '%s' > harness/run/gb_b.c && "
        "printf 'int s_f(void) { return 2; }\\n' > solvers/gb_s.c && "
        "for f in harness/run/gb_a harness/run/gb_b solvers/gb_s; do "
        "cc -c -Iharness/core $f.c -o build/$f.o || exit 1; done",
        d, run_a, run_b);
    cr_assert_eq(rc, 0, "%s", out);
}

GB_TEST(layers, two_files_that_call_each_other_fail_the_check)
{
    GB_TEST_SCRIPT_ONLY();
    char d[] = "/tmp/gblayers.XXXXXX", out[4096], root[256];
    cr_assert_not_null(mkdtemp(d));
    cr_assert_not_null(getcwd(root, sizeof root));
    make_tree(d, "int b_f(void);\nint a_f(void) { return b_f(); }\n",
              "int a_f(void);\nint b_f(void) { return 0; }\nint b_g(void) { return a_f(); }\n");
    int rc = gb_test_sh(out, sizeof out, "%s/scripts/check-layers.sh %s %s/build", root, d, d);
    cr_expect_eq(rc, 1, "%s", out);
    cr_expect(strstr(out, "calls: a circle of 2 files: ") != NULL
                  && strstr(out, "harness/run/gb_a.c") != NULL
                  && strstr(out, "harness/run/gb_b.c") != NULL,
              "%s", out);
    /* one way only: a calls b, b calls nothing of a */
    gb_test_sh(NULL, 0, "rm -rf %s/harness %s/build %s/solvers", d, d, d);
    make_tree(d, "int b_f(void);\nint a_f(void) { return b_f(); }\n", "int b_f(void) { return 0; }\n");
    rc = gb_test_sh(out, sizeof out, "%s/scripts/check-layers.sh %s %s/build", root, d, d);
    cr_expect_eq(rc, 0, "%s", out);
    cr_expect(strstr(out, "no two files call each other") != NULL, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}

GB_TEST(layers, an_include_that_points_back_fails_the_check)
{
    GB_TEST_SCRIPT_ONLY();
    char d[] = "/tmp/gblayers.XXXXXX", out[4096], root[256];
    cr_assert_not_null(mkdtemp(d));
    cr_assert_not_null(getcwd(root, sizeof root));
    make_tree(d, "int a_f(void) { return 0; }\n", "int b_f(void) { return 0; }\n");
    int rc = gb_test_sh(
        out, sizeof out,
        "cd %s && printf 'int a_f(void);\\n' > harness/run/gb_a.h && "
        "printf '#include \"gb_a.h\"\\n' >> harness/core/gb_c.c && %s/scripts/check-layers.sh %s",
        d, root, d);
    cr_expect_eq(rc, 1, "%s", out);
    cr_expect(
        strstr(out, "harness/core/gb_c.c:3: includes gb_a.h of harness/run, a stage after harness/core")
            != NULL,
        "%s", out);
    gb_test_sh(NULL, 0, "rm -rf '%s'", d);
}
