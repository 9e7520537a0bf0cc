/* SPDX-License-Identifier: GPL-2.0 */
/* Text helpers for untrusted strings (comms, paths) in reports. */
#ifndef IOWHY_TEXT_H
#define IOWHY_TEXT_H

#include <stddef.h>

/* Copy `src` into dst as valid UTF-8 without control characters (invalid bytes and controls
 * become '?'): comms are arbitrary bytes. */
void clean_text(char *dst, size_t n, const char *src);
/* Display width of UTF-8 text (code points; no wide characters are used by iowhy). */
size_t text_width(const char *s);
/* The directory part of a path into dir: "." for a bare name, "/" for a name in the root. */
void path_dir(const char *path, char *dir, size_t n);

#endif
