/*
 * gb_alloc.c -- counted allocation with fault injection; see gb_alloc.h.
 *
 * State: alloc_n (allocations so far), live/peak (usable bytes held now,
 * and the most ever), fail_n (0, or the value of alloc_n whose allocation
 * must fail), budget (0, or the most live bytes allowed).  A failed
 * allocation, injected or real, leaves live and peak unchanged.
 */
#include "gb_alloc.h"

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

static uint64_t alloc_n;
static uint64_t fail_n;
static size_t live, peak, budget;

/* Count one allocation attempt of n bytes; 0 = go ahead, -1 = fail it. */
static int attempt(size_t n)
{
    alloc_n++;
    if (fail_n != 0 && alloc_n == fail_n) {
        fail_n = 0;
        errno = ENOMEM;
        return -1;
    }
    if (budget != 0 && (n > budget || live > budget - n)) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

static void *took(void *p)
{
    if (p) {
        live += malloc_usable_size(p);
        if (live > peak) peak = live;
    } else {
        errno = ENOMEM;
    }
    return p;
}

void *gb_malloc(size_t n)
{
    if (attempt(n) != 0) return NULL;
    return took(malloc(n));
}

void *gb_calloc(size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size) {
        alloc_n++;
        errno = ENOMEM;
        return NULL;
    }
    if (attempt(n * size) != 0) return NULL;
    return took(calloc(n, size));
}

void *gb_realloc(void *p, size_t n)
{
    if (!p) return gb_malloc(n);
    size_t old = malloc_usable_size(p);
    if (attempt(n > old ? n - old : 0) != 0) return NULL;
    void *q = realloc(p, n);
    if (!q) {
        errno = ENOMEM;
        return NULL;
    }
    live -= old;
    return took(q);
}

char *gb_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = gb_malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

void gb_free(void *p)
{
    if (!p) return;
    size_t n = malloc_usable_size(p);
    live = n <= live ? live - n : 0;
    free(p);
}

uint64_t gb_alloc_count(void) { return alloc_n; }
size_t gb_alloc_live(void) { return live; }
size_t gb_alloc_peak(void) { return peak; }
void gb_alloc_reset_peak(void) { peak = live; }
void gb_alloc_fail_at(uint64_t n) { fail_n = n == 0 ? 0 : alloc_n + n; }

size_t gb_alloc_set_budget(size_t b)
{
    size_t old = budget;
    budget = b;
    return old;
}
