/* SPDX-License-Identifier: GPL-2.0 */
/* The subcommands main() dispatches to. Each returns iowhy's exit status. */
#ifndef IOWHY_CLI_H
#define IOWHY_CLI_H

#include <stddef.h>

int cmd_run(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);    /* cmd_flamegraph.c */
int cmd_report(int argc, char **argv);        /* cmd_report.c */
/* Join argv into one shell-like line (arguments with spaces are quoted). */
void join_args(char *buf, size_t n, int argc, char **argv);

#endif
