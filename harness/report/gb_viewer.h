/*
 * gb_viewer.h -- the search-trace viewer (docs/trace.md): one HTML page
 * with its script and style inline, harness/report/gb_trace_viewer.html,
 * compiled into the binary by the Makefile (build/gen/gb_viewer_html.c),
 * so that `gridbench trace` writes a self-contained page from anywhere.
 *
 * The page holds the line GB_VIEWER_MARK where the traces go: gb_viewer_write
 * replaces it with one <script type="text/plain" class="gb-trace"> block
 * per trace.  A trace's text never holds "</" (the writer and the checker
 * of gb_tracefile.c see to it: its names have no '<'), so no escaping is
 * needed inside the block.
 */
#ifndef GB_VIEWER_H
#define GB_VIEWER_H

#include <stddef.h>
#include <stdio.h>

#define GB_VIEWER_MARK "<!--GB-TRACE-DATA-->"

/* The page, NUL-terminated (generated from harness/report/gb_trace_viewer.html). */
extern const char gb_viewer_html[];

/* Write the page to f with the n traces text[i] (len[i] bytes, named
 * name[i]: the data-name of its block, the file it came from) in place of
 * the mark.  0, or -1 when the page has no mark (a broken build) or a
 * text holds "</" (not a trace gb_tracefile_check accepts). */
int gb_viewer_write(FILE *f, int n, const char *const *name, const char *const *text, const size_t *len);

#endif
