/*
 * test_gen.c -- Criterion tests for harness/gen/gb_gen (map and scenario
 * generators) and `gridbench gen` (harness/cli/gb_cmd_gen.c).
 *
 *   reproducible_*   same options -> byte-identical .map and .scen (two
 *                    runs of the command into two mkdtemp dirs); other
 *                    seeds -> other bytes; the map ignores scenario options
 *   random_*         exact obstacle count floor(W*H*P/100), fraction
 *                    within 1 % of P on 256x256
 *   maze_*           walls exactly on the lattice lines, 1 cell thick (no
 *                    2x2 blocked square), corridors C wide, every door
 *                    segment wholly open or closed, the door graph a
 *                    spanning tree, one 4-connected component
 *   rooms_*          wall lines every R cells, at most max(1, R/8) doors
 *                    per segment, one 4-connected component
 *   scen_*           every query: start != goal, both passable, start in
 *                    the largest component (own flood fill), length ==
 *                    gb_dijkstra_all (recomputed) exactly, bucket ==
 *                    floor(length/4), exactly per_bucket per bucket,
 *                    sorted by bucket; max_queries keeps whole, evenly
 *                    spaced buckets including the first and the last
 *   roundtrip_*      the written files load back with gb_map_load /
 *                    gb_scen_load to the same grid and queries
 *   name_* / cli_* / check_*  naming scheme, pinned error texts
 *   default_dataset  datasets/default/ is what its regen commands produce
 *                    today (run from the repository root; skipped elsewhere)
 */
#include "gb_test.h"
#include <criterion/redirect.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gb_cmd.h"
#include "gb_diag.h"
#include "gb_gen.h"
#include "gb_map.h"
#include "gb_scen.h"
#include "gb_search.h"

/* ---- helpers ---------------------------------------------------------- */

static void make_tmpdir(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/gb-test-gen-XXXXXX");
    cr_assert(mkdtemp(buf) != NULL, "mkdtemp: %s", strerror(errno));
}

