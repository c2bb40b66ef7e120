/*
 * gb_pq_bound.h -- two queues that are NOT exact, for timing bounds only
 * (queues "bound-fifo" and "bound-dial").  Compiled only with
 * -DGB_BOUND_QUEUES (`make bench-bounds`); the default build, the tests
 * and every CSV of gridbench never contain them.
 *
 * Why they exist.  The speed of Dijkstra on a queue is the search loop's
 * own cost plus the queue's.  These two measure, side by side with the
 * real queues, how fast the same loop runs when the queue does (almost)
 * nothing, so that a speed target can be checked against what is
 * possible on the machine at all:
 *   bound-fifo  a plain array FIFO: push appends, pop takes the oldest,
 *               decrease does nothing.  No order at all: the loop's own
 *               cost with one push and one pop per node (an upper bound on
 *               any queue's speed).
 *   bound-dial  Dial's buckets without order inside a bucket: buckets of
 *               width 1/16 in a ring of 128 (8 f-units, more than
 *               Dijkstra's largest edge cost sqrt2 ahead of the current
 *               key), each a plain array of capacity ncells; push appends,
 *               pop takes the last entry of the first non-empty bucket,
 *               decrease appends a new entry (the old one pops later as
 *               stale).
 *               The cheapest bucket mechanics there are: an exact bucket
 *               queue does all of this plus ordering inside a bucket.
 * Keys outside the ring's reach (A*, weighted A*, greedy: f can lie 8
 * units ahead) land in the wrong bucket; bounds are measured on Dijkstra
 * only.  Memory stays safe whatever the keys: an entry that would pass a
 * bucket's capacity (ncells) is dropped, and pop ends because some bucket
 * is non-empty.  Memory: bound-fifo 4 bytes per cell; bound-dial 128 * 4
 * bytes per cell (only the touched pages are ever resident).
 */
#ifndef GB_PQ_BOUND_H
#define GB_PQ_BOUND_H

#include <errno.h>
#include <stdint.h>

#include "gb_alloc.h"
#include "gb_exact.h"
#include "gb_pq.h"

typedef struct gb_bound_fifo {
    gb_pq_counters cnt;
    int32_t *a;            /* [ncells] ids; a[h .. t) are queued */
    size_t h, t;
} gb_bound_fifo;

static inline size_t gb_bound_fifo_bytes(int32_t ncells)
{
    return (size_t)(ncells > 0 ? ncells : 1) * sizeof(int32_t);
}
static inline int gb_bound_fifo_init(gb_bound_fifo *q, int32_t ncells)
{
    gb_bound_fifo z = {0};
    *q = z;
    if (ncells < 0) { errno = EINVAL; return -1; }
    q->a = gb_malloc(gb_bound_fifo_bytes(ncells));
    if (!q->a) { errno = ENOMEM; return -1; }
    return 0;
}
static inline void gb_bound_fifo_free(gb_bound_fifo *q)
{
    gb_bound_fifo z = {0};
    gb_free(q->a);
    *q = z;
}
static inline void gb_bound_fifo_clear(gb_bound_fifo *q)
{
    gb_pq_counters z = {0};
    q->h = q->t = 0;
    q->cnt = z;
}
static inline int gb_bound_fifo_empty(const gb_bound_fifo *q) { return q->h == q->t; }
static inline size_t gb_bound_fifo_size(const gb_bound_fifo *q) { return q->t - q->h; }
/* Each id is pushed at most once per search (the core pushes new nodes
 * only), so t never passes ncells. */
static inline void gb_bound_fifo_push(gb_bound_fifo *q, int32_t id, double f, double g)
{
    (void)f; (void)g;
    q->a[q->t++] = id;
    q->cnt.pushes++;
}
static inline void gb_bound_fifo_decrease(gb_bound_fifo *q, int32_t id, double f, double g)
{
    (void)id; (void)f; (void)g;
    q->cnt.decreases++;
}
static inline void gb_bound_fifo_pushk(gb_bound_fifo *q, int32_t id, uint64_t fk, uint64_t gk)
{
    (void)fk; (void)gk;
    gb_bound_fifo_push(q, id, 0.0, 0.0);
}
static inline void gb_bound_fifo_decreasek(gb_bound_fifo *q, int32_t id, uint64_t fk, uint64_t gk)
{
    (void)fk; (void)gk;
    gb_bound_fifo_decrease(q, id, 0.0, 0.0);
}
static inline int32_t gb_bound_fifo_pop(gb_bound_fifo *q)
{
    q->cnt.pops++;
    return q->a[q->h++];
}
static inline int gb_bound_fifo_check(const gb_bound_fifo *q) { return q->h > q->t; }

