/*
 * gb_cmd_summary.c -- `gridbench summary`: the per-query CSV of
 * `gridbench run` in, one row per map x solver x queue out (and, with
 * --plot-data, the data files of the plots).  The statistics and their
 * definitions are in gb_summary.h.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gb_cmd.h"
#include "gb_facets.h"
#include "gb_summary.h"

#define CMD "gridbench summary"

enum { OPT_RESAMPLES = 256, OPT_SEED };

static const gb_opt summary_opts[] = {
    { 'o', 'o', "out", "FILE", "summary CSV (temporary file, then renamed; default standard output)" },
    { 'p', 'p', "plot-data", "DIR",
      "also write the gnuplot data files into DIR (created if missing): "
      "meta.tsv maps.tsv bucket-MAP.tsv speedup.tsv queues.tsv cactus.tsv, and what the faceted plots "
      "read: panels-MAP.gp panels-cactus.gp speedup-g.tsv speedup-maps.gp queues-MAP.tsv tradeoff.tsv" },
    { OPT_RESAMPLES, 0, "resamples", "N",
      "bootstrap resamples, 1 to 1000000 (default " GB_STR(GB_BOOT_RESAMPLES) ")" },
    { OPT_SEED, 0, "seed", "N",
      "bootstrap seed, an unsigned 64-bit integer (default " GB_STR(GB_BOOT_SEED) ")" },
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

const gb_cmd_doc gb_doc_summary = {
    "summary",
    "QUERIES.csv [--out SUMMARY.csv] [--plot-data DIR] [--resamples N] [--seed N]",
    "per map x solver x queue statistics of a run's per-query CSV (percentiles, speedups)",
    "Summarise the per-query CSV of `gridbench run`: one row per map x solver x queue with n, the "
    "median, mean, 25th/75th/95th percentile and IQR of time_ns, the median cold time, mean and "
    "median expansions, the speedup over dijkstra on bheap (ratio of median times on the queries "
    "both ran; only for solvers of the same time_source: an external solver's round trip or a "
    "plugin call is never divided into an in-process time), mean and max suboptimality for "
    "bounded and unbounded solvers, and the status counts.  Columns are found by header name, so "
    "their order does not matter.\n"
    "\n"
    "Last come time_source (inproc, process, plugin; 'mixed' when a solver's rows disagree), "
    "prep_ns_max (per-map preparation) and prep_amortised_ns (mean time + prep_ns_max / n: "
    "preparation spread over the queries; the mean time when there is none), then lb_ratio_mean (mean "
    "cost / straight-line "
    "distance: how close the paths come to the Euclidean lower bound; any-angle solvers come "
    "closest).\n"
    "\n"
    "Intervals (time_median_lo_ns, time_median_hi_ns, speedup_lo, speedup_hi): 95% confidence "
    "intervals of the median time (bootstrap over the group's queries) and of the speedup (paired "
    "bootstrap over the queries shared with dijkstra on bheap); percentile method, " GB_STR(
        GB_BOOT_RESAMPLES) " resamples, splitmix64 seed " GB_STR(GB_BOOT_SEED) " by default "
                                                                               "(--resamples, --seed).  "
                                                                               "Two figures whose "
                                                                               "intervals overlap are a "
                                                                               "tie.\n"
                                                                               "\n"
                                                                               "Percentiles interpolate "
                                                                               "linearly between "
                                                                               "closest ranks (Hyndman "
                                                                               "& Fan type 7, R's "
                                                                               "default): "
                                                                               "h = (n-1)p, Q = x[floor "
                                                                               "h] + frac(h) (x[floor "
                                                                               "h+1] - x[floor h]) over "
                                                                               "the sorted values; the "
                                                                               "median is Q(0.5).",
    summary_opts,
    NULL,
    "gridbench summary results/latest/queries.csv --out /tmp/summary.csv",
    "0 written; 64 bad usage; 65 bad CSV (the message names the line); 66 unreadable input; 71 out "
    "of memory; 73/74 cannot write."
};

static int report(const gb_diag *d)
{
    fprintf(stderr, CMD ": ");
    gb_diag_print(d, stderr);
    return d->code;
}

/* Remove the folder this process made for --plot-data and the files it
 * wrote there (a failure after some of them were written). */
