/*
 * gb_user.c -- the user-solver registry and the plugin loader (see
 * gb_user.h).  The registry is a fixed array of GB_USER_MAX entries in
 * registration order, with parallel arrays of their hooks and metrics
 * functions (hooks[i] and metrics[i] belong to reg[i]; zeroed/NULL =
 * none); names are unique across built-in and user solvers.
 */
#include "gb_user.h"

#include <dlfcn.h>
#include <string.h>

#include "gb_alloc.h"
#include "gb_trace.h"

static gb_user_solver reg[GB_USER_MAX];
static gb_user_hooks hooks[GB_USER_MAX];
static gb_user_metrics_fn metrics[GB_USER_MAX];
static gb_user_change_fn changes[GB_USER_MAX];
static int nreg;

static int name_ok(const char *s)
{
    if (!s || !*s || strlen(s) >= 64) return 0;
    for (; *s; s++) {
        char c = *s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
              || c == '-' || c == '_' || c == '.' || c == ':'))
            return 0;
    }
    return 1;
}

int gb_user_register(const char *name, gb_user_solve_fn fn, void *ctx, int optimal)
{
    char err[128];
    gb_solver_spec sp;
    if (nreg >= GB_USER_MAX || !fn || !name_ok(name) || gb_user_find(name)
        || gb_solver_parse(name, &sp, err, sizeof err) == 0)
        return -1;
    reg[nreg].name = name;
    reg[nreg].solve = fn;
    reg[nreg].ctx = ctx;
    reg[nreg].optimal = optimal;
    nreg++;
    return 0;
}

int gb_user_count(void) { return nreg; }

const gb_user_solver *gb_user_at(int i) { return i >= 0 && i < nreg ? &reg[i] : NULL; }

const gb_user_solver *gb_user_find(const char *name)
{
    for (int i = 0; i < nreg; i++)
        if (strcmp(reg[i].name, name) == 0) return &reg[i];
    return NULL;
}

int gb_user_set_hooks(const char *name, gb_user_prepare_fn prepare, gb_user_release_fn release)
{
    const gb_user_solver *u = name ? gb_user_find(name) : NULL;
    if (!u) return -1;
    gb_user_hooks *h = &hooks[u - reg];
    h->name = u->name;
    h->prepare = prepare;
    h->release = release;
    return 0;
}

int gb_user_prepare(const gb_user_solver *u, const gb_grid *g, gb_model m)
{
    const gb_user_hooks *h = &hooks[u - reg];
    return h->prepare && h->prepare(u->ctx, g, m) != 0 ? -1 : 0;
}

void gb_user_release(const gb_user_solver *u)
{
    const gb_user_hooks *h = &hooks[u - reg];
    if (h->release) h->release(u->ctx);
}

int gb_user_set_metrics(const char *name, gb_user_metrics_fn fn)
{
    const gb_user_solver *u = name ? gb_user_find(name) : NULL;
    if (!u) return -1;
    metrics[u - reg] = fn;
    return 0;
}

int gb_user_metrics_get(const gb_user_solver *u, gb_user_metrics *out)
{
    memset(out, 0, sizeof *out);
    out->size = (uint32_t)sizeof *out;
    gb_user_metrics_fn fn = metrics[u - reg];
    if (!fn) return 0;
    if (fn(u->ctx, out) != 0 || out->version == 0) {
        memset(out, 0, sizeof *out);
        out->size = (uint32_t)sizeof *out;
        return -1;
    }
    out->size = (uint32_t)sizeof *out;
    /* groups this build knows (all of version 1); a later version's
     * groups are dropped rather than misread */
    out->have &= GB_UM_QUERY | GB_UM_MAP | GB_UM_SEGMENT | GB_UM_ERROR
                 | (out->version >= 2 ? GB_UM_CHANGE : 0u);
    out->reason[sizeof out->reason - 1] = '\0';
    out->time_source[sizeof out->time_source - 1] = '\0';
    return 1;
}

int gb_user_set_change(const char *name, gb_user_change_fn fn)
{
    const gb_user_solver *u = name ? gb_user_find(name) : NULL;
    if (!u) return -1;
    changes[u - reg] = fn;
    return 0;
}

int gb_user_has_change(const gb_user_solver *u) { return changes[u - reg] != NULL; }

int gb_user_change(const gb_user_solver *u, const gb_grid *g, const gb_user_patch *p, int n)
{
    gb_user_change_fn fn = changes[u - reg];
    return fn && fn(u->ctx, g, p, n) == 0 ? 0 : -1;
}

/* 0 when name (of table sym) names a solver of t[0..n), else EX_DATAERR
 * in *d: "expected SYM to name a solver of gb_plugin_solvers, found 'x'". */
static int names_a_solver(const char *name, const char *sym, const gb_user_solver *t, int n,
                          const char *path, gb_diag *d)
{
    for (int j = 0; name && j < n; j++)
        if (strcmp(name, t[j].name) == 0) return 0;
    char q[96];
    const char *nm = name ? name : "(null)";
    gb_diag_quote(q, sizeof q, nm, strlen(nm));
    return gb_diag_set(d, EX_DATAERR, path, 0, 0, "expected %s to name a solver of %s, found %s", sym,
                       GB_PLUGIN_SYMBOL, q);
}

