// SPDX-License-Identifier: GPL-2.0
/*
 * iowhy hunt --write FILE: the same sweep with O_DIRECT writes into a scratch file that hunt
 * creates on the file system under the target (never a raw device), while each member device's
 * /sys/block counters say what it did in every step. The file is removed afterwards, and only if
 * it is still the file hunt created.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "hunt_core.h"

#define MIB (1024.0 * 1024.0)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int hunt_write_open(struct hunt *h)
{
	static struct devstack there; /* large */
	char path[PATH_MAX], dir[PATH_MAX], base[PATH_MAX], err[PATH_MAX + 128];
	int fd;

	h->wdir = -1;
	h->file.fd = -1;
	if (!h->ds.mountpoint[0])
		return hunt_bad("--write needs a file system PATH, not a device (%s)", h->target);
	snprintf(path, sizeof(path), "%s", h->write_path);
	snprintf(base, sizeof(base), "%s", h->write_path);
	snprintf(h->wname, sizeof(h->wname), "%s", basename(base));
	if (!h->wname[0] || !strcmp(h->wname, ".") || !strcmp(h->wname, "..") ||
	    h->write_path[strlen(h->write_path) - 1] == '/')
		return hunt_bad("--write %s: give a file name to create", h->write_path);
	snprintf(dir, sizeof(dir), "%s", dirname(path)); /* dirname may return its argument */
	if (devstack_from_path(NULL, dir, &there, err, sizeof(err)) ||
	    strcmp(there.mountpoint, h->ds.mountpoint) || strcmp(there.fstype, h->ds.fstype))
		return hunt_bad("--write %s is not on the file system being hunted", h->write_path);
	h->wdir = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (h->wdir < 0)
		return hunt_bad("--write: cannot open the directory %s", dir);
	/* a new file only: never an existing one, never through a link */
	fd = openat(h->wdir, h->wname, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_DIRECT |
		    O_CLOEXEC, 0600);
	if (fd < 0) {
		fprintf(stderr, "iowhy hunt: --write %s: %s (hunt writes only a file it creates)\n",
			h->write_path, strerror(errno));
		close(h->wdir);
		h->wdir = -1;
		return 2;
	}
	h->file.fd = fd;
	h->file.size = h->write_mib << 20;
	snprintf(h->file.name, sizeof(h->file.name), "file");
	if (fallocate(fd, 0, 0, (off_t)h->file.size)) {
		fprintf(stderr, "iowhy hunt: --write %s: cannot allocate %llu MiB: %s\n",
			h->write_path, (unsigned long long)h->write_mib, strerror(errno));
		hunt_write_remove(h);
		return 2;
	}
	return 0;
}

void hunt_write_remove(struct hunt *h)
{
	struct stat mine, there;

	if (h->file.fd >= 0) {
		if (!fstat(h->file.fd, &mine) &&
		    !fstatat(h->wdir, h->wname, &there, AT_SYMLINK_NOFOLLOW) &&
		    mine.st_dev == there.st_dev && mine.st_ino == there.st_ino)
			unlinkat(h->wdir, h->wname, 0);
		close(h->file.fd);
		h->file.fd = -1;
	}
	if (h->wdir >= 0)
		close(h->wdir);
	h->wdir = -1;
}

/* Member counters used per step: writes, write sectors, write ticks (ms), io_ticks (ms). */
static const int fields[] = { 5, 7, 8, 10 };

int hunt_write_sweep(struct hunt *h)
{
	struct member *file = &h->file;
	uint64_t before[MAX_MEMBERS][4];

	h->writing = 1;
	h->nsteps = NPATTERNS * h->ndepth;
	for (int p = 0; p < NPATTERNS; p++)
		for (int d = 0; d < h->ndepth && !hunt_stop; d++) {
			struct cell *out = &file->alone[p][d];
			double t0, secs;

			hunt_progress(h, "file", &hunt_patterns[p], h->depth[d]);
			if (file->cap[p] || (d > 0 && hunt_too_slow(h, file, p, d))) {
				out->skipped = 1;
				file->cap[p] = file->cap[p] ? file->cap[p] : h->depth[d - 1];
				continue;
			}
			for (int i = 0; i < h->nm; i++)
				for (int f = 0; f < 4; f++)
					before[i][f] = hunt_dev_stat(&h->m[i], fields[f]);
			t0 = now();
			if (hunt_run_step(h, &file, 1, &h->depth[d], &hunt_patterns[p], &out))
				return -1;
			secs = now() - t0;
			for (int i = 0; i < h->nm; i++) {
				struct wcell *w = &h->wdev[i][p][d];
				double nw = (double)(hunt_dev_stat(&h->m[i], 5) - before[i][0]);
				uint64_t sectors = hunt_dev_stat(&h->m[i], 7) - before[i][1];

				w->mib_s = (double)sectors * 512 / MIB / secs;
				w->lat_us = nw > 0 ? 1000.0 * (double)(hunt_dev_stat(&h->m[i], 8) -
								before[i][2]) / nw : 0;
				w->busy_pct = 100.0 * (double)(hunt_dev_stat(&h->m[i], 10) -
							       before[i][3]) / (1000 * secs);
				w->busy_pct = w->busy_pct > 100 ? 100 : w->busy_pct;
				w->done = 1;
			}
		}
	if (h->tty)
		fprintf(stderr, "\r%60s\r", "");
	return hunt_stop ? -1 : 0;
}

