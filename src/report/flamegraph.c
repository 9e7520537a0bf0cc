// SPDX-License-Identifier: GPL-2.0
/*
 * Flame graphs from folded stacks; see flamegraph.h. The stacks are merged into a tree of frames
 * (a frame is a distinct stack prefix); drawing lays each node's children out left to right in
 * name order, each as wide as its share of the samples, the root ("all") at the bottom.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "flamegraph.h"
#include "text.h"

#define NO_NODE UINT32_MAX

struct fnode {
	char *name;
	uint64_t count;          /* samples in this frame and above it */
	uint32_t parent, depth;
};

struct flame {
	struct fnode *nodes;     /* nodes[0] is the root "all" */
	size_t n, cap;
	uint32_t *htab;          /* (parent, name) -> node, open addressing */
	size_t hcap;
	uint32_t max_depth;
};

static uint64_t hash_key(uint32_t parent, const char *name, size_t len)
{
	uint64_t h = 1469598103934665603ull ^ parent;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
	return h ^ (h >> 29);
}

/* Grow the hash table to hold twice the nodes. Returns 0 or -1. */
static int rehash(struct flame *f)
{
	size_t cap = f->hcap ? f->hcap * 2 : 1024;
	uint32_t *t = malloc(cap * sizeof(*t));

	if (!t)
		return -1;
	memset(t, 0xff, cap * sizeof(*t));
	for (size_t i = 1; i < f->n; i++) {
		const struct fnode *nd = &f->nodes[i];
		size_t k = hash_key(nd->parent, nd->name, strlen(nd->name)) & (cap - 1);

		while (t[k] != NO_NODE)
			k = (k + 1) & (cap - 1);
		t[k] = (uint32_t)i;
	}
	free(f->htab);
	f->htab = t;
	f->hcap = cap;
	return 0;
}

/* A new node; returns its index or NO_NODE when out of memory. */
static uint32_t node_new(struct flame *f, uint32_t parent, const char *name, size_t len)
{
	struct fnode *nd;

	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 256;
		struct fnode *p = realloc(f->nodes, cap * sizeof(*p));

		if (!p)
			return NO_NODE;
		f->nodes = p;
		f->cap = cap;
	}
	nd = &f->nodes[f->n];
	nd->name = strndup(name, len);
	if (!nd->name)
		return NO_NODE;
	nd->count = 0;
	nd->parent = parent;
	nd->depth = parent == NO_NODE ? 0 : f->nodes[parent].depth + 1;
	if (nd->depth > f->max_depth)
		f->max_depth = nd->depth;
	return (uint32_t)f->n++;
}

/* The child `name` of parent, created when missing; NO_NODE when out of memory. */
static uint32_t child(struct flame *f, uint32_t parent, const char *name, size_t len)
{
	size_t k;
	uint32_t id;

	if ((f->n + 1) * 2 > f->hcap && rehash(f))
		return NO_NODE;
	k = hash_key(parent, name, len) & (f->hcap - 1);
	while ((id = f->htab[k]) != NO_NODE) {
		const struct fnode *nd = &f->nodes[id];

		if (nd->parent == parent && !strncmp(nd->name, name, len) && !nd->name[len])
			return id;
		k = (k + 1) & (f->hcap - 1);
	}
	id = node_new(f, parent, name, len);
	if (id != NO_NODE)
		f->htab[k] = id;
	return id;
}

struct flame *flame_new(void)
{
	struct flame *f = calloc(1, sizeof(*f));

	if (f && node_new(f, NO_NODE, "all", 3) == NO_NODE) {
		flame_free(f);
		return NULL;
	}
	return f;
}

void flame_free(struct flame *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		free(f->nodes[i].name);
	free(f->nodes);
	free(f->htab);
	free(f);
}

/* Add count to the root and to every frame of a stack given as (name, len) pieces of `stack`
 * separated by ';'. The caller has checked that no piece is empty. */
static int add_pieces(struct flame *f, const char *stack, size_t len, uint64_t count)
{
	uint32_t at = 0;
	size_t i = 0;

	f->nodes[0].count += count;
	while (i < len) {
		const char *semi = memchr(stack + i, ';', len - i);
		size_t plen = semi ? (size_t)(semi - (stack + i)) : len - i;

		at = child(f, at, stack + i, plen);
		if (at == NO_NODE)
			return -1;
		f->nodes[at].count += count;
		i += plen + 1;
	}
	return 0;
}

