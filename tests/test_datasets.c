/*
 * test_datasets.c -- datasets/fetch.sh against a local mirror of zip
 * archives served over file://, built at test time with zip(1).
 *
 * Fixture (one temporary directory per test, see fixture()):
 *   src/maps/tiny/{a,b}.map, src/scen/tiny/{a,b}.map.scen  4x4 maps and a
 *       one-query scenario each, the map column a publisher's path
 *       ("maps/tiny/a.map") as in the official files;
 *   mirror/tiny/tiny-map.zip  (the two maps, under maps/tiny/)
 *   mirror/tiny/tiny-scen.zip (the two scenarios, under scen/tiny/);
 *   sets.tsv: "tiny  2  2  tiny/tiny-map.zip tiny/tiny-scen.zip".
 * Every run names its own --table, --lock and --dest, so the repository's
 * datasets/sets.lock and datasets/<set>/ are never touched.
 *
 * What is pinned: a first fetch installs the set flat (maps next to their
 * scenarios, so `gridbench run` resolves them) and writes the archives'
 * SHA-256 to the lock; a second fetch skips, a forced one verifies; an
 * archive that differs from its lock line is refused with the lock's
 * file:line and both hashes, and nothing changes; wrong counts, unknown
 * sets, failed downloads, non-zip archives, clashing names, foreign
 * directories and malformed lines are refused with their exit codes;
 * archives that unpack past their caps (zip bombs, made here with zip and
 * a patched listing) are refused before anything is unpacked.
 */
#include "gb_test.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


static char out[16384];

static int exists(const char *dir, const char *rel)
{
    char p[512];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    return stat(p, &st) == 0;
}

/* The SHA-256 (hex) of dir/rel, into hex[65]. */
static void sha_of(const char *dir, const char *rel, char hex[65])
{
    char buf[256];
    cr_assert_eq(gb_test_sh(buf, sizeof buf, "sha256sum '%s/%s' | cut -c1-64", dir, rel), 0, "%s", buf);
    cr_assert_eq(strlen(buf), 65, "sha256sum printed '%s'", buf);
    memcpy(hex, buf, 64);
    hex[64] = '\0';
}

/* Build the fixture described at the top in a fresh temporary directory
 * and return it (static storage). */
static const char *fixture(void)
{
    GB_TEST_SCRIPT_ONLY();
    if (gb_test_sh(NULL, 0, "command -v zip && command -v unzip && command -v curl") != 0)
        cr_skip_test("zip, unzip or curl missing (scripts/deps.sh installs them)");
    static char d[64];
    snprintf(d, sizeof d, "/tmp/gbds.XXXXXX");
    cr_assert_not_null(mkdtemp(d));
    int rc = gb_test_sh(out, sizeof out,
                "cd %s && mkdir -p src/maps/tiny src/scen/tiny mirror/tiny && "
                "for m in a b; do "
                "  printf 'type octile\\nheight 4\\nwidth 4\\nmap\\n....\\n.@@.\\n....\\n....\\n' "
                "    > src/maps/tiny/$m.map && "
                "  printf 'version 1\\n0\\tmaps/tiny/%%s.map\\t4\\t4\\t0\\t0\\t3\\t0\\t3.00000000\\n' $m "
                "    > src/scen/tiny/$m.map.scen; "
                "done && "
                "(cd src && zip -qr ../mirror/tiny/tiny-map.zip maps && "
                "           zip -qr ../mirror/tiny/tiny-scen.zip scen) && "
                "printf '# a test table\\n\\ntiny\\t2\\t2\\ttiny/tiny-map.zip tiny/tiny-scen.zip\\n' > sets.tsv",
                d);
    cr_assert_eq(rc, 0, "fixture: %s", out);
    return d;
}

/* datasets/fetch.sh with the fixture's mirror, table, lock and dest, then
 * EXTRA (more options and the set names). */
#define FETCH(d, extra) \
    "datasets/fetch.sh --base file://%s/mirror --table %s/sets.tsv --lock %s/sets.lock " \
    "--dest %s/dest " extra, d, d, d, d

