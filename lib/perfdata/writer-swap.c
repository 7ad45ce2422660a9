// SPDX-License-Identifier: GPL-2.0
/*
 * Records passed through as bytes: copied when the input's byte order is
 * the output's, else swapped field by field from a layout table. A record
 * whose layout is not in the table is refused: swapping it blindly (as
 * u64s, say) would write plausible garbage.
 */
#include <string.h>

#include "pmprof/bytes.h"
#include "pmprof/util.h"
#include "writer-int.h"

/*
 * Layout of a body, one letter per field, applied in order:
 *   q u64, l u32, w u16, X 24 raw bytes (MMAP2's build id),
 *   Q u64s to the end of the body, S raw bytes to the end (strings, tags).
 * Fields past the end of the body are allowed to be absent only from a
 * '|' on (TIME_CONV grew).
 */
struct layout {
	uint32_t type;
	const char *body;
	bool trailer;		/* carries the sample_id_all trailer */
};

static const struct layout layouts[] = {
	{ PM_RECORD_MMAP,            "llqqqS", true },
	{ PM_RECORD_LOST,            "qq", true },
	{ PM_RECORD_COMM,            "llS", true },
	{ PM_RECORD_EXIT,            "llllq", true },
	{ PM_RECORD_THROTTLE,        "qqq", true },
	{ PM_RECORD_UNTHROTTLE,      "qqq", true },
	{ PM_RECORD_FORK,            "llllq", true },
	{ PM_RECORD_READ,            "llQ", true },
	{ PM_RECORD_MMAP2,           NULL, true },	/* by misc */
	{ PM_RECORD_AUX,             "qqq", true },
	{ PM_RECORD_ITRACE_START,    "ll", true },
	{ PM_RECORD_LOST_SAMPLES,    "q", true },
	{ PM_RECORD_SWITCH,          "", true },
	{ PM_RECORD_SWITCH_CPU_WIDE, "ll", true },
	{ PM_RECORD_NAMESPACES,      "llQ", true },
	{ PM_RECORD_KSYMBOL,         "qlwwS", true },
	{ PM_RECORD_BPF_EVENT,       "wwlS", true },
	{ PM_RECORD_CGROUP,          "qS", true },
	{ PM_RECORD_TEXT_POKE,       "qwwS", true },
	{ PM_RECORD_AUX_OUTPUT_HW_ID, "q", true },
	{ PM_RECORD_FINISHED_ROUND,  "", false },
	{ PM_RECORD_ID_INDEX,        "Q", false },
	{ PM_RECORD_FINISHED_INIT,   "", false },
	{ PM_RECORD_THREAD_MAP,      NULL, false },	/* nr x {pid, comm[16]} */
	{ PM_RECORD_TIME_CONV,       "qqq|qqS", false },
};

static void swap_at(uint8_t *p, unsigned int width)
{
	switch (width) {
	case 2: pm_store16(p, pm_load16(p, true), false); break;
	case 4: pm_store32(p, pm_load32(p, true), false); break;
	case 8: pm_store64(p, pm_load64(p, true), false); break;
	}
}

/* Swap [p, end) by the layout; -1 if a required field does not fit. */
static int swap_body(uint8_t *p, uint8_t *end, const char *l)
{
	bool optional = false;

	for (; *l; l++) {
		unsigned int w = 0;

		switch (*l) {
		case '|': optional = true; continue;
		case 'q': w = 8; break;
		case 'l': w = 4; break;
		case 'w': w = 2; break;
		case 'X':
			if (end - p < 24)
				return optional ? 0 : -1;
			p += 24;
			continue;
		case 'Q':
			if ((end - p) % 8)
				return -1;
			for (; p < end; p += 8)
				swap_at(p, 8);
			continue;
		case 'S':
			p = end;
			continue;
		}
		if (end - p < (long)w)
			return optional && p == end ? 0 : -1;
		swap_at(p, w);
		p += w;
	}
	return p == end ? 0 : -1;
}

