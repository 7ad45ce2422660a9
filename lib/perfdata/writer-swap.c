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
	{ PM_RECORD_CPU_MAP,         NULL, false },	/* by its own type */
	{ PM_RECORD_EVENT_UPDATE,    NULL, false },	/* by its own type */
	{ PM_RECORD_STAT_CONFIG,     "Q", false },
	{ PM_RECORD_STAT,            "qllqqq", false },
	{ PM_RECORD_STAT_ROUND,      "qq", false },
	{ PM_RECORD_AUXTRACE_INFO,   "llQ", false },
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

static int swap_thread_map(uint8_t *p, uint8_t *end, bool in_swap)
{
	uint64_t nr, i;

	if (end - p < 8)
		return -1;
	nr = pm_load64(p, in_swap);	/* before it is swapped */
	swap_at(p, 8);
	p += 8;
	if (nr > (uint64_t)(end - p) / 24 || (uint64_t)(end - p) != nr * 24)
		return -1;
	for (i = 0; i < nr; i++, p += 24)
		swap_at(p, 8);		/* pid; comm[16] is bytes */
	return 0;
}

/*
 * CPU_MAP: u16 type, then (packed, so unaligned) by type:
 * 0 CPUS {u16 nr, u16 cpu[nr]}; 1 MASK {u16 nr, u16 long_size, then
 * u32 mask[nr] when long_size is 4, or 4 pad bytes and u64 mask[nr] when
 * it is 8}; 2 RANGE {u8 any_cpu, u8 pad, u16 start, u16 end}. The rest
 * is padding.
 */
static int swap_cpu_map(uint8_t *p, uint8_t *end, bool in_swap)
{
	uint16_t type, nr, long_size, i;

	if (end - p < 4)
		return -1;
	type = pm_load16(p, in_swap);
	nr = pm_load16(p + 2, in_swap);
	swap_at(p, 2);
	switch (type) {
	case 0:
		if (end - p < 4 + 2 * (long)nr)
			return -1;
		for (i = 0; i <= nr; i++)
			swap_at(p + 2 + 2 * i, 2);
		return 0;
	case 1:
		if (end - p < 6)
			return -1;
		long_size = pm_load16(p + 4, in_swap);
		swap_at(p + 2, 2);
		swap_at(p + 4, 2);
		if (long_size == 4 && end - p >= 6 + 4 * (long)nr) {
			for (i = 0; i < nr; i++)
				swap_at(p + 6 + 4 * i, 4);
			return 0;
		}
		if (long_size == 8 && end - p >= 10 + 8 * (long)nr) {
			for (i = 0; i < nr; i++)
				swap_at(p + 10 + 8 * i, 8);
			return 0;
		}
		return -1;
	case 2:
		if (end - p < 8)
			return -1;
		swap_at(p + 4, 2);
		swap_at(p + 6, 2);
		return 0;
	}
	return -1;
}

/*
 * EVENT_UPDATE: u64 type, u64 id, then by type: 0 UNIT and 2 NAME a
 * string, 1 SCALE a double (as a u64), 3 CPUS a CPU_MAP body.
 */
static int swap_event_update(uint8_t *p, uint8_t *end, bool in_swap)
{
	uint64_t type;

	if (end - p < 16)
		return -1;
	type = pm_load64(p, in_swap);
	swap_at(p, 8);
	swap_at(p + 8, 8);
	switch (type) {
	case 0: case 2:
		return 0;
	case 1:
		return swap_body(p + 16, end, "qS");	/* then padding */
	case 3:
		return swap_cpu_map(p + 16, end, in_swap);
	}
	return -1;
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

	pm_bytebuf__reset(&w->rec);
	p = pm_bytebuf__grow(&w->rec, len);
	memcpy(p, rec, len);
	swap_at(p, 4);
	swap_at(p + 4, 2);
	swap_at(p + 6, 2);
	if (type == PM_RECORD_EVENT_UPDATE)
		ret = swap_event_update(p + 8, p + len, in_swap);
	else if (type == PM_RECORD_CPU_MAP)
		ret = swap_cpu_map(p + 8, p + len, in_swap);
	else if (type == PM_RECORD_THREAD_MAP)
		ret = swap_thread_map(p + 8, p + len, in_swap);
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
	return pm_writer__emit_record(w, p, len, err);
}
