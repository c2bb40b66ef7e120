/*
 * gb_registry.c -- the registries read back: solver families (from
 * GB_SOLVER_LIST and their descriptors), queues (GB_QUEUE_LIST) and
 * heuristics (GB_HEUR_LIST).  Name parsing, `gridbench list`, `--solver
 * all`, guarantees, supported models and every "expected one of ..."
 * message are derived here; nothing in this file names a particular
 * family, queue or heuristic except the differential heuristic, which
 * takes a parameter (diff:k=K).
 *
 * Name grammar.  A family's form pattern is a literal name ("dijkstra",
 * "jps"), or a literal prefix followed by H -- a heuristic name, "diff"
 * with an optional ":k=K" -- and optionally ":w=W", a weight >= 1
 * ("astar-H", "wastar-H:w=W").  A name is matched against the forms in
 * registry order; the first form whose literal (or prefix) matches owns
 * the name, and an error in the rest is reported against that form.
 * Canonical names spell the heuristic as listed and carry k for diff and
 * the weight as %g: "astar-diff:k=8", "wastar-octile:w=1.5".  A form with
 * pmax > 0 is "name:x=P" instead: the bare name (P = pdef) or the name
 * with ":x=" and a decimal integer in [pmin, pmax], into spec.param;
 * canonical "name:x=%d" ("hpa" -> "hpa:c=16").
 *
 * The modifier "+smooth" may follow any name (once): the rest is parsed
 * as above and the spec gets smooth = 1 (gb_ws.c post-smooths the path;
 * gb_los.h).  It is derived here for every family, so it is listed once,
 * after the forms, as the pattern "SOLVER+smooth".
 */
#include "gb_family.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- families ---------------------------------------------------------- */

static const gb_family *const families[GB_ALGO_COUNT] = {
#define GB_X(E, F) &gb_family_##F,
    GB_SOLVER_LIST(GB_X)
#undef GB_X
};

const gb_family *gb_family_get(gb_algo a)
{
    return families[a];
}

/* ---- names of queues and heuristics ------------------------------------ */

static const char *const queue_names[GB_Q_COUNT] = {
#define GB_X(E, T, N, L, D) N,
    GB_QUEUE_LIST(GB_X)
#undef GB_X
};
static const char *const queue_descs[GB_Q_COUNT] = {
#define GB_X(E, T, N, L, D) D,
    GB_QUEUE_LIST(GB_X)
#undef GB_X
};
static const char *const heur_names[GB_H_COUNT] = {
#define GB_X(E, N, A, C, D) #N,
    GB_HEUR_LIST(GB_X)
#undef GB_X
    "diff",
};
static const char *const heur_descs[GB_H_COUNT] = {
#define GB_X(E, N, A, C, D) D,
    GB_HEUR_LIST(GB_X)
#undef GB_X
    "differential (landmarks, ALT): max |d(L,n) - d(L,goal)|; k landmarks",
};
static const unsigned heur_adm[GB_H_COUNT] = {
#define GB_X(E, N, A, C, D) A,
    GB_HEUR_LIST(GB_X)
#undef GB_X
    GB_HM_ALL,
};
static const unsigned heur_cons[GB_H_COUNT] = {
#define GB_X(E, N, A, C, D) C,
    GB_HEUR_LIST(GB_X)
#undef GB_X
    GB_HM_ALL,
};

const char *gb_queue_name(gb_queue_kind q) { return (unsigned)q < GB_Q_COUNT ? queue_names[q] : "?"; }
const char *gb_queue_desc(gb_queue_kind q) { return (unsigned)q < GB_Q_COUNT ? queue_descs[q] : "?"; }
const char *gb_heur_name(gb_heur h) { return (unsigned)h < GB_H_COUNT ? heur_names[h] : "?"; }
const char *gb_heur_desc(gb_heur h) { return (unsigned)h < GB_H_COUNT ? heur_descs[h] : "?"; }

int gb_queue_from_name(const char *name)
{
    for (int i = 0; i < GB_Q_COUNT; i++)
        if (strcmp(name, queue_names[i]) == 0) return i;
    return -1;
}

int gb_heur_from_name(const char *name)
{
    for (int i = 0; i < GB_H_COUNT; i++)
        if (strcmp(name, heur_names[i]) == 0) return i;
    return -1;
}

int gb_heur_admissible(gb_heur h, gb_model m)
{
    return (unsigned)h < GB_H_COUNT && (heur_adm[h] >> m & 1u);
}

