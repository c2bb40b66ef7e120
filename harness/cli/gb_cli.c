/*
 * gb_cli.c -- small helpers the subcommands share for their options, so
 * that every command words the same mistake the same way.
 */
#include <stdio.h>
#include <sysexits.h>

#include "gb_cmd.h"
#include "gb_search.h"

int gb_cli_model(const char *cmd, const char *arg, gb_model *out)
{
    int m = gb_model_from_name(arg);
    if (m < 0) {
        const char *mn[GB_MODEL_COUNT];
        for (int i = 0; i < GB_MODEL_COUNT; i++) mn[i] = gb_model_name((gb_model)i);
        const char *c = gb_closest(arg, mn, GB_MODEL_COUNT);
        fprintf(stderr,
                "%s: --model: expected 8-nocut, 8-cut1, 8-cutall, 4 or 8-nocut-water, found "
                "'%s'%s%s%s\n",
                cmd, arg, c ? "; did you mean '" : "", c ? c : "", c ? "'?" : "");
        return EX_USAGE;
    }
    *out = (gb_model)m;
    return 0;
}

int gb_cli_no_water(const char *cmd, gb_model m)
{
    if (m != GB_MODEL_8_NOCUT_WATER) return 0;
    fprintf(stderr,
            "%s: --model: expected 8-nocut, 8-cut1, 8-cutall or 4, found 8-nocut-water "
            "(the water rule is a model of gridbench run and dynamic)\n",
            cmd);
    return EX_USAGE;
}