int flame_add_stack(struct flame *f, const char *const *frames, int n, uint64_t count)
{
	uint32_t at = 0;

	if (f->nodes[0].count + count < count)
		return -1;
	f->nodes[0].count += count;
	for (int i = 0; i < n; i++) {
		at = child(f, at, frames[i], strlen(frames[i]));
		if (at == NO_NODE)
			return -1;
		f->nodes[at].count += count;
	}
	return 0;
}

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int flame_add_line(struct flame *f, const char *line, char *err, size_t errlen)
{
	size_t len = strlen(line), cstart, slen;
	uint64_t count = 0;

	while (len && blank(line[len - 1]))
		len--;
	if (!len)
		return 0;
	cstart = len;
	while (cstart && line[cstart - 1] >= '0' && line[cstart - 1] <= '9')
		cstart--;
	if (cstart == len || !cstart || !blank(line[cstart - 1])) {
		snprintf(err, errlen, "no sample count at the end (expected 'frame;frame;... COUNT')");
		return -1;
	}
	for (size_t i = cstart; i < len; i++) {
		unsigned d = line[i] - '0';

		if (count > (UINT64_MAX - d) / 10) {
			snprintf(err, errlen, "sample count too large");
			return -1;
		}
		count = count * 10 + d;
	}
	slen = cstart;
	while (slen && blank(line[slen - 1]))
		slen--;
	if (!slen) {
		snprintf(err, errlen, "empty stack before the count");
		return -1;
	}
	if (line[0] == ';' || line[slen - 1] == ';' || memmem(line, slen, ";;", 2)) {
		snprintf(err, errlen, "empty frame name in the stack");
		return -1;
	}
	if (f->nodes[0].count + count < f->nodes[0].count) {
		snprintf(err, errlen, "sample count too large");
		return -1;
	}
	if (!count)
		return 0;
	if (add_pieces(f, line, slen, count)) {
		snprintf(err, errlen, "out of memory");
		return -2;
	}
	return 0;
}

int flame_read(struct flame *f, FILE *in, char *err, size_t errlen)
{
	char *line = NULL, why[160];
	size_t cap = 0;
	unsigned long lineno = 0;
	int rc = 0;

	errno = 0;
	while (getline(&line, &cap, in) >= 0) {
		lineno++;
		rc = flame_add_line(f, line, why, sizeof(why));
		if (rc) {
			snprintf(err, errlen, "line %lu: %s", lineno, why);
			break;
		}
	}
	if (!rc && ferror(in)) {
		snprintf(err, errlen, "read error: %s", strerror(errno ? errno : EIO));
		rc = -2;
	}
	free(line);
	return rc;
}

uint64_t flame_samples(const struct flame *f)
{
	return f->nodes[0].count;
}

size_t flame_frames(const struct flame *f)
{
	size_t n = 0;

	for (size_t i = 1; i < f->n; i++)
		n += f->nodes[i].count > 0;
	return n;
}

/* ---- Text ---- */

void xml_escape(FILE *out, const char *s)
{
	size_t len = strlen(s) + 1;
	char *clean = malloc(len);
	const char *p;

	if (clean)
		clean_text(clean, len, s);
	for (p = clean ? clean : s; *p; p++) {
		unsigned char c = *p;

		if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else if (c == '\'')
			fputs("&#39;", out);
		else if (c < 0x20 || c == 0x7f)
			fputc('?', out);
		else
			fputc(c, out);
	}
	free(clean);
}

/* The name cut to at most `chars` code points ("..." replacing the end), escaped. */
static void xml_label(FILE *out, const char *name, size_t chars)
{
	size_t cps = 0, i, cut = 0;
	char *buf;

	for (i = 0; name[i]; i++)
		cps += ((unsigned char)name[i] & 0xc0) != 0x80;
	if (cps <= chars) {
		xml_escape(out, name);
		return;
	}
	for (i = 0, cps = 0; name[i]; i++) {
		if (((unsigned char)name[i] & 0xc0) != 0x80 && cps++ == chars - 2) {
			cut = i;
			break;
		}
	}
	buf = strndup(name, cut);
	if (!buf)
		return;
	xml_escape(out, buf);
	fputs("..", out);
	free(buf);
}