int gb_heur_consistent(gb_heur h, gb_model m)
{
    return (unsigned)h < GB_H_COUNT && (heur_cons[h] >> m & 1u);
}

double gb_heur_eval(gb_heur h, const gb_hctx *c, int32_t id, int32_t x, int32_t y)
{
    return gb_heur_inline((int)h, c, id, x, y);
}

/* Append the n strings name(i) to buf as "a, b, c" (snprintf semantics:
 * truncated but terminated when size > 0); the full length. */
static size_t join(char *buf, size_t size, int n, const char *(*name)(int))
{
    size_t len = 0;
    if (size) buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        const char *s = name(i);
        if (!s) continue;
        int w = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0, "%s%s",
                         len ? ", " : "", s);
        if (w > 0) len += (size_t)w;
    }
    return len;
}

static const char *queue_name_i(int i) { return queue_names[i]; }
static const char *heur_name_i(int i) { return heur_names[i]; }

size_t gb_queue_names(char *buf, size_t size)
{
    return join(buf, size, GB_Q_COUNT, queue_name_i);
}

/* ---- solver forms, `list` and `--solver all` ---------------------------- */

static int nforms_total(void)
{
    int n = 0;
    for (int a = 0; a < GB_ALGO_COUNT; a++) n += families[a]->nforms;
    return n;
}

/* The i-th form over all families, in registry order; NULL past the end. */
static const gb_form *form_at(int i, gb_algo *fam)
{
    for (int a = 0; a < GB_ALGO_COUNT && i >= 0; a++) {
        if (i < families[a]->nforms) {
            if (fam) *fam = (gb_algo)a;
            return &families[a]->forms[i];
        }
        i -= families[a]->nforms;
    }
    return NULL;
}

static const char smooth_suffix[] = "+smooth";
/* Models where every grid step of a path has line of sight (gb_los.h). */
#define SMOOTH_MODELS ((1u << GB_MODEL_8_NOCUT) | (1u << GB_MODEL_4))

const char *gb_solver_list(int i, const char **desc)
{
    const gb_form *f = i >= 0 ? form_at(i, NULL) : NULL;
    if (!f && i == nforms_total()) {
        if (desc) *desc = "modifier of any solver above: its path greedily smoothed into "
                          "any-angle waypoints (line of sight, no corner cutting), "
                          "models 8-nocut and 4; guarantee none, cost <= its solver's";
        return "SOLVER+smooth";
    }
    if (!f) return NULL;
    if (desc) *desc = f->desc;
    return f->pattern;
}

const char *gb_solver_all(int i)
{
    for (int a = 0; a < GB_ALGO_COUNT && i >= 0; a++) {
        if (i < families[a]->nall) return families[a]->all[i];
        i -= families[a]->nall;
    }
    return NULL;
}

/* The patterns a name can match, for "expected one of ..." */
static const char *matchable_pattern_i(int i)
{
    const gb_form *f = form_at(i, NULL);
    return f && !f->list_only ? f->pattern : NULL;
}

/* ---- parsing ------------------------------------------------------------ */

/* The heuristic part h of a name ("octile", "diff", "diff:k=16") into
 * out->heur (and out->k).  0, or -1 with a message. */
static int parse_heur(const char *h, gb_solver_spec *out, char *err, size_t errsz)
{
    char name[32];
    const char *colon = strchr(h, ':');
    size_t n = colon ? (size_t)(colon - h) : strlen(h);
    if (n >= sizeof name) n = sizeof name - 1;
    memcpy(name, h, n);
    name[n] = '\0';
    if (strcmp(name, "diff") == 0) {
        out->heur = GB_H_DIFF;
        out->k = GB_DIFF_DEFAULT_K;
        if (colon) {
            char *end;
            errno = 0;
            long k = strncmp(colon, ":k=", 3) == 0 ? strtol(colon + 3, &end, 10) : -1;
            if (k < 1 || k > GB_LANDMARKS_MAX || errno || *end) {
                snprintf(err, errsz, "heuristic '%s': expected diff:k=K with 1 <= K <= %d", h,
                         GB_LANDMARKS_MAX);
                return -1;
            }
            out->k = (int)k;
        }
        return 0;
    }
    if (colon) {
        snprintf(err, errsz, "heuristic '%s': only diff takes parameters (diff:k=K)", h);
        return -1;
    }
    int k = gb_heur_from_name(name);
    if (k < 0) {
        char names[256];
        const char *hn[GB_H_COUNT];
        for (int i = 0; i < GB_H_COUNT; i++) hn[i] = gb_heur_name((gb_heur)i);
        const char *c = gb_closest(name, hn, GB_H_COUNT);
        join(names, sizeof names, GB_H_COUNT, heur_name_i);
        snprintf(err, errsz, "unknown heuristic '%s': expected one of %s (see `gridbench list`)%s%s%s",
                 h, names, c ? "; did you mean '" : "", c ? c : "", c ? "'?" : "");
        return -1;
    }
    out->heur = (gb_heur)k;
    return 0;
}

