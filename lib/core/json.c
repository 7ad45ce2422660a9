// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "pmprof/json.h"

void pm_json_escape(FILE *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	putc('"', out);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"':  fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(out, "\\u00%c%c", hex[c >> 4], hex[c & 15]);
			} else {
				putc(c, out);
			}
		}
	}
	putc('"', out);
}

void pm_json__init(struct pm_json *j, FILE *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->first[0] = true;
}

/* Before any value: a comma unless it is the first at this depth. */
static void value_prefix(struct pm_json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth])
		putc(',', j->out);
	j->first[j->depth] = false;
}

static void open_nest(struct pm_json *j, char c)
{
	value_prefix(j);
	putc(c, j->out);
	if (j->depth < PM_JSON_MAX_DEPTH - 1)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_nest(struct pm_json *j, char c)
{
	if (j->depth > 0)
		j->depth--;
	putc(c, j->out);
	if (j->depth == 0)
		j->first[0] = true;	/* next top-level value stands alone */
}

void pm_json__begin_object(struct pm_json *j) { open_nest(j, '{'); }
void pm_json__end_object(struct pm_json *j) { close_nest(j, '}'); }
void pm_json__begin_array(struct pm_json *j) { open_nest(j, '['); }
void pm_json__end_array(struct pm_json *j) { close_nest(j, ']'); }

void pm_json__key(struct pm_json *j, const char *key)
{
	value_prefix(j);
	pm_json_escape(j->out, key, strlen(key));
	putc(':', j->out);
	j->after_key = true;
}

void pm_json__stringn(struct pm_json *j, const char *s, size_t n)
{
	value_prefix(j);
	pm_json_escape(j->out, s, n);
}

void pm_json__string(struct pm_json *j, const char *s)
{
	if (!s) {
		pm_json__null(j);
		return;
	}
	pm_json__stringn(j, s, strlen(s));
}

void pm_json__u64(struct pm_json *j, uint64_t v)
{
	value_prefix(j);
	fprintf(j->out, "%" PRIu64, v);
}

void pm_json__i64(struct pm_json *j, int64_t v)
{
	value_prefix(j);
	fprintf(j->out, "%" PRId64, v);
}

void pm_json__double(struct pm_json *j, double v)
{
	if (!isfinite(v)) {
		pm_json__null(j);
		return;
	}
	value_prefix(j);
	fprintf(j->out, "%.17g", v);
}

void pm_json__bool(struct pm_json *j, bool v)
{
	value_prefix(j);
	fputs(v ? "true" : "false", j->out);
}

void pm_json__null(struct pm_json *j)
{
	value_prefix(j);
	fputs("null", j->out);
}

void pm_json__hex(struct pm_json *j, uint64_t v)
{
	value_prefix(j);
	fprintf(j->out, "\"0x%" PRIx64 "\"", v);
}

void pm_json__hexbytes(struct pm_json *j, const uint8_t *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	value_prefix(j);
	putc('"', j->out);
	for (i = 0; i < n; i++) {
		putc(hex[p[i] >> 4], j->out);
		putc(hex[p[i] & 15], j->out);
	}
	putc('"', j->out);
}

void pm_json__kv_string(struct pm_json *j, const char *k, const char *v)
{
	pm_json__key(j, k);
	pm_json__string(j, v);
}

void pm_json__kv_u64(struct pm_json *j, const char *k, uint64_t v)
{
	pm_json__key(j, k);
	pm_json__u64(j, v);
}

void pm_json__kv_i64(struct pm_json *j, const char *k, int64_t v)
{
	pm_json__key(j, k);
	pm_json__i64(j, v);
}

void pm_json__kv_double(struct pm_json *j, const char *k, double v)
{
	pm_json__key(j, k);
	pm_json__double(j, v);
}

void pm_json__kv_hex(struct pm_json *j, const char *k, uint64_t v)
{
	pm_json__key(j, k);
	pm_json__hex(j, v);
}

void pm_json__kv_bool(struct pm_json *j, const char *k, bool v)
{
	pm_json__key(j, k);
	pm_json__bool(j, v);
}
