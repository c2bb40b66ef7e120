/*
 * gb_env.h -- the measurement environment (machine, build, date), a
 * fixed calibration workload, and the small JSON writer `gridbench env`
 * uses to print them.
 *
 * Data structure
 *   gb_env is a flat record of fixed-size, always NUL-terminated strings
 *   plus the core count; gb_env_collect() fills every field, with
 *   "unknown" (or 0 cores) for whatever the system does not tell.
 *   gb_calib holds the result of one calibration run.
 *
 * Build facts come from macros given when this file's .c is compiled:
 *   GB_BUILD_CFLAGS  a string literal, the compile flags
 *                    (e.g. -DGB_BUILD_CFLAGS='"-O2 -g"')
 *   GB_BUILD_COMMIT  a string literal, the source commit
 *                    (e.g. -DGB_BUILD_COMMIT='"3f2a9c1"')
 * Without them the fields read "unknown".
 */
#ifndef GB_ENV_H
#define GB_ENV_H

#include <stdint.h>
#include <stdio.h>

#include "gb_diag.h"
#include "gb_grid.h"

typedef struct gb_env {
    char cpu[256];       /* /proc/cpuinfo "model name", else "unknown" */
    long cores;          /* logical cores online (sysconf), 0 if unknown */
    char kernel[256];    /* uname: "<sysname> <release> <machine>" */
    char compiler[256];  /* "gcc <__VERSION__>" or "clang <__clang_version__>" */
    char cflags[1024];   /* GB_BUILD_CFLAGS, else "unknown" */
    char commit[128];    /* GB_BUILD_COMMIT, else "unknown" */
    char date[32];       /* now, UTC, ISO 8601: "2025-01-31T12:34:56Z" */
    char host[256];      /* gethostname(), else "unknown" */
    double load[3];      /* /proc/loadavg: 1, 5 and 15 minutes; -1 if unknown */
} gb_env;


/* Fill every field of *e (see the struct).  Never fails: what cannot be
 * determined reads "unknown" (cores: 0).  Reads /proc/cpuinfo, calls
 * uname(), sysconf(), gethostname() and time(); nothing else. */
void gb_env_collect(gb_env *e);

/* ---- calibration ----------------------------------------------------- */

/* The fixed workload: gb_dijkstra_all (which allocates its own workspace:
 * that is part of what is timed) from a fixed source over the map
 * `gridbench gen --family random --size 256x256 --percent 20 --seed 1`
 * would write, GB_CALIB_RUNS timed runs after one untimed warm-up. */
#define GB_CALIB_RUNS 20
#define GB_CALIB_SIDE 256
#define GB_CALIB_PERCENT 20
#define GB_CALIB_SEED 1

typedef struct gb_calib {
    char map[64];         /* generator name of the map, "random256-20-1" */
    gb_model model;       /* movement model of the Dijkstra runs */
    int runs;             /* timed runs */
    int32_t src_x, src_y; /* source cell: the first cell of the largest
                             component at or after the map's centre, in
                             row-major order */
    int64_t cells;        /* cells reached (finite distance) per run */
    int64_t median_ns;    /* median wall time of one run (CLOCK_MONOTONIC;
                             mean of the two middle runs) */
    int64_t min_ns;       /* fastest run */
    int64_t max_ns;       /* slowest run */
    double cells_per_s;   /* cells / median time */
} gb_calib;

/* Was the machine busy while measuring?  Yes when the 1-minute load
 * average (taken before the work) reaches 3/4 of the cores, or when the
 * calibration's slowest run took at least 1.5x its fastest (cal may be
 * NULL).  1 and a reason in why (size n), or 0 and "". */
int gb_env_busy(const gb_env *e, const gb_calib *cal, char *why, size_t n);

/* Run the calibration workload under model m into *out.  Returns 0, or
 * EX_OSERR (out of memory) / EX_SOFTWARE (no usable source cell; cannot
 * happen with the fixed map) with *d filled. */
int gb_env_calibrate(gb_model m, gb_calib *out, gb_diag *d);

/* ---- JSON output ----------------------------------------------------- */

/* Write s as a JSON string literal: quotes, '\\' and '"' escaped, control
 * characters as \n \t \r \b \f or \u00XX, valid UTF-8 sequences copied,
 * every byte of an invalid sequence written as \ufffd.  NULL writes
 * null. */
void gb_json_str(FILE *f, const char *s);

/* Write v as a JSON number ("%.17g" with a '.' radix whatever the locale;
 * integers without a fraction); NaN and infinities, which JSON cannot
 * represent, write null. */
void gb_json_num(FILE *f, double v);

/* Write the fields of *e as the members "cpu" .. "host" of a JSON object,
 * one per line, each line starting with indent and ending with ",\n"
 * (the caller adds the braces and any further members). */
void gb_env_json_members(FILE *f, const gb_env *e, const char *indent);

/* Write *c as a JSON object (one line, no trailing newline). */
void gb_calib_json(FILE *f, const gb_calib *c);

#endif
