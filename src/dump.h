/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmprof dump's insides: an emitter that writes a record's fields as
 * "name=value" text or as one JSON object, and field tables that say,
 * once per record type (and per sample field), what is printed under
 * which name and how: the text and the JSON come from the same list.
 */
#ifndef PMPROF_DUMP_H
#define PMPROF_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pmprof/json.h"
#include "pmprof/perfdata.h"
#include "pmprof/strbuf.h"

/* Field emitter: one record = one text line or one JSON object. */
struct out {
	bool json;
	FILE *f;
	struct pm_json j;
	const char *arch;	/* the recording's, for ProfileMe payloads */
	struct pm_strbuf lines;	/* detail lines printed under a record */
};

void f_u64(struct out *o, const char *k, uint64_t v);
void f_i64(struct out *o, const char *k, int64_t v);
/* An address: hex in text, a number in JSON. */
void f_addr(struct out *o, const char *k, uint64_t v);
void f_str(struct out *o, const char *k, const char *v);
void f_bytes(struct out *o, const char *k, const uint8_t *p, size_t n);
void f_addr_list(struct out *o, const char *k, const uint64_t *v, uint64_t n);

enum dump_kind {
	D_U64,		/* an unsigned member of any width */
	D_I32,		/* a u32 shown signed (pids, tids: -1) */
	D_ADDR,		/* an unsigned member as an address */
	D_STR,		/* a const char * member */
	D_BYTES,	/* a byte array member, its length in len_off/len_size */
	D_BYTES_AT,	/* a const uint8_t * member, the same */
	D_FN,		/* fn writes the field(s) itself */
};

struct dump_ctx {
	struct out *o;
	struct pm_reader *r;
	const struct pm_record *rec;
	const void *v;		/* the decoded struct */
};

struct dump_field {
	const char *name;
	enum dump_kind kind;
	size_t off, size;		/* the member */
	size_t len_off, len_size;	/* D_BYTES*: the length member, or a
					   fixed length (len_size 0) */
	bool (*when)(const void *v);	/* NULL: always */
	void (*fn)(const struct dump_ctx *c);
};

#define DF(T, m, k) { #m, (k), offsetof(T, m), sizeof(((T *)0)->m) }
#define DF_AS(name, T, m, k) { (name), (k), offsetof(T, m), sizeof(((T *)0)->m) }
#define DF_WHEN(T, m, k, w) { #m, (k), offsetof(T, m), sizeof(((T *)0)->m), \
			      .when = (w) }
#define DF_FN(f) { "", D_FN, .fn = (f) }
#define DF_END { NULL }

/* Write the fields of v (a decoded struct) in order. */
void dump_fields(const struct dump_ctx *c, const struct dump_field *f);

/* The fields of a non-sample record (0, or -1 with err filled). */
int dump_record_fields(struct out *o, struct pm_reader *r,
		       const struct pm_record *rec, struct pm_error *err);
/* A SAMPLE's fields, and its sample_id_all trailer for the others. */
void dump_sample(struct out *o, const struct pm_sample *s);
void dump_sample_id(struct out *o, const struct pm_sample_id *sid);

#endif
