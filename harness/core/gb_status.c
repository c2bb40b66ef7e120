/*
 * gb_status.c -- lookups over the row-status table of gb_status.h.  The
 * arrays below are generated from GB_ROW_STATUS_LIST; nothing here lists
 * a status by hand.
 */
#include "gb_status.h"

#include <stddef.h>
#include <string.h>

static const char *const names[GB_ROW_NSTATUS] = {
#define GB_X(E, N, F, D) N,
    GB_ROW_STATUS_LIST(GB_X)
#undef GB_X
};

static const unsigned char failed[GB_ROW_NSTATUS] = {
#define GB_X(E, N, F, D) F,
    GB_ROW_STATUS_LIST(GB_X)
#undef GB_X
};

static const char *const descs[GB_ROW_NSTATUS] = {
#define GB_X(E, N, F, D) D,
    GB_ROW_STATUS_LIST(GB_X)
#undef GB_X
};

const char *gb_row_status_name(gb_row_status s)
{
    return (unsigned)s < GB_ROW_NSTATUS ? names[s] : "?";
}

int gb_row_status_failed(gb_row_status s)
{
    return (unsigned)s < GB_ROW_NSTATUS ? failed[s] : 1;
}

const char *gb_row_status_desc(gb_row_status s)
{
    return (unsigned)s < GB_ROW_NSTATUS ? descs[s] : "?";
}

int gb_row_status_from_name(const char *name, size_t n)
{
    for (int k = 0; k < GB_ROW_NSTATUS; k++)
        if (strlen(names[k]) == n && memcmp(names[k], name, n) == 0) return k;
    return -1;
}

const char *gb_row_status_expected(void)
{
    static char buf[256];
    if (!buf[0]) {
        size_t at = 0;
        for (int k = 0; k < GB_ROW_NSTATUS; k++) {
            const char *sep = k == 0 ? "" : k + 1 == GB_ROW_NSTATUS ? " or " : ", ";
            size_t a = strlen(sep), b = strlen(names[k]);
            if (at + a + b + 1 > sizeof buf) break;
            memcpy(buf + at, sep, a);
            memcpy(buf + at + a, names[k], b);
            at += a + b;
        }
        buf[at] = '\0';
    }
    return buf;
}