/* A form "name:x=P" (f->pmax > 0): the bare name (P = f->pdef) or the
 * name with ":x=" and a decimal integer in [pmin, pmax].  As match_form. */
static int match_param(const gb_form *f, gb_algo a, const char *name, gb_solver_spec *out,
                       char *err, size_t errsz)
{
    const char *colon = strchr(f->pattern, ':'), *eq = colon ? strchr(colon, '=') : NULL;
    if (!eq) return 0;   /* a malformed pattern matches nothing */
    const size_t plen = (size_t)(colon - f->pattern), klen = (size_t)(eq + 1 - colon);
    if (strncmp(name, f->pattern, plen) != 0 || (name[plen] && name[plen] != ':')) return 0;
    long v = f->pdef;
    if (name[plen]) {
        const char *num = name + plen + klen;
        char *end = NULL;
        errno = 0;
        v = strncmp(name + plen, colon, klen) == 0 && *num >= '0' && *num <= '9'
            ? strtol(num, &end, 10) : -1;
        if (v < f->pmin || v > f->pmax || errno || !end || *end) {
            snprintf(err, errsz, "solver '%s': expected %s with %d <= %c <= %d", name,
                     f->pattern, f->pmin, eq[1], f->pmax);
            return -1;
        }
    }
    out->algo = a;
    out->heur = f->heur;
    out->wg = f->wg;
    out->variant = f->variant;
    out->param = (int)v;
    snprintf(out->name, sizeof out->name, "%.*s%ld", (int)(plen + klen), f->pattern, v);
    return 1;
}

/* Match name against form f of family a: 1 (out filled), 0 (not this
 * form's name), -1 (this form's name, with an error in err). */
static int match_form(const gb_form *f, gb_algo a, const char *name, gb_solver_spec *out,
                      char *err, size_t errsz)
{
    const char *H = strchr(f->pattern, 'H');
    if (f->list_only) return 0;
    if (f->pmax > 0) return match_param(f, a, name, out, err, errsz);
    if (!H) {   /* a literal name */
        if (strcmp(name, f->pattern) != 0) return 0;
        out->algo = a;
        out->heur = f->heur;
        out->wg = f->wg;
        out->variant = f->variant;
        snprintf(out->name, sizeof out->name, "%s", name);
        return 1;
    }
    const size_t plen = (size_t)(H - f->pattern);
    if (strncmp(name, f->pattern, plen) != 0) return 0;
    out->algo = a;
    out->wg = f->wg;
    out->variant = f->variant;
    char hpart[64];
    snprintf(hpart, sizeof hpart, "%s", name + plen);
    const int takes_w = strcmp(H + 1, ":w=W") == 0;
    if (takes_w) {
        char *colon = strstr(hpart, ":w=");
        if (!colon) {
            snprintf(err, errsz, "solver '%s': expected %s, found no ':w='", name, f->pattern);
            return -1;
        }
        *colon = '\0';
        char *end;
        errno = 0;
        double w = strtod(colon + 3, &end);
        if (errno || end == colon + 3 || *end || !(w >= 1.0) || !isfinite(w)) {
            snprintf(err, errsz, "solver '%s': expected a weight >= 1, found '%s'", name,
                     colon + 3);
            return -1;
        }
        out->wh = w;
    }
    if (parse_heur(hpart, out, err, errsz)) return -1;
    char k[24] = "", w[40] = "";
    if (out->heur == GB_H_DIFF) snprintf(k, sizeof k, ":k=%d", out->k);
    if (takes_w) snprintf(w, sizeof w, ":w=%g", out->wh);
    snprintf(out->name, sizeof out->name, "%.*s%s%s%s", (int)plen, f->pattern,
             gb_heur_name(out->heur), k, w);
    return 1;
}

static void solver_suggestion(const char *name, char *buf, size_t n);

