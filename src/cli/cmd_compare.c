// SPDX-License-Identifier: GPL-2.0
/* iowhy compare A.json B.json (cmd_compare.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>
#include "cmd_compare.h"
#include "options.h"
#include "compare.h"

#define SHOW_MAX 15

/* "x2.1" / "-3.90 s" change column. */
static void change(const struct cmp_item *it, char *buf, size_t n)
{
	if (it->is_time)
		snprintf(buf, n, "%+.3f s", it->b - it->a);
	else if (it->a > 0 && it->b > 0)
		snprintf(buf, n, "x%.2f", it->b / it->a);
	else
		snprintf(buf, n, "%s", it->a > 0 ? "gone" : "new");
}

/* Load FILE as JSON; NULL after a one-line message. */
static struct json_object *load(const char *file)
{
	struct json_object *o;
	FILE *f = fopen(file, "re");

	if (!f) {
		fprintf(stderr, "iowhy compare: %s: %s\n", file, strerror(errno));
		return NULL;
	}
	fclose(f);
	o = json_object_from_file(file);
	if (!o)
		fprintf(stderr, "iowhy compare: %s is not JSON\n", file);
	return o;
}

static const char compare_usage[] =
	"usage: iowhy compare A.json B.json\n"
	"Two reports of the same kind (iowhy run/workload --json, or iowhy hunt --json) side by side:\n"
	"a headline and the differences ranked, times first.\n";

static const struct opt_def compare_opt_defs[] = { { NULL, 0, NULL, NULL } };

const struct cmd_def compare_cmd = {
	.name = "compare",
	.usage = compare_usage,
	.opts = compare_opt_defs,
	.common = 0,
	.operand = OPERAND_CMD,
	.handle = NULL,
};

int cmd_compare(int argc, char **argv)
{
	static struct cmp_result r;
	struct json_object *a, *b;
	char err[512], ch[32];
	int shown = 0, rc;

	struct common_opts co;
	int first;

	rc = opts_parse(&compare_cmd, argc, argv, &co, NULL, &first);
	if (rc)
		return rc == 1 ? 0 : rc;
	if (!first || argc - first != 2)
		return opts_usage_error("compare", "give two JSON reports: iowhy compare A.json B.json");
	argv += first - 1;
	a = load(argv[1]);
	b = a ? load(argv[2]) : NULL;
	if (!a || !b) {
		json_object_put(a);
		return 2;
	}
	rc = compare_reports(a, b, argv[1], argv[2], &r, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "iowhy compare: %s\n", err);
		json_object_put(a);
		json_object_put(b);
		return 2;
	}
	printf("iowhy compare (%s reports): A = %s, B = %s\n%s\n\n", r.kind, argv[1], argv[2],
	       r.headline);
	printf("  %-4s %-48s %14s %14s %12s\n", "rank", "what", "A", "B", "change");
	for (int i = 0; i < r.n && shown < SHOW_MAX; i++) {
		const struct cmp_item *it = &r.items[i];

		if (it->weight == 0)
			continue;
		change(it, ch, sizeof(ch));
		printf("  %-4d %-48.48s %14.3f %14.3f %12s\n", ++shown, it->what, it->a, it->b, ch);
	}
	if (!shown)
		printf("  (no differences)\n");
	if (r.only_a[0] || r.only_b[0])
		printf("\nverdicts only in A: %s\nverdicts only in B: %s\n",
		       r.only_a[0] ? r.only_a : "-", r.only_b[0] ? r.only_b : "-");
	json_object_put(a);
	json_object_put(b);
	return 0;
}
