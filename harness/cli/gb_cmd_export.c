/*
 * gb_cmd_export.c -- `gridbench export`: a run's CSV in the formats of
 * the field, so results can be set beside published ones.
 *
 *   --gppc        GPPC's result.csv (startkit-classic main.cpp): one line
 *                 per query of one solver x queue, times in ns;
 *   --gppc-table  the table GPPC publishes per entry (gb_gppc_table.h),
 *                 one line per map set x solver x queue, with the
 *                 undominated mark.
 *
 * GPPC's result.csv columns and how they are filled:
 *   map,scen        the row's map and scenario file
 *   experiment_id   the query's index in the scenario file (line - 2:
 *                   line 1 is "version 1"), as GPPC counts experiments
 *   path_size       the number of waypoints (from --paths; empty without)
 *   path_length     the path's cost (0 when no path, as GPPC writes it)
 *   ref_length      the scenario's printed optimum
 *   time_cost, 20steps_cost, max_step_time   time_ns, first20_ns,
 *                   max_call_ns (ns; under --regime gppc, means over passes)
 * Output goes to a temporary file renamed at the end.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_cmd.h"
#include "gb_csv.h"
#include "gb_gppc_table.h"

#define CMD "gridbench export"

enum { OPT_GPPC = 256, OPT_TABLE, OPT_PATHS };

static const gb_opt export_opts[] = {
    { OPT_GPPC, 0, "gppc", NULL, "write GPPC's result.csv (map, scen, experiment_id, path_size, "
      "path_length, ref_length, time_cost, 20steps_cost, max_step_time) of one solver x queue" },
    { OPT_TABLE, 0, "gppc-table", NULL, "write the table GPPC publishes per entry, per map set x "
      "solver x queue: total time with its 95 % interval, first-20-steps time, longest call, "
      "preprocessing time and storage, peak memory, suboptimality, undominated (docs/gppc.md)" },
    { 's', 's', "solver", "NAME", "with --gppc: the solver to export (needed when the run has "
      "several)" },
    { 'q', 'q', "queue", "NAME", "with --gppc: its queue (needed when the solver ran on several)" },
    { OPT_PATHS, 0, "paths", "FILE", "with --gppc: the run's `--paths` file, for path_size (the "
      "number of waypoints); without it path_size is empty" },
    { 'o', 'o', "out", "FILE", "the output file (temporary file, then renamed); default standard "
      "output" },
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

const gb_cmd_doc gb_doc_export = {
    "export", "--gppc|--gppc-table [OPTIONS] RUN.csv",
    "write a run's CSV as GPPC's result.csv or as GPPC's per-entry table",
    "Write the per-query CSV of `gridbench run` in the formats of the Grid-Based Path Planning "
    "Competition, so that results can be set beside GPPC's published ones.",
    export_opts, NULL,
    "gridbench run --regime gppc --reps 3 --gppc ~/gppc/entry -s jps -o run.csv maps/*.scen\n"
    "gridbench export --gppc --solver jps --queue bheap -o result.csv run.csv\n"
    "gridbench export --gppc-table -o gppc.csv run.csv",
    "0 written; 64 bad usage; 65 bad input (file:line says what); 66 a file is unreadable; 71 out "
    "of memory; 73/74 cannot write."
};

static int fail(const gb_diag *d)
{
    fputs(CMD ": ", stderr);
    gb_diag_print(d, stderr);
    return d->code;
}

/* The waypoint counts of the paths file, keyed "scen\x1fline\x1fsolver\x1fqueue". */
typedef struct pathsz {
    char **key;
    long *n;
    size_t len, cap;
} pathsz;

