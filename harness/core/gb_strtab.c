/*
 * gb_strtab.c -- interned strings (see gb_strtab.h for the structure).
 */
#include "gb_strtab.h"

#include <string.h>

#include "gb_alloc.h"

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;   /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int rehash(gb_strtab *t, size_t nslot)
{
    int32_t *sl = gb_malloc(nslot * sizeof *sl);
    if (!sl) return -1;
    for (size_t i = 0; i < nslot; i++) sl[i] = -1;
    for (size_t i = 0; i < t->n; i++) {
        size_t h = (size_t)hash_str(t->str[i]) & (nslot - 1);
        while (sl[h] >= 0) h = (h + 1) & (nslot - 1);
        sl[h] = (int32_t)i;
    }
    gb_free(t->slot);
    t->slot = sl;
    t->nslot = nslot;
    return 0;
}

int32_t gb_strtab_intern(gb_strtab *t, const char *s, int *added)
{
    if (added) *added = 0;
    if (2 * (t->n + 1) >= t->nslot && rehash(t, t->nslot ? 2 * t->nslot : 64) != 0) return -1;
    size_t h = (size_t)hash_str(s) & (t->nslot - 1);
    while (t->slot[h] >= 0) {
        if (strcmp(t->str[t->slot[h]], s) == 0) return t->slot[h];
        h = (h + 1) & (t->nslot - 1);
    }
    if (t->n == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 16;
        char **ns = gb_realloc(t->str, nc * sizeof *ns);
        if (!ns) return -1;
        t->str = ns;
        t->cap = nc;
    }
    char *c = gb_strdup(s);
    if (!c) return -1;
    t->str[t->n] = c;
    t->slot[h] = (int32_t)t->n;
    if (added) *added = 1;
    return (int32_t)t->n++;
}

int32_t gb_strtab_find(const gb_strtab *t, const char *s)
{
    if (!t->nslot) return -1;
    size_t h = (size_t)hash_str(s) & (t->nslot - 1);
    while (t->slot[h] >= 0) {
        if (strcmp(t->str[t->slot[h]], s) == 0) return t->slot[h];
        h = (h + 1) & (t->nslot - 1);
    }
    return -1;
}

void gb_strtab_free(gb_strtab *t)
{
    for (size_t i = 0; i < t->n; i++) gb_free(t->str[i]);
    gb_free(t->str);
    gb_free(t->slot);
    memset(t, 0, sizeof *t);
}
