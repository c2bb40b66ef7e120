/*
 * gb_status.h -- THE table of row statuses (column `status` of the run
 * CSV).  Everything that names, counts or judges a status derives from
 * this one X-macro list: the runner's classification and exit status,
 * the journal, `gridbench summary` (its status columns), `gridbench
 * report` (its failure counts), `gridbench merge`, and the status table
 * of docs/run.md (tests/test_scale.c compares it with this list).
 *
 * X(ENUM, name, failure, description)
 *   ENUM         GB_ROW_<ENUM>; the numeric value is the list position and
 *                is only ever appended to (journals store it)
 *   name         the CSV spelling
 *   failure      1: a solver failure -- the run's exit status becomes 1
 *                and the row is reported on stderr; 0: not the solver's
 *                fault (ok, a limit the user set, the scenario's fault)
 *   description  one line, as docs/run.md and `gridbench run --help` say it
 *
 * The order of the list is NOT the classification order; gb_run.h states
 * which status applies first.
 */
#ifndef GB_STATUS_H
#define GB_STATUS_H

#include <stddef.h>

#define GB_ROW_STATUS_LIST(X) \
    X(OK,                "ok",                0, "the path is valid and keeps the solver's guarantee, and the scenario agrees") \
    X(UNREACHABLE,       "unreachable",       0, "neither the solver nor Dijkstra found a path (and the scenario agrees)") \
    X(INVALID,           "invalid_path",      1, "the validator rejected the path (illegal move, wrong endpoints, wrong cost)") \
    X(SUBOPTIMAL,        "suboptimal",        1, "the cost breaks the guarantee: not the optimum for an optimal solver, above w x optimum for a bounded one, above its bound x the grid optimum for an any-angle row, above the exact any-angle optimum for `anya`") \
    X(SCEN_MISMATCH,     "scen_mismatch",     0, "the solver is right, but the scenario's printed length (or blocked endpoint) disagrees with Dijkstra") \
    X(FALSE_UNREACHABLE, "false_unreachable", 1, "the solver reported no path, Dijkstra found one") \
    X(LIMIT,             "limit",             0, "stopped by --max-expanded, --max-ms or --max-mem (counters are those at the stop)") \
    X(PROTOCOL,          "protocol_error",    1, "an external solver answered out of protocol (docs/protocol.md)") \
    X(TIMEOUT,           "timeout",           1, "an external solver did not answer within --external-timeout") \
    X(CRASH,             "crash",             1, "an external solver, a plugin or a worker process died, or closed a pipe")

typedef enum gb_row_status {
#define GB_X(E, N, F, D) GB_ROW_##E,
    GB_ROW_STATUS_LIST(GB_X)
#undef GB_X
    GB_ROW_NSTATUS
} gb_row_status;

/* The CSV name of s, or "?" when s is out of range. */
const char *gb_row_status_name(gb_row_status s);

/* Nonzero for the statuses that are solver failures (the table's column). */
int gb_row_status_failed(gb_row_status s);

/* The table's description of s, or "?". */
const char *gb_row_status_desc(gb_row_status s);

/* The status named name[0..n) (n = strlen when name is NUL-terminated),
 * or -1 when no status has that name. */
int gb_row_status_from_name(const char *name, size_t n);

/* "ok, unreachable, ... or crash": every name, for "expected one of"
 * messages.  A static string. */
const char *gb_row_status_expected(void);

#endif
