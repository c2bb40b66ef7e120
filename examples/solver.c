/* solver.c -- reference gridbench external solver in plain C (docs/protocol.md):
 * A* with the octile heuristic and a binary heap with lazy deletion, under the
 * movement model it is told.  Build: cc -O2 -o solver examples/solver.c */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SQRT2 1.4142135623730951
static const int DX[8] = { 0, 1, 0, -1, 1, 1, -1, -1 }, DY[8] = { -1, 0, 1, 0, -1, 1, 1, -1 };
static int W, H, nmoves, nocut, cut1; /* nmoves 4 or 8; nocut/cut1: the diagonal corner rule */
static char *pass;                    /* pass[y*W+x]: 1 = passable ('.', 'G', 'S') */
static double *g;                     /* g[id], valid when st[id] >= 2*gen */
static int *par, *st, gen, *out;      /* st[id]: 2*gen open, 2*gen+1 closed, less = unseen */
typedef struct { double f, g; int id; } ent;
static ent *heap; static size_t hn;   /* binary heap of hn entries: least f, then largest g */

static int fr(int x, int y) { return x >= 0 && y >= 0 && x < W && y < H && pass[y * W + x]; }
static int less(ent a, ent b) { return a.f < b.f || (a.f == b.f && a.g > b.g); }
static void push(ent e)
{
    size_t i;
    for (i = hn++; i && less(e, heap[(i - 1) / 2]); i = (i - 1) / 2) heap[i] = heap[(i - 1) / 2];
    heap[i] = e;
}
static ent pop(void)
{
    ent top = heap[0], last = heap[--hn];
    size_t i, c;
    for (i = 0; (c = 2 * i + 1) < hn; heap[i] = heap[c], i = c) {
        if (c + 1 < hn && less(heap[c + 1], heap[c])) c++;
        if (!less(heap[c], last)) break;
    }
    return heap[i] = last, top;
}
static double h(int x, int y, int tx, int ty)           /* octile; Manhattan on model 4 */
{
    int dx = abs(x - tx), dy = abs(y - ty), lo = dx < dy ? dx : dy;
    return nmoves == 4 ? dx + dy : dx + dy - lo + (SQRT2 - 1) * lo;
}
/* Number of cells of the path in out[] (goal first), 0 when unreachable. */
static int astar(int sx, int sy, int tx, int ty)
{
    int s = sy * W + sx, t = ty * W + tx;
    gen++, hn = 0, st[s] = 2 * gen, g[s] = 0, par[s] = -1;
    push((ent){ h(sx, sy, tx, ty), 0, s });
    while (hn) {
        ent e = pop();
        if (st[e.id] == 2 * gen + 1) continue;              /* stale heap entry */
        int len = 0, x = e.id % W, y = e.id / W;
        if (e.id == t) { for (int c = t; c >= 0; c = par[c]) out[len++] = c; return len; }
        st[e.id] = 2 * gen + 1;
        for (int k = 0; k < nmoves; k++) {
            int nx = x + DX[k], ny = y + DY[k], n = ny * W + nx;
            if (!fr(nx, ny) || st[n] == 2 * gen + 1) continue;
            int a = fr(nx, y), b = fr(x, ny);               /* orthogonal cells of a diagonal */
            if (k >= 4 && ((nocut && !(a && b)) || (cut1 && !(a || b)))) continue;
            double ng = g[e.id] + (k < 4 ? 1.0 : SQRT2);
            if (st[n] == 2 * gen && ng >= g[n]) continue;
            st[n] = 2 * gen, g[n] = ng, par[n] = e.id;
            push((ent){ ng + h(nx, ny, tx, ty), ng, n });
        }
    }
    return 0;
}
int main(void)
{
    char *line = NULL, model[16]; size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0) {
        long id; int sx, sy, tx, ty;
        if (sscanf(line, "map %d %d %15s", &W, &H, model) == 3) {
            size_t n = (size_t)W * (size_t)H;
            pass = realloc(pass, n), g = realloc(g, n * sizeof *g), par = realloc(par, n * sizeof *par);
            free(st), st = calloc(n, sizeof *st), out = realloc(out, n * sizeof *out);
            heap = realloc(heap, (8 * n + 1) * sizeof *heap);   /* lazy heap: <= 8 pushes a cell */
            if (!pass || !g || !par || !st || !out || !heap) return 2;
            for (int y = 0; y < H; y++) {
                if (getline(&line, &cap, stdin) < W) return 2;
                for (int x = 0; x < W; x++) pass[y * W + x] = strchr(".GS", line[x]) != NULL;
            }
            if (getline(&line, &cap, stdin) < 3 || strncmp(line, "end", 3)) return 2;
            nmoves = strcmp(model, "4") ? 8 : 4, nocut = !strcmp(model, "8-nocut");
            cut1 = !strcmp(model, "8-cut1"), gen = 0;
            printf("ready astar-octile-c\n");
        } else if (sscanf(line, "query %ld %d %d %d %d", &id, &sx, &sy, &tx, &ty) == 5) {
            struct timespec t0, t1;
            int n = (clock_gettime(CLOCK_MONOTONIC, &t0), astar(sx, sy, tx, ty));
            clock_gettime(CLOCK_MONOTONIC, &t1);
            printf(n ? "path %ld %d" : "nopath %ld", id, n);
            for (int i = n - 1; i >= 0; i--) printf(" %d %d", out[i] % W, out[i] / W);
            printf(" time_ns %lld\n", (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec));
        } else if (!strncmp(line, "quit", 4)) {
            break;
        } else return fprintf(stderr, "solver.c: unexpected line: %s", line), 2;
        fflush(stdout);                                     /* every answer must be flushed */
    }
    return 0;
}
