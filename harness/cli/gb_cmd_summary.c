/*
 * gb_cmd_summary.c -- `gridbench summary`: the per-query CSV of
 * `gridbench run` in, one row per map x solver x queue out (and, with
 * --plot-data, the data files of the plots).  The statistics and their
 * definitions are in gb_summary.h.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gb_cmd.h"
#include "gb_summary.h"

#define CMD "gridbench summary"

static void summary_usage(FILE *f)
{
    fprintf(f,
"usage: gridbench summary QUERIES.csv [--out SUMMARY.csv] [--plot-data DIR]\n"
"                         [--resamples N] [--seed N]\n"
"\n"
"Summarise the per-query CSV of `gridbench run`: one row per map x solver x\n"
"queue with n, the median, mean, 25th/75th/95th percentile and IQR of\n"
"time_ns, the median cold time, mean and median expansions, the speedup over\n"
"dijkstra on bheap (ratio of median times on the queries both ran; only for\n"
"solvers of the same time_source: an external solver's round trip or a plugin\n"
"call is never divided into an in-process time), mean and\n"
"max suboptimality for bounded and unbounded solvers, and the status counts.\n"
"Columns are found by header name, so their order does not matter.\n"
"\n"
"Last come time_source (inproc, process, plugin; 'mixed' when a solver's rows\n"
"disagree), prep_ns_max (per-map preparation) and prep_amortised_ns (mean time\n"
"+ prep_ns_max / n: preparation spread over the queries), then lb_ratio_mean\n"
"(mean cost / straight-line distance: how close the paths come to the\n"
"Euclidean lower bound; any-angle solvers come closest).\n"
"\n"
"Intervals (time_median_lo_ns, time_median_hi_ns, speedup_lo, speedup_hi): 95%%\n"
"confidence intervals of the median time (bootstrap over the group's queries)\n"
"and of the speedup (paired\n"
"bootstrap over the queries shared with dijkstra on bheap); percentile\n"
"method, %d resamples, splitmix64 seed %d by default.  Two figures whose\n"
"intervals overlap are a tie.\n"
"\n"
"Percentiles interpolate linearly between closest ranks (Hyndman & Fan\n"
"type 7, R's default): h = (n-1)p, Q = x[floor h] + frac(h) (x[floor h+1] -\n"
"x[floor h]) over the sorted values; the median is Q(0.5).\n"
"\n"
"  -o, --out FILE        summary CSV (temp file, then renamed; default stdout)\n"
"  -p, --plot-data DIR   also write the gnuplot data files into DIR (created\n"
"                        if missing): meta.tsv maps.tsv bucket-MAP.tsv\n"
"                        speedup.tsv queues.tsv cactus.tsv\n"
"      --resamples N     bootstrap resamples (default %d)\n"
"      --seed N          bootstrap seed (default %d)\n"
"  -h, --help            this text\n"
"\n"
"Exit status: 0 written; 64 bad usage; 65 bad CSV (the message names the\n"
"line); 66 unreadable input; 71 out of memory; 73/74 cannot write.\n"
"\n"
"Example:\n"
"  gridbench summary results/latest/queries.csv --out /tmp/summary.csv\n",
            GB_BOOT_RESAMPLES, GB_BOOT_SEED, GB_BOOT_RESAMPLES, GB_BOOT_SEED);
}

static int report(const gb_diag *d)
{
    fprintf(stderr, CMD ": ");
    gb_diag_print(d, stderr);
    return d->code;
}

int gb_cmd_summary(int argc, char **argv)
{
    static const struct option lo[] = {
        { "out", required_argument, 0, 'o' }, { "plot-data", required_argument, 0, 'p' },
        { "resamples", required_argument, 0, 'R' }, { "seed", required_argument, 0, 'S' },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 }
    };
    const char *out = NULL, *plot = NULL;
    gb_boot boot;
    gb_boot_default(&boot);
    int c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:p:h", lo, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'p': plot = optarg; break;
        case 'R':
        case 'S': {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(optarg, &end, 10);
            unsigned long long max = c == 'R' ? 1000000 : UINT64_MAX;
            if (!optarg[0] || *end || errno || optarg[0] == '-' || v > max || (c == 'R' && v < 1)) {
                fprintf(stderr, CMD ": %s: expected an integer in %d..%llu, found '%s'\n",
                        c == 'R' ? "--resamples" : "--seed", c == 'R' ? 1 : 0, max, optarg);
                return EX_USAGE;
            }
            if (c == 'R') boot.resamples = (int)v;
            else boot.seed = v;
            break;
        }
        case 'h': summary_usage(stdout); return 0;
        case ':':
            fprintf(stderr, CMD ": %s: expected a value, found none\n", argv[optind - 1]);
            return EX_USAGE;
        default:
            fprintf(stderr, CMD ": expected an option listed by --help, found '%s'\n", argv[optind - 1]);
            return EX_USAGE;
        }
    }
    if (argc - optind != 1) {
        fprintf(stderr, CMD ": expected one QUERIES.csv, found %d file arguments\n", argc - optind);
        summary_usage(stderr);
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
        if ((rc = gb_summary_write_plot_data(s, plot, &d)) != 0) {
            if (made) rmdir(plot);   /* only if nothing got written into it */
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