/* Remove the regular files of dir, then dir. */
static void remove_tree(const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp) return;
    struct dirent *e;
    char p[4096];
    while ((e = readdir(dp)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    closedir(dp);
    rmdir(dir);
}

/* Run `gridbench gen ARGS... --out dir`; returns the exit status. */
static int run_gen(const char *dir, const char *const *args)
{
    char *argv[40];
    int argc = 0;
    argv[argc++] = (char *)"gen";
    for (; *args; args++) argv[argc++] = (char *)*args;
    argv[argc++] = (char *)"--out";
    argv[argc++] = (char *)dir;
    argv[argc] = NULL;
    return gb_cmd_gen(argc, argv);
}

static char *slurp(const char *path, size_t *len)
{
    char *buf;
    gb_diag d;
    int rc = gb_read_file(path, &buf, len, &d);
    cr_assert_eq(rc, 0, "cannot read %s: %s", path, d.msg);
    return buf;
}

static int same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *x = slurp(a, &la), *y = slurp(b, &lb);
    int same = la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

static gb_gen_opts opts_of(int family, int32_t w, int32_t h, uint64_t seed)
{
    gb_gen_opts o;
    gb_gen_defaults(&o);
    o.family = family;
    o.width = w;
    o.height = h;
    o.seed = seed;
    return o;
}

static void gen_map_ok(const gb_gen_opts *o, gb_map *m)
{
    gb_diag d;
    int rc = gb_gen_map(o, m, &d);
    cr_assert_eq(rc, 0, "gb_gen_map: %s", d.msg);
}

static int blocked(const gb_map *m, int32_t x, int32_t y)
{
    return !m->grid.pass[gb_grid_id(&m->grid, x, y)];
}

/* 4-connected components of the passable cells (independent of the
 * generator's own component code): comp[id] = component number (0 for
 * blocked cells), returns the number of components; *largest = size of
 * the largest one and *largest_label its number. */
static int components4(const gb_grid *g, int32_t *comp, int32_t *largest,
                       int32_t *largest_label)
{
    int32_t *queue = malloc((size_t)g->ncells * sizeof *queue);
    cr_assert(queue != NULL);
    memset(comp, 0, (size_t)g->ncells * sizeof *comp);
    int n = 0;
    *largest = 0;
    *largest_label = 0;
    static const int off4[4][2] = { { 0, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 } };
    for (int32_t id = 0; id < g->ncells; id++) {
        if (!g->pass[id] || comp[id]) continue;
        n++;
        int32_t head = 0, tail = 0;
        queue[tail++] = id;
        comp[id] = n;
        while (head < tail) {
            int32_t c = queue[head++];
            for (int k = 0; k < 4; k++) {
                int32_t nb = c + off4[k][1] * g->stride + off4[k][0];
                if (g->pass[nb] && !comp[nb]) { comp[nb] = n; queue[tail++] = nb; }
            }
        }
        if (tail > *largest) { *largest = tail; *largest_label = n; }
    }
    free(queue);
    return n;
}

static int ncomponents4(const gb_grid *g)
{
    int32_t *comp = malloc((size_t)g->ncells * sizeof *comp);
    cr_assert(comp != NULL);
    int32_t big, lab;
    int n = components4(g, comp, &big, &lab);
    free(comp);
    return n;
}

/* ---- reproducibility -------------------------------------------------- */

/* The command reports what it wrote on stderr: keep the test log quiet. */
static void redirect_all(void)
{
    cr_redirect_stderr();
    cr_redirect_stdout();
}


static void check_reproducible(const char *const *args, const char *name)
{
    char d1[64], d2[64], a[256], b[256];
    make_tmpdir(d1, sizeof d1);
    make_tmpdir(d2, sizeof d2);
    cr_assert_eq(run_gen(d1, args), 0);
    cr_assert_eq(run_gen(d2, args), 0);
    snprintf(a, sizeof a, "%s/%s.map", d1, name);
    snprintf(b, sizeof b, "%s/%s.map", d2, name);
    cr_expect(same_file(a, b), "%s differs between two runs", name);
    snprintf(a, sizeof a, "%s/%s.map.scen", d1, name);
    snprintf(b, sizeof b, "%s/%s.map.scen", d2, name);
    cr_expect(same_file(a, b), "%s.scen differs between two runs", name);
    remove_tree(d1);
    remove_tree(d2);
}

GB_TEST(gen, reproducible_random, .init = redirect_all)
{
    const char *args[] = { "--family", "random", "--size", "96x64", "--percent", "25",
                           "--seed", "42", "--per-bucket", "4", NULL };
    check_reproducible(args, "random96x64-25-42");
}

GB_TEST(gen, reproducible_maze, .init = redirect_all)
{
    const char *args[] = { "--family", "maze", "--size", "80", "--corridor", "3",
                           "--seed", "7", "--per-bucket", "3", "--max-queries", "60", NULL };
    check_reproducible(args, "maze80-3-7");
}

GB_TEST(gen, reproducible_rooms, .init = redirect_all)
{
    const char *args[] = { "--family", "rooms", "--size", "100x90", "--room", "10",
                           "--seed", "18446744073709551615", "--per-bucket", "5", NULL };
    check_reproducible(args, "room100x90-10-18446744073709551615");
}

GB_TEST(gen, reproducible_in_memory_equals_written)
{
    /* Two in-memory generations give the same grid and the same queries. */
    gb_gen_opts o = opts_of(GB_GEN_RANDOM, 64, 64, 5);
    o.per_bucket = 3;
    gb_map m1, m2;
    gen_map_ok(&o, &m1);
    gen_map_ok(&o, &m2);
    cr_assert_eq(memcmp(m1.grid.pass, m2.grid.pass, (size_t)m1.grid.ncells), 0);
    gb_scen s1, s2;
    gb_diag d;
    cr_assert_eq(gb_gen_scen(&o, &m1, "x.map", &s1, &d), 0, "%s", d.msg);
    cr_assert_eq(gb_gen_scen(&o, &m2, "x.map", &s2, &d), 0, "%s", d.msg);
    cr_assert_eq(s1.n, s2.n);
    for (size_t i = 0; i < s1.n; i++) {
        cr_assert_eq(s1.q[i].sx, s2.q[i].sx);
        cr_assert_eq(s1.q[i].gy, s2.q[i].gy);
        cr_assert_eq(s1.q[i].length, s2.q[i].length);
    }
    gb_scen_free(&s1);
    gb_scen_free(&s2);
    gb_map_free(&m1);
    gb_map_free(&m2);
}

GB_TEST(gen, different_seeds_differ)
{
    for (int f = 0; f < GB_GEN_COUNT; f++) {
        gb_gen_opts a = opts_of(f, 64, 64, 1), b = opts_of(f, 64, 64, 2);
        a.corridor = b.corridor = 2;
        a.room = b.room = 8;
        gb_map ma, mb;
        gen_map_ok(&a, &ma);
        gen_map_ok(&b, &mb);
        cr_expect_neq(memcmp(ma.terrain, mb.terrain, 64 * 64), 0,
                      "%s: seeds 1 and 2 gave the same map", gb_gen_family_name(f));
        gb_scen sa, sb;
        gb_diag d;
        a.per_bucket = b.per_bucket = 3;
        cr_assert_eq(gb_gen_scen(&a, &ma, "m.map", &sa, &d), 0, "%s", d.msg);
        cr_assert_eq(gb_gen_scen(&b, &mb, "m.map", &sb, &d), 0, "%s", d.msg);
        int differ = sa.n != sb.n;
        for (size_t i = 0; !differ && i < sa.n; i++)
            differ = sa.q[i].sx != sb.q[i].sx || sa.q[i].sy != sb.q[i].sy
                  || sa.q[i].gx != sb.q[i].gx || sa.q[i].gy != sb.q[i].gy;
        cr_expect(differ, "%s: seeds 1 and 2 gave the same queries", gb_gen_family_name(f));
        gb_scen_free(&sa);
        gb_scen_free(&sb);
        gb_map_free(&ma);
        gb_map_free(&mb);
    }
}

GB_TEST(gen, map_ignores_scenario_options)
{
    gb_gen_opts a = opts_of(GB_GEN_MAZE, 60, 50, 9), b = a;
    b.per_bucket = 2;
    b.max_queries = 40;
    b.model = GB_MODEL_4;
    gb_map ma, mb;
    gen_map_ok(&a, &ma);
    gen_map_ok(&b, &mb);
    cr_expect_eq(memcmp(ma.terrain, mb.terrain, 60 * 50), 0);
    gb_map_free(&ma);
    gb_map_free(&mb);
}

/* ---- random ----------------------------------------------------------- */

GB_TEST(gen, random_obstacle_fraction)
{
    static const double pct[] = { 0, 10, 20, 12.5, 35, 99.5 };
    for (size_t i = 0; i < sizeof pct / sizeof pct[0]; i++) {
        gb_gen_opts o = opts_of(GB_GEN_RANDOM, 256, 256, 3);
        o.percent = pct[i];
        gb_map m;
        gen_map_ok(&o, &m);
        long nblocked = 0;
        for (int32_t y = 0; y < 256; y++)
            for (int32_t x = 0; x < 256; x++) {
                nblocked += blocked(&m, x, y);
                char t = m.terrain[y * 256 + x];
                cr_assert(t == (blocked(&m, x, y) ? '@' : '.'));
            }
        long want = (long)floor(65536.0 * pct[i] / 100.0);
        cr_expect_eq(nblocked, want, "P=%g: %ld blocked, expected floor(W*H*P/100) = %ld",
                     pct[i], nblocked, want);
        cr_expect(fabs((double)nblocked / 65536.0 - pct[i] / 100.0) < 0.01);
        cr_expect_eq(m.grid.npassable, 65536 - nblocked);
        gb_map_free(&m);
    }
}

GB_TEST(gen, random_not_all_in_one_row)
{
    /* The obstacles spread over the whole map: every 32x32 tile of a 20 %
     * map holds between 10 % and 30 % obstacles. */
    gb_gen_opts o = opts_of(GB_GEN_RANDOM, 256, 256, 11);
    gb_map m;
    gen_map_ok(&o, &m);
    for (int ty = 0; ty < 8; ty++)
        for (int tx = 0; tx < 8; tx++) {
            int n = 0;
            for (int y = 0; y < 32; y++)
                for (int x = 0; x < 32; x++) n += blocked(&m, tx * 32 + x, ty * 32 + y);
            cr_expect(n > 102 && n < 307, "tile (%d,%d) has %d of 1024 blocked", tx, ty, n);
        }
    gb_map_free(&m);
}

/* ---- maze ------------------------------------------------------------- */

static void check_maze(int32_t W, int32_t H, int C, uint64_t seed)
{
    gb_gen_opts o = opts_of(GB_GEN_MAZE, W, H, seed);
    o.corridor = C;
    gb_map m;
    gen_map_ok(&o, &m);
    int32_t p = C + 1;
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++) {
            int onwall = x % p == 0 || y % p == 0;
            if (!onwall)
                cr_assert(!blocked(&m, x, y), "maze C=%d: cell (%d,%d) inside a corridor "
                          "block is blocked", C, x, y);
            if (x % p == 0 && y % p == 0)
                cr_assert(blocked(&m, x, y), "maze C=%d: wall crossing (%d,%d) is open", C, x, y);
            if (x + 1 < W && y + 1 < H)
                cr_assert(!(blocked(&m, x, y) && blocked(&m, x + 1, y)
                            && blocked(&m, x, y + 1) && blocked(&m, x + 1, y + 1)),
                          "maze C=%d: 2x2 blocked square at (%d,%d): wall thicker than 1",
                          C, x, y);
        }
    /* Door segments: wholly open or wholly closed; count the open ones. */
    int32_t nx = (W - 1 + C) / p, ny = (H - 1 + C) / p;
    long doors = 0;
    for (int32_t j = 0; j < ny; j++)
        for (int32_t i = 0; i < nx; i++) {
            for (int dir = 0; dir < 2; dir++) {
                if (dir == 0 && i + 1 >= nx) continue;
                if (dir == 1 && j + 1 >= ny) continue;
                int open = 0, len = 0;
                for (int t = 0; t < C; t++) {
                    int32_t x = dir == 0 ? (i + 1) * p : i * p + 1 + t;
                    int32_t y = dir == 0 ? j * p + 1 + t : (j + 1) * p;
                    if (x >= W || y >= H) break;
                    len++;
                    open += !blocked(&m, x, y);
                }
                cr_assert(open == 0 || open == len, "maze C=%d: door of lattice cell (%d,%d) "
                          "half open (%d of %d)", C, i, j, open, len);
                doors += open > 0;
            }
        }
    cr_expect_eq(doors, (long)nx * ny - 1, "maze C=%d %dx%d: %ld doors for %ld lattice cells: "
                 "not a spanning tree", C, W, H, doors, (long)nx * ny);
    cr_expect_eq(ncomponents4(&m.grid), 1, "maze C=%d %dx%d: not one component", C, W, H);
    gb_map_free(&m);
}

