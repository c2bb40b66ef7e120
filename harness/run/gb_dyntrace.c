/*
 * gb_dyntrace.c -- the line-based trace of a dynamic replay.  See
 * gb_dyntrace.h for the format; docs/dynamic.md for how to check one.
 *
 * Stateless but for the current map and query number: every line is
 * printed as soon as the replay reports it (gb_dynrep_obs), so the
 * trace is in the order things happened.  Cells go out as map
 * coordinates X,Y (ids converted through the current grid).
 */
#include "gb_dyntrace.h"

#include <inttypes.h>

static void put_cell(const gb_dyntrace *t, int32_t id)
{
    fprintf(t->f, " %d,%d", (int)gb_grid_x(t->g, id), (int)gb_grid_y(t->g, id));
}

/* PATH: the rest of the line, bytes that would break it escaped. */
static void put_path(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7f || *p == '\\') fprintf(f, "\\x%02x", *p);
        else fputc(*p, f);
    }
    fputc('\n', f);
}

void gb_dyntrace_begin(gb_dyntrace *t, FILE *f)
{
    t->f = f;
    t->g = NULL;
    t->q = 0;
    fprintf(f, "%s %d\n", GB_DYNTRACE_MAGIC, GB_DYNTRACE_VERSION);
}

void gb_dyntrace_file(gb_dyntrace *t, const char *dscen, const char *map, const gb_grid *g,
                      gb_model m)
{
    t->g = g;
    fputs("file ", t->f);
    put_path(t->f, dscen);
    fprintf(t->f, "map %d %d %s ", (int)g->width, (int)g->height, gb_model_name(m));
    put_path(t->f, map);
}

void gb_dyntrace_query(gb_dyntrace *t, size_t qno, const gb_dyn_query *q)
{
    t->q = qno;
    fprintf(t->f, "query %zu %ld %d,%d %d,%d\n", qno, q->line, (int)q->sx, (int)q->sy,
            (int)q->gx, (int)q->gy);
}

static void on_event(void *arg, int64_t step, const gb_dyn_event *ev, const gb_dyn_cell *cl,
                     int32_t agent)
{
    const gb_dyntrace *t = arg;
    const gb_grid *g = t->g;
    fprintf(t->f, "event %zu %" PRId64 " %ld %s", t->q, step, ev->line,
            ev->block ? "block" : "free");
    size_t dropped = 0;
    for (size_t i = 0; i < ev->nc; i++) {
        int32_t id = gb_grid_id(g, cl[i].x, cl[i].y);
        if (ev->block && id == agent) dropped++;
        else put_cell(t, id);
    }
    fputc('\n', t->f);
    for (size_t i = 0; i < dropped; i++) {
        fprintf(t->f, "drop %zu %" PRId64, t->q, step);
        put_cell(t, agent);
        fputc('\n', t->f);
    }
}

static void on_plan(void *arg, int64_t step, int32_t agent, const gb_dstar_plan *p)
{
    const gb_dyntrace *t = arg;
    (void)agent;   /* path[0] */
    if (!p->found) {
        fprintf(t->f, "plan %zu %" PRId64 " none\n", t->q, step);
        return;
    }
    fprintf(t->f, "plan %zu %" PRId64 " %.8f %" PRId64 " %" PRId64, t->q, step, p->cost,
            p->straight, p->diag);
    for (int32_t i = 0; i < p->path_len; i++) put_cell(t, p->path[i]);
    fputc('\n', t->f);
}

static void on_move(void *arg, int64_t step, int32_t agent)
{
    const gb_dyntrace *t = arg;
    fprintf(t->f, "move %zu %" PRId64, t->q, step);
    put_cell(t, agent);
    fputc('\n', t->f);
}

gb_dynrep_obs gb_dyntrace_obs(gb_dyntrace *t)
{
    gb_dynrep_obs o = { t, on_event, on_plan, on_move };
    return o;
}

void gb_dyntrace_end(gb_dyntrace *t, const gb_dynrep_row *row)
{
    fprintf(t->f, "end %zu %s %" PRId64 " %.8f\n", t->q, row->status, row->steps,
            row->travelled);
}
