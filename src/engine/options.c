// SPDX-License-Identifier: GPL-2.0
/* The command line's one option parser: getopt_long over the common table plus a command's. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "bpf_features.h"
#include "outfile.h"
#include "units.h"
#include "sampler.h"

/* Ids of the long-only common options (above any command's own ids). */
enum { K_DIR = 1000, K_REPEAT, K_DROP, K_NOIO, K_FREQ, K_NOSAMPLE, K_FOLDED, K_HTML, K_TIMELINE,
       K_TLMAX, K_INTERVAL, K_JSONL };

#define MAX_OPTS 64 /* a command's options plus the common ones */

const struct opt_def common_opt_defs[] = {
	{ "json", 'j', "FILE", "also write the report as JSON to FILE ('-': stdout, not for run)" },
	{ "output", 'o', "FILE", "write the text report to FILE (default: stdout; run: stderr)" },
	{ "dir", K_DIR, "DIR", "where the scratch directory goes (default: current directory)" },
	{ "repeat", K_REPEAT, "R", "run each case R times (1-100); report the mean without best and worst" },
	{ "drop-caches", K_DROP, NULL, "drop the page cache before each run (root)" },
	{ "no-io", K_NOIO, NULL, "core probes only: no block layer / page cache tracing" },
	{ "freq", K_FREQ, "HZ", "CPU sampling frequency (1-20000, default 99)" },
	{ "no-sample", K_NOSAMPLE, NULL, "no CPU sampling (no stacks, no user/kernel split by samples)" },
	{ "folded", K_FOLDED, "FILE", "CPU samples as FlameGraph folded stacks (D sleeps: FILE.offcpu)" },
	{ "html", K_HTML, "FILE", "also write the report as one self-contained HTML page" },
	{ "timeline", K_TIMELINE, "FILE", "tasks' states, device requests over time (Perfetto)" },
	{ "timeline-max", K_TLMAX, "N", "at most N timeline events (default 200000; the file says when cut)" },
	{ "interval", K_INTERVAL, "S", "a live block every S (e.g. 1s) while it runs, then the report" },
	{ "json-lines", K_JSONL, "FILE", "one JSON object per interval to FILE (default --interval 1s)" },
	{ "brief", 'q', NULL, "shortest report: the wall breakdown and the explanation; no progress" },
	{ "detail", 'v', NULL, "full report: every table of the run" },
	{ "help", 'h', NULL, "this help" },
	{ "version", 'V', NULL, "iowhy's version, libbpf's, the kernel's and its BPF features" },
	{ NULL, 0, NULL, NULL },
};

/* The CO_* bit a common option needs; 0 for those every command takes (-h, -V). */
static unsigned common_bit(int key)
{
	switch (key) {
	case 'j': return CO_JSON;
	case K_HTML: return CO_PICTURES;
	case K_TIMELINE: case K_TLMAX: return CO_TIMELINE;
	case 'o': return CO_TEXT;
	case K_DIR: return CO_DIR;
	case K_REPEAT: return CO_REPEAT;
	case K_DROP: return CO_DROP;
	case K_NOIO: return CO_NOIO;
	case K_INTERVAL: case K_JSONL: return CO_INTERVAL;
	case 'q': case 'v': return CO_DETAIL;
	case K_FREQ: case K_NOSAMPLE: case K_FOLDED: return CO_SAMPLE;
	default: return 0;
	}
}

int opts_usage_error(const char *cmd, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "iowhy %s: %s (see iowhy %s --help)\n", cmd, msg, cmd);
	return 2;
}

/* One help line: "  -o, --output FILE     text". */
static void help_line(FILE *f, const struct opt_def *d)
{
	char left[64];
	int n;

	if (d->key > 0 && d->key < 256)
		n = snprintf(left, sizeof(left), "-%c, --%s", d->key, d->name);
	else
		n = snprintf(left, sizeof(left), "    --%s", d->name);
	if (d->arg && n > 0 && (size_t)n < sizeof(left))
		snprintf(left + n, sizeof(left) - (size_t)n, " %s", d->arg);
	fprintf(f, "  %-24s %s\n", left, d->help);
}