GB_TEST(gen, maze_walls_corridors_tree)
{
    check_maze(64, 64, 1, 1);
    check_maze(64, 64, 2, 2);
    check_maze(128, 128, 4, 3);      /* (128 - 1) % 5 = 2: narrow last row */
    check_maze(61, 41, 4, 4);        /* (61 - 1) % 5 = 0: no partial cell */
    check_maze(97, 33, 7, 5);
    check_maze(2, 2, 1, 6);          /* a single lattice cell */
}

GB_TEST(gen, maze_official_layout)
{
    /* Like maze512-4-0: row 0 and column 0 are walls, (1,1) is open. */
    gb_gen_opts o = opts_of(GB_GEN_MAZE, 512, 512, 0);
    gb_map m;
    gen_map_ok(&o, &m);
    for (int32_t k = 0; k < 512; k++) {
        cr_assert(blocked(&m, k, 0));
        cr_assert(blocked(&m, 0, k));
    }
    cr_expect(!blocked(&m, 1, 1));
    cr_expect_eq(ncomponents4(&m.grid), 1);
    gb_map_free(&m);
}

/* ---- rooms ------------------------------------------------------------ */

static void check_rooms(int32_t W, int32_t H, int R, uint64_t seed)
{
    gb_gen_opts o = opts_of(GB_GEN_ROOMS, W, H, seed);
    o.room = R;
    gb_map m;
    gen_map_ok(&o, &m);
    int maxdoors = R / 8 > 1 ? R / 8 : 1;
    for (int32_t y = 0; y < H; y++)
        for (int32_t x = 0; x < W; x++) {
            if (x % R != 0 && y % R != 0)
                cr_assert(!blocked(&m, x, y), "rooms R=%d: room cell (%d,%d) blocked", R, x, y);
            if (x % R == 0 && y % R == 0)
                cr_assert(blocked(&m, x, y), "rooms R=%d: wall crossing (%d,%d) open", R, x, y);
            if (x == 0 || y == 0)
                cr_assert(blocked(&m, x, y), "rooms R=%d: border (%d,%d) open", R, x, y);
        }
    /* Doors per wall segment (between two crossings). */
    for (int32_t y0 = 0; y0 < H; y0 += R)
        for (int32_t x0 = 0; x0 + 1 < W; x0 += R) {
            int n = 0;
            for (int32_t x = x0 + 1; x < x0 + R && x < W; x++) n += !blocked(&m, x, y0);
            cr_assert(n <= maxdoors, "rooms R=%d: %d doors in row %d from x=%d", R, n, y0, x0);
        }
    for (int32_t x0 = 0; x0 < W; x0 += R)
        for (int32_t y0 = 0; y0 + 1 < H; y0 += R) {
            int n = 0;
            for (int32_t y = y0 + 1; y < y0 + R && y < H; y++) n += !blocked(&m, x0, y);
            cr_assert(n <= maxdoors, "rooms R=%d: %d doors in column %d from y=%d", R, n, x0, y0);
        }
    cr_expect_eq(ncomponents4(&m.grid), 1, "rooms R=%d %dx%d: rooms not all connected",
                 R, W, H);
    gb_map_free(&m);
}

