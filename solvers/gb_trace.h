/*
 * gb_trace.h -- a search's events, recorded for `gridbench trace`.
 *
 * Data structure
 *   A gb_trace is a caller-owned array of cap events and a count n.  A
 *   search run with a trace attached (gb_ws_set_trace) appends, in the
 *   order they happen:
 *     GB_TR_GEN   a node's g was set or improved (a push or a decrease):
 *                 id, its g and h (unweighted), by = the node being
 *                 expanded (-1 for a root);
 *     GB_TR_EXP   a node was taken off the open list and expanded;
 *     GB_TR_STOP  a node was taken off the open list and the search
 *                 stopped there without expanding it (the goal, or the
 *                 meeting node of a bidirectional search).
 *   side is 0 for the search from the start, 1 for the backward one.
 *   Ids are the workspace's (padded grid) cell ids.
 *
 * Invariants
 *   n <= cap always; an event that does not fit sets overflow and is
 *   dropped, so a trace with overflow == 0 is complete.  No search
 *   allocates: the caller sizes ev[] (from --max-mem) before the search.
 *   The number of GB_TR_EXP events equals the search's st.expanded (the
 *   tests check this for every traced family).
 *
 * Cost: the events are recorded only by the traced instantiations of the
 * search cores (gb_family.fn_trace, binary heap only); the timed searches
 * are other instantiations of the same code, where the recording is a
 * compile-time 0 and folds away.
 */
#ifndef GB_TRACE_H
#define GB_TRACE_H

#include <stddef.h>
#include <stdint.h>

enum { GB_TR_GEN = 0, GB_TR_EXP = 1, GB_TR_STOP = 2 };

typedef struct gb_trace_ev {
    double g, h;
    int32_t id, by;
    uint8_t kind, side;
} gb_trace_ev;

typedef struct gb_trace {
    gb_trace_ev *ev; /* cap events, owned by the caller */
    size_t n, cap;
    int overflow; /* 1: an event did not fit (the trace is incomplete) */
} gb_trace;

static inline void gb_trace_put(gb_trace *t, int kind, int side, int32_t id, int32_t by, double g,
                                double h)
{
    if (t->n == t->cap) {
        t->overflow = 1;
        return;
    }
    gb_trace_ev *e = &t->ev[t->n++];
    e->g = g;
    e->h = h;
    e->id = id;
    e->by = by;
    e->kind = (uint8_t)kind;
    e->side = (uint8_t)side;
}

#endif
