/* SPDX-License-Identifier: GPL-2.0 */
/* iowhy compare A.json B.json: two reports side by side, the differences ranked (compare.h). */
#ifndef IOWHY_CMD_COMPARE_H
#define IOWHY_CMD_COMPARE_H

#include "options.h"

/* argv[0] is "compare"; returns iowhy's exit status (2 for bad input). */
int cmd_compare(int argc, char **argv);
/* compare's option table (options.h): -h and -V only. */
extern const struct cmd_def compare_cmd;

#endif