static void remove_made_dir(const char *dir)
{
    DIR *dp = opendir(dir);
    if (dp) {
        char p[4300];
        for (struct dirent *e; (e = readdir(dp)) != NULL;) {
            if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
                continue;
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(dp);
    }
    rmdir(dir);
}

int gb_cmd_summary(int argc, char **argv)
{
    const char *out = NULL, *plot = NULL, *arg;
    gb_boot boot;
    gb_boot_default(&boot);
    int c;
    gb_opt_parser op;
    if (gb_opt_begin(&op, &gb_doc_summary) != 0) return EX_OSERR;
    while ((c = gb_opt_next(&op, argc, argv, &arg)) != -1) {
        switch (c) {
        case 'o': out = arg; break;
        case 'p': plot = arg; break;
        case OPT_RESAMPLES:
        case OPT_SEED: {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(arg, &end, 10);
            unsigned long long max = c == OPT_RESAMPLES ? 1000000 : UINT64_MAX;
            if (!arg[0] || *end || errno || arg[0] == '-' || v > max || (c == OPT_RESAMPLES && v < 1)) {
                fprintf(stderr, CMD ": %s: expected an integer in %d..%llu, found '%s'\n",
                        c == OPT_RESAMPLES ? "--resamples" : "--seed", c == OPT_RESAMPLES ? 1 : 0, max, arg);
                gb_opt_end(&op);
                return EX_USAGE;
            }
            if (c == OPT_RESAMPLES) boot.resamples = (int)v;
            else boot.seed = v;
            break;
        }
        case 'h': gb_opt_end(&op); gb_opt_help(&gb_doc_summary, stdout); return 0;
        default: gb_opt_end(&op); return EX_USAGE;   /* gb_opt_next said why */
        }
    }
    gb_opt_end(&op);
    if (argc - optind != 1) {
        fprintf(stderr, CMD ": expected one QUERIES.csv, found %d file arguments\n", argc - optind);
        gb_opt_help(&gb_doc_summary, stderr);
        return EX_USAGE;
    }
    if ((out && !out[0]) || (plot && !plot[0])) {
        fprintf(stderr, CMD ": expected a non-empty file name, found an empty string\n");
        return EX_USAGE;
    }
    gb_diag d;
    gb_diag_clear(&d);
    gb_summary *s;
    int rc = out ? gb_out_check(out, argv + optind, 1, &d) : 0;
    if (!rc) rc = gb_summary_load_with(argv[optind], &boot, &s, &d);
    if (rc) return report(&d);
    if (plot) {
        struct stat st;
        int made = 0;
        if (stat(plot, &st) != 0) {
            if (mkdir(plot, 0777) != 0) {
                fprintf(stderr, CMD ": %s: expected a directory for --plot-data, found none and "
                        "could not create it\n", plot);
                gb_summary_free(s);
                return EX_CANTCREAT;
            }
            made = 1;
        }
        if ((rc = gb_summary_write_plot_data(s, plot, &d)) != 0
            || (rc = gb_facets_write(s, argv[optind], plot, &d)) != 0) {
            if (made) remove_made_dir(plot); /* ours: nothing of a failed run stays */
            gb_summary_free(s);
            return report(&d);
        }
    }
    rc = gb_summary_write_csv(s, out, &d);
    if (!rc && out)
        fprintf(stderr, CMD ": %zu rows -> %zu groups in %s\n", gb_summary_nrows(s),
                gb_summary_ngroups(s), out);
    gb_summary_free(s);
    return rc ? report(&d) : 0;
}
