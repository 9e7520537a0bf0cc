// SPDX-License-Identifier: GPL-2.0
/*
 * iowhy copy / iowhy delete: a tree of N files copied (or deleted) serially or by J workers, either
 * one process per file (fork + exec cp / rm, as find -exec and GNU parallel run rsync and rm) or
 * in-process workers (copy_file_range / unlink from J threads). Untraced, iowhy makes the source tree
 * beforehand and checks the result afterwards: copies byte-identical, deletions complete.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "safe_tree.h"
#include "units.h"
#include "storage.h"
#include "writer.h"

static const char *const mode_names[] = { "process", "inproc", NULL };

#define WL_PATH (2 * PATH_MAX + 256)   /* a root (<= 4200) joined with a relative path */


static const char copy_usage[] =
	"usage: iowhy copy [--files N] [--size S] [--tree DEPTH] [--from DIR] [--to DIR]\n"
	"                  [--jobs J[,J...]] [--mode process|inproc[,...]] [options]\n"
	"  process: one cp / rm process per file, J at once; inproc: J threads (copy_file_range,\n"
	"  unlink). Copies are checked byte for byte against the source; --from copies an existing\n"
	"  tree (read only), --to keeps the copies there (must not exist).\n";
/* ---- trees ---- */

static int tree_push(char ***v, uint64_t *n, const char *s)
{
	char **nv = realloc(*v, (size_t)(*n + 1) * sizeof(**v));

	if (!nv || !(nv[*n] = strdup(s))) {
		if (nv)
			*v = nv;
		return -1;
	}
	*v = nv;
	(*n)++;
	return 0;
}

void wl_tree_free(struct wl_tree *t)
{
	for (uint64_t k = 0; k < t->nfiles; k++)
		free(t->files[k]);
	for (uint64_t k = 0; k < t->ndirs; k++)
		free(t->dirs[k]);
	free(t->files);
	free(t->dirs);
	free(t->sizes);
	memset(t, 0, sizeof(*t));
}

/* Directories of a tree of `depth` levels with fanout 4, parents first: "d0", "d0/d0", ... */
static int tree_dirs(struct wl_tree *t, int depth)
{
	uint64_t level_start = 0, level_end = 0;
	char path[WL_PATH];

	for (int lv = 0; lv < depth; lv++) {
		uint64_t parents = lv == 0 ? 1 : level_end - level_start;

		for (uint64_t p = 0; p < parents; p++) {
			for (int c = 0; c < 4; c++) {
				if (lv == 0)
					snprintf(path, sizeof(path), "d%d", c);
				else
					snprintf(path, sizeof(path), "%s/d%d", t->dirs[level_start + p], c);
				if (tree_push(&t->dirs, &t->ndirs, path) < 0)
					return -1;
			}
		}
		level_start = lv == 0 ? 0 : level_end;
		level_end = t->ndirs;
	}
	return 0;
}

static int make_file(const char *path, uint64_t size, char *buf, struct prng *g)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
	int rc = 0;

	if (fd < 0)
		return -1;
	for (uint64_t done = 0; done < size && rc == 0;) {
		size_t n = size - done < (1u << 20) ? (size_t)(size - done) : (1u << 20);

		prng_fill(g, buf, n);
		rc = write_full(fd, buf, n);
		done += n;
	}
	return close(fd) < 0 ? -1 : rc;
}

static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	int rc = fd < 0 || syncfs(fd) < 0 ? -1 : 0;

	if (fd >= 0)
		close(fd);
	return rc;
}