GB_TEST(gen, rooms_walls_doors_connected)
{
    check_rooms(128, 128, 16, 1);
    check_rooms(128, 128, 8, 2);
    check_rooms(100, 70, 32, 3);
    check_rooms(50, 50, 2, 4);
    check_rooms(67, 45, 5, 5);
    for (uint64_t s = 10; s < 30; s++) check_rooms(64, 64, 8, s);
}

/* ---- scenarios -------------------------------------------------------- */

/* Every property of a generated scenario against an independent check. */
static void check_scen(const gb_gen_opts *o, const gb_map *m, const gb_scen *s)
{
    const gb_grid *g = &m->grid;
    cr_assert(s->n > 0);
    cr_assert_eq(s->version, 1);
    if (o->max_queries > 0) cr_assert_leq(s->n, (size_t)o->max_queries);
    cr_assert_eq(s->n % (size_t)o->per_bucket, 0, "%zu queries, not whole buckets", s->n);

    /* Largest component, independently: 4-connected components coincide
     * with the 8-nocut ones (a no-cut diagonal has both orthogonal cells
     * free). */
    int32_t *comp = malloc((size_t)g->ncells * sizeof *comp);
    double *dist = malloc((size_t)g->ncells * sizeof *dist);
    cr_assert(comp && dist);
    int32_t big, lab;
    components4(g, comp, &big, &lab);

    int32_t prev_bucket = -1, run = 0;
    for (size_t i = 0; i < s->n; i++) {
        const gb_query *q = &s->q[i];
        cr_assert_eq(q->map_w, g->width);
        cr_assert_eq(q->map_h, g->height);
        cr_assert_eq(q->line, (long)i + 2);
        cr_assert_eq(q->decimals, 8);
        cr_assert_eq(q->tol, GB_GEN_TOL);
        cr_assert(q->sx != q->gx || q->sy != q->gy, "query %zu: start == goal", i);
        cr_assert(gb_grid_passable_xy(g, q->sx, q->sy), "query %zu: start blocked", i);
        cr_assert(gb_grid_passable_xy(g, q->gx, q->gy), "query %zu: goal blocked", i);
        int32_t sid = gb_grid_id(g, q->sx, q->sy), gid = gb_grid_id(g, q->gx, q->gy);
        if (o->model == GB_MODEL_8_NOCUT || o->model == GB_MODEL_4) {
            cr_assert_eq(comp[sid], lab, "query %zu: start outside the largest component", i);
            cr_assert_eq(comp[gid], lab, "query %zu: goal outside the largest component", i);
        }
        cr_assert_eq(gb_dijkstra_all(g, o->model, sid, dist), 0);
        cr_assert(isfinite(dist[gid]), "query %zu: goal unreachable", i);
        cr_assert_eq(q->length, dist[gid], "query %zu: length %.17g, Dijkstra %.17g",
                     i, q->length, dist[gid]);
        cr_assert_eq(q->bucket, (int32_t)floor(q->length / 4), "query %zu: bucket %d for "
                     "length %.8f", i, q->bucket, q->length);
        cr_assert_geq(q->bucket, prev_bucket, "query %zu: buckets not sorted", i);
        if (q->bucket != prev_bucket) {
            cr_assert(i == 0 || run == o->per_bucket, "bucket %d: %d queries, expected %d",
                      prev_bucket, run, o->per_bucket);
            run = 0;
        }
        run++;
        cr_assert_leq(run, o->per_bucket, "bucket %d: more than %d queries",
                      q->bucket, o->per_bucket);
        prev_bucket = q->bucket;
    }
    cr_assert_eq(run, o->per_bucket, "last bucket %d: %d queries, expected %d",
                 prev_bucket, run, o->per_bucket);
    free(comp);
    free(dist);
}

