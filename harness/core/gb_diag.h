/*
 * gb_diag.h -- caller-owned diagnostics with a source location.
 *
 * Data structure
 *   A gb_diag is a fixed-size record owned by the caller (usually on the
 *   stack).  Library code that can fail takes a gb_diag *, fills it on
 *   failure and returns the same sysexits.h code it stores in d->code; it
 *   never prints and never exits.  Only gb_diag_print() writes to a stream,
 *   and only when the caller (the CLI, a test) asks it to.
 *
 * Invariants
 *   - code == 0 means "no error"; every other field is then empty/zero.
 *   - path, msg and text are always NUL-terminated (truncated if needed).
 *   - line and col are 1-based; 0 means "not applicable".
 *   - msg reads "expected X, found Y" and states actual values.
 *   - text holds the offending source line (or a window of it, with "[...]"
 *     marking cut ends), tabs kept and other non-printable bytes shown as
 *     '?', so that a caret printed under it lines up.  text_col is the
 *     caret column inside text; 0 means "same as col".
 *
 * Rendering (gb_diag_format / gb_diag_print, jq / gcc style):
 *     t.map:7:13: error: expected a terrain character ..., found 'x'
 *       ....@@@@...x....
 *                  ^
 *
 * Codes (from <sysexits.h>): EX_USAGE 64 bad command line, EX_DATAERR 65
 * bad content, EX_NOINPUT 66 missing/unreadable input, EX_SOFTWARE 70
 * internal error (e.g. caller's buffer too small), EX_OSERR 71 out of
 * memory, EX_CANTCREAT 73 cannot create an output file, EX_IOERR 74
 * read/write error, EX_NOPERM 77 a file that may not be trusted (another
 * user owns or can write it).
 */
#ifndef GB_DIAG_H
#define GB_DIAG_H

#include <stddef.h>
#include <stdio.h>
#include <sysexits.h>

#ifdef __GNUC__
#define GB_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define GB_PRINTF_LIKE(f, a)
#endif

typedef struct gb_diag {
    int code;          /* sysexits.h code, 0 = none */
    char path[1024];   /* file the error is about ("" = unknown) */
    long line;         /* 1-based; 0 = not applicable */
    long col;          /* 1-based; 0 = not applicable */
    char msg[512];     /* "expected ..., found ..." */
    char text[256];    /* the offending source line, if any, without newline */
    long text_col;     /* caret column inside text when text is a window of
                          a long line; 0 = use col */
} gb_diag;

/* Reset *d to "no error" (all fields zero/empty). */
void gb_diag_clear(gb_diag *d);

/* Fill *d: code, path (copied, truncated to fit), line, col, and msg
 * formatted from fmt like printf (truncated to fit).  text is cleared;
 * attach the source line with gb_diag_set_text().  Returns code, so that
 * callers can write  return gb_diag_set(d, EX_DATAERR, ...);
 * d may be NULL (then only code is returned). */
int gb_diag_set(gb_diag *d, int code, const char *path, long line, long col,
                const char *fmt, ...) GB_PRINTF_LIKE(6, 7);

/* Attach the offending source line (line[0..len), need not be
 * NUL-terminated; a trailing CR/LF is dropped) to an already set *d.
 * Lines longer than text can hold are cut to a window around d->col and
 * text_col is set accordingly.  No-op when d is NULL. */
void gb_diag_set_text(gb_diag *d, const char *line, size_t len);

/* Write "path:line:col: error: msg" into buf (at most n bytes, always
 * NUL-terminated when n > 0).  ":col" is omitted when col == 0 and
 * ":line:col" when line == 0; an empty path prints as "<input>".  Does
 * not write text. */
void gb_diag_format(const gb_diag *d, char *buf, size_t n);

/* Print the formatted line and a newline to f; then, when text is set,
 * the text indented by two spaces and, when a column is known, a caret
 * under it.  Prints nothing when d->code == 0. */
void gb_diag_print(const gb_diag *d, FILE *f);

/* Read the whole file at path into a fresh malloc'd buffer (*buf, with a
 * NUL appended that *len does not count).  Returns 0, or fills *d and
 * returns EX_NOINPUT (cannot open, not a regular file), EX_IOERR (read
 * error) or EX_OSERR (out of memory); on failure *buf is NULL and *len 0.
 * On success *d is cleared.  The caller frees *buf. */
int gb_read_file(const char *path, char **buf, size_t *len, gb_diag *d);

/* Open path for reading, refusing anything but a regular file.  The
 * stream, with *size (when size is not NULL) set from fstat; or NULL with
 * EX_NOINPUT and "expected a readable file, found ..." (or "expected a
 * regular file, found a directory / a FIFO / a special file") in *d.  The
 * file is opened non-blocking and checked with fstat before anything is
 * read, so a FIFO is refused at once instead of hanging. */
