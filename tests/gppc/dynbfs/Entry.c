/*
 * Entry.c -- gridbench's own GPPC dynamic-track test entry, in C, built by
 * tests/test_gppcdyn.c with `gridbench gppc build`.
 *
 * Data: its own byte map (1 = traversable), copied from active_map by
 * gppc_search_init and updated by gppc_map_change from the patch records
 * alone; a pointer to active_map is kept to check, at every change, that
 * the runner had written the patches into it first (the log says "agree"
 * or "differ").  gppc_get_path runs Dijkstra (8-connected, no corner
 * cutting, costs 1 and sqrt 2; O(cells^2): small test maps only) on its
 * own map and hands the cells out in about three parts, one per call.
 * It defines gppc_free_search_data, the name of the startkit's Entry.c,
 * not gppc_free_data: the driver must find either.
 *
 * $GB_GPPC_TEST_LOG names a file it appends a line to: "preprocess WxH",
 * "init WxH", "change N agree|differ" (N patches), "free".
 * Variants, $GB_DYNBFS_VARIANT read by gppc_search_init (one build serves
 * them all):
 *   ignore  gppc_map_change does nothing: stale answers
 *   crash   abort() on queries whose start has (x + y) % 3 == 0
 *   loop    never returns on queries whose start has (x + y) % 4 == 1
 *           (it sleeps: a hang costs the timeout, not a core)
 */
#define _POSIX_C_SOURCE 200809L /* pause */
#include "Entry.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct search {
    int w, h;
    const uint8_t *active;       /* the runner's active map (bits) */
    uint8_t *map;                /* its own copy, one byte per cell */
    double *dist;                /* Dijkstra's arrays, [w*h] */
    int *parent;
    uint8_t *done;
    struct gppc_point *path;     /* the current query's cells */
    uint32_t n, handed;          /* cells found, cells handed out */
    int active_query;            /* 1: parts of a path remain to hand out */
    char variant[8];             /* $GB_DYNBFS_VARIANT, "" for none */
} search;

static void log_line(const char *line)
{
    const char *p = getenv("GB_GPPC_TEST_LOG");
    if (!p || !*p) return;
    FILE *f = fopen(p, "a");
    if (!f) return;
    fprintf(f, "%s\n", line);
    fclose(f);
}

static int bit(const uint8_t *b, long i) { return (b[i >> 3] >> (i & 7)) & 1; }

void gppc_preprocess_init_map(struct gppc_patch init_map, const char *preprocess_filename)
{
    FILE *f = fopen(preprocess_filename, "w");
    if (!f) abort();
    fprintf(f, "dynbfs %d %d\n", (int)init_map.width, (int)init_map.height);
    fclose(f);
    char b[64];
    snprintf(b, sizeof b, "preprocess %dx%d", (int)init_map.width, (int)init_map.height);
    log_line(b);
}

void *gppc_search_init(struct gppc_patch active_map, const char *preprocess_filename)
{
    int w = 0, h = 0;
    FILE *f = fopen(preprocess_filename, "r");   /* the index must have been made */
    if (!f || fscanf(f, "dynbfs %d %d", &w, &h) != 2 || w != active_map.width || h != active_map.height)
        abort();
    fclose(f);
    search *s = calloc(1, sizeof *s);
    long n = (long)w * h;
    s->w = w;
    s->h = h;
    s->active = active_map.bitarray;
    const char *v = getenv("GB_DYNBFS_VARIANT");
    snprintf(s->variant, sizeof s->variant, "%s", v ? v : "");
    s->map = malloc((size_t)n);
    s->dist = malloc((size_t)n * sizeof *s->dist);
    s->parent = malloc((size_t)n * sizeof *s->parent);
    s->done = malloc((size_t)n);
    s->path = malloc((size_t)n * sizeof *s->path);
    if (!s->map || !s->dist || !s->parent || !s->done || !s->path) abort();
    for (long i = 0; i < n; i++) s->map[i] = (uint8_t)bit(s->active, i);
    char b[64];
    snprintf(b, sizeof b, "init %dx%d", w, h);
    log_line(b);
    return s;
}