/* The depth index with the file's best throughput for pattern P (-1: none measured). */
static int best_depth(const struct hunt *h, int p)
{
	int at = -1;

	for (int d = 0; d < h->ndepth; d++)
		if (h->file.alone[p][d].done && h->file.alone[p][d].iops > 0 &&
		    (at < 0 || h->file.alone[p][d].mib_s > h->file.alone[p][at].mib_s))
			at = d;
	return at;
}

void hunt_write_table(const struct hunt *h)
{
	char hdr[32], cell[48];

	printf("\n  %-10s %-8s", "written", "pattern");
	for (int d = 0; d < h->ndepth; d++) {
		snprintf(hdr, sizeof(hdr), "depth %d", h->depth[d]);
		printf(" %-18s", hdr);
	}
	printf(" knee\n");
	for (int p = 0; p < NPATTERNS; p++) {
		hunt_print_row(h, "file", p, h->file.alone[p]);
		for (int i = 0; i < h->nm; i++) {
			printf("  %-10s %-8s", h->m[i].name, hunt_patterns[p].label);
			for (int d = 0; d < h->ndepth; d++) {
				const struct wcell *w = &h->wdev[i][p][d];

				if (w->done)
					snprintf(cell, sizeof(cell), "%.0f MiB/s %.0f%%", w->mib_s,
						 w->busy_pct);
				else
					snprintf(cell, sizeof(cell), "-");
				printf(" %-18s", cell);
			}
			printf("\n");
		}
	}
	printf("  (file: what hunt wrote, IOPS or MiB/s and latency; members: what each device "
	       "wrote in that step and its busy %%)\n");
}

void hunt_write_verdict_input(const struct hunt *h, struct vd_input *in)
{
	int seq = 1, at = best_depth(h, seq);

	memset(in, 0, sizeof(*in));
	in->nmembers = h->nm;
	in->writes = 1;
	snprintf(in->top_thread, sizeof(in->top_thread), "iowhy hunt");
	in->top_thread_cpu_pct = h->top_cpu_pct;
	for (int i = 0; i < h->nm && at >= 0; i++) {
		const struct member *m = &h->m[i];
		const struct wcell *w = &h->wdev[i][seq][at];
		struct vd_member *v = &in->m[i];

		snprintf(v->name, sizeof(v->name), "%s", m->name);
		v->major = m->node->major;
		v->minor = m->node->minor;
		v->lat_us = w->lat_us;
		v->busy_pct = w->busy_pct;
		v->mib_s = w->mib_s;
		v->thr_read_bps = m->thr.read_bps;
		v->thr_write_bps = m->thr.write_bps;
		v->thr_read_iops = m->thr.read_iops;
		v->thr_write_iops = m->thr.write_iops;
		snprintf(v->thr_cgroup, sizeof(v->thr_cgroup), "%s", m->thr.cgroup);
		snprintf(v->bottom, sizeof(v->bottom), "%s",
			 devstack_bottom(&h->ds, h->ds.members[i]));
	}
}

/* A JSON number, or null when x was not measured. */
static struct json_object *jnum(double x, int done)
{
	return done ? json_object_new_double(x) : NULL;
}

struct json_object *hunt_write_json(const struct hunt *h)
{
	struct json_object *o = json_object_new_object(), *ms = json_object_new_array();

	json_object_object_add(o, "file", json_object_new_string(h->write_path));
	json_object_object_add(o, "size_bytes", json_object_new_int64((int64_t)h->file.size));
	for (int p = 0; p < NPATTERNS; p++) {
		struct json_object *rows = json_object_new_array();

		for (int d = 0; d < h->ndepth; d++) {
			const struct cell *c = &h->file.alone[p][d];
			struct json_object *r = json_object_new_object();

			json_object_object_add(r, "depth", json_object_new_int(h->depth[d]));
			json_object_object_add(r, "skipped", json_object_new_boolean(c->skipped));
			json_object_object_add(r, "iops", jnum(c->iops, c->done));
			json_object_object_add(r, "mib_s", jnum(c->mib_s, c->done));
			json_object_object_add(r, "lat_us", jnum(c->lat_us, c->done));
			json_object_array_add(rows, r);
		}
		json_object_object_add(o, hunt_patterns[p].name, rows);
	}
	for (int i = 0; i < h->nm; i++) {
		struct json_object *m = json_object_new_object();

		json_object_object_add(m, "name", json_object_new_string(h->m[i].name));
		for (int p = 0; p < NPATTERNS; p++) {
			struct json_object *rows = json_object_new_array();

			for (int d = 0; d < h->ndepth; d++) {
				const struct wcell *w = &h->wdev[i][p][d];
				struct json_object *r = json_object_new_object();

				json_object_object_add(r, "depth",
						       json_object_new_int(h->depth[d]));
				json_object_object_add(r, "mib_s", jnum(w->mib_s, w->done));
				json_object_object_add(r, "busy_pct", jnum(w->busy_pct, w->done));
				json_object_object_add(r, "lat_us", jnum(w->lat_us, w->done));
				json_object_array_add(rows, r);
			}
			json_object_object_add(m, hunt_patterns[p].name, rows);
		}
		json_object_array_add(ms, m);
	}
	json_object_object_add(o, "members", ms);
	return o;
}