/* Create the directories and files of t under root (root itself must exist). */
static int tree_create(const struct wl_tree *t, const char *root, uint64_t seed)
{
	char path[WL_PATH], *buf = wl_buf("copy", 1u << 20);
	struct prng g;
	int rc = buf ? 0 : -1;

	prng_seed(&g, seed);
	/* untraced setup: a Ctrl-C stops it (session_interrupted), and no phase starts after it */
	for (uint64_t k = 0; rc == 0 && k < t->ndirs && !(rc = -session_interrupted()); k++) {
		snprintf(path, sizeof(path), "%s/%s", root, t->dirs[k]);
		if (mkdir(path, 0755) < 0)
			rc = wl_fail("copy", "mkdir %s: %s", path, strerror(errno));
	}
	for (uint64_t k = 0; rc == 0 && k < t->nfiles && !(rc = -session_interrupted()); k++) {
		snprintf(path, sizeof(path), "%s/%s", root, t->files[k]);
		if (make_file(path, t->sizes[k], buf, &g) < 0)
			rc = wl_fail("copy", "write %s: %s", path, strerror(errno));
	}
	free(buf);
	if (rc == 0 && sync_dir(root) < 0)
		rc = wl_fail("copy", "syncfs %s: %s", root, strerror(errno));
	return rc;
}

int wl_tree_make(struct wl_tree *t, const char *root, uint64_t n, uint64_t size, int depth,
		 uint64_t seed)
{
	char path[WL_PATH];
	uint64_t leaves, first_leaf;

	memset(t, 0, sizeof(*t));
	if (tree_dirs(t, depth) < 0 || !(t->sizes = calloc((size_t)n, sizeof(*t->sizes))))
		return wl_fail("copy", "out of memory");
	leaves = 1;
	for (int lv = 0; lv < depth; lv++)
		leaves *= 4;
	first_leaf = t->ndirs - (depth ? leaves : 0);
	for (uint64_t k = 0; k < n; k++) {
		if (depth)
			snprintf(path, sizeof(path), "%s/f%06llu", t->dirs[first_leaf + k % leaves],
				 (unsigned long long)k);
		else
			snprintf(path, sizeof(path), "f%06llu", (unsigned long long)k);
		if (tree_push(&t->files, &t->nfiles, path) < 0)
			return wl_fail("copy", "out of memory");
		t->sizes[k] = size;
		t->bytes += size;
	}
	return tree_create(t, root, seed);
}

/* nftw has no user pointer: the scan in progress. */
static struct wl_tree *scan_tree;
static size_t scan_root_len;
static int scan_failed;

static int scan_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *rel = path + scan_root_len + 1;
	uint64_t *ns;

	if (ftw->level == 0)
		return 0;
	if (type == FTW_D) {
		scan_failed |= tree_push(&scan_tree->dirs, &scan_tree->ndirs, rel) < 0;
	} else if (type == FTW_F && S_ISREG(st->st_mode)) {
		ns = realloc(scan_tree->sizes, (size_t)(scan_tree->nfiles + 1) * sizeof(*ns));
		if (!ns || tree_push(&scan_tree->files, &scan_tree->nfiles, rel) < 0) {
			scan_tree->sizes = ns ? ns : scan_tree->sizes;
			scan_failed = 1;
			return 1;
		}
		scan_tree->sizes = ns;
		ns[scan_tree->nfiles - 1] = (uint64_t)st->st_size;
		scan_tree->bytes += (uint64_t)st->st_size;
	}
	return scan_failed;
}

int wl_tree_scan(struct wl_tree *t, const char *root)
{
	memset(t, 0, sizeof(*t));
	scan_tree = t;
	scan_root_len = strlen(root);
	scan_failed = 0;
	if (nftw(root, scan_one, 32, FTW_PHYS) != 0 || scan_failed)
		return wl_fail("copy", "cannot list %s: %s", root, strerror(errno));
	if (t->nfiles == 0)
		return wl_fail("copy", "%s has no regular files", root);
	return 0;
}

