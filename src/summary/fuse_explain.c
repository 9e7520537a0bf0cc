// SPDX-License-Identifier: GPL-2.0
/* The FUSE sentence of the explanation. See fuse_explain.h. */
#include <stdarg.h>
#include <stdio.h>
#include "fuse_explain.h"
#include "model.h"
#include "units.h"

const char *fuse_mount_label(const struct fuse_phase *f, uint32_t conn, char *buf, size_t n)
{
	const struct fuse_mount_info *m = fuse_mount_of(f, conn);

	if (m)
		return m->point;
	snprintf(buf, n, "conn %u:%u", conn >> 20, conn & 0xfffff);
	return buf;
}

/* The workload row with the longest wait, NULL if none waited. */
static const struct fuse_row *top_wait(const struct fuse_phase *f)
{
	const struct fuse_row *top = NULL;

	for (size_t i = 0; i < f->nrows; i++)
		if (f->rows[i].who == FUSE_WHO_TREE && f->rows[i].st.wait_ns &&
		    (!top || f->rows[i].st.wait_ns > top->st.wait_ns))
			top = &f->rows[i];
	return top;
}

struct out {
	char *buf;
	size_t n, len;
};

static void say(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (o->len >= o->n)
		return;
	va_start(ap, fmt);
	k = vsnprintf(o->buf + o->len, o->n - o->len, fmt, ap);
	va_end(ap);
	if (k > 0)
		o->len = o->len + (size_t)k < o->n ? o->len + (size_t)k : o->n - 1;
}

size_t fuse_shares(const __u64 *ns, uint64_t total, unsigned min_pct, char *buf, size_t n)
{
	struct out o = { buf, n, 0 };

	if (n)
		buf[0] = '\0';
	for (int k = 0, m = 0; total && k < FUSE_D_COUNT; k++) {
		if (ns[k] * 100 < (uint64_t)min_pct * total || !ns[k])
			continue;
		say(&o, "%s %.0f%% %s", m++ ? "," : "", 100.0 * ns[k] / total,
		    k == FUSE_D_CPU ? "on CPU" : fuse_dcls_name(k));
	}
	return o.len;
}

/* "; per request, D spent T on them: shares", from the daemon threads' time between reading
 * each request of row r and replying ("per request (N of M)" when only some were paired); else
 * "; by overlap, D spent that time shares", from the process while the workload waited. */
static void say_daemon(struct out *o, const struct fuse_phase *f, const struct fuse_row *r,
		       const struct fuse_daemon_row *d)
{
	struct fuse_stat op;
	char t[32], sh[256];
	uint64_t busy;

	fuse_op_charge(f, r->conn, r->op, &op);
	busy = fuse_busy_sum(op.dreq_ns);
	if (op.paired && busy) {
		fuse_shares(op.dreq_ns, busy, 5, sh, sizeof(sh));
		if (op.paired == op.replied)
			say(o, "; per request, %s spent %s on them:%s", d->comm,
			    fmt_ns(t, sizeof(t), busy), sh);
		else
			say(o, "; per request (%llu of %llu), %s spent %s on them:%s",
			    (unsigned long long)op.paired, (unsigned long long)op.replied,
			    d->comm, fmt_ns(t, sizeof(t), busy), sh);
		return;
	}
	busy = fuse_daemon_busy(d);
	if (busy && fuse_shares(d->st.wall_overlap_ns, busy, 5, sh, sizeof(sh)))
		say(o, "; by overlap, %s spent that time%s", d->comm, sh);
}

size_t fuse_explain(const struct phase_result *p, char *buf, size_t n, uint64_t *wait_ns)
{
	const struct fuse_phase *f = p->fuse;
	const struct fuse_row *r = f ? top_wait(f) : NULL;
	const struct fuse_daemon_row *d = NULL;
	struct out o = { buf, n, 0 };
	char a[32], b[32], c[32], mb[48];

	if (n)
		buf[0] = '\0';
	if (wait_ns)
		*wait_ns = r ? r->st.wait_ns : 0;
	if (!r || !n)
		return 0;
	for (size_t i = 0; i < f->ndaemons; i++)
		if (!f->daemons[i].parent && f->daemons[i].conn == r->conn)
			d = &f->daemons[i];
	/* task time: several tasks waiting at once may wait longer than the wall */
	say(&o, "%s took %s; %s of %s waiting on %llu FUSE %s requests to %s", p->name,
	    fmt_ns(a, sizeof(a), wall_ns(&p->wall)), fmt_ns(b, sizeof(b), r->st.wait_ns),
	    r->st.wait_ns > wall_ns(&p->wall) ? "its tasks' time" : "it",
	    (unsigned long long)r->st.waits, fuse_op_name(r->op),
	    fuse_mount_label(f, r->conn, mb, sizeof(mb)));
	if (d)
		say(&o, " (%s, pid %u", d->comm, d->tgid);
	say(&o, "%sp50 %s)", d ? ", " : " (", fmt_ns(c, sizeof(c), fuse_hist_pct(r->st.hist, 0.5)));
	if (d)
		say_daemon(&o, f, r, d);
	say(&o, "\n");
	return o.len;
}