static void gen_and_check(gb_gen_opts o)
{
    gb_map m;
    gen_map_ok(&o, &m);
    gb_scen s;
    gb_diag d;
    int rc = gb_gen_scen(&o, &m, "m.map", &s, &d);
    cr_assert_eq(rc, 0, "gb_gen_scen %s: %s", gb_gen_family_name(o.family), d.msg);
    cr_assert_str_eq(s.map_field, "m.map");
    check_scen(&o, &m, &s);
    gb_scen_free(&s);
    gb_map_free(&m);
}

GB_TEST(gen, scen_random_queries_exact)
{
    gb_gen_opts o = opts_of(GB_GEN_RANDOM, 96, 96, 21);
    o.percent = 35;          /* several components: queries stay in the largest */
    o.per_bucket = 4;
    gen_and_check(o);
}

GB_TEST(gen, scen_maze_queries_exact)
{
    gb_gen_opts o = opts_of(GB_GEN_MAZE, 64, 64, 22);
    o.corridor = 2;
    o.per_bucket = 3;
    o.max_queries = 90;
    gen_and_check(o);
}

GB_TEST(gen, scen_rooms_queries_exact)
{
    gb_gen_opts o = opts_of(GB_GEN_ROOMS, 80, 80, 23);
    o.room = 16;
    o.per_bucket = 5;
    gen_and_check(o);
}

GB_TEST(gen, scen_model_4_integer_lengths)
{
    gb_gen_opts o = opts_of(GB_GEN_RANDOM, 64, 64, 24);
    o.model = GB_MODEL_4;
    o.per_bucket = 3;
    gb_map m;
    gen_map_ok(&o, &m);
    gb_scen s;
    gb_diag d;
    cr_assert_eq(gb_gen_scen(&o, &m, "m.map", &s, &d), 0, "%s", d.msg);
    int on_edge = 0;
    for (size_t i = 0; i < s.n; i++) {
        cr_assert_eq(s.q[i].length, floor(s.q[i].length), "4-connected length %.8f",
                     s.q[i].length);
        on_edge += s.q[i].length == 4.0 * s.q[i].bucket;
    }
    /* Lengths 4b (on a bucket's lower edge) are drawn like any other. */
    cr_expect_gt(on_edge, (int)(s.n / 16), "only %d of %zu lengths are multiples of 4",
                 on_edge, s.n);
    check_scen(&o, &m, &s);
    gb_scen_free(&s);
    gb_map_free(&m);
}

