// SPDX-License-Identifier: GPL-2.0
/* The JSON builders shared by every JSON writer: see json_put.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "json_put.h"
#include "text.h"

void jput(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

void jput_u64(struct json_object *o, const char *key, uint64_t v)
{
	jput(o, key, json_object_new_uint64(v));
}

void jput_i64(struct json_object *o, const char *key, int64_t v)
{
	jput(o, key, json_object_new_int64(v));
}

void jput_bool(struct json_object *o, const char *key, int v)
{
	jput(o, key, json_object_new_boolean(v != 0));
}

void jput_dbl(struct json_object *o, const char *key, double v)
{
	jput(o, key, isfinite(v) ? json_object_new_double(v) : NULL);
}

void jput_str(struct json_object *o, const char *key, const char *s)
{
	size_t n = strlen(s) + 1;
	char *clean = malloc(n);

	if (!clean) {
		jput(o, key, json_object_new_string(""));
		return;
	}
	clean_text(clean, n, s);
	jput(o, key, json_object_new_string(clean));
	free(clean);
}

struct json_object *jnumber(double v)
{
	if (!isfinite(v))
		return NULL;
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_object_new_int64((int64_t)v);
	return json_object_new_double(v);
}

struct json_object *jhist(const uint32_t *h, int n)
{
	struct json_object *a = json_object_new_array();
	int last = n - 1;

	while (last >= 0 && !h[last])
		last--;
	for (int k = 0; k <= last; k++)
		json_object_array_add(a, json_object_new_uint64(h[k]));
	return a;
}

struct json_object *jprobe_names(const struct missing_probes *m)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < m->n; i++)
		json_object_array_add(a, json_object_new_string(m->v[i].name));
	return a;
}
