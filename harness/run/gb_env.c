/*
 * gb_env.c -- environment facts, the calibration workload and the JSON
 * writer.  See gb_env.h for the record layouts and their invariants
 * (every string field NUL-terminated, "unknown" when not determinable).
 *
 * Calibration: the map is made by gb_gen_map with fixed options, so every
 * machine times the same bytes; the source is chosen by a fixed rule
 * (first component cell at or after the centre id); times come from
 * CLOCK_MONOTONIC and are sorted to take the median.
 */
#include "gb_env.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "gb_alloc.h"
#include "gb_gen.h"
#include "gb_search.h"

static void copy_str(char *dst, size_t n, const char *src)
{
    size_t k = strlen(src);
    if (k >= n) k = n - 1;
    memcpy(dst, src, k);
    dst[k] = '\0';
}

/* Value of the first "key<blanks>: value" line of /proc/cpuinfo. */
static int cpuinfo_field(const char *key, char *out, size_t n)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return -1;
    char line[1024];
    size_t kl = strlen(key);
    int found = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, kl) != 0) continue;
        char *p = line + kl;
        while (*p == ' ' || *p == '\t') p++;
        if (*p != ':') continue;
        p++;
        while (*p == ' ' || *p == '\t') p++;
        size_t len = strlen(p);
        while (len > 0 && (p[len - 1] == '\n' || p[len - 1] == '\r' || p[len - 1] == ' '
                           || p[len - 1] == '\t'))
            p[--len] = '\0';
        if (len == 0) continue;
        copy_str(out, n, p);
        found = 0;
        break;
    }
    fclose(f);
    return found;
}

