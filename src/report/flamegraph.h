/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flame graphs from folded stacks (FlameGraph's format: "frame;frame;frame COUNT" per line), drawn
 * as an interactive SVG by iowhy's own code: frames sorted by name at each level and merged, widths
 * exact sample shares, a search (button, or Ctrl-F in the standalone file) and zoom on click, like
 * flamegraph.pl's output. Used by `iowhy flamegraph FOLDED` and embedded by the HTML report.
 */
#ifndef IOWHY_FLAMEGRAPH_H
#define IOWHY_FLAMEGRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct flame;

struct flame *flame_new(void);
void flame_free(struct flame *f);

/*
 * Add one folded line ("a;b;c 12"; trailing newline and blanks ignored; a blank line adds
 * nothing). Returns 0, -1 for a malformed line (err says why), -2 when out of memory.
 */
int flame_add_line(struct flame *f, const char *line, char *err, size_t errlen);
/* Add `count` samples of the stack frames[0..n) (root first). Returns 0, or -1 out of memory. */
int flame_add_stack(struct flame *f, const char *const *frames, int n, uint64_t count);
/* Read a whole folded file. Returns 0; -1 with "LINE: reason" in err for a malformed line; -2
 * when out of memory or on a read error (err says which). */
int flame_read(struct flame *f, FILE *in, char *err, size_t errlen);

/* Samples in all stacks, and the number of distinct frames (distinct stack prefixes). */
uint64_t flame_samples(const struct flame *f);
size_t flame_frames(const struct flame *f);

struct flame_style {
	const char *title;   /* drawn on top ("Flame graph" when NULL) */
	const char *id;      /* prefix of element ids, unique within the page ("fg" when NULL) */
	int standalone;      /* a whole SVG document (XML prolog, its own script, Ctrl-F) */
	double width;        /* image width in px (1200 when 0) */
};

/* Frames narrower than this many px are left out (counted in data-omitted), like flamegraph.pl's
 * --minwidth. */
#define FLAME_MIN_PX 0.1

/*
 * Write the flame graph as <svg>. Embedded (not standalone), the page must also contain
 * flame_script() once. Returns the number of frames drawn (root excluded).
 */
size_t flame_svg(FILE *out, const struct flame *f, const struct flame_style *st);
/* The script that makes every flame graph of a page searchable and zoomable (no <script> tag). */
extern const char flame_script[];

/* XML/HTML text: s made valid UTF-8 without control characters, with & < > " ' escaped. */
void xml_escape(FILE *out, const char *s);

#endif