GB_TEST(datasets, first_fetch_installs_flat_and_locks_then_later_fetches_verify)
{
    const char *d = fixture();
    cr_assert_eq(gb_test_sh(out, sizeof out, FETCH(d, "tiny")), 0, "%s", out);
    const char *files[] = { "dest/tiny/a.map", "dest/tiny/b.map", "dest/tiny/a.map.scen",
                            "dest/tiny/b.map.scen", "dest/tiny/.gb-fetch" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        cr_expect(exists(d, files[i]), "%s not installed:\n%s", files[i], out);
    cr_expect(!exists(d, "dest/tiny/maps"), "archive directories were kept, not flattened");
    cr_expect_eq(gb_test_sh(NULL, 0, "cmp %s/src/maps/tiny/a.map %s/dest/tiny/a.map", d, d), 0);
    cr_expect_eq(gb_test_sh(NULL, 0, "ls -A %s/dest | grep -q fetch", d), 1, "a temporary directory is left");

    /* the lock holds exactly the two archives' hashes */
    char hm[65], hs[65], want[256];
    sha_of(d, "mirror/tiny/tiny-map.zip", hm);
    sha_of(d, "mirror/tiny/tiny-scen.zip", hs);
    cr_assert_eq(gb_test_sh(out, sizeof out, "grep -v '^#' %s/sets.lock", d), 0, "%s", out);
    snprintf(want, sizeof want, "%s  tiny/tiny-map.zip\n%s  tiny/tiny-scen.zip\n", hm, hs);
    cr_expect_str_eq(out, want);

    /* the installed layout works: every scenario finds its map */
    const char *gb = getenv("GB_BIN");
    if (gb && *gb)
        cr_expect_eq(gb_test_sh(out, sizeof out, "%s run --quiet -s dijkstra --out %s/r.csv %s/dest/tiny/*.scen",
                        gb, d, d), 0, "%s", out);

    /* a second fetch: installed from the locked archives, skipped */
    cr_assert_eq(gb_test_sh(NULL, 0, "cp %s/sets.lock %s/lock.before", d, d), 0);
    cr_expect_eq(gb_test_sh(out, sizeof out, FETCH(d, "tiny")), 0, "%s", out);
    cr_expect(strstr(out, "tiny: installed from the archives in sets.lock, skipped") != NULL, "%s", out);
    /* forced: downloaded again and checked against the lock */
    cr_expect_eq(gb_test_sh(out, sizeof out, FETCH(d, "--force tiny")), 0, "%s", out);
    cr_expect(strstr(out, "tiny/tiny-map.zip: sha256 matches sets.lock") != NULL, "%s", out);
    cr_expect(strstr(out, "tiny/tiny-scen.zip: sha256 matches sets.lock") != NULL, "%s", out);
    cr_expect_eq(gb_test_sh(NULL, 0, "cmp %s/sets.lock %s/lock.before", d, d), 0, "the lock changed");
    /* into a new place with the same lock: verified, not re-recorded */
    cr_expect_eq(gb_test_sh(out, sizeof out, FETCH(d, "--dest %s/dest2 tiny"), d), 0, "%s", out);
    cr_expect(exists(d, "dest2/tiny/b.map.scen"), "%s", out);
    cr_expect_eq(gb_test_sh(NULL, 0, "cmp %s/sets.lock %s/lock.before", d, d), 0, "the lock changed");
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(datasets, tampered_archive_is_refused_naming_both_hashes_and_nothing_changes)
{
    const char *d = fixture();
    cr_assert_eq(gb_test_sh(out, sizeof out, FETCH(d, "tiny")), 0, "%s", out);
    char locked[65], tampered[65];
    sha_of(d, "mirror/tiny/tiny-scen.zip", locked);
    /* the mirror now serves a different scenario archive */
    cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s/src && echo >> scen/tiny/a.map.scen && "
                    "rm ../mirror/tiny/tiny-scen.zip && zip -qr ../mirror/tiny/tiny-scen.zip scen", d),
                 0, "%s", out);
    sha_of(d, "mirror/tiny/tiny-scen.zip", tampered);
    cr_assert_str_neq(locked, tampered);
    cr_assert_eq(gb_test_sh(NULL, 0, "cp %s/sets.lock %s/lock.before && cp %s/dest/tiny/a.map.scen %s/scen.before",
                    d, d, d, d), 0);

    char want[512];
    snprintf(want, sizeof want, "fetch.sh: %s/sets.lock:5: expected sha256 %s for tiny/tiny-scen.zip, "
             "found %s (downloaded from file://%s/mirror/tiny/tiny-scen.zip); nothing installed",
             d, locked, tampered, d);
    /* over the installed set (forced) and into an empty place */
    int rc = gb_test_sh(out, sizeof out, FETCH(d, "--force tiny"));
    cr_expect_eq(rc, 65, "%s", out);
    cr_expect(strstr(out, want) != NULL, "expected\n%s\nin\n%s", want, out);
    cr_expect_eq(gb_test_sh(NULL, 0, "cmp %s/dest/tiny/a.map.scen %s/scen.before", d, d), 0,
                 "the installed set changed");
    rc = gb_test_sh(out, sizeof out, FETCH(d, "--dest %s/fresh tiny"), d);
    cr_expect_eq(rc, 65, "%s", out);
    cr_expect(strstr(out, want) != NULL, "%s", out);
    cr_expect(!exists(d, "fresh/tiny"), "a set with a tampered archive was installed");
    cr_expect_eq(gb_test_sh(NULL, 0, "ls -A %s/fresh %s/dest | grep -q fetch", d, d), 1, "a temporary directory is left");
    cr_expect_eq(gb_test_sh(NULL, 0, "cmp %s/sets.lock %s/lock.before", d, d), 0, "the lock changed");
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(datasets, wrong_counts_are_refused_and_nothing_is_installed_or_locked)
{
    const char *d = fixture();
    cr_assert_eq(gb_test_sh(NULL, 0, "printf 'tiny\\t3\\t2\\ttiny/tiny-map.zip tiny/tiny-scen.zip\\n' > %s/sets.tsv",
                    d), 0);
    int rc = gb_test_sh(out, sizeof out, FETCH(d, "tiny"));
    cr_expect_eq(rc, 65, "%s", out);
    char want[256];
    snprintf(want, sizeof want, "fetch.sh: %s/sets.tsv:1: expected 3 .map and 2 .scen files in tiny, "
             "found 2 and 2 (in tiny/tiny-map.zip tiny/tiny-scen.zip); nothing installed", d);
    cr_expect(strstr(out, want) != NULL, "expected\n%s\nin\n%s", want, out);
    cr_expect(!exists(d, "dest/tiny"), "a set with wrong counts was installed");
    cr_expect(!exists(d, "sets.lock"), "archives of a refused set were locked");
    cr_expect_eq(gb_test_sh(NULL, 0, "ls -A %s/dest | grep -q .", d), 1, "something is left in dest");
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(datasets, unknown_set_is_refused_listing_the_sets_of_the_table)
{
    GB_TEST_SCRIPT_ONLY();
    /* the repository's table: every line parses, the names are listed */
    int rc = gb_test_sh(out, sizeof out, "datasets/fetch.sh --dest /nonexistent/x --lock /nonexistent/l nosuch");
    cr_expect_eq(rc, 64, "%s", out);
    cr_expect(strstr(out, "found 'nosuch'") != NULL, "%s", out);
    const char *sets[] = { "(dao ", " da2 ", " bg512 ", " sc1 ", " wc3maps512 ", " street ", " maze ",
                           " random ", " room ", " mapf " };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        cr_expect(strstr(out, sets[i]) != NULL, "'%s' not listed: %s", sets[i], out);
    cr_expect_eq(gb_test_sh(out, sizeof out, "datasets/fetch.sh --lock /nonexistent/l --list"), 0, "%s", out);
    cr_expect(strstr(out, "street\t90\t90\t0/2\tstreet/street-map.zip street/street-scen.zip\n") != NULL,
              "%s", out);
    cr_expect(strstr(out, "mapf\t33\t825\t0/2\tmapf/mapf-map.zip mapf/mapf-scen-even.zip\n") != NULL,
              "%s", out);
    /* no name at all (make datasets without SETS) */
    cr_expect_eq(gb_test_sh(out, sizeof out, "datasets/fetch.sh"), 64, "%s", out);
    cr_expect(strstr(out, "expected a set name (dao ") != NULL, "%s", out);
    /* a fixture table */
    const char *d = fixture();
    cr_expect_eq(gb_test_sh(out, sizeof out, FETCH(d, "tiny street")), 64, "%s", out);
    cr_expect(strstr(out, "sets.tsv (tiny) or all, found 'street'") != NULL, "%s", out);
    cr_expect(!exists(d, "dest/tiny"), "a set was installed before the usage error");
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

GB_TEST(datasets, refusals_have_their_exit_codes_and_leave_nothing)
{
    const char *d = fixture();
    struct { const char *setup, *args; int rc; const char *msg; } c[] = {
        { "printf 'tiny\\t2\\t2\\ttiny/missing.zip\\n' > sets.tsv", "tiny", 74,
          "tiny/missing.zip: expected a download from file://" },
        { "echo not-a-zip > mirror/bad.zip && printf 'bad\\t0\\t0\\tbad.zip\\n' > sets.tsv", "bad", 65,
          "bad.zip: expected a zip archive, found one unzip cannot read" },
        { "mkdir -p x && cp src/maps/tiny/a.map x/ && zip -qr mirror/clash.zip x && "
          "printf 'c\\t3\\t2\\ttiny/tiny-map.zip tiny/tiny-scen.zip clash.zip\\n' > sets.tsv", "c", 65,
          "c: expected distinct file names, found 'a.map' twice (" },
        { "mkdir -p dest/tiny", "tiny", 73,
          "/dest/tiny: expected a set installed by fetch.sh (with a .gb-fetch file), found something else" },
        { "printf 'tiny\\t2\\ttwo\\ttiny/tiny-map.zip\\n' > sets.tsv", "tiny", 78,
          "sets.tsv:1: expected '<set> TAB <maps> TAB <scens> TAB <archive.zip> ... [TAB <MiB>]', found 'tiny" },
        { "printf 'tiny\\t2\\t2\\t../up.zip\\n' > sets.tsv", "tiny", 78, "sets.tsv:1: expected '<set>" },
        { "printf '# x\\nnot-a-hash  tiny/tiny-map.zip\\n' > sets.lock", "tiny", 78,
          "sets.lock:2: expected '<sha256>  <archive>', found 'not-a-hash  tiny/tiny-map.zip'" },
        { "true", "--frobnicate tiny", 64, "expected an option listed by --help, found '--frobnicate'" },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s && rm -rf dest sets.lock && cp sets.tsv sets.keep && %s",
                        d, c[i].setup), 0, "case %zu setup: %s", i, out);
        int rc = gb_test_sh(out, sizeof out, FETCH(d, "%s"), c[i].args);
        cr_expect_eq(rc, c[i].rc, "case %zu: exit %d, expected %d:\n%s", i, rc, c[i].rc, out);
        cr_expect(strstr(out, c[i].msg) != NULL, "case %zu: expected '%s' in:\n%s", i, c[i].msg, out);
        cr_expect_eq(gb_test_sh(NULL, 0, "ls -A %s/dest 2>/dev/null | grep -v '^tiny$' | grep -q .", d), 1,
                     "case %zu left something in dest", i);
        cr_expect_eq(gb_test_sh(NULL, 0, "! grep -qs '^[0-9a-f]' %s/sets.lock", d), 0, "case %zu locked an archive", i);
        cr_assert_eq(gb_test_sh(NULL, 0, "cd %s && mv sets.keep sets.tsv", d), 0);
    }
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}

/* Zip bombs: an archive that unpacks past the table's cap (fifth column,
 * MiB), past 64 MiB in one file, or to more entries than the set's files
 * allow, is refused from its listing; one whose listing lies (sizes
 * patched to 100 bytes) is refused from what it really inflates to.  In
 * every case nothing is unpacked, installed or locked. */
GB_TEST(datasets, archives_past_their_size_caps_are_refused_before_unpacking)
{
    const char *d = fixture();
    /* bomb.zip: b/a.map, 4 MiB of zeros (a 4 KiB zip); liar.zip: the same,
     * its local and central sizes patched to say 100; big.zip: one 65 MiB
     * file; many.zip: 200 files */
    cr_assert_eq(gb_test_sh(out, sizeof out,
        "cd %s && mkdir -p b m && head -c 4194304 /dev/zero >b/a.map && zip -qr mirror/bomb.zip b && "
        "cp mirror/bomb.zip mirror/liar.zip && perl -e 'local $/; open F, \"+<\", shift or die; binmode F; "
        "my $z = <F>; for ([\"PK\\x01\\x02\", 24], [\"PK\\x03\\x04\", 22]) { my ($g, $o) = @$_; my $i = -1; "
        "while (($i = index($z, $g, $i + 1)) >= 0) { substr($z, $i + $o, 4) = pack(\"V\", 100) } } "
        "seek F, 0, 0; print F $z; close F' mirror/liar.zip && "
        "head -c 68157440 /dev/zero >b/a.map && zip -qr mirror/big.zip b && "
        "for i in $(seq 200); do echo >m/$i.scen; done && zip -qr mirror/many.zip m", d), 0, "%s", out);
    struct { const char *table, *set; const char *msg; } c[] = {
        { "bomb\\t1\\t0\\tbomb.zip\\t1", "bomb",
          "bomb.tsv:1: expected bomb.zip to unpack to at most 1 MiB, found 4194304 bytes in its listing; "
          "nothing installed" },
        { "bomb\\t1\\t0\\tliar.zip\\t1", "bomb",
          "bomb.tsv:1: expected liar.zip to unpack to at most 1 MiB, found more when inflated (its listing says "
          "200 bytes: it lies); nothing installed" },
        { "big\\t1\\t0\\tbig.zip", "big",
          "big.zip: expected no file over 64 MiB unpacked, found one of 68157440 bytes in its listing" },
        { "many\\t2\\t2\\tmany.zip", "many",
          "bomb.tsv:1: expected at most 72 entries in many.zip (2 x the 4 files of many + 64), found 201 in "
          "its listing" },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        cr_assert_eq(gb_test_sh(out, sizeof out, "cd %s && rm -rf dest sets.lock && printf '%s\\n' >bomb.tsv",
                        d, c[i].table), 0, "%s", out);
        int rc = gb_test_sh(out, sizeof out, "datasets/fetch.sh --base file://%s/mirror --table %s/bomb.tsv "
                            "--lock %s/sets.lock --dest %s/dest %s", d, d, d, d, c[i].set);
        cr_expect_eq(rc, 65, "case %zu: exit %d:\n%s", i, rc, out);
        cr_expect(strstr(out, c[i].msg) != NULL, "case %zu: expected '%s' in:\n%s", i, c[i].msg, out);
        cr_expect_eq(gb_test_sh(NULL, 0, "ls -A %s/dest 2>/dev/null | grep -q .", d), 1, "case %zu left something", i);
        cr_expect(!exists(d, "sets.lock"), "case %zu locked an archive", i);
    }
    /* offline: the error says how to use a mirror */
    cr_assert_eq(gb_test_sh(out, sizeof out, "datasets/fetch.sh --base file://%s/nowhere --table %s/sets.tsv "
                            "--lock %s/sets.lock --dest %s/dest tiny", d, d, d, d), 74, "%s", out);
    cr_expect(strstr(out, "pass --base file:///that/folder (or set GB_DATASET_BASE; with make: make datasets "
                          "FETCH_ARGS='--base URL')") != NULL, "%s", out);
    gb_test_sh(NULL, 0, "rm -rf %s", d);
}