static int paths_load(const char *path, pathsz *p, gb_diag *d)
{
    gb_csv c;
    int rc = gb_csv_open(&c, path, d);
    if (rc) return rc;
    static const char *const need[] = { "scen", "line", "solver", "queue", "waypoints" };
    int idx[5];
    if ((rc = gb_csv_require(&c, need, 5, idx, d)) != 0) { gb_csv_close(&c); return rc; }
    while ((rc = gb_csv_next(&c, d)) == 0) {
        if (p->len == p->cap) {
            size_t nc = p->cap ? 2 * p->cap : 256;
            char **nk = gb_realloc(p->key, nc * sizeof *nk);
            if (!nk) { rc = EX_OSERR; break; }
            p->key = nk;
            long *nn = gb_realloc(p->n, nc * sizeof *nn);
            if (!nn) { rc = EX_OSERR; break; }
            p->n = nn;
            p->cap = nc;
        }
        char key[2048];
        snprintf(key, sizeof key, "%s\x1f%s\x1f%s\x1f%s", gb_csv_field(&c, idx[0]), gb_csv_field(&c, idx[1]),
                 gb_csv_field(&c, idx[2]), gb_csv_field(&c, idx[3]));
        long n = 0;
        for (const char *w = gb_csv_field(&c, idx[4]); *w; w++) n += *w == ':';
        size_t kl = strlen(key) + 1;
        p->key[p->len] = gb_malloc(kl);
        if (!p->key[p->len]) { rc = EX_OSERR; break; }
        memcpy(p->key[p->len], key, kl);
        p->n[p->len++] = n;
    }
    gb_csv_close(&c);
    if (rc == EX_OSERR) return gb_diag_set(d, EX_OSERR, path, 0, 0, "expected memory, found none");
    return rc == GB_CSV_EOF ? 0 : rc;
}

static void paths_free(pathsz *p)
{
    for (size_t i = 0; i < p->len; i++) gb_free(p->key[i]);
    gb_free(p->key);
    gb_free(p->n);
}

/* The waypoints of key, or -1.  Lines come in the run's order, so the
 * search starts where the last one ended. */
static long paths_find(const pathsz *p, const char *key, size_t *hint)
{
    for (size_t k = 0; k < p->len; k++) {
        size_t i = (*hint + k) % p->len;
        if (strcmp(p->key[i], key) == 0) { *hint = i + 1; return p->n[i]; }
    }
    return -1;
}

static int export_gppc(const char *in, const char *solver, const char *queue, const char *paths, FILE *f,
                       gb_diag *d)
{
    pathsz ps;
    memset(&ps, 0, sizeof ps);
    int rc = paths ? paths_load(paths, &ps, d) : 0;
    if (rc) { paths_free(&ps); return rc; }
    gb_csv c;
    if ((rc = gb_csv_open(&c, in, d)) != 0) { paths_free(&ps); return rc; }
    static const char *const need[] = { "map", "scen", "line", "solver", "queue", "cost", "scen_cost",
                                        "time_ns" };
    int idx[8];
    if ((rc = gb_csv_require(&c, need, 8, idx, d)) != 0) goto done;
    const int c_f20 = gb_csv_col(&c, "first20_ns"), c_mc = gb_csv_col(&c, "max_call_ns");
    char first[2][128] = { "", "" };
    long rows = 0;
    size_t hint = 0;
    fputs("map,scen,experiment_id,path_size,path_length,ref_length,time_cost,20steps_cost,"
          "max_step_time\n", f);
    while ((rc = gb_csv_next(&c, d)) == 0) {
        const char *s = gb_csv_field(&c, idx[3]), *q = gb_csv_field(&c, idx[4]);
        if ((solver && strcmp(s, solver) != 0) || (queue && strcmp(q, queue) != 0)) continue;
        if (!first[0][0]) {   /* the pair exported: every kept row must be of it */
            snprintf(first[0], sizeof first[0], "%s", s);
            snprintf(first[1], sizeof first[1], "%s", q);
        } else if (strcmp(s, first[0]) != 0 || strcmp(q, first[1]) != 0) {
            rc = gb_diag_set(d, EX_USAGE, in, c.line, 0, "expected the rows of one solver x queue "
                             "(choose with --solver and --queue), found %s/%s and %s/%s", first[0],
                             first[1], s, q);
            break;
        }
        long line = atol(gb_csv_field(&c, idx[2]));
        const char *cost = gb_csv_field(&c, idx[5]);
        gb_csv_write_str(f, gb_csv_field(&c, idx[0]));
        fputc(',', f);
        gb_csv_write_str(f, gb_csv_field(&c, idx[1]));
        fprintf(f, ",%ld,", line - 2);
        if (paths) {
            char key[2048];
            snprintf(key, sizeof key, "%s\x1f%s\x1f%s\x1f%s", gb_csv_field(&c, idx[1]),
                     gb_csv_field(&c, idx[2]), s, q);
            long n = paths_find(&ps, key, &hint);
            fprintf(f, "%ld", n < 0 ? 0 : n);
        }
        fprintf(f, ",%s,%s,%s,%s,%s\n", *cost ? cost : "0", gb_csv_field(&c, idx[6]),
                gb_csv_field(&c, idx[7]), c_f20 >= 0 ? gb_csv_field(&c, c_f20) : "",
                c_mc >= 0 ? gb_csv_field(&c, c_mc) : "");
        rows++;
    }
    if (rc == GB_CSV_EOF) rc = 0;
    if (!rc && rows == 0)
        rc = gb_diag_set(d, EX_DATAERR, in, 0, 0, "expected rows of %s%s%s, found none",
                         solver ? solver : "a solver", queue ? " on " : "", queue ? queue : "");
done:
    gb_csv_close(&c);
    paths_free(&ps);
    return rc;
}