static int same_contents(const char *a, const char *b, char *ba, char *bb, size_t n)
{
	int fa = open(a, O_RDONLY | O_NOFOLLOW), fb = open(b, O_RDONLY | O_NOFOLLOW);
	int same = fa >= 0 && fb >= 0;

	while (same) {
		ssize_t ra = read(fa, ba, n), rb = read(fb, bb, n);

		same = ra == rb && ra >= 0 && memcmp(ba, bb, (size_t)(ra > 0 ? ra : 0)) == 0;
		if (ra <= 0)
			break;
	}
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

uint64_t wl_tree_identical(const struct wl_tree *t, const char *src, const char *dst)
{
	const size_t n = 1 << 16;
	char a[WL_PATH], b[WL_PATH], *ba = malloc(n), *bb = malloc(n);
	uint64_t same = 0;

	for (uint64_t k = 0; ba && bb && k < t->nfiles; k++) {
		snprintf(a, sizeof(a), "%s/%s", src, t->files[k]);
		snprintf(b, sizeof(b), "%s/%s", dst, t->files[k]);
		same += (uint64_t)same_contents(a, b, ba, bb, n);
	}
	free(ba);
	free(bb);
	return same;
}

/*
 * Remove a tree this workload made in the scratch area: `name` is one component relative to the
 * working directory (the area). The same removal as the scratch area's (safe_tree.c): nothing
 * followed, no mount point entered, nothing outside touched.
 */
static void rm_tree(const char *name)
{
	struct tree_errors err = { 0 };

	if (tree_remove_at(AT_FDCWD, name, &err))
		fprintf(stderr, "iowhy: could not remove %lu entr%s of %s (%s)\n", err.failed,
			err.failed == 1 ? "y" : "ies", name, err.first);
}

/* ---- the traced work: one process per file ---- */

static const char *exec_path(const char *name)
{
	static const char *const dirs[] = { "/usr/bin", "/bin", "/usr/local/bin", NULL };
	static char found[2][PATH_MAX];
	int slot = strcmp(name, "cp") != 0;

	for (int k = 0; dirs[k]; k++) {
		snprintf(found[slot], sizeof(found[slot]), "%s/%s", dirs[k], name);
		if (access(found[slot], X_OK) == 0)
			return found[slot];
	}
	return NULL;
}

static pid_t spawn(char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* Run `argv_for(k)` for every file, keeping `jobs` children at once. Returns the failures. */
static uint64_t run_processes(const struct copy_job *j, int is_delete)
{
	const char *tool = exec_path(is_delete ? "rm" : "cp");
	char a[WL_PATH], b[WL_PATH];
	uint64_t next = 0, failures = 0;
	int running = 0, st;

	if (!tool)
		return j->tree->nfiles;
	while (next < j->tree->nfiles || running > 0) {
		while (running < j->jobs && next < j->tree->nfiles) {
			/* cp -P: a source that became a symlink is copied as a link, never followed */
			char *argv[5] = { (char *)tool, "-P", a, b, NULL };

			snprintf(a, sizeof(a), "%s/%s", is_delete ? j->dst : j->src, j->tree->files[next]);
			snprintf(b, sizeof(b), "%s/%s", j->dst, j->tree->files[next]);
			if (is_delete) {
				argv[1] = "-f";
				argv[2] = a;
				argv[3] = NULL;
			}
			next++;
			if (spawn(argv) < 0)
				failures++;
			else
				running++;
		}
		if (running == 0)
			break;
		if (wait(&st) < 0)
			break;
		running--;
		failures += !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	}
	return failures;
}

/* ---- the traced work: in-process workers ---- */

struct pool {
	const struct copy_job *job;
	int is_delete;
	_Atomic uint64_t next, failures;
};

static int copy_rw(int in, int out, uint64_t left)
{
	char buf[1 << 16];

	while (left > 0) {
		ssize_t r = read(in, buf, sizeof(buf));

		if (r <= 0 || write_full(out, buf, (size_t)r) < 0)
			return r == 0 ? 0 : -1;
		left -= (uint64_t)r < left ? (uint64_t)r : left;
	}
	return 0;
}

/*
 * Copy one file. The source is opened O_NOFOLLOW (a symlink planted after the scan is refused, not
 * read through) and must be a regular file; the copy is created fresh (O_EXCL|O_NOFOLLOW) with the
 * source's permission bits, never more (the umask can only take away).
 */
static int copy_one(const char *src, const char *dst, uint64_t size)
{
	int in = open(src, O_RDONLY | O_NOFOLLOW | O_NOCTTY), out = -1, rc = -1;
	uint64_t left = size;
	struct stat st;

	if (in < 0 || fstat(in, &st) < 0 || !S_ISREG(st.st_mode))
		goto out;
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, st.st_mode & 0777);
	if (out < 0)
		goto out;
	while (left > 0) {
		ssize_t n = copy_file_range(in, NULL, out, NULL, (size_t)left, 0);

		if (n < 0 && left == size && (errno == EXDEV || errno == ENOSYS || errno == EINVAL ||
					      errno == EOPNOTSUPP)) {
			rc = copy_rw(in, out, left);
			goto out;
		}
		if (n <= 0)
			break;
		left -= (uint64_t)n;
	}
	rc = left == 0 ? 0 : -1;
out:
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) < 0)
		rc = -1;
	return rc;
}

