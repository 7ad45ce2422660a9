// SPDX-License-Identifier: GPL-2.0
/* pmprof dump's emitter, and the walk over a field table. */
#include <inttypes.h>
#include <string.h>

#include "dump.h"

void f_u64(struct out *o, const char *k, uint64_t v)
{
	if (o->json)
		pm_json__kv_u64(&o->j, k, v);
	else
		fprintf(o->f, " %s=%" PRIu64, k, v);
}

void f_i64(struct out *o, const char *k, int64_t v)
{
	if (o->json)
		pm_json__kv_i64(&o->j, k, v);
	else
		fprintf(o->f, " %s=%" PRId64, k, v);
}

void f_addr(struct out *o, const char *k, uint64_t v)
{
	if (o->json)
		pm_json__kv_u64(&o->j, k, v);
	else
		fprintf(o->f, " %s=%#" PRIx64, k, v);
}

void f_str(struct out *o, const char *k, const char *v)
{
	if (o->json)
		pm_json__kv_string(&o->j, k, v);
	else
		fprintf(o->f, " %s=%s", k, v ? v : "(null)");
}

void f_bytes(struct out *o, const char *k, const uint8_t *p, size_t n)
{
	size_t i;

	if (o->json) {
		pm_json__key(&o->j, k);
		pm_json__hexbytes(&o->j, p, n);
		return;
	}
	fprintf(o->f, " %s=", k);
	for (i = 0; i < n; i++)
		fprintf(o->f, "%02x", p[i]);
}

void f_addr_list(struct out *o, const char *k, const uint64_t *v, uint64_t n)
{
	uint64_t i;

	if (o->json) {
		pm_json__key(&o->j, k);
		pm_json__begin_array(&o->j);
		for (i = 0; i < n; i++)
			pm_json__u64(&o->j, v[i]);
		pm_json__end_array(&o->j);
		return;
	}
	fprintf(o->f, " %s=[", k);
	for (i = 0; i < n; i++)
		fprintf(o->f, "%s%#" PRIx64, i ? "," : "", v[i]);
	fputc(']', o->f);
}

/* An unsigned member of 1, 2, 4 or 8 bytes. */
static uint64_t load(const void *v, size_t off, size_t size)
{
	const char *p = (const char *)v + off;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (size) {
	case 1: memcpy(&u8, p, 1); return u8;
	case 2: memcpy(&u16, p, 2); return u16;
	case 4: memcpy(&u32, p, 4); return u32;
	default: memcpy(&u64, p, 8); return u64;
	}
}

void dump_fields(const struct dump_ctx *c, const struct dump_field *f)
{
	for (; f->name; f++) {
		const char *p = (const char *)c->v + f->off;
		size_t n;

		if (f->when && !f->when(c->v))
			continue;
		switch (f->kind) {
		case D_U64:
			f_u64(c->o, f->name, load(c->v, f->off, f->size));
			break;
		case D_I32:
			f_i64(c->o, f->name, (int32_t)load(c->v, f->off, f->size));
			break;
		case D_ADDR:
			f_addr(c->o, f->name, load(c->v, f->off, f->size));
			break;
		case D_STR: {
			const char *s;

			memcpy(&s, p, sizeof(s));
			f_str(c->o, f->name, s);
			break;
		}
		case D_BYTES:
		case D_BYTES_AT: {
			const uint8_t *b = (const uint8_t *)p;

			n = f->len_size ? load(c->v, f->len_off, f->len_size)
					: f->len_off;
			if (f->kind == D_BYTES_AT)
				memcpy(&b, p, sizeof(b));
			f_bytes(c->o, f->name, b, n);
			break;
		}
		case D_FN:
			f->fn(c);
			break;
		}
	}
}
