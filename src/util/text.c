// SPDX-License-Identifier: GPL-2.0
/* Text helpers: see text.h. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "text.h"

/* Length of the valid UTF-8 sequence at s (1-4), or 0 if the bytes there are not one. */
static size_t utf8_seq_len(const unsigned char *s)
{
	size_t len;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void clean_text(char *dst, size_t n, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t j = 0;

	if (n == 0)
		return;
	while (*s) {
		size_t len = utf8_seq_len(s);

		if (len == 0 || (len == 1 && (*s < 0x20 || *s == 0x7f))) {
			if (j + 1 >= n)
				break;
			dst[j++] = '?';
			s++;
			continue;
		}
		if (j + len >= n)
			break;
		memmove(dst + j, s, len); /* dst may be src: cleaning in place */
		j += len;
		s += len;
	}
	dst[j] = '\0';
}

size_t text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

void path_dir(const char *path, char *dir, size_t n)
{
	char *slash;

	snprintf(dir, n, "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, n, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
}