/* The optional table function sym of library h into *fn (a function
 * pointer of size bytes): 1, or 0 when the library does not export it. */
static int optional_table(void *h, const char *sym, void *fn, size_t size)
{
    void *s = dlsym(h, sym);
    if (!s) return 0;
    memcpy(fn, &s, size);   /* object pointer -> function pointer, POSIX-style */
    return 1;
}

int gb_user_load_plugin(const char *path, gb_diag *d)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) return gb_diag_set(d, EX_NOINPUT, path, 0, 0, "expected a loadable shared library, found: %s", dlerror());
    gb_plugin_fn fn;
    void *sym = dlsym(h, GB_PLUGIN_SYMBOL);
    if (!sym)
        return gb_diag_set(d, EX_DATAERR, path, 0, 0, "expected the symbol %s, found none", GB_PLUGIN_SYMBOL);
    memcpy(&fn, &sym, sizeof fn);   /* object pointer -> function pointer, POSIX-style */
    int n = 0;
    const gb_user_solver *t = fn(&n);
    if (!t || n <= 0)
        return gb_diag_set(d, EX_DATAERR, path, 0, 0, "expected %s to return at least one solver, found %d",
                           GB_PLUGIN_SYMBOL, n);
    for (int i = 0; i < n; i++)
        if (gb_user_register(t[i].name, t[i].solve, t[i].ctx, t[i].optimal) != 0)
            return gb_diag_set(d, EX_DATAERR, path, 0, 0,
                               "expected a new solver name of [A-Za-z0-9._:-], found '%s' (taken or invalid)",
                               t[i].name ? t[i].name : "(null)");
    /* optional: plugins built before the hooks existed do not export it */
    gb_plugin_hooks_fn hfn;
    int nh = 0;
    const gb_user_hooks *ht = optional_table(h, GB_PLUGIN_HOOKS_SYMBOL, &hfn, sizeof hfn) ? hfn(&nh) : NULL;
    for (int i = 0; ht && i < nh; i++) {
        int rc = names_a_solver(ht[i].name, GB_PLUGIN_HOOKS_SYMBOL, t, n, path, d);
        if (rc) return rc;
        gb_user_set_hooks(ht[i].name, ht[i].prepare, ht[i].release);
    }
    /* optional too: plugins that measure themselves (gb_user_metrics) */
    gb_plugin_metrics_fn mfn;
    int nm = 0;
    const gb_user_metrics_hook *mt = optional_table(h, GB_PLUGIN_METRICS_SYMBOL, &mfn, sizeof mfn) ? mfn(&nm)
                                                                                                   : NULL;
    for (int i = 0; mt && i < nm; i++) {
        int rc = names_a_solver(mt[i].name, GB_PLUGIN_METRICS_SYMBOL, t, n, path, d);
        if (rc) return rc;
        gb_user_set_metrics(mt[i].name, mt[i].fn);
    }
    /* optional: solvers that follow map changes (gppc-dynamic) */
    gb_plugin_changes_fn cfn;
    int nc = 0;
    const gb_user_change_hook *ct = optional_table(h, GB_PLUGIN_CHANGES_SYMBOL, &cfn, sizeof cfn) ? cfn(&nc)
                                                                                                 : NULL;
    for (int i = 0; ct && i < nc; i++) {
        int rc = names_a_solver(ct[i].name, GB_PLUGIN_CHANGES_SYMBOL, t, n, path, d);
        if (rc) return rc;
        gb_user_set_change(ct[i].name, ct[i].change);
    }
    return 0;   /* the library stays loaded for the life of the process */
}

/* ---- traces ------------------------------------------------------------ */

static gb_trace *utrace; /* the recording of gridbench trace, or NULL */
static size_t utrace_max;

void gb_user_trace_attach(gb_trace *t, size_t max)
{
    utrace = t;
    utrace_max = max;
}

/* One event: the array doubled (up to the limit) when full. */
static void uput(int kind, int side, int32_t id, int32_t by, double g, double h)
{
    gb_trace *t = utrace;
    if (t->n == t->cap && t->cap < utrace_max) {
        size_t nc = t->cap ? 2 * t->cap : 4096;
        if (nc > utrace_max) nc = utrace_max;
        gb_trace_ev *ne = gb_realloc(t->ev, nc * sizeof *ne);
        if (ne) {
            t->ev = ne;
            t->cap = nc;
        }
    }
    gb_trace_put(t, kind, side, id, by, g, h);
}

void gb_user_trace_generate(int side, int32_t id, double g, double h, int32_t by)
{
    if (utrace) uput(GB_TR_GEN, side, id, by, g, h);
}

void gb_user_trace_expand(int side, int32_t id)
{
    if (utrace) uput(GB_TR_EXP, side, id, -1, 0.0, 0.0);
}

void gb_user_trace_stop(int side, int32_t id)
{
    if (utrace) uput(GB_TR_STOP, side, id, -1, 0.0, 0.0);
}