/* ---- Drawing ---- */

/* Only a standalone SVG document needs its namespace (inline SVG in HTML has it implied). */
#define SVG_NS " xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\""
#define FRAME_H 16.0
#define FONT_PX 12.0
#define FONT_W 0.59    /* average glyph width / font size */
#define XPAD 10.0
#define YPAD_TOP (FONT_PX * 3)
#define YPAD_BOTTOM (FONT_PX * 2 + 10)

/* flamegraph.pl's "hot" palette, from a hash of the name so that a frame keeps its colour. */
static void frame_colour(const char *name, int *r, int *g, int *b)
{
	uint64_t h = hash_key(0, name, strlen(name));
	double v1 = (h & 0xffff) / 65536.0, v2 = ((h >> 16) & 0xffff) / 65536.0;
	double v3 = ((h >> 32) & 0xffff) / 65536.0;

	*r = 205 + (int)(50 * v3);
	*g = (int)(230 * v1);
	*b = (int)(55 * v2);
}

/* Children of every node in name order, as ranges of one index array (CSR). */
struct layout {
	uint32_t *off;   /* children of node i: kids[off[i] .. off[i + 1]) */
	uint32_t *kids;
	uint64_t *x;     /* samples left of each node within the graph */
};

static const struct flame *sort_flame;

static int cmp_name(const void *a, const void *b)
{
	return strcmp(sort_flame->nodes[*(const uint32_t *)a].name,
		      sort_flame->nodes[*(const uint32_t *)b].name);
}

static void layout_free(struct layout *l)
{
	free(l->off);
	free(l->kids);
	free(l->x);
}

/* Lay out f: sort each node's children by name, then give each child its offset. */
static int layout(const struct flame *f, struct layout *l)
{
	uint32_t *fill;

	l->off = calloc(f->n + 1, sizeof(*l->off));
	l->kids = malloc((f->n ? f->n : 1) * sizeof(*l->kids));
	l->x = calloc(f->n, sizeof(*l->x));
	fill = calloc(f->n + 1, sizeof(*fill));
	if (!l->off || !l->kids || !l->x || !fill) {
		free(fill);
		layout_free(l);
		return -1;
	}
	for (size_t i = 1; i < f->n; i++)
		l->off[f->nodes[i].parent + 1]++;
	for (size_t i = 0; i < f->n; i++)
		l->off[i + 1] += l->off[i];
	for (size_t i = 1; i < f->n; i++) {
		uint32_t p = f->nodes[i].parent;

		l->kids[l->off[p] + fill[p]++] = (uint32_t)i;
	}
	free(fill);
	sort_flame = f;
	for (size_t i = 0; i < f->n; i++)
		qsort(l->kids + l->off[i], l->off[i + 1] - l->off[i], sizeof(*l->kids), cmp_name);
	/* parents come before their children in node order: one pass gives every offset */
	for (size_t i = 0; i < f->n; i++) {
		uint64_t x = l->x[i];

		for (uint32_t k = l->off[i]; k < l->off[i + 1]; k++) {
			l->x[l->kids[k]] = x;
			x += f->nodes[l->kids[k]].count;
		}
	}
	return 0;
}

static void svg_head(FILE *out, const struct flame_style *st, double width, double height,
		     const char *id, uint64_t total, size_t omitted)
{
	if (st->standalone)
		fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	fprintf(out, "<svg class=\"flame\" id=\"%s\"%s width=\"%.0f\" height=\"%.0f\" "
		     "viewBox=\"0 0 %.0f %.0f\" data-xpad=\"%.0f\" data-w=\"%.3f\" "
		     "data-total=\"%llu\" data-omitted=\"%zu\" data-minpx=\"%.2f\"%s>\n", id,
		st->standalone ? SVG_NS : "", width, height, width, height, XPAD, width - 2 * XPAD,
		(unsigned long long)total, omitted, FLAME_MIN_PX,
		st->standalone ? " data-standalone=\"1\"" : "");
	fprintf(out, "<style>#%s text{font:%.0fpx Verdana,sans-serif;fill:#000}"
		     "#%s .f:hover rect{stroke:#000;stroke-width:0.5;cursor:pointer}"
		     "#%s .f.parent{opacity:0.5}#%s .hide{display:none}"
		     "#%s .btn{cursor:pointer;fill:#333}#%s .title{font-size:17px;text-anchor:middle}"
		     "</style>\n", id, FONT_PX, id, id, id, id, id);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#f8f8f8\"/>\n",
		width, height);
	fprintf(out, "<text class=\"title\" x=\"%.1f\" y=\"24\">", width / 2);
	xml_escape(out, st->title ? st->title : "Flame graph");
	fprintf(out, "</text>\n<text class=\"btn unzoom hide\" x=\"%.0f\" y=\"24\">Reset Zoom</text>\n"
		     "<text class=\"btn search\" x=\"%.0f\" y=\"24\" text-anchor=\"end\">Search</text>\n",
		XPAD, width - XPAD);
	fprintf(out, "<text class=\"details\" x=\"%.0f\" y=\"%.0f\"> </text>\n"
		     "<text class=\"matched\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\"> </text>\n",
		XPAD, height - 17, width - XPAD, height - 17);
	if (omitted)
		fprintf(out, "<text class=\"note\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%zu "
			     "frames narrower than %.1f px left out</text>\n",
			width / 2, height - 4, omitted, FLAME_MIN_PX);
}

