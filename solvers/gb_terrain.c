/*
 * gb_terrain.c -- parsing and applying terrain cost models (gb_terrain.h).
 *
 * Parsing reads each cost as an integer count of hundredths, then divides
 * every count and 100 by their greatest common divisor: den is the
 * smallest denominator that keeps every cost an integer (1 for integer
 * costs), so the integer keys stay as small as they can.
 */
#include "gb_terrain.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gb_alloc.h"

static const char letters[] = GB_TERRAIN_LETTERS;

static int letter_index(char ch)
{
    const char *p = ch ? strchr(letters, ch) : NULL;
    return p ? (int)(p - letters) : -1;
}

static unsigned gcd_u(unsigned a, unsigned b)
{
    while (b) { unsigned t = a % b; a = b; b = t; }
    return a;
}

static int bad(gb_terrain *t, char *err, size_t errsz, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int bad(gb_terrain *t, char *err, size_t errsz, const char *fmt, ...)
{
    memset(t, 0, sizeof *t);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsz, fmt, ap);
    va_end(ap);
    return -1;
}

/* One cost "inf" or D[.D[D]] into hundredths (0 = inf); -1 when malformed. */
static long parse_cost(const char *s, size_t n)
{
    if (n == 3 && strncmp(s, "inf", 3) == 0) return 0;
    long v = 0;
    size_t i = 0;
    int digits = 0, frac = -1;
    for (; i < n; i++) {
        if (s[i] == '.' && frac < 0) { frac = 0; continue; }
        if (s[i] < '0' || s[i] > '9') return -1;
        if (frac >= 0 && ++frac > 2) return -1;
        v = v * 10 + (s[i] - '0');
        if (++digits > 6) return -1;
    }
    if (digits == 0) return -1;
    for (int k = frac < 0 ? 0 : frac; k < 2; k++) v *= 10;
    if (v <= 0 || v > GB_TERRAIN_MAX_COST * 100L) return -1;
    return v;
}

int gb_terrain_parse(const char *spec, gb_terrain *t, char *err, size_t errsz)
{
    memset(t, 0, sizeof *t);
    if (!spec || !*spec || strcmp(spec, "uniform") == 0) return 0;
    long h[GB_TERRAIN_NLETTERS] = { 100, 100, 100, 0, 0 };   /* . G S T W */
    const char *p = spec;
    for (int item = 1;; item++) {
        size_t n = strcspn(p, ",");
        int li = n >= 2 && p[1] == '=' ? letter_index(p[0]) : -1;
        char found[64];
        snprintf(found, sizeof found, "%.*s", (int)(n < 40 ? n : 40), p);
        if (li < 0) {
            if (n >= 2 && p[1] == '=' && (p[0] == '@' || p[0] == 'O'))
                return bad(t, err, errsz, "item %d: expected a weighted letter (. G S T W; '@' and "
                           "'O' are out of bounds, never passable), found '%s'", item, found);
            return bad(t, err, errsz, "item %d: expected LETTER=COST with LETTER one of . G S T W, "
                       "found '%s'", item, found);
        }
        long v = parse_cost(p + 2, n - 2);
        if (v < 0)
            return bad(t, err, errsz, "item %d: expected a cost 'inf' or a number in (0, 255] with at "
                       "most two decimals, found '%s'", item, found);
        h[li] = v;
        p += n;
        if (!*p) break;
        p++;
    }
    unsigned g = 100;
    for (int i = 0; i < GB_TERRAIN_NLETTERS; i++) g = gcd_u(g, (unsigned)h[i]);
    t->on = 1;
    t->den = (uint16_t)(100 / g);
    for (int i = 0; i < GB_TERRAIN_NLETTERS; i++) t->q[i] = (uint16_t)(h[i] / (long)g);
    size_t k = (size_t)snprintf(t->name, sizeof t->name, "terrain:");
    for (int i = 0; i < GB_TERRAIN_NLETTERS; i++) {
        char v[48];
        const int hi = (int)h[i];   /* <= 25500 */
        if (!hi) snprintf(v, sizeof v, "inf");
        else if (hi % 100 == 0) snprintf(v, sizeof v, "%d", hi / 100);
        else if (hi % 10 == 0) snprintf(v, sizeof v, "%d.%d", hi / 100, hi / 10 % 10);
        else snprintf(v, sizeof v, "%d.%02d", hi / 100, hi % 100);
        k += (size_t)snprintf(t->name + k, sizeof t->name - k, "%s%c=%s", i ? ";" : "", letters[i], v);
    }
    return 0;
}

double gb_terrain_letter_cost(const gb_terrain *t, char ch)
{
    int li = letter_index(ch);
    if (!t->on) return ch == '.' || ch == 'G' || ch == 'S' ? 1.0 : INFINITY;
    if (li < 0 || !t->q[li]) return INFINITY;
    return (double)t->q[li] / (double)t->den;
}

int gb_terrain_apply(const gb_terrain *t, const char *chars, gb_grid *g)
{
    if (!t->on) return 0;
    uint16_t *c = gb_calloc((size_t)g->ncells, sizeof *c);
    if (!c) { errno = ENOMEM; return -1; }
    uint8_t lut[256];
    memset(lut, 0xff, sizeof lut);
    for (int i = 0; i < GB_TERRAIN_NLETTERS; i++) lut[(unsigned char)letters[i]] = (uint8_t)i;
    int32_t qmin = INT32_MAX, qmax = 0, npass = 0;
    for (int32_t y = 0; y < g->height; y++)
        for (int32_t x = 0; x < g->width; x++) {
            int32_t id = gb_grid_id(g, x, y);
            uint8_t li = lut[(unsigned char)chars[(size_t)y * (size_t)g->width + (size_t)x]];
            uint16_t q = li < GB_TERRAIN_NLETTERS ? t->q[li] : 0;
            c[id] = q;
            g->pass[id] = q != 0;
            if (q) {
                npass++;
                if (q < qmin) qmin = q;
                if (q > qmax) qmax = q;
            }
        }
    gb_free(g->cost);
    g->cost = c;
    g->npassable = npass;
    g->cscale = 4 * (int32_t)t->den;
    g->qmin = npass ? qmin : 1;
    g->qmax = npass ? qmax : 1;
    return 0;
}