void gppc_map_change(void *data, const struct gppc_patch *changes, uint32_t changes_length)
{
    search *s = data;
    char b[64];
    if (!strcmp(s->variant, "ignore")) {
        snprintf(b, sizeof b, "change %u ignored", (unsigned)changes_length);
        log_line(b);
        return;
    }
    for (uint32_t k = 0; k < changes_length; k++) {
        const struct gppc_patch *p = &changes[k];
        for (int y = 0; y < p->height; y++)
            for (int x = 0; x < p->width; x++)
                s->map[(long)(p->pos.y + y) * s->w + p->pos.x + x] =
                    (uint8_t)bit(p->bitarray, (long)y * p->width + x);
    }
    int agree = 1;
    for (long i = 0; i < (long)s->w * s->h; i++) agree &= s->map[i] == bit(s->active, i);
    snprintf(b, sizeof b, "change %u %s", (unsigned)changes_length, agree ? "agree" : "differ");
    log_line(b);
}

/* Dijkstra from s to g on s->map into s->path; the number of cells, 0 when none. */
static uint32_t dijkstra(search *s, int sx, int sy, int gx, int gy)
{
    static const int dx[8] = { 1, -1, 0, 0, 1, 1, -1, -1 }, dy[8] = { 0, 0, 1, -1, 1, -1, 1, -1 };
    long n = (long)s->w * s->h, src = (long)sy * s->w + sx, dst = (long)gy * s->w + gx;
    if (!s->map[src] || !s->map[dst]) return 0;
    for (long i = 0; i < n; i++) {
        s->dist[i] = INFINITY;
        s->done[i] = 0;
    }
    s->dist[src] = 0;
    s->parent[src] = -1;
    for (;;) {
        long u = -1;
        for (long i = 0; i < n; i++)
            if (!s->done[i] && s->dist[i] < INFINITY && (u < 0 || s->dist[i] < s->dist[u])) u = i;
        if (u < 0) return 0;
        if (u == dst) break;
        s->done[u] = 1;
        int ux = (int)(u % s->w), uy = (int)(u / s->w);
        for (int k = 0; k < 8; k++) {
            int vx = ux + dx[k], vy = uy + dy[k];
            if (vx < 0 || vy < 0 || vx >= s->w || vy >= s->h) continue;
            long v = (long)vy * s->w + vx;
            if (!s->map[v]) continue;
            if (k >= 4 && (!s->map[(long)uy * s->w + vx] || !s->map[(long)vy * s->w + ux])) continue;
            double c = s->dist[u] + (k >= 4 ? sqrt(2.0) : 1.0);
            if (c < s->dist[v] - 1e-12) {
                s->dist[v] = c;
                s->parent[v] = (int)u;
            }
        }
    }
    uint32_t len = 0;
    for (long v = dst; v >= 0; v = s->parent[v]) len++;
    uint32_t i = len;
    for (long v = dst; v >= 0; v = s->parent[v]) {
        s->path[--i].x = (uint16_t)(v % s->w);
        s->path[i].y = (uint16_t)(v / s->w);
    }
    return len;
}

struct gppc_path gppc_get_path(void *data, struct gppc_point start, struct gppc_point goal)
{
    search *s = data;
    struct gppc_path r = { NULL, 0, 0 };
    if (!strcmp(s->variant, "crash") && (start.x + start.y) % 3 == 0) abort();
    while (!strcmp(s->variant, "loop") && (start.x + start.y) % 4 == 1) pause();
    if (!s->active_query) {   /* the first call: search, then hand out the first part */
        s->n = dijkstra(s, start.x, start.y, goal.x, goal.y);
        s->handed = 0;
        if (s->n == 0) return r;   /* no path */
        s->active_query = 1;
    }
    uint32_t part = s->n / 3 + 1;
    if (part > s->n - s->handed) part = s->n - s->handed;
    r.path = s->path + s->handed;
    r.length = part;
    s->handed += part;
    r.incomplete = s->handed < s->n;
    if (!r.incomplete) s->active_query = 0;
    return r;
}

void gppc_free_search_data(void *data)
{
    search *s = data;
    if (!s) return;
    free(s->map);
    free(s->dist);
    free(s->parent);
    free(s->done);
    free(s->path);
    free(s);
    log_line("free");
}

const char *gppc_get_name(void) { return "dynbfs"; }