/* One frame: a <g> with its position in samples (data-x, data-n, data-d), name and share in the
 * tooltip, a rectangle as wide as its samples and the name cut to fit. */
static void svg_frame(FILE *out, const struct fnode *nd, uint64_t x, uint64_t total, double w,
		      double y, int root)
{
	double fx = XPAD + (double)x / total * w, fw = (double)nd->count / total * w;
	size_t fit = (size_t)(fw / (FONT_PX * FONT_W));
	char fill[32] = "rgb(200,200,200)";
	int r, g, b;

	if (!root) {
		frame_colour(nd->name, &r, &g, &b);
		snprintf(fill, sizeof(fill), "rgb(%d,%d,%d)", r, g, b);
	}
	fprintf(out, "<g class=\"f%s\" data-x=\"%llu\" data-n=\"%llu\" data-d=\"%u\"><title>",
		root ? " root" : "", (unsigned long long)x, (unsigned long long)nd->count,
		nd->depth);
	xml_escape(out, nd->name);
	fprintf(out, " (%llu samples, %.2f%%)</title><rect x=\"%.4f\" y=\"%.1f\" width=\"%.4f\" "
		     "height=\"%.1f\" rx=\"2\" fill=\"%s\"/><text x=\"%.2f\" y=\"%.1f\">",
		(unsigned long long)nd->count, 100.0 * nd->count / total, fx, y, fw, FRAME_H - 1,
		fill, fx + 3, y + 10.5);
	if (fit >= 3)
		xml_label(out, nd->name, fit);
	fputs("</text></g>\n", out);
}

size_t flame_svg(FILE *out, const struct flame *f, const struct flame_style *st)
{
	double width = st->width > 0 ? st->width : 1200, w = width - 2 * XPAD;
	double height = (f->max_depth + 1) * FRAME_H + YPAD_TOP + YPAD_BOTTOM;
	uint64_t total = flame_samples(f);
	const char *id = st->id ? st->id : "fg";
	struct layout l;
	size_t drawn = 0, omitted = 0;

	if (!total || layout(f, &l)) {
		fprintf(out, "<svg class=\"flame\" id=\"%s\"%s width=\"%.0f\" height=\"40\">"
			     "<text x=\"10\" y=\"24\">%s</text></svg>\n",
			id, st->standalone ? SVG_NS : "", width,
			total ? "flame graph skipped: out of memory" : "no samples");
		return 0;
	}
	for (size_t i = 1; i < f->n; i++)
		omitted += f->nodes[i].count &&
			   (double)f->nodes[i].count / total * w < FLAME_MIN_PX;
	svg_head(out, st, width, height, id, total, omitted);
	for (size_t i = 0; i < f->n; i++) {
		const struct fnode *nd = &f->nodes[i];
		double y = height - YPAD_BOTTOM - (nd->depth + 1) * FRAME_H + 1;

		if (!nd->count || (i && (double)nd->count / total * w < FLAME_MIN_PX))
			continue;
		svg_frame(out, nd, l.x[i], total, w, y, i == 0);
		drawn += i > 0;
	}
	layout_free(&l);
	if (st->standalone)
		fprintf(out, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n",
			flame_script);
	fputs("</svg>\n", out);
	return drawn;
}
