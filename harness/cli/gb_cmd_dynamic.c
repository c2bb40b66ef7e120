/*
 * gb_cmd_dynamic.c -- `gridbench dynamic`: replay dynamic scenarios
 * (docs/dynamic.md) with an agent that plans, moves, sees the map change
 * and replans, once with D* Lite (repairing its search) and, at the same
 * moments on the same map, with A* from scratch; every plan of both is
 * checked against Dijkstra on the map as it is then.
 *
 * One replay (replay()), for one query:
 *   t = 0, agent = start; apply the `near` events the agent already senses;
 *   plan (D* Lite, A*, oracle), check;
 *   while the agent is not on the goal and a path exists:
 *     the agent takes the next step of the D* Lite plan; t += 1;
 *     fire every event not yet fired whose trigger holds (`at T` with
 *     T == t, `near R` with a cell within Chebyshev distance R of the
 *     agent); a fired event sets its cells' passability (a block of the
 *     cell the agent stands on is dropped and counted);
 *     if a cell changed: replan with all three and check.
 * The agent follows D* Lite's path, so both planners are timed on exactly
 * the same sequence of map states and agent positions.  Checks on every
 * plan: D* Lite and A* find a path iff Dijkstra does; both paths pass the
 * independent validator on the current map; both cost exactly (same
 * straight and diagonal step counts) what Dijkstra's path costs.  Any
 * failure makes the row's status "wrong" and the exit status 1.
 *
 * Timing (CLOCK_MONOTONIC, one measurement per plan, the searches cannot
 * be repeated without undoing their state): D* Lite's replan time counts
 * telling it the changed cells (its repair) and its plan; A*'s counts
 * telling its workspace the changed cells and one gb_solve.  The oracle
 * and the checks are not timed.  After each query the map is restored.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gb_alloc.h"
#include "gb_cmd.h"
#include "gb_dstar.h"
#include "gb_dynscen.h"
#include "gb_map.h"
#include "gb_search.h"
#include "gb_validate.h"

#define CMD "gridbench dynamic"

/* The CSV header: one row per query (append-only, a public contract). */
#define DYN_HEADER \
    "file,query,line,map,model,astar,sx,sy,gx,gy,events,status,steps,travelled," \
    "first_cost,cells_changed,dropped,plans,replans," \
    "dstar_first_ns,dstar_replan_ns,dstar_first_expanded,dstar_replan_expanded," \
    "astar_first_ns,astar_replan_ns,astar_first_expanded,astar_replan_expanded," \
    "replan_speedup,message,dstar_replan_pops,dstar_replan_updates"

