/*
 * gb_cli.c -- small helpers the subcommands share for their options, so
 * that every command words the same mistake the same way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sysexits.h>

#include "gb_cmd.h"
#include "gb_map.h"
#include "gb_scen.h"
#include "gb_search.h"

int gb_cli_model(const char *cmd, const char *arg, gb_model *out)
{
    int m = gb_model_from_name(arg);
    if (m < 0) {
        const char *mn[GB_MODEL_COUNT];
        for (int i = 0; i < GB_MODEL_COUNT; i++) mn[i] = gb_model_name((gb_model)i);
        const char *c = gb_closest(arg, mn, GB_MODEL_COUNT);
        fprintf(stderr,
                "%s: --model: expected 8-nocut, 8-cut1, 8-cutall, 4 or 8-nocut-water, found "
                "'%s'%s%s%s\n",
                cmd, arg, c ? "; did you mean '" : "", c ? c : "", c ? "'?" : "");
        return EX_USAGE;
    }
    *out = (gb_model)m;
    return 0;
}

int gb_cli_size(const char *cmd, const char *opt, const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    int shift = 0;
    if (*end == 'K' || *end == 'k') shift = 10, end++;
    else if (*end == 'M' || *end == 'm') shift = 20, end++;
    else if (*end == 'G' || *end == 'g') shift = 30, end++;
    if (errno || end == s || *end || s[0] == '-' || v == 0 || v > (UINT64_MAX >> shift)) {
        fprintf(stderr,
                "%s: %s: expected a positive byte count with an optional K, M or G suffix, found '%s'\n",
                cmd, opt, s);
        return EX_USAGE;
    }
    *out = (uint64_t)v << shift;
    return 0;
}

int gb_cli_line(const char *cmd, const char *s, long *out)
{
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1) {
        fprintf(stderr, "%s: --line: expected a positive line number, found '%s'\n", cmd, s);
        return EX_USAGE;
    }
    *out = v;
    return 0;
}

int gb_cli_query(const char *scen, long line, int longest, const char *map_override, gb_map *map,
                 gb_query *q, char *mpath, size_t n, gb_diag *d)
{
    gb_scen sc;
    int rc = gb_scen_load(scen, &sc, d);
    if (rc) return rc;
    size_t qi = 0;
    if (longest) {
        for (size_t i = 1; i < sc.n; i++)
            if (sc.q[i].length > sc.q[qi].length) qi = i;
    } else {
        while (qi < sc.n && sc.q[qi].line != line) qi++;
        if (qi == sc.n) {
            rc = gb_diag_set(d, EX_DATAERR, scen, 0, 0,
                             "expected a query on line %ld, found none (queries are "
                             "on lines %ld..%ld)",
                             line, sc.q[0].line, sc.q[sc.n - 1].line);
            gb_scen_free(&sc);
            return rc;
        }
    }
    if (map_override) snprintf(mpath, n, "%s", map_override);
    else rc = gb_scen_resolve_map(&sc, mpath, n, d);
    if (!rc) rc = gb_map_load(mpath, map, d);
    if (!rc) rc = gb_scen_check_query(&sc, qi, map, d);
    if (!rc) *q = sc.q[qi];
    gb_scen_free(&sc);
    return rc;
}

int gb_cli_no_water(const char *cmd, gb_model m)
{
    if (m != GB_MODEL_8_NOCUT_WATER) return 0;
    fprintf(stderr,
            "%s: --model: expected 8-nocut, 8-cut1, 8-cutall or 4, found 8-nocut-water "
            "(the water rule is a model of gridbench run and dynamic)\n",
            cmd);
    return EX_USAGE;
}
