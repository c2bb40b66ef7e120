/*
 * gb_viewer.c -- the viewer page with traces in it (gb_viewer.h).
 */
#include "gb_viewer.h"

#include <string.h>

int gb_viewer_write(FILE *f, int n, const char *const *name, const char *const *text, const size_t *len)
{
    const char *mark = strstr(gb_viewer_html, GB_VIEWER_MARK);
    if (!mark) return -1;
    for (int i = 0; i < n; i++)
        for (size_t k = 0; k + 1 < len[i]; k++)
            if (text[i][k] == '<' && text[i][k + 1] == '/') return -1;
    fwrite(gb_viewer_html, 1, (size_t)(mark - gb_viewer_html), f);
    for (int i = 0; i < n; i++) {
        fputs("<script type=\"text/plain\" class=\"gb-trace\" data-name=\"", f);
        for (const char *s = name[i]; *s; s++) /* an attribute: no quote, no markup */
            fputc(*s == '"' || *s == '<' || *s == '>' || *s == '&' ? '_' : *s, f);
        fputs("\">\n", f);
        fwrite(text[i], 1, len[i], f);
        fputs("</script>\n", f);
    }
    fputs(mark + strlen(GB_VIEWER_MARK), f);
    return 0;
}
