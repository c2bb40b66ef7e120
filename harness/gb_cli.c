/*
 * gb_cli.c -- small helpers the subcommands share for their options, so
 * that every command words the same mistake the same way.
 */
#include <stdio.h>
#include <sysexits.h>

#include "gb_cmd.h"

int gb_cli_model(const char *cmd, const char *arg, gb_model *out)
{
    int m = gb_model_from_name(arg);
    if (m < 0) {
        fprintf(stderr, "%s: --model: expected 8-nocut, 8-cut1, 8-cutall or 4, found '%s'\n", cmd, arg);
        return EX_USAGE;
    }
    *out = (gb_model)m;
    return 0;
}
