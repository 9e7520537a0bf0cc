// SPDX-License-Identifier: GPL-2.0
/* iowhy: where did the time go? Subcommand dispatch. */
#include <stdio.h>
#include <string.h>
#include "cmd_compare.h"
#include "commands.h"
#include "gen.h"
#include "hunt.h"
#include "storage.h"
#include "writer.h"

#define IOWHY_VERSION "0.1.0"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
	{ "run", cmd_run, "run any command under tracing: iowhy run [--json F] [--sync DIR] -- CMD..." },
	{ "gen", cmd_gen, "small-file workload: --strategy loop|split|direct --size S --count N" },
	{ "bigfile", cmd_bigfile, "one big file: --size S --method dd|fallocate|truncate [--bs LIST]" },
	{ "read", cmd_read, "read as fast as possible: [FILE | --size S] --bs LIST [--hash md5|crc32]" },
	{ "rand", cmd_rand, "random I/O: --bs 4k --op read|write --workers N (--ops K | --time T)" },
	{ "fsbench", cmd_fsbench, "seq/random read/write summary in MiB/s, IOPS and latency" },
	{ "tar", cmd_tar, "tar byte-range reads: --members M --member-size S --readers R [--gzip]" },
	{ "copy", cmd_copy, "copy a tree: --files N --size S --jobs LIST --mode process|inproc" },
	{ "delete", cmd_delete, "delete a tree: --files N --size S --jobs LIST --mode process|inproc" },
	{ "hunt", cmd_hunt, "read-only bottleneck hunt: PATH|DEVICE members alone, together" },
	{ "compare", cmd_compare, "two JSON reports side by side: iowhy compare A.json B.json" },
};

static void usage(FILE *f)
{
	fprintf(f, "iowhy %s: a wall-time breakdown of storage work, measured with eBPF tracepoints.\n"
		   "usage: iowhy COMMAND [OPTIONS]   (iowhy COMMAND --help for its options)\n\n",
		IOWHY_VERSION);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("iowhy %s\n", IOWHY_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "__write")) /* the loop strategy's writer when there is no dd */
		return writer_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "__gen")) /* bench/overhead.sh: a gen strategy run untraced */
		return gen_untraced_main(argc - 1, argv + 1);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "iowhy: unknown command '%s' (see iowhy --help)\n", argv[1]);
	return 2;
}
