// SPDX-License-Identifier: GPL-2.0
/* The HTML report's flame graphs: the session's CPU samples (on-CPU) and uninterruptible sleeps
 * (off-CPU), from the very folded stacks --folded writes (cpu_report_folded). */
#include <stdlib.h>
#include <string.h>
#include "report_html.h"
#include "cpu_report.h"

/* A flame graph from folded text; NULL when it holds no samples (or on an error). */
static struct flame *flame_of(const char *buf, size_t len)
{
	struct flame *f;
	char err[160];
	FILE *in;

	if (!buf || !len)
		return NULL;
	in = fmemopen((void *)buf, len, "r");
	f = in ? flame_new() : NULL;
	if (f && (flame_read(f, in, err, sizeof(err)) || !flame_samples(f))) {
		flame_free(f);
		f = NULL;
	}
	if (in)
		fclose(in);
	return f;
}

int html_flames_of(const struct session_result *s, struct html_flame *out)
{
	char *on_buf = NULL, *off_buf = NULL;
	size_t on_len = 0, off_len = 0;
	FILE *on = open_memstream(&on_buf, &on_len), *off = NULL;
	int n = 0;

	if (on && cpu_report_has_offcpu(s))
		off = open_memstream(&off_buf, &off_len);
	if (!on || cpu_report_folded(on, "(the HTML's flame graph)", off,
				     "(the HTML's off-CPU flame graph)", s)) {
		free(on_buf);
		free(off_buf);
		return 0;
	}
	out[n].flame = flame_of(on_buf, on_len);
	out[n].title = "on-CPU: where the CPU samples were (comm; user frames; kernel frames_[k])";
	n += out[n].flame != NULL;
	out[n].flame = flame_of(off_buf, off_len);
	out[n].title = "off-CPU: uninterruptible sleeps in µs (comm; kernel frames_[k])";
	n += out[n].flame != NULL;
	free(on_buf);
	free(off_buf);
	return n;
}