static void *pool_worker(void *arg)
{
	struct pool *p = arg;
	const struct copy_job *j = p->job;
	char a[WL_PATH], b[WL_PATH];
	uint64_t k;

	while ((k = atomic_fetch_add(&p->next, 1)) < j->tree->nfiles) {
		int rc;

		snprintf(b, sizeof(b), "%s/%s", j->dst, j->tree->files[k]);
		if (p->is_delete) {
			rc = unlink(b);
		} else {
			snprintf(a, sizeof(a), "%s/%s", j->src, j->tree->files[k]);
			rc = copy_one(a, b, j->tree->sizes[k]);
		}
		if (rc < 0)
			atomic_fetch_add(&p->failures, 1);
	}
	return NULL;
}

static uint64_t run_threads(const struct copy_job *j, int is_delete)
{
	struct pool p = { .job = j, .is_delete = is_delete };
	pthread_t *tid = calloc((size_t)j->jobs, sizeof(*tid));
	int started = 1;

	if (!tid)
		return j->tree->nfiles;
	for (; started < j->jobs; started++)
		if (pthread_create(&tid[started], NULL, pool_worker, &p) != 0)
			break;
	pool_worker(&p);
	for (int k = 1; k < started; k++)
		pthread_join(tid[k], NULL);
	free(tid);
	return atomic_load(&p.failures);
}

/* Directories first (cp and copy_file_range do not make them), parents before children. */
static uint64_t make_dirs(const struct copy_job *j)
{
	char path[WL_PATH];
	uint64_t failures = 0;

	if (mkdir(j->dst, 0755) < 0)
		failures++;
	for (uint64_t k = 0; k < j->tree->ndirs; k++) {
		snprintf(path, sizeof(path), "%s/%s", j->dst, j->tree->dirs[k]);
		failures += mkdir(path, 0755) < 0;
	}
	return failures;
}

/* Children before parents, then the root: nothing of the tree is left. */
static uint64_t remove_dirs(const struct copy_job *j)
{
	char path[WL_PATH];
	uint64_t failures = 0;

	for (uint64_t k = j->tree->ndirs; k-- > 0;) {
		snprintf(path, sizeof(path), "%s/%s", j->dst, j->tree->dirs[k]);
		failures += rmdir(path) < 0;
	}
	return failures + (rmdir(j->dst) < 0);
}

static void copy_facts(const struct copy_job *j, uint64_t failures, uint64_t ns, struct phase_facts *f)
{
	double s = wl_secs(ns);

	facts_set(f, "files", "files", "", (double)j->tree->nfiles);
	facts_set(f, "bytes", "bytes", "B", (double)j->tree->bytes);
	facts_set(f, "failures", "failed files", "", (double)failures);
	facts_set(f, "jobs", "workers at once", "", j->jobs);
	facts_set(f, "app_seconds", "time measured by the workload", "s", s);
	facts_set(f, "files_per_s", "files per second", "", s > 0 ? (double)j->tree->nfiles / s : 0);
}

static int tree_fn(const struct copy_job *j, int is_delete, struct phase_facts *f)
{
	uint64_t t0 = wl_now_ns(), failures = is_delete ? 0 : make_dirs(j);

	if (j->jobs < 1)
		return 1;
	if (j->mode == COPY_PROCESS)
		failures += run_processes(j, is_delete);
	else
		failures += run_threads(j, is_delete);
	if (is_delete)
		failures += remove_dirs(j);
	copy_facts(j, failures, wl_now_ns() - t0, f);
	if (failures)
		wl_fail(is_delete ? "delete" : "copy", "%llu failures", (unsigned long long)failures);
	return failures != 0;
}