int gb_solver_parse(const char *name, gb_solver_spec *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    out->wg = 1.0;
    out->wh = 1.0;
    out->heur = GB_H_ZERO;
    if (strlen(name) >= sizeof out->name) {
        snprintf(err, errsz, "solver name too long: '%.40s...'", name);
        return -1;
    }
    const size_t nl = strlen(name), sl = sizeof smooth_suffix - 1;
    if (nl > sl && strcmp(name + nl - sl, smooth_suffix) == 0) {
        char base[sizeof out->name];
        memcpy(base, name, nl - sl);
        base[nl - sl] = '\0';
        if (gb_solver_parse(base, out, err, errsz) != 0) return -1;
        if (out->smooth) {
            snprintf(err, errsz, "solver '%s': expected '+smooth' once, found it twice", name);
            return -1;
        }
        const size_t bl = strlen(out->name);
        if (bl + sl >= sizeof out->name) {
            snprintf(err, errsz, "solver name too long: '%.40s...'", name);
            return -1;
        }
        out->smooth = 1;
        memcpy(out->name + bl, smooth_suffix, sl + 1);
        return 0;
    }
    for (int a = 0; a < GB_ALGO_COUNT; a++)
        for (int i = 0; i < families[a]->nforms; i++) {
            int r = match_form(&families[a]->forms[i], (gb_algo)a, name, out, err, errsz);
            if (r) return r > 0 ? 0 : -1;
        }
    char pats[256], hint[96];
    join(pats, sizeof pats, nforms_total(), matchable_pattern_i);
    solver_suggestion(name, hint, sizeof hint);
    snprintf(err, errsz, "unknown solver '%s': expected one of %s (see `gridbench list`)%s", name,
             pats, hint);
    return -1;
}

/* ---- what a solver promises and supports --------------------------------- */

gb_guarantee gb_solver_guarantee(const gb_solver_spec *s, gb_model m, double *bound)
{
    gb_guarantee gu = GB_GUAR_NONE;
    double b = 0.0;
    if ((unsigned)s->algo < GB_ALGO_COUNT && gb_solver_cost_model(s) == GB_COST_GRID) {
        const gb_family *f = families[s->algo];
        if (f->guarantee) {
            gu = f->guarantee(s, m, &b);
        } else if (f->models >> m & 1u) {
            gu = GB_GUAR_OPTIMAL;
            b = 1.0;
        }
    }
    if (bound) *bound = b;
    return gu;
}

const char *gb_guarantee_name(gb_guarantee g)
{
    static const char *const n[] = { "optimal", "bounded", "none" };
    return (unsigned)g < 3 ? n[g] : "?";
}

gb_cost_model gb_solver_cost_model(const gb_solver_spec *s)
{
    if (s->smooth || ((unsigned)s->algo < GB_ALGO_COUNT && families[s->algo]->anyangle))
        return GB_COST_ANYANGLE;
    return GB_COST_GRID;
}

const char *gb_cost_model_name(gb_cost_model c)
{
    return c == GB_COST_ANYANGLE ? "anyangle" : c == GB_COST_GRID ? "grid" : "?";
}

double gb_solver_grid_bound(const gb_solver_spec *s, gb_model m)
{
    char err[8];
    if (gb_solver_cost_model(s) != GB_COST_ANYANGLE || gb_solver_unsupported(s, m, err, sizeof err))
        return 0.0;
    if (families[s->algo]->anyangle) return 1.0;
    gb_solver_spec base = *s;
    base.smooth = 0;
    double b = 0.0;
    return gb_solver_guarantee(&base, m, &b) == GB_GUAR_NONE ? 0.0 : b;
}

int gb_solver_aa_optimal(const gb_solver_spec *s)
{
    return (unsigned)s->algo < GB_ALGO_COUNT && families[s->algo]->aa_optimal;
}

int gb_solver_unsupported(const gb_solver_spec *s, gb_model m, char *err, size_t errsz)
{
    if ((unsigned)s->algo >= GB_ALGO_COUNT) {
        snprintf(err, errsz, "solver '%s': not a registered family", s->name);
        return 1;
    }
    if (families[s->algo]->aa_optimal && !s->aa_gppc) {
        snprintf(err, errsz, "solver '%s' searches the GPPC any-angle model only: expected "
                 "--anyangle-model gppc, found the cell-centre model", s->name);
        return 1;
    }
    const unsigned models = families[s->algo]->models & (s->smooth ? SMOOTH_MODELS : ~0u);
    if (models >> m & 1u) return 0;
    char list[128] = "";
    int n = 0;
    for (int k = 0; k < GB_MODEL_COUNT; k++)
        if (models >> k & 1u) {
            size_t l = strlen(list);
            snprintf(list + l, sizeof list - l, "%s%s", n++ ? ", " : "",
                     gb_model_name((gb_model)k));
        }
    snprintf(err, errsz, "solver '%s' supports model%s %s only, not %s", s->name,
             n > 1 ? "s" : "", list, gb_model_name(m));
    return 1;
}