GB_TEST(gen, scen_max_queries_keeps_spread_buckets)
{
    gb_gen_opts o = opts_of(GB_GEN_RANDOM, 128, 128, 25);
    o.per_bucket = 5;
    gb_map m;
    gen_map_ok(&o, &m);
    gb_scen all, few;
    gb_diag d;
    cr_assert_eq(gb_gen_scen(&o, &m, "m.map", &all, &d), 0, "%s", d.msg);
    o.max_queries = 52;      /* 10 buckets of 5 */
    cr_assert_eq(gb_gen_scen(&o, &m, "m.map", &few, &d), 0, "%s", d.msg);
    size_t nb_all = all.n / 5;
    cr_assert_gt(nb_all, 10, "only %zu full buckets", nb_all);
    cr_assert_eq(few.n, 50);
    cr_expect_eq(few.q[0].bucket, all.q[0].bucket, "first full bucket not kept");
    cr_expect_eq(few.q[49].bucket, all.q[all.n - 1].bucket, "last full bucket not kept");
    /* Kept: full buckets number floor(t * (F - 1) / 9), t = 0..9, each with
     * the same queries as in the unlimited run. */
    for (size_t t = 0; t < 10; t++) {
        size_t k = t * (nb_all - 1) / 9;
        for (size_t r = 0; r < 5; r++) {
            const gb_query *a = &all.q[5 * k + r], *b = &few.q[5 * t + r];
            cr_expect_eq(a->bucket, b->bucket, "kept bucket %zu: %d, expected %d",
                         t, b->bucket, a->bucket);
            cr_expect(a->sx == b->sx && a->sy == b->sy && a->gx == b->gx && a->gy == b->gy);
            cr_expect_eq(b->line, (long)(5 * t + r) + 2);
        }
    }
    gb_scen_free(&all);
    gb_scen_free(&few);
    gb_map_free(&m);
}

GB_TEST(gen, scen_no_bucket_fillable)
{
    gb_gen_opts o = opts_of(GB_GEN_RANDOM, 3, 3, 0);
    o.percent = 0;
    o.per_bucket = 50;
    gb_map m;
    gen_map_ok(&o, &m);
    gb_scen s;
    gb_diag d;
    int rc = gb_gen_scen(&o, &m, "m.map", &s, &d);
    cr_assert_eq(rc, EX_DATAERR);
    cr_expect(strstr(d.msg, "expected a bucket filled with 50 queries within") == d.msg,
              "message: %s", d.msg);
    cr_expect_eq(s.n, 0);
    cr_expect_null(s.q);
    gb_map_free(&m);
}

GB_TEST(gen, scen_tiny_component)
{
    gb_gen_opts o = opts_of(GB_GEN_RANDOM, 1, 1, 0);
    o.percent = 0;
    gb_map m;
    gen_map_ok(&o, &m);
    gb_scen s;
    gb_diag d;
    cr_assert_eq(gb_gen_scen(&o, &m, "m.map", &s, &d), EX_DATAERR);
    cr_expect_str_eq(d.msg, "expected a largest connected component (8-nocut) of at least "
                     "2 cells, found 1");
    gb_map_free(&m);
}

GB_TEST(gen, largest_component_helper)
{
    /* Two rooms of 6 and 4 cells separated by a wall column. */
    gb_grid g;
    cr_assert_eq(gb_grid_init(&g, 5, 2), 0);
    for (int32_t y = 0; y < 2; y++)
        for (int32_t x = 0; x < 5; x++) g.pass[gb_grid_id(&g, x, y)] = x != 3;
    gb_grid_recount(&g);
    uint8_t *mark = malloc((size_t)g.ncells);
    int32_t n;
    cr_assert_eq(gb_gen_largest_component(&g, GB_MODEL_8_NOCUT, mark, &n), 0);
    cr_expect_eq(n, 6);
    for (int32_t y = 0; y < 2; y++)
        for (int32_t x = 0; x < 5; x++)
            cr_expect_eq(mark[gb_grid_id(&g, x, y)], x < 3, "(%d,%d)", x, y);
    free(mark);
    gb_grid_free(&g);
}

/* ---- round trip through the files -------------------------------------- */