void gb_env_collect(gb_env *e)
{
    memset(e, 0, sizeof *e);
    if (cpuinfo_field("model name", e->cpu, sizeof e->cpu) != 0)
        copy_str(e->cpu, sizeof e->cpu, "unknown");

    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    e->cores = nc > 0 ? nc : 0;

    struct utsname u;
    if (uname(&u) == 0)
        snprintf(e->kernel, sizeof e->kernel, "%s %s %s", u.sysname, u.release, u.machine);
    else
        copy_str(e->kernel, sizeof e->kernel, "unknown");

#if defined(__clang__)
    snprintf(e->compiler, sizeof e->compiler, "clang %s", __clang_version__);
#elif defined(__GNUC__)
    snprintf(e->compiler, sizeof e->compiler, "gcc %s", __VERSION__);
#elif defined(__VERSION__)
    snprintf(e->compiler, sizeof e->compiler, "unknown %s", __VERSION__);
#else
    copy_str(e->compiler, sizeof e->compiler, "unknown");
#endif
    /* clang's version string ends in a blank ("18.1.3 "): trim. */
    size_t cl = strlen(e->compiler);
    while (cl > 0 && e->compiler[cl - 1] == ' ') e->compiler[--cl] = '\0';

#ifdef GB_BUILD_CFLAGS
    copy_str(e->cflags, sizeof e->cflags, GB_BUILD_CFLAGS);
#else
    copy_str(e->cflags, sizeof e->cflags, "unknown");
#endif
#ifdef GB_BUILD_COMMIT
    copy_str(e->commit, sizeof e->commit, GB_BUILD_COMMIT);
#else
    copy_str(e->commit, sizeof e->commit, "unknown");
#endif

    e->load[0] = e->load[1] = e->load[2] = -1;
    FILE *la = fopen("/proc/loadavg", "r");
    if (la) {
        if (fscanf(la, "%lf %lf %lf", &e->load[0], &e->load[1], &e->load[2]) != 3)
            e->load[0] = e->load[1] = e->load[2] = -1;
        fclose(la);
    }

    time_t now = time(NULL);
    struct tm tm;
    if (now == (time_t)-1 || !gmtime_r(&now, &tm)
        || strftime(e->date, sizeof e->date, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        copy_str(e->date, sizeof e->date, "unknown");

    if (gethostname(e->host, sizeof e->host) != 0 || !e->host[0])
        copy_str(e->host, sizeof e->host, "unknown");
    e->host[sizeof e->host - 1] = '\0';
}

/* ---- calibration ----------------------------------------------------- */

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int gb_env_calibrate(gb_model m, gb_calib *out, gb_diag *d)
{
    memset(out, 0, sizeof *out);
    gb_gen_opts o;
    gb_gen_defaults(&o);
    o.family = GB_GEN_RANDOM;
    o.width = o.height = GB_CALIB_SIDE;
    o.percent = GB_CALIB_PERCENT;
    o.seed = GB_CALIB_SEED;
    o.model = m;
    gb_map map;
    int rc = gb_gen_map(&o, &map, d);
    if (rc) return rc;
    gb_gen_name(&o, out->map, sizeof out->map);
    const gb_grid *g = &map.grid;
    uint8_t *mark = gb_malloc((size_t)g->ncells);
    double *dist = gb_malloc((size_t)g->ncells * sizeof *dist);
    int32_t n = 0;
    if (!mark || !dist || gb_gen_largest_component(g, m, mark, &n) != 0) {
        gb_free(mark); gb_free(dist);
        gb_map_free(&map);
        return gb_diag_set(d, EX_OSERR, "", 0, 0,
                           "expected memory for the calibration map, found none");
    }
    int32_t src = -1;
    for (int32_t id = gb_grid_id(g, g->width / 2, g->height / 2); id < g->ncells; id++)
        if (mark[id]) { src = id; break; }
    gb_free(mark);
    if (src < 0) {
        gb_free(dist);
        gb_map_free(&map);
        return gb_diag_set(d, EX_SOFTWARE, "", 0, 0,
                           "expected a component cell after the calibration map's centre, "
                           "found none");
    }
    int64_t t[GB_CALIB_RUNS];
    for (int r = -1; r < GB_CALIB_RUNS; r++) {       /* r = -1: warm-up */
        int64_t t0 = now_ns();
        int bad = gb_dijkstra_all(g, m, src, dist) != 0;
        int64_t t1 = now_ns();
        if (bad) {
            gb_free(dist);
            gb_map_free(&map);
            return gb_diag_set(d, EX_OSERR, "", 0, 0,
                               "expected memory for Dijkstra's workspace, found none");
        }
        if (r >= 0) t[r] = t1 - t0;
    }
    int64_t cells = 0;
    for (int32_t id = 0; id < g->ncells; id++) cells += isfinite(dist[id]) != 0;
    qsort(t, GB_CALIB_RUNS, sizeof t[0], cmp_i64);
    out->model = m;
    out->runs = GB_CALIB_RUNS;
    out->src_x = gb_grid_x(g, src);
    out->src_y = gb_grid_y(g, src);
    out->cells = cells;
    out->median_ns = (t[(GB_CALIB_RUNS - 1) / 2] + t[GB_CALIB_RUNS / 2]) / 2;
    out->min_ns = t[0];
    out->max_ns = t[GB_CALIB_RUNS - 1];
    out->cells_per_s = out->median_ns > 0 ? (double)cells * 1e9 / (double)out->median_ns : 0;
    gb_free(dist);
    gb_map_free(&map);
    return 0;
}

/* ---- JSON ------------------------------------------------------------ */

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid.
 * Rejects overlong forms, surrogates and code points above U+10FFFF. */
static int utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    int n;
    unsigned min;
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) { n = 2; min = 0x80; }
    else if (c >= 0xe0 && c <= 0xef) { n = 3; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { n = 4; min = 0x10000; }
    else return 0;
    unsigned cp = c & (0x7fu >> n);
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;   /* also stops at the NUL */
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return n;
}

void gb_json_str(FILE *f, const char *s)
{
    if (!s) { fputs("null", f); return; }
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    while (*p) {
        unsigned c = *p;
        switch (c) {
        case '"':  fputs("\\\"", f); p++; continue;
        case '\\': fputs("\\\\", f); p++; continue;
        case '\n': fputs("\\n", f); p++; continue;
        case '\r': fputs("\\r", f); p++; continue;
        case '\t': fputs("\\t", f); p++; continue;
        case '\b': fputs("\\b", f); p++; continue;
        case '\f': fputs("\\f", f); p++; continue;
        default: break;
        }
        if (c < 0x20 || c == 0x7f) {
            fprintf(f, "\\u%04x", c);
            p++;
            continue;
        }
        int n = utf8_len(p);
        if (n == 0) {
            fputs("\\ufffd", f);
            p++;
            continue;
        }
        fwrite(p, 1, (size_t)n, f);
        p += n;
    }
    fputc('"', f);
}

void gb_json_num(FILE *f, double v)
{
    if (!isfinite(v)) { fputs("null", f); return; }
    char buf[64];
    if (v == floor(v) && fabs(v) < 9007199254740992.0)   /* 2^53: exact integer */
        snprintf(buf, sizeof buf, "%.0f", v);
    else
        snprintf(buf, sizeof buf, "%.17g", v);
    for (char *p = buf; *p; p++)
        if (*p == ',') *p = '.';     /* a locale's decimal comma */
    fputs(buf, f);
}

static void member_str(FILE *f, const char *indent, const char *key, const char *v)
{
    fputs(indent, f);
    gb_json_str(f, key);
    fputs(": ", f);
    gb_json_str(f, v);
    fputs(",\n", f);
}

int gb_env_busy(const gb_env *e, const gb_calib *cal, char *why, size_t n)
{
    if (n) why[0] = '\0';
    if (e->cores > 0 && e->load[0] >= 0.75 * (double)e->cores) {
        snprintf(why, n, "load average %.2f on %ld cores before the run", e->load[0], e->cores);
        return 1;
    }
    if (cal && cal->min_ns > 0 && (double)cal->max_ns >= 1.5 * (double)cal->min_ns) {
        snprintf(why, n, "the calibration's slowest run took %.1fx its fastest",
                 (double)cal->max_ns / (double)cal->min_ns);
        return 1;
    }
    return 0;
}

void gb_env_json_members(FILE *f, const gb_env *e, const char *indent)
{
    member_str(f, indent, "cpu", e->cpu);
    fputs(indent, f);
    fputs("\"cores\": ", f);
    gb_json_num(f, (double)e->cores);
    fputs(",\n", f);
    member_str(f, indent, "kernel", e->kernel);
    member_str(f, indent, "compiler", e->compiler);
    member_str(f, indent, "cflags", e->cflags);
    member_str(f, indent, "commit", e->commit);
    member_str(f, indent, "date", e->date);
    member_str(f, indent, "host", e->host);
    fprintf(f, "%s\"load_avg\": [", indent);
    for (int i = 0; i < 3; i++) {
        if (i) fputs(", ", f);
        gb_json_num(f, e->load[i] >= 0 ? e->load[i] : NAN);
    }
    fputs("],\n", f);
}

void gb_calib_json(FILE *f, const gb_calib *c)
{
    fputs("{\"workload\": \"gb_dijkstra_all\", \"map\": ", f);
    gb_json_str(f, c->map);
    fputs(", \"model\": ", f);
    gb_json_str(f, gb_model_name(c->model));
    fprintf(f, ", \"source\": [%ld, %ld], \"runs\": %d, \"cells\": ",
            (long)c->src_x, (long)c->src_y, c->runs);
    gb_json_num(f, (double)c->cells);
    fputs(", \"median_ns\": ", f);
    gb_json_num(f, (double)c->median_ns);
    fputs(", \"min_ns\": ", f);
    gb_json_num(f, (double)c->min_ns);
    fputs(", \"max_ns\": ", f);
    gb_json_num(f, (double)c->max_ns);
    fputs(", \"cells_per_s\": ", f);
    gb_json_num(f, floor(c->cells_per_s + 0.5));
    fputc('}', f);
}
