/*
 * gb_tfile.c -- terrain cost files (gb_tfile.h).  Each line is checked
 * alone by gb_terrain_parse(), so an error names its line; the lines are
 * then joined into one list and parsed once more for the model.
 */
#include "gb_tfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "gb_alloc.h"

int gb_tfile_load(const char *path, gb_terrain *t, gb_diag *d)
{
    memset(t, 0, sizeof *t);
    char *buf = NULL;
    size_t len = 0;
    int rc = gb_read_file(path, &buf, &len, d);
    if (rc) return rc;
    char spec[512] = "", err[256];
    size_t k = 0;
    long line = 0;
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && buf[e] != '\n') e++;
        line++;
        char item[80];
        size_t n = 0;
        for (size_t j = i; j < e && buf[j] != '#'; j++) {   /* drop blanks and the comment */
            char ch = buf[j];
            if (ch == ' ' || ch == '\t' || ch == '\r') {
                if (n == 1) item[n++] = '=';   /* "S 3" -> "S=3" */
                continue;
            }
            if (n + 1 < sizeof item) item[n++] = ch;
        }
        item[n] = '\0';
        i = e + 1;
        if (n == 0) continue;
        gb_terrain one;
        if (gb_terrain_parse(item, &one, err, sizeof err) != 0 || k + n + 2 > sizeof spec) {
            gb_free(buf);
            const char *m = strstr(err, ": ");
            return gb_diag_set(d, EX_DATAERR, path, line, 0, "%s",
                               k + n + 2 > sizeof spec ? "expected at most 5 letters, found more"
                                                       : m ? m + 2 : err);
        }
        k += (size_t)snprintf(spec + k, sizeof spec - k, "%s%s", k ? "," : "", item);
    }
    gb_free(buf);
    if (gb_terrain_parse(spec, t, err, sizeof err) != 0)
        return gb_diag_set(d, EX_DATAERR, path, 0, 0, "%s", err);
    if (!t->on) return gb_diag_set(d, EX_DATAERR, path, 0, 0, "expected at least one LETTER COST "
                                   "line, found none");
    return 0;
}

int gb_tfile_arg(const char *arg, gb_terrain *t, gb_diag *d)
{
    char err[256];
    if (!*arg || strchr(arg, '=') || strcmp(arg, "uniform") == 0) {
        if (gb_terrain_parse(arg, t, err, sizeof err) != 0)
            return gb_diag_set(d, EX_USAGE, "", 0, 0, "--terrain-costs: %s", err);
        return 0;
    }
    return gb_tfile_load(arg, t, d);
}