int copy_fn(void *arg, struct phase_facts *f)
{
	return tree_fn(arg, 0, f);
}

int delete_fn(void *arg, struct phase_facts *f)
{
	return tree_fn(arg, 1, f);
}

/* ---- options ---- */

enum { CP_O_FILES = 256, CP_O_SIZE, CP_O_JOBS, CP_O_MODE, CP_O_TREE, CP_O_FROM, CP_O_TO };

#define TREE_OPTS \
	{ "files", CP_O_FILES, "N", "number of files (default 1000)" }, \
	{ "size", CP_O_SIZE, "S", "bytes per file (default 64k)" }, \
	{ "tree", CP_O_TREE, "DEPTH", "directory levels, 0 to 6, fan-out 4 (default 0)" }, \
	{ "jobs", CP_O_JOBS, "LIST", "processes or threads at once, comma-separated (default 1)" }, \
	{ "mode", CP_O_MODE, "LIST", "process (cp/rm per file), inproc (threads): comma-separated" }

static const struct opt_def copy_opt_defs[] = {
	TREE_OPTS,
	{ "from", CP_O_FROM, "DIR", "copy this existing tree (read only) instead of a made one" },
	{ "to", CP_O_TO, "DIR", "keep the copies in DIR (must not exist)" },
	{ NULL, 0, NULL, NULL },
};

static const struct opt_def delete_opt_defs[] = {
	TREE_OPTS,
	{ NULL, 0, NULL, NULL },
};

struct copy_parse_ctx {
	struct copy_opts *o;
	const char *tool;
	int sized;          /* --files, --size or --tree given */
};

/* copy's and delete's own options: 0, or -1 after a one-line message. */
static int copy_handle(void *ctx, int key, const char *v)
{
	struct copy_parse_ctx *c = ctx;
	struct copy_opts *o = c->o;
	char err[160];

	c->sized |= key == CP_O_FILES || key == CP_O_SIZE || key == CP_O_TREE;
	switch (key) {
	case CP_O_FILES:
		return wl_counts(c->tool, "--files", v, 10000000, &o->files) != 1 ? -1 : 0;
	case CP_O_SIZE:
		return wl_size(c->tool, "--size", v, 1ull << 30, &o->size) < 0 ? -1 : 0;
	case CP_O_JOBS:
		return (o->njobs = wl_counts(c->tool, "--jobs", v, 1024, o->jobs)) < 0 ? -1 : 0;
	case CP_O_MODE:
		return (o->nmodes = wl_choice_list(c->tool, "--mode", v, mode_names, o->modes, 2)) < 0
			       ? -1 : 0;
	case CP_O_TREE:
		if (!strcmp(v, "0")) {
			o->tree = 0;
			return 0;
		}
		if (parse_count(v, 6, &o->tree, err, sizeof(err)) < 0)
			return wl_fail(c->tool, "--tree: %s (0 to 6)", err);
		return 0;
	case CP_O_FROM:
		o->from = v;
		return 0;
	case CP_O_TO:
		o->to = v;
		return 0;
	}
	return 0;
}

static const char delete_usage[] =
	"usage: iowhy delete [--files N] [--size S] [--tree DEPTH] [--jobs J[,J...]]\n"
	"                    [--mode process|inproc[,...]] [options]\n"
	"  Makes a tree of N files of S bytes (untraced), then deletes it, traced:\n"
	"  process: one rm process per file, J at once; inproc: J threads calling unlink.\n";

const struct cmd_def copy_cmd = {
	.name = "copy",
	.usage = copy_usage,
	.opts = copy_opt_defs,
	.common = CO_ALL,
	.operand = OPERAND_NONE,
	.handle = copy_handle,
};

const struct cmd_def delete_cmd = {
	.name = "delete",
	.usage = delete_usage,
	.opts = delete_opt_defs,
	.common = CO_ALL,
	.operand = OPERAND_NONE,
	.handle = copy_handle,
};

