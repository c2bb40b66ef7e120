/*
 * gb_alloc.h -- the one door to the heap for everything in gridbench.
 *
 * Every allocation of the solvers and the harness goes through
 * gb_malloc / gb_calloc / gb_realloc / gb_strdup and is released with
 * gb_free.  The layer adds no header to a block: it keeps three counters
 * and two optional failure triggers, and otherwise is the C library's
 * allocator.
 *
 * Counters (process-wide, for one thread: gridbench's searches and its
 * runner are single-threaded):
 *   - allocations: calls that returned a block (or failed on purpose);
 *   - live bytes: the usable size (malloc_usable_size) of the blocks held
 *     now, so the figure is what the allocator really handed out;
 *   - peak bytes: the largest live figure since the last reset.
 *
 * Failure triggers, for tests and limits:
 *   - gb_alloc_fail_at(n): the n-th allocation from now fails once
 *     (returns NULL with errno = ENOMEM), as a real out-of-memory would.
 *     `gridbench` arms it from the environment variable
 *     GRIDBENCH_FAIL_ALLOC=n (harness/cli/main.c), which is how the test suite
 *     proves that every failure is reported and unwound;
 *   - gb_alloc_set_budget(b): an allocation that would take the live
 *     figure above b bytes fails (0 = no budget).
 *
 * Invariant: live bytes = sum of malloc_usable_size over blocks obtained
 * here and not yet given to gb_free.  A block from another allocator
 * (getline, dlerror, ...) must go to free(), never to gb_free.
 */
#ifndef GB_ALLOC_H
#define GB_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/* malloc(n), counted; NULL with errno = ENOMEM on failure (injected too).
 * gb_malloc(0) returns a unique pointer or NULL, as malloc does. */
void *gb_malloc(size_t n);

/* calloc(n, size), counted; n * size overflowing fails with ENOMEM. */
void *gb_calloc(size_t n, size_t size);

/* realloc(p, n), counted; on failure p is untouched and still owned by
 * the caller.  gb_realloc(NULL, n) is gb_malloc(n). */
void *gb_realloc(void *p, size_t n);

/* A counted copy of the string s (NULL on failure). */
char *gb_strdup(const char *s);

/* Release a block from this layer (NULL is a no-op). */
void gb_free(void *p);

/* The counters; gb_alloc_reset_peak() sets peak to the live figure. */
uint64_t gb_alloc_count(void);
size_t gb_alloc_live(void);
size_t gb_alloc_peak(void);
void gb_alloc_reset_peak(void);

/* Make the n-th allocation from now fail once (n >= 1); 0 disarms. */
void gb_alloc_fail_at(uint64_t n);

/* Have allocations fail that would take live bytes above b (0 = none).
 * Returns the previous budget. */
size_t gb_alloc_set_budget(size_t b);

#endif