#define GB_BOUND_DIAL_SLOTS 128          /* ring of buckets (a power of two) */
#define GB_BOUND_DIAL_SCALE 16.0         /* 1 / bucket width */

typedef struct gb_bound_dial {
    gb_pq_counters cnt;
    int32_t *a;            /* [SLOTS][cap] bucket arrays */
    int32_t *len;          /* [SLOTS] entries per bucket */
    int64_t cur;           /* bucket index of the next pop scan, -1 when empty */
    size_t n;              /* entries, stale ones included */
    size_t cap;            /* ncells */
} gb_bound_dial;

static inline size_t gb_bound_dial_bytes(int32_t ncells)
{
    size_t c = (size_t)(ncells > 0 ? ncells : 1);
    return GB_BOUND_DIAL_SLOTS * c * sizeof(int32_t) + GB_BOUND_DIAL_SLOTS * sizeof(int32_t);
}
static inline int gb_bound_dial_init(gb_bound_dial *q, int32_t ncells)
{
    gb_bound_dial z = {0};
    size_t c = (size_t)(ncells > 0 ? ncells : 1);
    *q = z;
    if (ncells < 0) { errno = EINVAL; return -1; }
    q->a = gb_malloc(GB_BOUND_DIAL_SLOTS * c * sizeof *q->a);
    q->len = gb_calloc(GB_BOUND_DIAL_SLOTS, sizeof *q->len);
    if (!q->a || !q->len) {
        gb_free(q->a); gb_free(q->len);
        *q = z;
        errno = ENOMEM;
        return -1;
    }
    q->cap = c;
    q->cur = -1;
    return 0;
}
static inline void gb_bound_dial_free(gb_bound_dial *q)
{
    gb_bound_dial z = {0};
    gb_free(q->a); gb_free(q->len);
    *q = z;
}
static inline void gb_bound_dial_clear(gb_bound_dial *q)
{
    gb_pq_counters z = {0};
    for (int s = 0; s < GB_BOUND_DIAL_SLOTS; s++) q->len[s] = 0;
    q->n = 0;
    q->cur = -1;
    q->cnt = z;
}
static inline int gb_bound_dial_empty(const gb_bound_dial *q) { return q->n == 0; }
static inline size_t gb_bound_dial_size(const gb_bound_dial *q) { return q->n; }
static inline void gb_bound_dial_push(gb_bound_dial *q, int32_t id, double f, double g)
{
    const int64_t i = f < 1e15 ? (int64_t)(f * GB_BOUND_DIAL_SCALE) : (int64_t)1 << 53;
    const uint32_t s = (uint32_t)i & (GB_BOUND_DIAL_SLOTS - 1);
    (void)g;
    q->cnt.pushes++;
    if (q->len[s] == (int32_t)q->cap) return; /* full: dropped (see above) */
    if (q->cur < 0 || i < q->cur) q->cur = i;
    q->a[(size_t)s * q->cap + (size_t)q->len[s]++] = id;
    q->n++;
}
static inline void gb_bound_dial_decrease(gb_bound_dial *q, int32_t id, double f, double g)
{
    q->cnt.decreases++;
    gb_bound_dial_push(q, id, f, g);
    q->cnt.pushes--;
}
/* Exact keys (gb_exact.h): bucketed by their approximate real value. */
static inline void gb_bound_dial_pushk(gb_bound_dial *q, int32_t id, uint64_t fk, uint64_t gk)
{
    (void)gk;
    gb_bound_dial_push(q, id, gb_exact_approx(fk), 0.0);
}
static inline void gb_bound_dial_decreasek(gb_bound_dial *q, int32_t id, uint64_t fk, uint64_t gk)
{
    (void)gk;
    gb_bound_dial_decrease(q, id, gb_exact_approx(fk), 0.0);
}
static inline int32_t gb_bound_dial_pop(gb_bound_dial *q)
{
    uint32_t s = (uint32_t)q->cur & (GB_BOUND_DIAL_SLOTS - 1);
    int32_t id;
    while (!q->len[s]) s = (uint32_t)++q->cur & (GB_BOUND_DIAL_SLOTS - 1);
    id = q->a[(size_t)s * q->cap + (size_t)--q->len[s]];
    q->n--;
    q->cnt.pops++;
    return id;
}
static inline int gb_bound_dial_check(const gb_bound_dial *q) { return q->n > GB_BOUND_DIAL_SLOTS * q->cap; }

#endif