static int copy_validate(const char *tool, struct copy_opts *o, int is_delete, int sized)
{
	struct stat st;
	uint64_t need;

	if (o->from && sized)
		return wl_usage_error(tool, "--from copies an existing tree: --files and --size do not apply");
	if (o->from && (stat(o->from, &st) < 0 || !S_ISDIR(st.st_mode)))
		return wl_usage_error(tool, "--from %s: not a directory", o->from);
	if (o->to && access(o->to, F_OK) == 0)
		return wl_usage_error(tool, "--to %s exists; iowhy makes that directory itself", o->to);
	for (int k = 0; k < o->nmodes; k++)
		if (o->modes[k] == COPY_PROCESS && !exec_path(is_delete ? "rm" : "cp"))
			return wl_usage_error(tool, "--mode process needs %s in /usr/bin or /bin",
					      is_delete ? "rm" : "cp");
	need = o->from ? 0 : o->files * (o->size + 4096) * 2;
	if (need > wl_free_bytes(o->co.dir ? o->co.dir : "."))
		return wl_usage_error(tool, "%llu files of %llu bytes (twice) do not fit under %s",
				      (unsigned long long)o->files, (unsigned long long)o->size,
				      o->co.dir ? o->co.dir : ".");
	return 0;
}

int copy_parse(int argc, char **argv, struct copy_opts *o, int is_delete)
{
	const char *tool = is_delete ? "delete" : "copy";
	struct copy_parse_ctx c = { .o = o, .tool = tool };
	int rc;

	memset(o, 0, sizeof(*o));
	o->files = 1000;
	o->size = 64 * 1024;
	o->jobs[0] = 1;
	o->njobs = 1;
	o->nmodes = 1;
	rc = opts_parse(is_delete ? &delete_cmd : &copy_cmd, argc, argv, &o->co, &c, NULL);
	if (rc)
		return rc;
	return copy_validate(tool, o, is_delete, c.sized);
}

/* ---- parent-side hooks and the commands ---- */

struct copy_shared {
	const struct copy_opts *o;
	struct wl_tree tree;
	char src[4200];
	int made, is_delete;
};

struct copy_run {
	struct copy_job job;
	struct copy_shared *sh;
};

static int copy_before(void *arg)
{
	struct copy_run *r = arg;
	struct copy_shared *sh = r->sh;
	const struct copy_opts *o = sh->o;

	if (!sh->made) {
		if (o->from ? wl_tree_scan(&sh->tree, o->from) < 0 :
			      (mkdir(sh->src, 0755) < 0 ||
			       wl_tree_make(&sh->tree, sh->src, o->files, o->size, (int)o->tree, 0xc0) < 0))
			return 1;
		sh->made = 1;
	}
	wl_maybe_drop(sh->is_delete ? "delete" : "copy", &o->co);
	return 0;
}

static int copy_after(void *arg, struct phase_facts *f)
{
	struct copy_run *r = arg;
	uint64_t same = wl_tree_identical(&r->sh->tree, r->job.src, r->job.dst);

	facts_set(f, "identical", "copies identical to the source", "", (double)same);
	if (!r->sh->o->to)
		rm_tree(r->job.dst);
	if (same == r->sh->tree.nfiles)
		return 0;
	fprintf(stderr, "iowhy copy: %llu of %llu copies differ from the source\n",
		(unsigned long long)(r->sh->tree.nfiles - same), (unsigned long long)r->sh->tree.nfiles);
	return 1;
}

/* Delete: a fresh tree for every run, made untraced and flushed. */
static int delete_before(void *arg)
{
	struct copy_run *r = arg;
	const struct copy_opts *o = r->sh->o;

	wl_tree_free(&r->sh->tree);
	if (mkdir(r->job.dst, 0755) < 0 ||
	    wl_tree_make(&r->sh->tree, r->job.dst, o->files, o->size, (int)o->tree, 0xde1) < 0)
		return 1;
	wl_maybe_drop("delete", &o->co);
	return 0;
}

