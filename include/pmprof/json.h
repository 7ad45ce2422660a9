/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A streaming JSON writer: the one place pmprof escapes strings and
 * formats numbers for JSON. Commas and nesting are tracked for the caller.
 */
#ifndef PMPROF_JSON_H
#define PMPROF_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PM_JSON_MAX_DEPTH 2048	/* call-graph trees nest two a frame */

struct pm_json {
	FILE *out;
	int depth;
	bool first[PM_JSON_MAX_DEPTH];	/* nothing written yet at this depth */
	bool after_key;
};

void pm_json__init(struct pm_json *j, FILE *out);
void pm_json__begin_object(struct pm_json *j);
void pm_json__end_object(struct pm_json *j);
void pm_json__begin_array(struct pm_json *j);
void pm_json__end_array(struct pm_json *j);
void pm_json__key(struct pm_json *j, const char *key);
void pm_json__string(struct pm_json *j, const char *s);	/* NULL: null */
void pm_json__stringn(struct pm_json *j, const char *s, size_t n);
void pm_json__u64(struct pm_json *j, uint64_t v);
void pm_json__i64(struct pm_json *j, int64_t v);
void pm_json__double(struct pm_json *j, double v);	/* NaN/inf: null */
void pm_json__bool(struct pm_json *j, bool v);
void pm_json__null(struct pm_json *j);
/* "0x..." hex string, the usual way to carry an address. */
void pm_json__hex(struct pm_json *j, uint64_t v);
/* Lower-case hex of a byte buffer, as a string. */
void pm_json__hexbytes(struct pm_json *j, const uint8_t *p, size_t n);

/* Key and value in one call. */
void pm_json__kv_string(struct pm_json *j, const char *k, const char *v);
void pm_json__kv_u64(struct pm_json *j, const char *k, uint64_t v);
void pm_json__kv_i64(struct pm_json *j, const char *k, int64_t v);
void pm_json__kv_double(struct pm_json *j, const char *k, double v);
void pm_json__kv_hex(struct pm_json *j, const char *k, uint64_t v);
void pm_json__kv_bool(struct pm_json *j, const char *k, bool v);

/* Escape s into out as a JSON string literal, quotes included. */
void pm_json_escape(FILE *out, const char *s, size_t n);

#endif