GB_TEST(gen, roundtrip_written_files_load_back, .init = redirect_all)
{
    char dir[64], mp[256], sp[256], resolved[512];
    make_tmpdir(dir, sizeof dir);
    const char *args[] = { "--family", "rooms", "--size", "72x56", "--room", "8",
                           "--seed", "99", "--per-bucket", "4", "--max-queries", "100", NULL };
    cr_assert_eq(run_gen(dir, args), 0);
    snprintf(mp, sizeof mp, "%s/room72x56-8-99.map", dir);
    snprintf(sp, sizeof sp, "%s/room72x56-8-99.map.scen", dir);

    gb_gen_opts o = opts_of(GB_GEN_ROOMS, 72, 56, 99);
    o.room = 8;
    o.per_bucket = 4;
    o.max_queries = 100;
    gb_map gm, lm;
    gen_map_ok(&o, &gm);
    gb_scen gs, ls;
    gb_diag d;
    cr_assert_eq(gb_gen_scen(&o, &gm, "room72x56-8-99.map", &gs, &d), 0, "%s", d.msg);

    cr_assert_eq(gb_map_load(mp, &lm, &d), 0, "%s", d.msg);
    cr_assert_eq(lm.grid.width, 72);
    cr_assert_eq(lm.grid.height, 56);
    cr_assert_eq(memcmp(lm.grid.pass, gm.grid.pass, (size_t)gm.grid.ncells), 0);
    cr_assert_eq(memcmp(lm.terrain, gm.terrain, 72 * 56), 0);
    cr_assert_eq(lm.grid.npassable, gm.grid.npassable);

    cr_assert_eq(gb_scen_load(sp, &ls, &d), 0, "%s", d.msg);
    cr_assert_str_eq(ls.map_field, "room72x56-8-99.map");
    cr_assert_eq(ls.version, 1);
    cr_assert_eq(ls.n, gs.n);
    for (size_t i = 0; i < gs.n; i++) {
        const gb_query *a = &gs.q[i], *b = &ls.q[i];
        cr_assert_eq(a->bucket, b->bucket);
        cr_assert(a->sx == b->sx && a->sy == b->sy && a->gx == b->gx && a->gy == b->gy);
        cr_assert_eq(a->line, b->line);
        cr_assert_eq(a->decimals, b->decimals);
        cr_assert_eq(a->tol, b->tol, "tol %.17g vs loaded %.17g", a->tol, b->tol);
        cr_assert_leq(fabs(a->length - b->length), 5e-9 * 1.000001, "query %zu: %.17g vs %.17g",
                      i, a->length, b->length);
        cr_assert_eq(floor(b->length / 4), (double)b->bucket,
                     "query %zu: printed length %.8f not in bucket %d", i, b->length, b->bucket);
    }
    cr_assert_eq(gb_scen_resolve_map(&ls, resolved, sizeof resolved, &d), 0, "%s", d.msg);
    cr_assert_str_eq(resolved, mp);
    cr_assert_eq(gb_scen_check_map(&ls, &lm, &d), 0, "%s", d.msg);

    gb_scen_free(&gs);
    gb_scen_free(&ls);
    gb_map_free(&gm);
    gb_map_free(&lm);
    remove_tree(dir);
}

/* ---- names, options, CLI errors --------------------------------------- */