static int delete_after(void *arg, struct phase_facts *f)
{
	struct copy_run *r = arg;
	int left = access(r->job.dst, F_OK) == 0;

	facts_set(f, "left", "tree left behind (0 = all deleted)", "", left);
	if (!left)
		return 0;
	rm_tree(r->job.dst);
	fprintf(stderr, "iowhy delete: %s was not removed completely\n", r->job.dst);
	return 1;
}

/* Paths of run n: in the scratch area by a relative name (the phases run there), or in --to. */
static void run_paths(struct copy_run *r, const struct copy_opts *o, int n)
{
	if (o->to)
		snprintf(r->job.dst, sizeof(r->job.dst), "%s/run%d", o->to, n + 1);
	else
		snprintf(r->job.dst, sizeof(r->job.dst), "%s%d", r->sh->is_delete ? "del" : "dst", n + 1);
	snprintf(r->job.src, sizeof(r->job.src), "%s", r->sh->src);
}

static int plan_copy(const struct copy_opts *o, struct copy_shared *sh, struct copy_run *runs,
		     struct wl_plan *p)
{
	int n = 0;

	for (int m = 0; m < o->nmodes; m++) {
		for (int k = 0; k < o->njobs; k++) {
			char col[32];

			snprintf(col, sizeof(col), "%s jobs=%u", mode_names[o->modes[m]], (unsigned)o->jobs[k]);
			for (int rep = 1; rep <= o->co.repeat; rep++, n++) {
				struct copy_run *r = &runs[n];
				struct phase_spec *ph = wl_plan_add(p, col, rep, o->co.repeat, PHASE_WORK,
								    sh->is_delete ? delete_fn : copy_fn, r);

				r->sh = sh;
				r->job.tree = &sh->tree;
				r->job.mode = o->modes[m];
				r->job.jobs = (int)o->jobs[k];
				r->job.tool = sh->is_delete ? "delete" : "copy";
				run_paths(r, o, n);
				if (!ph)
					continue;
				ph->before = sh->is_delete ? delete_before : copy_before;
				ph->after = sh->is_delete ? delete_after : copy_after;
			}
		}
	}
	return wl_plan_check(sh->is_delete ? "delete" : "copy", n);
}

static int cmd_tree(int argc, char **argv, int is_delete)
{
	const char *tool = is_delete ? "delete" : "copy";
	struct copy_opts o;
	struct copy_shared sh = { .o = &o, .is_delete = is_delete };
	struct scratch s;
	struct wl_plan *p = NULL;
	struct copy_run *runs = NULL;
	char from[4096], to[4096];
	int rc = copy_parse(argc, argv, &o, is_delete);

	if (rc)
		return wl_exit_status(rc);
	/* the phases run in the scratch area: the user's paths must not be relative to it */
	if (o.from && wl_abs_path(tool, "--from", o.from, from, sizeof(from)) != 0)
		return 2;
	if (o.to && (wl_abs_path(tool, "--to", o.to, to, sizeof(to)) != 0 ||
		     wl_trusted_parent(tool, "--to", to) != 0))
		return 2;
	o.from = o.from ? from : NULL;
	o.to = o.to ? to : NULL;
	if (o.to && mkdir(o.to, 0755) < 0)
		return wl_usage_error(tool, "--to %s: %s", o.to, strerror(errno));
	p = calloc(1, sizeof(*p));
	runs = calloc((size_t)(o.nmodes * o.njobs * o.co.repeat), sizeof(*runs));
	if (!p || !runs || wl_scratch(&s, &o.co) < 0) {
		rc = 1;
	} else {
		/* relative to the scratch area, where the phases run */
		snprintf(sh.src, sizeof(sh.src), "%s", o.from ? o.from : "src");
		p->comm = is_delete ? "iowhy-delete" : "iowhy-copy";
		rc = plan_copy(&o, &sh, runs, p);
		if (rc == 0)
			rc = wl_session(tool, argc, argv, p, &o.co, &s);
		else
			scratch_remove(&s);
	}
	wl_tree_free(&sh.tree);
	free(runs);
	free(p);
	return rc;
}

int cmd_copy(int argc, char **argv)
{
	return cmd_tree(argc, argv, 0);
}

int cmd_delete(int argc, char **argv)
{
	return cmd_tree(argc, argv, 1);
}
