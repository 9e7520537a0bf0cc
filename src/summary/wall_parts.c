// SPDX-License-Identifier: GPL-2.0
/* Sub-rows of the wall view: the sampled user split and the FUSE waits. See wall_parts.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wall_parts.h"
#include "columns.h"
#include "fuse_model.h"
#include "fuse_explain.h"
#include "stats.h"

/* ---- the user bucket, split by samples ---- */

int wall_user_split_known(const struct phase_result *p)
{
	return !p->lite && p->samples && p->samples->outside > 0;
}

void wall_user_part_of(const struct phase_result *p, int cls, struct user_part *out)
{
	memset(out, 0, sizeof(*out));
	if (cls < 0 || cls >= CC_OUTSIDE || !wall_user_split_known(p))
		return;
	out->known = 1;
	out->ns = p->samples->wall_user[cls].ns;
	out->err_ns = p->samples->wall_user[cls].err_ns;
	out->samples = p->samples->wall_user[cls].samples;
}

void wall_user_part(const struct session_result *s, const int *idx, int n, int cls,
		    struct user_part *out)
{
	double ns[SESSION_MAX_PHASES], err[SESSION_MAX_PHASES];
	struct user_part one;

	memset(out, 0, sizeof(*out));
	if (n > SESSION_MAX_PHASES)
		n = SESSION_MAX_PHASES;
	for (int i = 0; i < n; i++) {
		wall_user_part_of(&s->phases[idx[i]], cls, &one);
		if (!one.known)
			return;
		ns[i] = one.ns;
		err[i] = one.err_ns;
		out->samples += one.samples;
	}
	out->known = n > 0;
	out->ns = trimmed_mean(ns, n);
	out->err_ns = trimmed_mean(err, n);
}

int user_part_few(const struct user_part *u)
{
	return u->known && u->samples < CS_FEW;
}

/* ---- FUSE waits in the wait buckets ---- */

#define FUSE_PARTS_ALL 64   /* (mount, opcode, bucket) triples summed before the longest are kept */

/* A part of row r with no time yet: its mount, opcode and label ("waiting on FUSE (/mnt/x,
 * WRITE)"; a long mount point keeps its end). */
static void part_of_row(const struct fuse_phase *f, const struct fuse_row *r, int bucket,
			struct fuse_part *out)
{
	char mb[48];
	size_t len, keep = 48;

	memset(out, 0, sizeof(*out));
	snprintf(out->mount, sizeof(out->mount), "%s", fuse_mount_label(f, r->conn, mb, sizeof(mb)));
	snprintf(out->op, sizeof(out->op), "%s", fuse_op_name(r->op));
	len = strlen(out->mount);
	snprintf(out->label, sizeof(out->label), "waiting on FUSE (%s%.48s, %.23s)",
		 len > keep ? "..." : "", out->mount + (len > keep ? len - keep : 0), out->op);
	out->bucket = bucket;
}

static int cmp_part(const void *a, const void *b)
{
	const struct fuse_part *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	if (x->bucket != y->bucket)
		return x->bucket == WB_OTHER ? -1 : 1;
	return strcmp(x->label, y->label);
}

/* Add ns to the part like `part` (label, bucket) in out[0..*n), or a new one while there is
 * room. */
static void part_add(struct fuse_part *out, int *n, int max, const struct fuse_part *part,
		     double ns)
{
	int i;

	for (i = 0; i < *n; i++)
		if (out[i].bucket == part->bucket && !strcmp(out[i].label, part->label))
			break;
	if (i == *n) {
		if (*n >= max)
			return;
		out[i] = *part;
		(*n)++;
	}
	out[i].ns += ns;
}

int wall_fuse_parts(const struct phase_result *p, struct fuse_part *out, int max)
{
	const struct fuse_phase *f = p->fuse;
	struct fuse_part all[FUSE_PARTS_ALL];
	struct fuse_part part;
	double total = 0, other, io;
	int n = 0;

	if (!f || max <= 0)
		return 0;
	for (size_t i = 0; i < f->nrows; i++)
		if (f->rows[i].who == FUSE_WHO_TREE)
			total += (double)f->rows[i].st.wait_ns;
	if (total <= 0)
		return 0;
	other = (double)p->wall.bucket_ns[WB_OTHER];
	if (other > total)
		other = total;
	io = (double)p->wall.iowait_by_disk[IOWHY_DISK_SLOTS];
	if (io > total - other)
		io = total - other;
	for (size_t i = 0; i < f->nrows; i++) {
		const struct fuse_row *r = &f->rows[i];
		double share = (double)r->st.wait_ns / total;

		if (r->who != FUSE_WHO_TREE || !r->st.wait_ns)
			continue;
		part_of_row(f, r, WB_OTHER, &part);
		if (other > 0)
			part_add(all, &n, FUSE_PARTS_ALL, &part, share * other);
		part.bucket = WB_IOWAIT;
		if (io > 0)
			part_add(all, &n, FUSE_PARTS_ALL, &part, share * io);
	}
	qsort(all, (size_t)n, sizeof(*all), cmp_part);
	if (n > max)
		n = max;
	memcpy(out, all, (size_t)n * sizeof(*out));
	return n;
}

int wall_fuse_keys(const struct session_result *s, const int *const *idx, const int *n, int ncols,
		   struct fuse_part *keys, int max)
{
	struct fuse_part parts[FUSE_PARTS_MAX];
	int nk = 0;

	for (int c = 0; c < ncols; c++)
		for (int i = 0; i < n[c]; i++) {
			int np = wall_fuse_parts(&s->phases[idx[c][i]], parts, FUSE_PARTS_MAX);

			for (int k = 0; k < np; k++) {
				int j;

				for (j = 0; j < nk; j++)
					if (keys[j].bucket == parts[k].bucket &&
					    !strcmp(keys[j].label, parts[k].label))
						break;
				if (j < nk) {
					if (parts[k].ns > keys[j].ns)
						keys[j].ns = parts[k].ns;
				} else if (nk < max) {
					keys[nk++] = parts[k];
				}
			}
		}
	qsort(keys, (size_t)nk, sizeof(*keys), cmp_part);
	return nk;
}

double wall_fuse_part_mean(const struct session_result *s, const int *idx, int n,
			   const struct fuse_part *key)
{
	struct fuse_part parts[FUSE_PARTS_MAX];
	double v[SESSION_MAX_PHASES];

	if (n > SESSION_MAX_PHASES)
		n = SESSION_MAX_PHASES;
	for (int i = 0; i < n; i++) {
		int np = wall_fuse_parts(&s->phases[idx[i]], parts, FUSE_PARTS_MAX);

		v[i] = 0;
		for (int k = 0; k < np; k++)
			if (parts[k].bucket == key->bucket && !strcmp(parts[k].label, key->label))
				v[i] = parts[k].ns;
	}
	return trimmed_mean(v, n);
}