GB_TEST(gen, name_scheme)
{
    char buf[128];
    gb_gen_opts o = opts_of(GB_GEN_RANDOM, 512, 512, 0);
    cr_assert_eq(gb_gen_name(&o, buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "random512-20-0");
    o.percent = 12.5; o.width = o.height = 256; o.seed = 7;
    gb_gen_name(&o, buf, sizeof buf);
    cr_expect_str_eq(buf, "random256-12.5-7");
    o.percent = 0.000001;
    gb_gen_name(&o, buf, sizeof buf);
    cr_expect_str_eq(buf, "random256-0.000001-7");
    o = opts_of(GB_GEN_MAZE, 512, 512, 0);
    gb_gen_name(&o, buf, sizeof buf);
    cr_expect_str_eq(buf, "maze512-4-0");
    o = opts_of(GB_GEN_ROOMS, 128, 64, 3);
    gb_gen_name(&o, buf, sizeof buf);
    cr_expect_str_eq(buf, "room128x64-16-3");
    cr_expect_eq(gb_gen_name(&o, buf, 8), -1);
    cr_expect_eq(strlen(buf), 7);
    cr_expect_str_eq(gb_gen_family_name(GB_GEN_ROOMS), "rooms");
    cr_expect_eq(gb_gen_family_from_name("maze"), GB_GEN_MAZE);
    cr_expect_eq(gb_gen_family_from_name("room"), -1);
}

GB_TEST(gen, check_messages)
{
    struct { gb_gen_opts o; const char *msg; } cases[6];
    for (int i = 0; i < 6; i++) cases[i].o = opts_of(GB_GEN_RANDOM, 64, 64, 0);
    cases[0].o.percent = 100;
    cases[0].msg = "expected an obstacle percentage from 0 to less than 100, found 100";
    cases[1].o.family = GB_GEN_MAZE; cases[1].o.corridor = 0;
    cases[1].msg = "expected a corridor width from 1 to 1024, found 0";
    cases[2].o.family = GB_GEN_ROOMS; cases[2].o.room = 1;
    cases[2].msg = "expected a room size from 2 to 4096, found 1";
    cases[3].o.family = GB_GEN_MAZE; cases[3].o.width = 1;
    cases[3].msg = "expected a maze map width and height from 2 to 16384, found 1x64";
    cases[4].o.per_bucket = 0;
    cases[4].msg = "expected at least 1 query per bucket, found 0";
    cases[5].o.max_queries = 3;
    cases[5].msg = "expected a query limit of 0 (none) or at least the 10 queries of one "
                   "bucket, found 3";
    for (int i = 0; i < 6; i++) {
        gb_diag d;
        gb_map m;
        cr_expect_eq(gb_gen_map(&cases[i].o, &m, &d), EX_USAGE, "case %d", i);
        cr_expect_str_eq(d.msg, cases[i].msg, "case %d", i);
        cr_expect_null(m.grid.pass);
    }
}

GB_TEST(gen, cli_bad_percent_message, .init = redirect_all)
{
    const char *args[] = { "--family", "random", "--percent", "1e3", NULL };
    cr_assert_eq(run_gen("/tmp/gb-test-gen-unused", args), EX_USAGE);
    fflush(stderr);
    cr_assert_stderr_eq_str("gridbench gen: --percent: expected a number from 0 to less than "
                            "100 with at most 6 decimals (e.g. 20 or 12.5), found '1e3'\n");
}

GB_TEST(gen, cli_option_of_other_family, .init = redirect_all)
{
    const char *args[] = { "--family", "maze", "--room", "8", NULL };
    cr_assert_eq(run_gen("/tmp/gb-test-gen-unused", args), EX_USAGE);
    fflush(stderr);
    cr_assert_stderr_eq_str("gridbench gen: --room: expected with --family rooms, found "
                            "--family maze\n");
}

GB_TEST(gen, cli_usage_errors, .init = redirect_all)
{
    const char *a1[] = { "--size", "10x0", "--family", "random", NULL };
    const char *a2[] = { "--family", "hexes", NULL };
    const char *a3[] = { "--family", "random", "--seed", "-1", NULL };
    const char *a4[] = { "--family", "random", "--model", "6", NULL };
    const char *a5[] = { "--family", "random", "--frobnicate", NULL };
    const char *a6[] = { "--family", "random", "extra", NULL };
    const char *const *all[] = { a1, a2, a3, a4, a5, a6 };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        cr_expect_eq(run_gen("/tmp/gb-test-gen-unused", all[i]), EX_USAGE, "case %zu", i);
    char *noout[] = { (char *)"gen", (char *)"--family", (char *)"maze", NULL };
    cr_expect_eq(gb_cmd_gen(3, noout), EX_USAGE);
    struct stat st;
    cr_expect_neq(stat("/tmp/gb-test-gen-unused", &st), 0, "an error created the directory");
}

GB_TEST(gen, cli_help, .init = redirect_all)
{
    char *argv[] = { (char *)"gen", (char *)"--help", NULL };
    cr_assert_eq(gb_cmd_gen(2, argv), 0);
    fflush(stdout);
    FILE *f = cr_get_redirected_stdout();
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    cr_expect(strstr(buf, "usage: gridbench gen --family random|maze|rooms") == buf);
    cr_expect(strstr(buf, "Example:") != NULL);
}

/* ---- the bundled dataset ---------------------------------------------- */

GB_TEST(gen, default_dataset_matches_regen, .init = redirect_all)
{
    struct stat st;
    if (stat("datasets/default/regen.sh", &st) != 0)
        cr_skip_test("datasets/default not found (run from the repository root)");
    /* The commands of datasets/default/regen.sh (docs/datasets.md quotes them). */
    static const char *const fam[3][4] = {
        { "random", "--percent", "20", "random128-20-1" },
        { "maze", "--corridor", "2", "maze128-2-1" },
        { "rooms", "--room", "16", "room128-16-1" },
    };
    char dir[64];
    make_tmpdir(dir, sizeof dir);
    for (int i = 0; i < 3; i++) {
        const char *args[] = { "--family", fam[i][0], fam[i][1], fam[i][2],
                               "--size", "128x128", "--seed", "1", "--per-bucket", "5",
                               "--max-queries", "150", NULL };
        cr_assert_eq(run_gen(dir, args), 0);
        for (int k = 0; k < 2; k++) {
            char a[256], b[256];
            snprintf(a, sizeof a, "%s/%s.map%s", dir, fam[i][3], k ? ".scen" : "");
            snprintf(b, sizeof b, "datasets/default/%s.map%s", fam[i][3], k ? ".scen" : "");
            cr_expect(same_file(a, b), "%s differs from a fresh generation: run "
                      "datasets/default/regen.sh and review the diff", b);
        }
    }
    remove_tree(dir);
}
