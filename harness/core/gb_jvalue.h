/*
 * gb_jvalue.h -- a small JSON reader (RFC 8259) into a tree of values,
 * for the files the harness writes or consumes (env.json, hyperfine's
 * --export-json).  The writers live in gb_env.h (gb_json_str/num).
 *
 * Data structure
 *   A gb_jv is one value.  Arrays and objects own a malloc'd array of
 *   children (items[0..n)); an object's children carry their member name
 *   in key (NULL for array items).  Strings are decoded (escapes, \uXXXX
 *   with surrogate pairs, to UTF-8) and NUL-terminated; a string holding
 *   "\u0000" keeps its length in slen.  Member order is the file's;
 *   repeated names are kept (lookups return the first).
 *
 * Limits: nesting deeper than GB_JV_MAX_DEPTH is refused, so hostile
 * input cannot exhaust the stack.
 */
#ifndef GB_JVALUE_H
#define GB_JVALUE_H

#include <stddef.h>

#include "gb_diag.h"

#define GB_JV_MAX_DEPTH 64

typedef enum gb_jv_type {
    GB_JV_NULL, GB_JV_BOOL, GB_JV_NUM, GB_JV_STR, GB_JV_ARR, GB_JV_OBJ
} gb_jv_type;

typedef struct gb_jv {
    gb_jv_type type;
    char *key;            /* member name when inside an object, else NULL */
    double num;           /* GB_JV_NUM value; GB_JV_BOOL: 0 or 1 */
    char *str;            /* GB_JV_STR: decoded text, NUL-terminated */
    size_t slen;          /* GB_JV_STR: bytes in str */
    struct gb_jv *items;  /* GB_JV_ARR / GB_JV_OBJ: children */
    size_t n;             /* number of children */
} gb_jv;

/* Parse buf[0..len) (one JSON value, blanks around it allowed) into a
 * fresh tree *out.  Returns 0, or EX_DATAERR with *d holding path, line,
 * column and "expected X, found Y" (and the offending line), or EX_OSERR.
 * On failure *out is NULL. */
int gb_jv_parse(const char *path, const char *buf, size_t len, gb_jv **out, gb_diag *d);

/* gb_read_file + gb_jv_parse. */
int gb_jv_load(const char *path, gb_jv **out, gb_diag *d);

/* Release a tree from gb_jv_parse (NULL is fine). */
void gb_jv_free(gb_jv *v);

/* Member key of object v, or NULL (also when v is NULL or not an object). */
const gb_jv *gb_jv_get(const gb_jv *v, const char *key);

/* Follow a '/'-separated path of member names ("calibration/median_ns");
 * NULL when any step is missing. */
const gb_jv *gb_jv_path(const gb_jv *v, const char *path);

/* The string of v, or dflt when v is not a string. */
const char *gb_jv_str(const gb_jv *v, const char *dflt);

/* The number of v, or dflt when v is not a number. */
double gb_jv_num(const gb_jv *v, double dflt);

#endif