void opts_help(const struct cmd_def *c, FILE *f)
{
	fputs(c->usage, f);
	if (c->opts && c->opts[0].name) {
		fprintf(f, "Options:\n");
		for (const struct opt_def *d = c->opts; d->name; d++)
			help_line(f, d);
	}
	fprintf(f, "Common options:\n");
	for (const struct opt_def *d = common_opt_defs; d->name; d++)
		if (!common_bit(d->key) || (c->common & common_bit(d->key)))
			help_line(f, d);
}

/* The definition of `key` in the command's table or the common one, or NULL. */
static const struct opt_def *find_key(const struct cmd_def *c, int key)
{
	for (const struct opt_def *d = c->opts; d && d->name; d++)
		if (d->key == key)
			return d;
	for (const struct opt_def *d = common_opt_defs; d->name; d++)
		if (d->key == key)
			return d;
	return NULL;
}

/* getopt_long's tables from ours: long options in lo, short letters in so ("+:" first). */
static int build_tables(const struct cmd_def *c, struct option *lo, char *so, size_t so_len)
{
	const struct opt_def *tables[2] = { c->opts, common_opt_defs };
	size_t s = 2;
	int n = 0;

	memcpy(so, "+:", 3);
	for (int t = 0; t < 2; t++) {
		for (const struct opt_def *d = tables[t]; d && d->name; d++) {
			if (n + 1 >= MAX_OPTS || s + 3 >= so_len)
				return -1;
			lo[n++] = (struct option){ d->name, d->arg ? required_argument : no_argument,
						   NULL, d->key };
			if (d->key > 0 && d->key < 256) {
				so[s++] = (char)d->key;
				if (d->arg)
					so[s++] = ':';
				so[s] = '\0';
			}
		}
	}
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	return 0;
}

/* A common option's effect on co: 0, or 2 after a one-line message. */
static int common_set(const struct cmd_def *c, struct common_opts *co, int key, const char *val)
{
	char err[160];
	uint64_t r;

	switch (key) {
	case 'j':
		co->json_path = val;
		return strcmp(val, "-") && outfile_check(c->name, "--json", val) ? 2 : 0;
	case 'o':
		if (!strcmp(val, "-"))
			return opts_usage_error(c->name, "-o needs a file name (without -o the text "
					       "report goes to %s)", strcmp(c->name, "run") ? "stdout" : "stderr");
		co->text_path = val;
		return outfile_check(c->name, "-o", val) ? 2 : 0;
	case K_DIR:
		co->dir = val;
		return 0;
	case K_REPEAT:
		if (parse_count(val, 100, &r, err, sizeof(err)))
			return opts_usage_error(c->name, "--repeat: %s", err);
		co->repeat = (int)r;
		return 0;
	case K_DROP:
		co->drop_caches = 1;
		return 0;
	case K_NOIO:
		co->no_io = 1;
		return 0;
	case K_FREQ:
		if (parse_count(val, SAMPLER_MAX_HZ, &r, err, sizeof(err)))
			return opts_usage_error(c->name, "--freq: %s", err);
		co->sample_hz = (unsigned)r;
		return 0;
	case K_NOSAMPLE:
		co->no_sample = 1;
		return 0;
	case K_FOLDED:
		co->folded_path = val;
		return outfile_check(c->name, "--folded", val) ? 2 : 0;
	case K_HTML:
		co->html_path = val;
		return outfile_check(c->name, "--html", val) ? 2 : 0;
	case K_TIMELINE:
		co->timeline_path = val;
		return outfile_check(c->name, "--timeline", val) ? 2 : 0;
	case K_TLMAX:
		if (parse_count(val, 1000000000, &r, err, sizeof(err)))
			return opts_usage_error(c->name, "--timeline-max: %s", err);
		co->timeline_max = r;
		return 0;
	case K_INTERVAL:
		if (parse_duration(val, &co->interval_ns, err, sizeof(err)))
			return opts_usage_error(c->name, "--interval: %s", err);
		if (co->interval_ns < 100ull * 1000 * 1000)
			return opts_usage_error(c->name, "--interval %s: at least 100ms", val);
		return 0;
	case K_JSONL:
		co->json_lines = val;
		if (!co->interval_ns)
			co->interval_ns = 1000000000ull; /* a later --interval still sets it */
		return outfile_check(c->name, "--json-lines", val) ? 2 : 0;
	case 'q':
		co->detail = -1;
		return 0;
	case 'v':
		co->detail = 1;
		return 0;
	}
	return 0;
}

