// SPDX-License-Identifier: GPL-2.0
/* The headline user/kernel split of a phase's CPU: see cpu_split.h. */
#include <math.h>
#include <string.h>
#include "cpu_split.h"
#include "cpu_samples.h"
#include "lite_split.h"
#include "stats.h"

const char *cpu_split_state_name(enum cpu_split_state s)
{
	switch (s) {
	case CPU_SPLIT_EXACT: return "exact";
	case CPU_SPLIT_SAMPLED: return "sampled";
	case CPU_SPLIT_FEW: return "few_samples";
	default: return "no_samples";
	}
}

/* About how many samples a split of `ns` would need for a standard error of CPU_SPLIT_MAX_ERR of
 * the wall: the least n whose error at a share of 1/2 (cs_share_err: Agresti-Coull for few samples)
 * is within it, to 10%. */
static double samples_needed(double ns, double wall)
{
	double n = 4;

	if (ns <= 0 || wall <= 0)
		return 0;
	while (n < 1e9 && cs_share_err((uint64_t)(n / 2), (uint64_t)n) * ns > CPU_SPLIT_MAX_ERR * wall)
		n = n * 1.1 + 1;
	return n;
}

/* No sample to split by, but the time to split is small: whatever its split, it is within
 * CPU_SPLIT_MAX_ERR of the wall. With nothing known of its share (uniform on [0, 1]: mean 1/2,
 * standard deviation 1/sqrt(12)), half of it is user CPU, with that error. Returns 1 when so. */
static int no_samples_bound(struct cpu_split *out)
{
	if (out->outside_ns > CPU_SPLIT_MAX_ERR * out->wall_ns)
		return 0;
	out->state = CPU_SPLIT_SAMPLED;
	out->user_ns = out->outside_ns / 2;
	out->err_ns = out->outside_ns / sqrt(12);
	return 1;
}

/* A split with samples: shown (SAMPLED) when its error is within CPU_SPLIT_MAX_ERR of the wall,
 * else FEW, with about how many samples it would need. */
static void decide(struct cpu_split *out)
{
	if (out->err_ns <= CPU_SPLIT_MAX_ERR * out->wall_ns) {
		out->state = CPU_SPLIT_SAMPLED;
	} else {
		out->state = CPU_SPLIT_FEW;
		out->needed_samples = samples_needed(out->outside_ns, out->wall_ns);
	}
}

void cpu_split_of(const struct phase_result *p, struct cpu_split *out)
{
	double wall = (double)wall_ns(&p->wall);

	memset(out, 0, sizeof(*out));
	out->wall_ns = wall;
	out->state = CPU_SPLIT_NONE;
	if (p->lite) {
		struct lite_split ls;

		out->outside_ns = (double)(p->wall.bucket_ns[WB_USER] + p->wall.bucket_ns[WB_KERNEL]);
		if (out->outside_ns <= 0) {
			out->state = CPU_SPLIT_EXACT;
			return;
		}
		if (!p->samples || lite_split(p->samples, (uint64_t)out->outside_ns, &ls)) {
			out->needed_samples = samples_needed(out->outside_ns, wall);
			if (no_samples_bound(out))
				out->kernel_ns = out->outside_ns / 2;
			return;
		}
		out->samples = ls.samples;
		out->user_ns = ls.user.ns;
		out->kernel_ns = ls.kernel.ns;
		out->err_ns = ls.user.err_ns;
	} else {
		const struct cs_estimate *u;

		out->traced_kernel_ns = (double)p->wall.bucket_ns[WB_KERNEL];
		out->outside_ns = (double)p->wall.bucket_ns[WB_USER];
		if (out->outside_ns <= 0) {
			out->state = CPU_SPLIT_EXACT;
			out->kernel_ns = out->traced_kernel_ns;
			return;
		}
		if (!p->samples || !p->samples->outside) {
			out->needed_samples = samples_needed(out->outside_ns, wall);
			if (no_samples_bound(out))
				out->kernel_ns = out->traced_kernel_ns + out->outside_ns / 2;
			return;
		}
		u = &p->samples->wall_user[CC_USER];
		out->samples = p->samples->outside;
		out->user_ns = u->ns;
		out->kernel_ns = out->traced_kernel_ns + (out->outside_ns - u->ns);
		out->err_ns = u->err_ns;
	}
	decide(out);
}

void cpu_split_counts(double wall_ns, double outside_ns, double traced_kernel_ns,
		      uint64_t n_outside, uint64_t n_user, struct cpu_split *out)
{
	memset(out, 0, sizeof(*out));
	out->wall_ns = wall_ns;
	out->state = CPU_SPLIT_NONE;
	out->traced_kernel_ns = traced_kernel_ns;
	out->outside_ns = outside_ns;
	if (outside_ns <= 0) {
		out->state = CPU_SPLIT_EXACT;
		out->kernel_ns = traced_kernel_ns;
		return;
	}
	if (!n_outside) {
		out->needed_samples = samples_needed(outside_ns, wall_ns);
		if (no_samples_bound(out))
			out->kernel_ns = traced_kernel_ns + outside_ns / 2;
		return;
	}
	if (n_user > n_outside)
		n_user = n_outside;
	out->samples = n_outside;
	out->user_ns = (double)n_user / (double)n_outside * outside_ns;
	out->kernel_ns = traced_kernel_ns + (outside_ns - out->user_ns);
	out->err_ns = cs_share_err(n_user, n_outside) * outside_ns;
	decide(out);
}

void cpu_split_cols(const struct session_result *s, const int *idx, int n, struct cpu_split *out)
{
	double v[7][SESSION_MAX_PHASES];
	struct cpu_split one;

	memset(out, 0, sizeof(*out));
	out->state = CPU_SPLIT_NONE;
	if (n > SESSION_MAX_PHASES)
		n = SESSION_MAX_PHASES;
	if (n <= 0)
		return;
	out->state = CPU_SPLIT_EXACT;
	for (int i = 0; i < n; i++) {
		cpu_split_of(&s->phases[idx[i]], &one);
		if (one.state > out->state)
			out->state = one.state;
		out->samples += one.samples;
		v[0][i] = one.wall_ns;
		v[1][i] = one.user_ns;
		v[2][i] = one.kernel_ns;
		v[3][i] = one.err_ns;
		v[4][i] = one.traced_kernel_ns;
		v[5][i] = one.outside_ns;
		v[6][i] = one.needed_samples;
	}
	out->wall_ns = trimmed_mean(v[0], n);
	out->user_ns = trimmed_mean(v[1], n);
	out->kernel_ns = trimmed_mean(v[2], n);
	out->err_ns = trimmed_mean(v[3], n);
	out->traced_kernel_ns = trimmed_mean(v[4], n);
	out->outside_ns = trimmed_mean(v[5], n);
	out->needed_samples = trimmed_mean(v[6], n);
}
