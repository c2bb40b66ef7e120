/*
 * gb_strtab.h -- a table of interned strings: each distinct string gets
 * the index of its first appearance (0, 1, 2, ...), so that an index is
 * also an output order.
 *
 * Data structure
 *   str[0..n) holds one malloc'd copy per distinct string, in insertion
 *   order.  slot[0..nslot) is an open-addressing hash table (linear
 *   probing, FNV-1a) holding indices into str, -1 for an empty slot;
 *   nslot is a power of two kept above 2 n, so a probe always ends.
 *   A zeroed gb_strtab is a valid empty table.
 *
 * Time complexity: O(length) expected per lookup or insertion.
 */
#ifndef GB_STRTAB_H
#define GB_STRTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct gb_strtab {
    char **str;        /* interned copies, index = first appearance */
    size_t n, cap;     /* used / allocated entries of str */
    int32_t *slot;     /* open-addressing hash: index into str, -1 empty */
    size_t nslot;      /* power of two, > 2 n (0 while empty) */
} gb_strtab;

/* Index of s in t, adding a copy of s when it is new (then *added = 1
 * when added is not NULL, else 0).  -1 when out of memory (t unchanged
 * apart from a possibly larger hash). */
int32_t gb_strtab_intern(gb_strtab *t, const char *s, int *added);

/* Index of s in t, or -1 when absent. */
int32_t gb_strtab_find(const gb_strtab *t, const char *s);

/* Free every copy and the arrays; *t is zeroed (an empty table again). */
void gb_strtab_free(gb_strtab *t);

#endif