/*
 * A getopt error ('?' or ':') as one line; returns 2. optopt is 0 for an unknown long option, the
 * option's key for a missing value or for a value given to a flag ("--no-io=1"), and the letter for
 * an unknown short option.
 */
static int getopt_error(const struct cmd_def *c, char **argv, int k)
{
	const struct opt_def *d = optopt ? find_key(c, optopt) : NULL;

	if (k == ':')
		return opts_usage_error(c->name, "--%s needs a value", d ? d->name : "?");
	if (d)
		return opts_usage_error(c->name, "--%s takes no value", d->name);
	if (optopt)
		return opts_usage_error(c->name, "unknown option '-%c'", optopt);
	return opts_usage_error(c->name, "unknown option '%s'", argv[optind - 1]);
}

/* One option getopt returned: 0 to go on, 1 (help/version printed) or 2 (message printed). */
static int one_option(const struct cmd_def *c, struct common_opts *co, void *ctx, int k,
		      const char *val)
{
	const struct opt_def *d = find_key(c, k);

	if (!d)
		return opts_usage_error(c->name, "internal: option %d has no definition", k);
	if (d->arg && (!val || !strcmp(val, "--")))
		return opts_usage_error(c->name, "--%s needs a value", d->name);
	if (k == 'h') {
		opts_help(c, stdout);
		return 1;
	}
	if (k == 'V') {
		features_print_version(stdout, IOWHY_VERSION);
		return 1;
	}
	if (common_bit(k)) {
		if (!(c->common & common_bit(k)))
			return opts_usage_error(c->name, "--%s does not apply to %s", d->name, c->name);
		return common_set(c, co, k, val);
	}
	return c->handle && c->handle(ctx, k, val) ? 2 : 0;
}

/* A non-option at argv[optind]: the operand, or an error. 0: go on, 3: stop parsing, 2: error. */
static int one_operand(const struct cmd_def *c, int argc, char **argv, int *operand)
{
	int after_dashes = optind > 1 && !strcmp(argv[optind - 1], "--");

	if (c->operand == OPERAND_CMD) {
		*operand = optind;
		return 3;
	}
	if (c->operand == OPERAND_FILE && !*operand && (!after_dashes || optind + 1 == argc)) {
		*operand = optind++;
		return after_dashes ? 3 : 0;
	}
	return opts_usage_error(c->name, "unexpected argument '%s'", argv[optind]);
}

int opts_parse(const struct cmd_def *c, int argc, char **argv, struct common_opts *co, void *ctx,
	       int *operand)
{
	struct option lo[MAX_OPTS];
	char so[2 * MAX_OPTS + 4];
	int dummy, rc = 0;

	common_opts_init(co);
	if (!operand)
		operand = &dummy;
	*operand = 0;
	if (build_tables(c, lo, so, sizeof(so)))
		return opts_usage_error(c->name, "internal: too many options");
	optind = 0; /* a full restart of getopt: parse may be called more than once */
	opterr = 0;
	while (rc == 0) {
		int k = getopt_long(argc, argv, so, lo, NULL);

		if (k == -1)
			rc = optind < argc ? one_operand(c, argc, argv, operand) : 3;
		else if (k == '?' || k == ':')
			rc = getopt_error(c, argv, k);
		else
			rc = one_option(c, co, ctx, k, optarg);
	}
	return rc == 3 ? 0 : rc;
}
