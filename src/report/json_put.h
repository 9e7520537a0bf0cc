/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON builders every JSON writer of the report uses (json-c underneath): one definition of
 * each, so that a number keeps its type everywhere (unsigned stays unsigned, signed stays signed).
 */
#ifndef IOWHY_JSON_PUT_H
#define IOWHY_JSON_PUT_H

#include <stdint.h>
#include <json-c/json.h>
#include "probe_status.h"

/* o[key] = v (v may be NULL: JSON null); o takes the reference. */
void jput(struct json_object *o, const char *key, struct json_object *v);
/* An unsigned 64-bit integer: values >= 2^63 stay positive. */
void jput_u64(struct json_object *o, const char *key, uint64_t v);
/* A signed integer. */
void jput_i64(struct json_object *o, const char *key, int64_t v);
void jput_bool(struct json_object *o, const char *key, int v);
/* A double; a value that is not finite becomes null. */
void jput_dbl(struct json_object *o, const char *key, double v);
/* A string made valid UTF-8 first (control characters and invalid bytes become '?'). */
void jput_str(struct json_object *o, const char *key, const char *s);
/* A whole number as an integer, anything else as a double; not finite: NULL (JSON null). */
struct json_object *jnumber(double v);
/* Histogram counts up to the last non-zero slot, as an array of unsigned integers. */
/* The names of the probes that are not attached, as an array of strings. */
struct json_object *jprobe_names(const struct missing_probes *m);
struct json_object *jhist(const uint32_t *h, int n);

#endif
