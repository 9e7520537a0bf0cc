/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line: one option parser (getopt_long, in order, "+") for every subcommand. The
 * common options (--json, -o, --dir, --repeat, --drop-caches, --no-io, --freq, --no-sample, --folded,
 * -q, -v, -h, -V) are declared
 * once, here; each subcommand adds a table of its own options and a handler for them. --help is
 * printed from the tables, so what a --help lists is exactly what the parser takes.
 *
 * Return convention of opts_parse and of every xxx_parse built on it:
 *   0  parsed (the caller goes on);
 *   1  --help or --version was printed on stdout (the command exits 0);
 *   2  a one-line message was printed on stderr (the command exits 2).
 */
#ifndef IOWHY_OPTIONS_H
#define IOWHY_OPTIONS_H

#include <stdio.h>
#include "session.h"

#define IOWHY_VERSION "0.2.0"

/* One option of a command. */
struct opt_def {
	const char *name;  /* long name without "--"; NULL ends a table */
	int key;           /* short letter ('o'), or an id >= 256 for a long-only option */
	const char *arg;   /* the value's name in --help ("FILE"); NULL for a flag */
	const char *help;  /* one line */
};

/* Which common options a command takes; any other common option is refused as not applying. */
enum {
	CO_JSON = 1 << 0,    /* -j/--json FILE */
	CO_TEXT = 1 << 1,    /* -o/--output FILE */
	CO_DIR = 1 << 2,     /* --dir DIR */
	CO_REPEAT = 1 << 3,  /* --repeat R */
	CO_DROP = 1 << 4,    /* --drop-caches */
	CO_NOIO = 1 << 5,    /* --no-io */
	CO_DETAIL = 1 << 6,  /* -q/--brief, -v/--detail */
	CO_SAMPLE = 1 << 7,  /* --freq HZ, --no-sample, --folded FILE */
	CO_PICTURES = 1 << 8, /* --html FILE (a traced session) */
	CO_INTERVAL = 1 << 9, /* --interval S, --json-lines FILE */
	CO_TIMELINE = 1 << 10, /* --timeline FILE, --timeline-max N (a traced session) */
	CO_ALL = (1 << 11) - 1,
};

/* What a command takes besides options. */
enum opt_operand {
	OPERAND_NONE,    /* nothing: any other argument is an error */
	OPERAND_FILE,    /* at most one, anywhere among the options */
	OPERAND_CMD,     /* a command: parsing stops at the first non-option (or after "--") */
};

struct cmd_def {
	const char *name;            /* "gen": messages read "iowhy gen: ..." */
	const char *usage;           /* --help prints it, then the option tables */
	const struct opt_def *opts;  /* the command's own options, ended by { NULL } */
	unsigned common;             /* CO_* bits */
	enum opt_operand operand;
	/* Handle one of the command's own options: 0, or -1 after a one-line message. */
	int (*handle)(void *ctx, int key, const char *val);
};

/*
 * Parse argv[1..] (argv[0] is the command's name) into co (initialised here) and, through
 * c->handle, into ctx. *operand (may be NULL when the command takes none) is the argv index of the
 * FILE or of the command's first word, or 0 when there is none. Returns 0, 1 or 2 (see above).
 */
int opts_parse(const struct cmd_def *c, int argc, char **argv, struct common_opts *co, void *ctx,
	       int *operand);

/* --help of a command: usage, its own options, the common options it takes. */
void opts_help(const struct cmd_def *c, FILE *f);

/* "iowhy CMD: MSG (see iowhy CMD --help)" on stderr; returns 2. */
int opts_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The common options' table (for the completion test and the man page check). */
extern const struct opt_def common_opt_defs[];

#endif