/* Check, before any work, that path may take an output: it does not exist
 * or is a regular file (not a directory, symbolic link, FIFO or device),
 * it is none of inputs[0..n) (same device and inode; NULL entries
 * skipped), and its folder is writable.  0, or EX_CANTCREAT (EX_USAGE for
 * an empty name) with "expected ..., found ..." in *d. */
int gb_out_check(const char *path, char *const *inputs, int n, gb_diag *d);

/* Say msg (a whole line, newline included) on stderr if SIGINT, SIGTERM
 * or SIGHUP ends the process (installing the handlers of gb_tmp_open);
 * NULL says nothing again.  The handler only calls write(), so msg is
 * copied now. */
void gb_signal_note(const char *msg);

/* Give up a file from gb_tmp_open: close f (if not NULL) and remove tmp. */
void gb_tmp_abort(FILE *f, const char *tmp);

FILE *gb_open_regular(const char *path, long long *size, gb_diag *d);

/* Temporary files from gb_tmp_open are removed if SIGINT, SIGTERM or
 * SIGHUP ends the process before gb_tmp_commit or gb_tmp_abort (the first
 * gb_tmp_open installs handlers for those signals), so an interrupted run
 * leaves neither a half-written output nor its temporary file. */
/* Create a fresh temporary file next to path and open it for writing:
 * "<path>.tmp.<pid>", or, when that name is taken, "<path>.tmp.<pid>.<8
 * random letters>" (up to 64 tries).  Opened O_CREAT|O_EXCL|O_NOFOLLOW
 * with mode (before the umask): whatever already has the name -- a file, a
 * symbolic link planted by somebody else -- is never opened, followed or
 * truncated.  The name is stored in tmp (size tmpsz) and is removed by a
 * signal like gb_tmp_open's.  Returns the descriptor, or -1 after filling
 * *d with EX_CANTCREAT (name too long for tmp, every name taken, or the
 * file cannot be created; tmp is then "").  Every file gridbench writes
 * goes through here; finish with gb_tmp_rename or gb_tmp_abort. */
int gb_tmp_create(const char *path, unsigned mode, char *tmp, size_t tmpsz, gb_diag *d);

/* gb_tmp_create(path, 0666, ...) as a stream, after refusing a path that
 * exists and is not a regular file (as gb_out_check).  Returns the stream,
 * or NULL after filling *d with EX_CANTCREAT. */
FILE *gb_tmp_open(const char *path, char *tmp, size_t tmpsz, gb_diag *d);

/* Finish a file from gb_tmp_open(): check for write errors, close it and
 * rename() tmp over path, so readers never see a half-written file.
 * Returns 0, or fills *d with EX_IOERR (write or close error) or
 * EX_CANTCREAT (rename failed) and removes tmp.  f is closed either way. */
int gb_tmp_commit(FILE *f, const char *tmp, const char *path, gb_diag *d);

/* gb_tmp_commit in two steps, for outputs that appear together or not at
 * all: gb_tmp_close checks and closes f (on error: EX_IOERR, tmp
 * removed); the temporary file stays (and is still removed by a signal)
 * until gb_tmp_rename moves it over path (on error: EX_CANTCREAT, tmp
 * removed) or gb_tmp_abort(NULL, tmp) drops it. */
int gb_tmp_close(FILE *f, const char *tmp, gb_diag *d);
int gb_tmp_rename(const char *tmp, const char *path, gb_diag *d);

/* mkdir -p: create dir and every missing folder above it (mode 0755 less
 * the umask; 0755: a folder others can write would not pass the caches'
 * trust check).  0, also when it exists; or -1 with errno (ENAMETOOLONG
 * past 1100 bytes).  Used by the caches (oracle, GPPC). */
int gb_make_dirs(const char *dir);

/* The per-user cache folder of gridbench's part sub ("oracle", "gppc"):
 * ${XDG_CACHE_HOME:-$HOME/.cache}/gridbench/<sub>, into buf (an
 * XDG_CACHE_HOME that is not absolute is ignored, as the XDG spec says).
 * 0, or -1 when neither variable helps or buf is too small. */
int gb_cache_dir(const char *sub, char *buf, size_t n);

/* Write a short, quoted, printable rendering of s[0..n) into out (size
 * outsz >= 8): 'abc', with non-printable bytes as \xNN and long inputs
 * cut with "[...]".  Used to build "found '...'" messages. */
void gb_diag_quote(char *out, size_t outsz, const char *s, size_t n);

#endif