static int swap_trailer(uint8_t *p, uint64_t st)
{
	if (st & PM_SAMPLE_TID) {
		swap_at(p, 4);
		swap_at(p + 4, 4);
		p += 8;
	}
	if (st & PM_SAMPLE_TIME)
		swap_at(p, 8), p += 8;
	if (st & PM_SAMPLE_ID)
		swap_at(p, 8), p += 8;
	if (st & PM_SAMPLE_STREAM_ID)
		swap_at(p, 8), p += 8;
	if (st & PM_SAMPLE_CPU) {
		swap_at(p, 4);
		swap_at(p + 4, 4);
		p += 8;
	}
	if (st & PM_SAMPLE_IDENTIFIER)
		swap_at(p, 8);
	return 0;
}

static int swap_thread_map(uint8_t *p, uint8_t *end)
{
	uint64_t nr, i;

	if (end - p < 8)
		return -1;
	swap_at(p, 8);
	nr = pm_load64(p, false);
	p += 8;
	if (nr > (uint64_t)(end - p) / 24 || (uint64_t)(end - p) != nr * 24)
		return -1;
	for (i = 0; i < nr; i++, p += 24)
		swap_at(p, 8);		/* pid; comm[16] is bytes */
	return 0;
}

int pm_writer__copy_record(struct pm_writer *w, const void *rec, size_t len,
			   bool big_endian, struct pm_error *err)
{
	bool in_swap = big_endian != PM_HOST_BIG_ENDIAN;
	const struct layout *lay = NULL;
	const struct pm_event *ev;
	uint32_t type;
	uint16_t misc;
	size_t i, trailer = 0;
	uint8_t *p;
	int ret;

	if (len < 8 || len > UINT16_MAX ||
	    pm_load16((const uint8_t *)rec + 6, in_swap) != len)
		return pm_error__fmt(err, PM_EFORMAT,
				     "record of %zu bytes whose header.size disagrees",
				     len);
	if (big_endian == w->big_endian)
		return pm_writer__raw(w, rec, len, err);

	type = pm_load32(rec, in_swap);
	misc = pm_load16((const uint8_t *)rec + 4, in_swap);
	for (i = 0; i < PM_ARRAY_SIZE(layouts); i++)
		if (layouts[i].type == type)
			lay = &layouts[i];
	if (!lay) {
		const char *name = pm_record_type_name(type);

		return pm_error__fmt(err, PM_EUNSUP,
				     "cannot byte-swap a %s record (type %u): its layout is not known%s",
				     name ? name : "unknown", type,
				     type == PM_RECORD_SAMPLE ?
				     " here (write samples with pm_writer__sample)" : "");
	}
	ret = w->begun && !w->failed ? 0 : pm_writer__begin(w, err);
	if (ret)
		return ret;
	ev = pm_writer__sid_event(w, NULL);
	if (lay->trailer)
		trailer = pm_writer__trailer_size(ev);
	if (trailer > len - 8)
		return pm_error__fmt(err, PM_EFORMAT,
				     "%s record of %zu bytes is shorter than its sample_id trailer (%zu)",
				     pm_record_type_name(type), len, trailer);

	pm_wbuf__reset(&w->rec);
	p = pm_wbuf__grow(&w->rec, len);
	memcpy(p, rec, len);
	swap_at(p, 4);
	swap_at(p + 4, 2);
	swap_at(p + 6, 2);
	if (type == PM_RECORD_THREAD_MAP)
		ret = swap_thread_map(p + 8, p + len);
	else if (type == PM_RECORD_MMAP2)
		ret = swap_body(p + 8, p + len - trailer,
				misc & PM_MISC_MMAP_BUILD_ID ? "llqqqXllS" :
				"llqqqllqqllS");
	else
		ret = swap_body(p + 8, p + len - trailer, lay->body);
	if (ret)
		return pm_error__fmt(err, PM_EFORMAT,
				     "%s record of %zu bytes does not match its layout",
				     pm_record_type_name(type), len);
	if (trailer)
		swap_trailer(p + len - trailer, ev->attr.sample_type);
	return pm_writer__emit(w, p, len, err);
}
