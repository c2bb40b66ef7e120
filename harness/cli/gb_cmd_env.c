/*
 * gb_cmd_env.c -- `gridbench env`: print the measurement environment as
 * one JSON object (machine, build, date, checksums of the named files,
 * optionally a calibration timing), to standard output or, with --out,
 * to a file written through gb_tmp_open / gb_tmp_commit.
 *
 * Everything that can fail (hashing the files, calibrating) happens before
 * the first byte is written, so an error never leaves half an object.
 * Output layout (keys always present, in this order):
 *   { "cpu", "cores", "kernel", "compiler", "cflags", "commit", "date",
 *     "host", "files": [ {"path","sha256","bytes"}, ... ],
 *     "calibration": {...} or null }
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_cmd.h"
#include "gb_env.h"
#include "gb_opt.h"
#include "gb_sha256.h"

#define CMD "gridbench env"

static const gb_opt env_opts[] = {
    { 'o', 'o', "out", "FILE", "write the JSON to FILE (temporary file, then renamed) instead of "
      "standard output" },
    { 'c', 'c', "calibrate", NULL, "also time a fixed workload: single-source Dijkstra "
      "(gb_dijkstra_all) over the map of `gridbench gen --family random --size 256x256 --percent 20 "
      "--seed 1`, " GB_STR(GB_CALIB_RUNS) " runs; reports the median ns and cells settled per s" },
    { 'm', 'm', "model", "M", "movement model of the calibration: 8-nocut (default), 8-cut1, "
      "8-cutall, 4" },
    { 'h', 'h', "help", NULL, "this text" },
    { 0, 0, NULL, NULL, NULL }
};

const gb_cmd_doc gb_doc_env = {
    "env", "[--out FILE] [--calibrate] [--model M] [FILE...]",
    "print the measurement environment as JSON (CPU, compiler, commit, checksums)",
    "Print the measurement environment as a JSON object: CPU model, logical cores, kernel, "
    "compiler, compile flags, source commit, UTC date, host name, and the SHA-256 and size of "
    "every FILE (maps, scenarios, binaries).",
    env_opts, NULL,
    "gridbench env --calibrate --out results/env.json datasets/default/*.map datasets/default/*.scen",
    "0 written; 64 bad usage; 66 a FILE is unreadable; 71 out of memory; 73/74 cannot write "
    "(sysexits.h)."
};

typedef struct file_sum {
    const char *path;
    char hex[65];
    uint64_t bytes;
} file_sum;

static void write_json(FILE *f, const gb_env *e, const file_sum *fs, int nfs,
                       const gb_calib *cal)
{
    fputs("{\n", f);
    gb_env_json_members(f, e, "  ");
    fputs("  \"files\": [", f);
    for (int i = 0; i < nfs; i++) {
        fputs(i ? ",\n    {\"path\": " : "\n    {\"path\": ", f);
        gb_json_str(f, fs[i].path);
        fputs(", \"sha256\": ", f);
        gb_json_str(f, fs[i].hex);
        fputs(", \"bytes\": ", f);
        gb_json_num(f, (double)fs[i].bytes);
        fputc('}', f);
    }
    fputs(nfs ? "\n  ],\n" : "],\n", f);
    char why[160];
    int busy = gb_env_busy(e, cal, why, sizeof why);
    fprintf(f, "  \"machine_busy\": %s,\n  \"machine_busy_why\": ", busy ? "true" : "false");
    gb_json_str(f, why);
    fputs(",\n  \"calibration\": ", f);
    if (cal) gb_calib_json(f, cal);
    else fputs("null", f);
    fputs("\n}\n", f);
}

/* "gridbench CMD: path[:line[:col]]: msg" (or without the location). */
static int report(const gb_diag *d)
{
    if (!d->path[0])
        fprintf(stderr, CMD ": %s\n", d->msg);
    else if (d->line > 0 && d->col > 0)
        fprintf(stderr, CMD ": %s:%ld:%ld: %s\n", d->path, d->line, d->col, d->msg);
    else if (d->line > 0)
        fprintf(stderr, CMD ": %s:%ld: %s\n", d->path, d->line, d->msg);
    else
        fprintf(stderr, CMD ": %s: %s\n", d->path, d->msg);
    return d->code;
}

int gb_cmd_env(int argc, char **argv)
{
    const char *out = NULL, *arg;
    int calibrate = 0;
    gb_model model = GB_MODEL_8_NOCUT;
    int c;
    gb_opt_parser op;
    if (gb_opt_begin(&op, &gb_doc_env) != 0) return EX_OSERR;
    while ((c = gb_opt_next(&op, argc, argv, &arg)) != -1) {
        switch (c) {
        case 'o': out = arg; break;
        case 'c': calibrate = 1; break;
        case 'm': {
            int e = gb_cli_model(CMD, arg, &model);
            if (!e) e = gb_cli_no_water(CMD, model);
            if (e) { gb_opt_end(&op); return e; }
            break;
        }
        case 'h': gb_opt_end(&op); gb_opt_help(&gb_doc_env, stdout); return 0;
        default: gb_opt_end(&op); return EX_USAGE;   /* gb_opt_next said why */
        }
    }
    gb_opt_end(&op);
    if (out && !out[0]) {
        fprintf(stderr, CMD ": --out: expected a file name, found an empty string\n");
        return EX_USAGE;
    }

    gb_diag d;
    gb_diag_clear(&d);
    int nfs = argc - optind;
    file_sum *fs = gb_calloc(nfs > 0 ? (size_t)nfs : 1, sizeof *fs);
    if (!fs) {
        fprintf(stderr, CMD ": expected memory for %d file entries, found none\n", nfs);
        return EX_OSERR;
    }
    for (int i = 0; i < nfs; i++) {
        fs[i].path = argv[optind + i];
        if (gb_sha256_file_n(fs[i].path, fs[i].hex, &fs[i].bytes, &d) != 0) {
            gb_free(fs);
            return report(&d);
        }
    }
    gb_calib cal;
    if (calibrate && gb_env_calibrate(model, &cal, &d) != 0) {
        gb_free(fs);
        return report(&d);
    }
    gb_env e;
    gb_env_collect(&e);

    int rc = 0;
    if (out) {
        char tmp[4096];
        FILE *f = gb_tmp_open(out, tmp, sizeof tmp, &d);
        if (!f) {
            rc = report(&d);
        } else {
            write_json(f, &e, fs, nfs, calibrate ? &cal : NULL);
            if (gb_tmp_commit(f, tmp, out, &d) != 0) rc = report(&d);
        }
    } else {
        write_json(stdout, &e, fs, nfs, calibrate ? &cal : NULL);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, CMD ": <stdout>: expected all bytes written, found a write error\n");
            rc = EX_IOERR;
        }
    }
    gb_free(fs);
    return rc;
}