static void dynamic_usage(FILE *f)
{
    fprintf(f,
"usage: gridbench dynamic [OPTIONS] --out FILE.csv DSCEN...\n"
"\n"
"Replay dynamic scenarios (docs/dynamic.md): an agent plans, moves one cell\n"
"per step, sees cells become blocked or free, and replans -- with D* Lite\n"
"(dstar-lite: the search is kept and repaired) and, at the same moments on\n"
"the same map, with A* from scratch.  Every plan is validated on the map as\n"
"it is then and its cost checked against Dijkstra.  One CSV row per query.\n"
"\n"
"  -o, --out FILE     CSV output (temporary file + rename)\n"
"  -m, --model M      movement model: 8-nocut (default), 8-cut1, 8-cutall, 4\n"
"  -a, --astar S      the from-scratch baseline: any optimal solver of\n"
"                     `gridbench list` (default astar-octile); a family with\n"
"                     per-map tables (jps+, sg) rebuilds them inside its timed\n"
"                     replans, since the map changed\n"
"  -Q, --queue Q      its queue (default bheap)\n"
"  -n, --max-queries N  replay at most the first N queries of each file\n"
"  -q, --quiet        no progress on stderr\n"
"  -h, --help         this text\n"
"\n"
"Exit status: 0 every plan checked; 1 a plan was wrong (status 'wrong');\n"
"64 bad usage; 65 bad input; 66 missing input; 71 out of memory;\n"
"73/74 cannot write.\n"
"\n"
"Example:\n"
"  gridbench gen --dynamic --map M.map --queries 20 --seed 1 --out M.dscen\n"
"  gridbench dynamic --out dyn.csv M.dscen\n");
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* What one planner did over one replay. */
typedef struct plan_acc {
    int64_t first_ns, replan_ns;
    uint64_t first_exp, replan_exp;
    uint64_t replan_pops, replan_updates;   /* D* Lite only */
} plan_acc;

/* Everything one map's replays share. */
typedef struct dyn_ctx {
    gb_map map;              /* the map, changed during a replay, restored after */
    gb_model model;
    gb_ws *ws;               /* A* from scratch and the oracle */
    gb_dstar *ds;
    gb_solver_spec astar, oracle;
    gb_queue_kind queue;
    gb_xy *xy;               /* path buffer for the validator */
    int32_t *cur;            /* the agent's current plan */
    int32_t *changed;        /* cells flipped during the replay (to restore) */
    size_t nchanged, capchanged;
    uint8_t *fired;          /* per event of the query */
    char msg[512];           /* first failure of the replay */
} dyn_ctx;

/* One replay's row values. */
typedef struct dyn_row {
    const char *status;
    int64_t steps;
    double travelled, first_cost;
    int64_t cells_changed, dropped, plans;
    plan_acc ds, as;
} dyn_row;

static void note(dyn_ctx *c, const char *fmt, ...) GB_PRINTF_LIKE(2, 3);
static void note(dyn_ctx *c, const char *fmt, ...)
{
    if (c->msg[0]) return;   /* keep the first */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
}

/* Validate path[0..n) from a to b on the map now; *chk filled. */
static int check_path(dyn_ctx *c, const int32_t *path, int32_t n, int32_t a, int32_t b,
                      double cost, gb_check *chk)
{
    const gb_grid *g = &c->map.grid;
    for (int32_t i = 0; i < n; i++)
        c->xy[i] = (gb_xy){ gb_grid_x(g, path[i]), gb_grid_y(g, path[i]) };
    gb_xy s = { gb_grid_x(g, a), gb_grid_y(g, a) }, t = { gb_grid_x(g, b), gb_grid_y(g, b) };
    return gb_validate_path(g, c->model, s, t, c->xy, (size_t)n, cost, chk);
}

/* Plan with both planners from agent to goal after the changes
 * ids[0..nids) (already applied to the map), check both against the
 * oracle, and copy D* Lite's path into c->cur.  Returns 1 when a path
 * exists, 0 when the goal is unreachable, -1 when a check failed or a
 * solver could not run (*c->msg says why). */
static int plan(dyn_ctx *c, int32_t agent, int32_t goal, const int32_t *ids, size_t nids,
                int first, dyn_row *row, int32_t *len, double *cost)
{
    const gb_grid *g = &c->map.grid;
    /* D* Lite: the repair and the plan */
    gb_dstar_plan dp;
    int64_t t0 = now_ns();
    for (size_t i = 0; i < nids; i++) gb_dstar_cell_changed(c->ds, ids[i]);
    int drc = gb_dstar_plan_path(c->ds, &dp);
    int64_t t1 = now_ns();
    /* A* from scratch */
    for (size_t i = 0; i < nids; i++) gb_ws_cell_changed(c->ws, ids[i]);
    gb_result ar;
    int arc = gb_solve(c->ws, &c->astar, c->queue, agent, goal, &ar);
    int64_t t2 = now_ns();
    if (first) {
        row->ds.first_ns += t1 - t0;
        row->ds.first_exp += dp.expanded;
        row->as.first_ns += t2 - t1;
        row->as.first_exp += ar.st.expanded;
    } else {
        row->ds.replan_ns += t1 - t0;
        row->ds.replan_exp += dp.expanded;
        row->ds.replan_pops += dp.pops;
        row->ds.replan_updates += dp.updates;
        row->as.replan_ns += t2 - t1;
        row->as.replan_exp += ar.st.expanded;
    }
    row->plans++;
    int ax = gb_grid_x(g, agent), ay = gb_grid_y(g, agent);
    if (drc != 0) { note(c, "D* Lite path extraction failed at %d,%d", ax, ay); return -1; }
    if (arc != 0) { note(c, "%s could not run: %s", c->astar.name, strerror(errno)); return -1; }
    int afound = ar.status == GB_FOUND;
    gb_check ac, dc, oc;
    if (afound && !check_path(c, ar.path, ar.path_len, agent, goal, ar.cost, &ac)) {
        note(c, "%s path invalid at %d,%d: %s", c->astar.name, ax, ay, ac.msg);
        return -1;
    }
    /* the oracle (after the A* path was checked: it reuses the workspace) */
    gb_result orr;
    if (gb_solve(c->ws, &c->oracle, GB_Q_BHEAP, agent, goal, &orr) != 0) {
        note(c, "dijkstra could not run: %s", strerror(errno));
        return -1;
    }
    int ofound = orr.status == GB_FOUND;
    if (ofound && !check_path(c, orr.path, orr.path_len, agent, goal, orr.cost, &oc)) {
        note(c, "dijkstra path invalid at %d,%d: %s", ax, ay, oc.msg);
        return -1;
    }
    if (dp.found != ofound || afound != ofound) {
        note(c, "at %d,%d: dijkstra %s a path, D* Lite %s, %s %s", ax, ay,
             ofound ? "finds" : "finds no", dp.found ? "finds one" : "none", c->astar.name,
             afound ? "finds one" : "none");
        return -1;
    }
    if (!ofound) return 0;
    if (!check_path(c, dp.path, dp.path_len, agent, goal, dp.cost, &dc)) {
        note(c, "D* Lite path invalid at %d,%d: %s", ax, ay, dc.msg);
        return -1;
    }
    if (dc.straight != dp.straight || dc.diag != dp.diag || gb_check_cmp(&dc, &oc) != 0) {
        note(c, "at %d,%d: D* Lite cost %.8f (%lld straight, %lld diagonal), dijkstra %.8f",
             ax, ay, dc.cost, (long long)dc.straight, (long long)dc.diag, oc.cost);
        return -1;
    }
    if (gb_check_cmp(&ac, &oc) != 0) {
        note(c, "at %d,%d: %s cost %.8f, dijkstra %.8f", ax, ay, c->astar.name, ac.cost,
             oc.cost);
        return -1;
    }
    memcpy(c->cur, dp.path, (size_t)dp.path_len * sizeof *c->cur);
    *len = dp.path_len;
    *cost = oc.cost;
    return 1;
}

static int cheb_near(const gb_grid *g, int32_t agent, const gb_dyn_cell *cl, size_t n, int32_t r)
{
    int32_t ax = gb_grid_x(g, agent), ay = gb_grid_y(g, agent);
    for (size_t i = 0; i < n; i++) {
        int32_t dx = cl[i].x - ax, dy = cl[i].y - ay;
        if (dx < 0) dx = -dx;
        if (dy < 0) dy = -dy;
        if ((dx > dy ? dx : dy) <= r) return 1;
    }
    return 0;
}

/* Fire the events of query q due at step t with the agent on agent; the
 * cells that changed are appended to c->changed from index *from on.
 * Returns 0, or -1 (out of memory). */
static int fire_events(dyn_ctx *c, const gb_dynscen *s, const gb_dyn_query *q, int64_t t,
                       int32_t agent, dyn_row *row)
{
    gb_grid *g = &c->map.grid;
    for (size_t e = 0; e < q->nev; e++) {
        if (c->fired[e]) continue;
        const gb_dyn_event *ev = &s->ev[q->ev0 + e];
        const gb_dyn_cell *cl = &s->cell[ev->c0];
        int due = ev->trigger == GB_DYN_AT ? ev->value == t
                                           : cheb_near(g, agent, cl, ev->nc, ev->value);
        if (!due) continue;
        c->fired[e] = 1;
        for (size_t i = 0; i < ev->nc; i++) {
            int32_t id = gb_grid_id(g, cl[i].x, cl[i].y);
            if (ev->block && id == agent) { row->dropped++; continue; }
            if (gb_grid_set(g, id, !ev->block) != 1) continue;
            if (c->nchanged == c->capchanged) {
                size_t nc = c->capchanged ? 2 * c->capchanged : 64;
                int32_t *p = gb_realloc(c->changed, nc * sizeof *p);
                if (!p) return -1;
                c->changed = p;
                c->capchanged = nc;
            }
            c->changed[c->nchanged++] = id;
            row->cells_changed++;
        }
    }
    return 0;
}

/* Undo every flip of the replay (the map is the file's again). */
static void restore(dyn_ctx *c)
{
    gb_grid *g = &c->map.grid;
    for (size_t i = c->nchanged; i-- > 0;) {
        int32_t id = c->changed[i];
        gb_grid_set(g, id, !g->pass[id]);
        gb_ws_cell_changed(c->ws, id);
        gb_dstar_cell_changed(c->ds, id);
    }
    c->nchanged = 0;
}

/* Replay query qi.  0, or EX_OSERR. */
static int replay(dyn_ctx *c, const gb_dynscen *s, size_t qi, dyn_row *row)
{
    const gb_dyn_query *q = &s->q[qi];
    const gb_grid *g = &c->map.grid;
    memset(row, 0, sizeof *row);
    c->msg[0] = '\0';
    memset(c->fired, 0, q->nev ? q->nev : 1);
    int32_t agent = gb_grid_id(g, q->sx, q->sy), goal = gb_grid_id(g, q->gx, q->gy);
    if (fire_events(c, s, q, 0, agent, row)) return EX_OSERR;
    /* the changes at t = 0 are part of the map the episode begins on:
     * told before gb_dstar_begin, which forgets any search (gb_dstar.h,
     * "Call order": safe on a fresh object too) */
    for (size_t i = 0; i < c->nchanged; i++) {
        gb_ws_cell_changed(c->ws, c->changed[i]);
        gb_dstar_cell_changed(c->ds, c->changed[i]);
    }
    gb_dstar_begin(c->ds, agent, goal);
    int32_t len = 0, at = 0;
    double cost = 0;
    int r = plan(c, agent, goal, NULL, 0, 1, row, &len, &cost);
    row->first_cost = r == 1 ? cost : 0;
    /* the step limit only guards against a bug: every event fires once,
     * and between events the agent walks a shortest path */
    int64_t limit = (int64_t)g->ncells * (int64_t)(q->nev + 1) + 1;
    while (r == 1 && agent != goal && row->steps < limit) {
        int32_t next = c->cur[++at];
        int k = 0;
        while (k < 8 && agent + g->off[k] != next) k++;
        if (k == 8) { note(c, "plan steps from cell %d to a non-neighbour %d", agent, next); break; }
        row->travelled += gb_dir_cost[k];
        agent = next;
        row->steps++;
        gb_dstar_move(c->ds, agent);
        size_t before = c->nchanged;
        if (fire_events(c, s, q, row->steps, agent, row)) return EX_OSERR;
        if (c->nchanged > before) {
            r = plan(c, agent, goal, c->changed + before, c->nchanged - before, 0, row, &len,
                     &cost);
            at = 0;
        }
    }
    if (r == 1 && agent != goal && !c->msg[0]) note(c, "step limit %lld reached", (long long)limit);
    row->status = c->msg[0] ? "wrong" : r == 0 ? "unreachable" : "arrived";
    restore(c);
    return 0;
}

static void csv_text(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void ctx_free(dyn_ctx *c)
{
    gb_dstar_free(c->ds);
    gb_ws_free(c->ws);
    gb_map_free(&c->map);
    gb_free(c->xy);
    gb_free(c->cur);
    gb_free(c->changed);
    gb_free(c->fired);
    memset(c, 0, sizeof *c);
}

/* Totals over the whole run, for the closing line. */
typedef struct dyn_total {
    long queries, wrong, replans;
    double *ratio;           /* per-query replan_speedup, for the median */
    size_t nratio, capratio;
    int64_t ds_ns, as_ns;
    uint64_t ds_exp, as_exp;
} dyn_total;

/* Replay every query of one file, rows to out.  0, or a sysexits code
 * after printing why. */
static int run_file(const char *path, gb_model model, const gb_solver_spec *astar,
                    gb_queue_kind queue, long maxq, int quiet, FILE *out, dyn_total *tot)
{
    gb_diag d;
    gb_dynscen s;
    int rc = gb_dynscen_load(path, &s, &d);
    if (rc) { fputs(CMD ": ", stderr); gb_diag_print(&d, stderr); return rc; }
    char mp[4096];
    dyn_ctx c;
    memset(&c, 0, sizeof c);
    rc = gb_dynscen_resolve_map(&s, mp, sizeof mp, &d);
    if (!rc) rc = gb_map_load(mp, &c.map, &d);
    if (rc) {
        fputs(CMD ": ", stderr);
        gb_diag_print(&d, stderr);
        gb_dynscen_free(&s);
        return rc;
    }
    const gb_grid *g = &c.map.grid;
    char err[128];
    c.model = model;
    c.astar = *astar;
    c.queue = queue;
    gb_solver_parse("dijkstra", &c.oracle, err, sizeof err);
    c.ws = gb_ws_new(g, model);
    c.ds = gb_dstar_new(g, model);
    c.xy = gb_malloc((size_t)g->ncells * sizeof *c.xy);
    c.cur = gb_malloc((size_t)g->ncells * sizeof *c.cur);
    size_t maxev = 1;
    for (size_t i = 0; i < s.n; i++) if (s.q[i].nev > maxev) maxev = s.q[i].nev;
    c.fired = gb_malloc(maxev);
    if (!c.ws || !c.ds || !c.xy || !c.cur || !c.fired) {
        fprintf(stderr, CMD ": %s: expected memory for the searches, found none\n", mp);
        ctx_free(&c);
        gb_dynscen_free(&s);
        return EX_OSERR;
    }
    size_t n = s.n;
    if (maxq > 0 && (size_t)maxq < n) n = (size_t)maxq;
    if (!quiet)
        fprintf(stderr, CMD ": %s: %zu queries on %s (%dx%d, %s)\n", path, n, mp,
                (int)g->width, (int)g->height, gb_model_name(model));
    for (size_t i = 0; i < n && rc == 0; i++) {
        rc = gb_dynscen_check_query(&s, i, &c.map, &d);
        if (rc) { fputs(CMD ": ", stderr); gb_diag_print(&d, stderr); break; }
        dyn_row row;
        rc = replay(&c, &s, i, &row);
        if (rc) { fprintf(stderr, CMD ": out of memory\n"); break; }
        const gb_dyn_query *q = &s.q[i];
        int64_t replans = row.plans - 1;
        csv_text(out, path);
        fprintf(out, ",%zu,%ld,", i + 1, q->line);
        csv_text(out, s.map_field);
        fprintf(out, ",%s,%s,%d,%d,%d,%d,%zu,%s,%lld,%.8f,%.8f,%lld,%lld,%lld,%lld,"
                "%lld,%lld,%llu,%llu,%lld,%lld,%llu,%llu,",
                gb_model_name(model), astar->name, (int)q->sx, (int)q->sy, (int)q->gx,
                (int)q->gy, q->nev, row.status, (long long)row.steps, row.travelled,
                row.first_cost, (long long)row.cells_changed, (long long)row.dropped,
                (long long)row.plans, (long long)replans, (long long)row.ds.first_ns,
                (long long)row.ds.replan_ns, (unsigned long long)row.ds.first_exp,
                (unsigned long long)row.ds.replan_exp, (long long)row.as.first_ns,
                (long long)row.as.replan_ns, (unsigned long long)row.as.first_exp,
                (unsigned long long)row.as.replan_exp);
        if (replans > 0 && row.ds.replan_ns > 0) {
            double ratio = (double)row.as.replan_ns / (double)row.ds.replan_ns;
            fprintf(out, "%.4f", ratio);
            if (tot->nratio == tot->capratio) {
                size_t ncap = tot->capratio ? 2 * tot->capratio : 64;
                double *p = gb_realloc(tot->ratio, ncap * sizeof *p);
                if (p) { tot->ratio = p; tot->capratio = ncap; }
            }
            if (tot->nratio < tot->capratio) tot->ratio[tot->nratio++] = ratio;
        }
        fputc(',', out);
        csv_text(out, c.msg);
        fprintf(out, ",%llu,%llu\n", (unsigned long long)row.ds.replan_pops,
                (unsigned long long)row.ds.replan_updates);
        tot->queries++;
        tot->replans += replans;
        tot->ds_ns += row.ds.replan_ns;
        tot->as_ns += row.as.replan_ns;
        tot->ds_exp += row.ds.replan_exp;
        tot->as_exp += row.as.replan_exp;
        if (c.msg[0]) {
            tot->wrong++;
            fprintf(stderr, CMD ": %s:%ld: wrong: %s\n", path, q->line, c.msg);
        }
        if (!quiet && ((i + 1) % 10 == 0 || i + 1 == n))
            fprintf(stderr, CMD ": %s: %zu/%zu queries, %ld replans so far\n", path, i + 1, n,
                    tot->replans);
    }
    ctx_free(&c);
    gb_dynscen_free(&s);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int gb_cmd_dynamic(int argc, char **argv)
{
    static const struct option lo[] = {
        { "out", required_argument, 0, 'o' },   { "model", required_argument, 0, 'm' },
        { "astar", required_argument, 0, 'a' }, { "queue", required_argument, 0, 'Q' },
        { "max-queries", required_argument, 0, 'n' },
        { "quiet", no_argument, 0, 'q' },       { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 }
    };
    const char *out = NULL, *astar_name = "astar-octile", *queue_name = "bheap";
    gb_model model = GB_MODEL_8_NOCUT;
    long maxq = 0;
    int quiet = 0, c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:m:a:Q:n:qh", lo, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'm': { int e = gb_cli_model(CMD, optarg, &model); if (e) return e; break; }
        case 'a': astar_name = optarg; break;
        case 'Q': queue_name = optarg; break;
        case 'n': {
            char *end;
            errno = 0;
            maxq = strtol(optarg, &end, 10);
            if (errno || *end || end == optarg || maxq < 1 || optarg[0] < '0' || optarg[0] > '9') {
                fprintf(stderr, CMD ": --max-queries: expected a positive integer, found '%s'\n",
                        optarg);
                return EX_USAGE;
            }
            break;
        }
        case 'q': quiet = 1; break;
        case 'h': dynamic_usage(stdout); return 0;
        case ':':
            fprintf(stderr, CMD ": %s: expected a value, found none\n", argv[optind - 1]);
            return EX_USAGE;
        default:
            fprintf(stderr, CMD ": expected an option listed by --help, found '%s'\n",
                    argv[optind - 1]);
            return EX_USAGE;
        }
    }
    if (!out) {
        fprintf(stderr, CMD ": expected --out FILE, found none (see `gridbench dynamic --help`)\n");
        return EX_USAGE;
    }
    if (optind >= argc) {
        fprintf(stderr, CMD ": expected one or more dynamic scenario files, found none\n");
        return EX_USAGE;
    }
    gb_solver_spec sp;
    char err[256];
    if (gb_solver_parse(astar_name, &sp, err, sizeof err) != 0) {
        fprintf(stderr, CMD ": --astar: %s\n", err);
        return EX_USAGE;
    }
    double bound;
    if (gb_solver_guarantee(&sp, model, &bound) != GB_GUAR_OPTIMAL
        || gb_solver_unsupported(&sp, model, err, sizeof err)) {
        fprintf(stderr, CMD ": --astar: expected an optimal solver that runs under model %s, "
                "found '%s'\n", gb_model_name(model), astar_name);
        return EX_USAGE;
    }
    int qk = gb_queue_from_name(queue_name);
    if (qk < 0) {
        char names[512];
        gb_queue_names(names, sizeof names);
        fprintf(stderr, CMD ": --queue: expected one of %s, found '%s'\n", names, queue_name);
        return EX_USAGE;
    }
    gb_diag d;
    gb_diag_clear(&d);
    if (gb_out_check(out, argv + optind, argc - optind, &d) != 0) {
        fputs(CMD ": ", stderr);
        gb_diag_print(&d, stderr);
        return d.code;
    }
    char tmp[4200];
    FILE *f = gb_tmp_open(out, tmp, sizeof tmp, &d);
    if (!f) { fputs(CMD ": ", stderr); gb_diag_print(&d, stderr); return d.code; }
    fputs(DYN_HEADER "\n", f);
    dyn_total tot;
    memset(&tot, 0, sizeof tot);
    int rc = 0;
    for (int i = optind; i < argc && rc == 0; i++)
        rc = run_file(argv[i], model, &sp, (gb_queue_kind)qk, maxq, quiet, f, &tot);
    if (rc) { gb_tmp_abort(f, tmp); gb_free(tot.ratio); return rc; }
    if (gb_tmp_commit(f, tmp, out, &d) != 0) {
        fputs(CMD ": ", stderr);
        gb_diag_print(&d, stderr);
        gb_free(tot.ratio);
        return d.code;
    }
    /* no replans, no ratio and no array: qsort(NULL, 0) is undefined */
    if (tot.nratio > 1) qsort(tot.ratio, tot.nratio, sizeof *tot.ratio, cmp_double);
    if (!quiet) {
        fprintf(stderr, CMD ": wrote %s: %ld queries, %ld wrong, %ld replans\n", out,
                tot.queries, tot.wrong, tot.replans);
        if (tot.replans > 0 && tot.ds_ns > 0) {
            fprintf(stderr, CMD ": replanning: D* Lite %.3f ms, %llu expansions; %s from "
                    "scratch %.3f ms, %llu expansions; speed-up %.2fx time", tot.ds_ns / 1e6,
                    (unsigned long long)tot.ds_exp, sp.name, tot.as_ns / 1e6,
                    (unsigned long long)tot.as_exp, (double)tot.as_ns / (double)tot.ds_ns);
            if (tot.ds_exp > 0)
                fprintf(stderr, ", %.2fx expansions", (double)tot.as_exp / (double)tot.ds_exp);
            fputc('\n', stderr);
        }
        if (tot.nratio > 0)
            fprintf(stderr, CMD ": per-query replan_speedup: median %.2fx over %zu queries "
                    "with replans (robust to a busy machine's outliers)\n",
                    tot.nratio % 2 ? tot.ratio[tot.nratio / 2]
                                   : (tot.ratio[tot.nratio / 2 - 1] + tot.ratio[tot.nratio / 2]) / 2,
                    tot.nratio);
    }
    gb_free(tot.ratio);
    return tot.wrong ? 1 : 0;
}