int gb_solver_unsupported_w(const gb_solver_spec *s, gb_model m, int weighted, char *err,
                            size_t errsz)
{
    if (gb_solver_unsupported(s, m, err, errsz)) return 1;
    if (!weighted) return 0;
    if (!families[s->algo]->fn_w) {
        snprintf(err, errsz, "solver '%s' is defined for uniform costs only, not under a terrain "
                 "cost model (docs/terrain.md)", s->name);
        return 1;
    }
    if (s->smooth) { /* its "never longer" is the triangle inequality, which weighted cells break */
        snprintf(err, errsz, "solver '%s': +smooth is defined for uniform costs only, not under a "
                 "terrain cost model", s->name);
        return 1;
    }
    if (families[s->algo]->anyangle && s->aa_gppc) {
        snprintf(err, errsz,
                 "solver '%s': any-angle paths under a terrain cost model are defined "
                 "in the cell-centre model only: expected --anyangle-model centre, found gppc",
                 s->name);
        return 1;
    }
    if (m != GB_MODEL_8_NOCUT && m != GB_MODEL_4) {
        snprintf(err, errsz, "solver '%s': terrain costs need model 8-nocut or 4, not %s", s->name,
                 gb_model_name(m));
        return 1;
    }
    return 0;
}

const char *gb_closest(const char *word, const char *const *names, int n)
{
    size_t lw = strlen(word), row[48];
    if (lw == 0 || lw >= 47) return NULL;
    /* 1 edit for words of 1-2 letters, 2 from 3 ("jsp" -> "jps"), 3 from 9 */
    size_t limit = lw < 3 ? 1 : lw < 9 ? 2 : 3, best = limit + 1;
    const char *bestname = NULL;
    for (int k = 0; k < n; k++) {
        const char *b = names[k];
        size_t lb = strlen(b);
        if (lb >= 47) continue;
        for (size_t j = 0; j <= lb; j++) row[j] = j;
        for (size_t i = 1; i <= lw; i++) {
            size_t diag = row[0];
            row[0] = i;
            for (size_t j = 1; j <= lb; j++) {
                size_t up = row[j], v = diag + (word[i - 1] != b[j - 1]);
                if (up + 1 < v) v = up + 1;
                if (row[j - 1] + 1 < v) v = row[j - 1] + 1;
                diag = up;
                row[j] = v;
            }
        }
        if (row[lb] < best) { best = row[lb]; bestname = b; }
    }
    return bestname;
}

/* A "; did you mean 'X'?" for name among every name that parses: the
 * names `--solver all` runs and every simple heuristic with each family's
 * H patterns, written into buf (empty when nothing is close). */
static void solver_suggestion(const char *name, char *buf, size_t n)
{
    static char store[GB_ALGO_COUNT * 16 + 256][40];
    const char *names[GB_ALGO_COUNT * 16 + 256];
    int k = 0;
    const char *a;
    for (int i = 0; (a = gb_solver_all(i)) != NULL && k < 64; i++) names[k++] = a;
    for (int f = 0; f < GB_ALGO_COUNT; f++)
        for (int i = 0; i < families[f]->nforms; i++) {
            const char *pat = families[f]->forms[i].pattern;
            const char *h = strstr(pat, "-H");
            if (!h || h[2] != '\0') continue;
            for (int e = 0; e < GB_H_COUNT && k < (int)(sizeof names / sizeof names[0]); e++) {
                snprintf(store[k], sizeof store[k], "%.*s-%s", (int)(h - pat), pat,
                         gb_heur_name((gb_heur)e));
                names[k] = store[k];
                k++;
            }
        }
    const char *c = gb_closest(name, names, k);
    if (c) snprintf(buf, n, "; did you mean '%s'?", c);
    else if (n) buf[0] = '\0';
}

int gb_solver_uses_queue(const gb_solver_spec *s)
{
    return (unsigned)s->algo < GB_ALGO_COUNT && families[s->algo]->dirs > 0;
}

const char *gb_solver_queue_label(const gb_solver_spec *s)
{
    if ((unsigned)s->algo >= GB_ALGO_COUNT || !families[s->algo]->queue_label) return "fifo";
    return families[s->algo]->queue_label;
}