int gb_cmd_export(int argc, char **argv)
{
    const char *arg, *out = NULL, *solver = NULL, *queue = NULL, *paths = NULL;
    int mode = 0, c;
    gb_opt_parser op;
    if (gb_opt_begin(&op, &gb_doc_export) != 0) return EX_OSERR;
    while ((c = gb_opt_next(&op, argc, argv, &arg)) != -1) {
        switch (c) {
        case OPT_GPPC: case OPT_TABLE:
            if (mode && mode != c) {
                gb_opt_end(&op);
                fprintf(stderr, CMD ": expected --gppc or --gppc-table, found both\n");
                return EX_USAGE;
            }
            mode = c;
            break;
        case 's': solver = arg; break;
        case 'q': queue = arg; break;
        case OPT_PATHS: paths = arg; break;
        case 'o': out = arg; break;
        case 'h': gb_opt_end(&op); gb_opt_help(&gb_doc_export, stdout); return 0;
        default: gb_opt_end(&op); return EX_USAGE;
        }
    }
    gb_opt_end(&op);
    if (!mode) {
        fprintf(stderr, CMD ": expected --gppc or --gppc-table, found neither\n");
        return EX_USAGE;
    }
    if (optind != argc - 1) {
        fprintf(stderr, CMD ": expected one RUN.csv, found %d arguments\n", argc - optind);
        return EX_USAGE;
    }
    if (mode == OPT_TABLE && (solver || queue || paths)) {
        fprintf(stderr, CMD ": --gppc-table: expected no --solver, --queue or --paths (the table has "
                "every pair), found one\n");
        return EX_USAGE;
    }
    gb_diag d;
    gb_diag_clear(&d);
    char tmp[4200];
    FILE *f = out ? gb_tmp_open(out, tmp, sizeof tmp, &d) : stdout;
    if (!f) return fail(&d);
    int rc;
    if (mode == OPT_GPPC) {
        rc = export_gppc(argv[optind], solver, queue, paths, f, &d);
    } else {
        gb_boot b;
        gb_boot_default(&b);
        gb_gtab t;
        rc = gb_gtab_build(argv[optind], &b, &t, &d);
        if (!rc) gb_gtab_write_csv(&t, f);
        gb_gtab_free(&t);
    }
    if (out) {
        if (rc) gb_tmp_abort(f, tmp);
        else if (gb_tmp_commit(f, tmp, out, &d) != 0) rc = d.code;
    } else if (!rc && (fflush(stdout) != 0 || ferror(stdout))) {
        rc = gb_diag_set(&d, EX_IOERR, "<stdout>", 0, 0, "expected to write the output, found an error");
    }
    return rc ? fail(&d) : 0;
}
