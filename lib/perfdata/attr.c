// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_attr on disk <-> struct pm_attr.
 *
 * Plain fields are loads at fixed offsets. The two bitfield words need
 * more care: a big-endian compiler allocates bitfields from the most
 * significant bit, so in a big-endian file the field that little endian
 * keeps at bits [i, i+w) sits at bits [64-i-w, 64-i) of the loaded u64,
 * with its value's bits in their usual order. Converting field by field
 * keeps multi-bit fields (precise_ip, hf_sample_period) intact.
 */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "pmprof/attr.h"
#include "pmprof/bytes.h"
#include "pmprof/error.h"

enum field_width { W16 = 2, W32 = 4, W64 = 8 };

struct attr_field {
	uint16_t offset;
	uint8_t width;
	size_t member;
};

#define F(off, w, m) { off, w, offsetof(struct pm_attr, m) }

/* Every plain field, by on-disk offset. flags (40) and hf_sample (136)
 * are bitfield words, handled apart. */
static const struct attr_field fields[] = {
	F(0, W32, type),
	F(4, W32, size),
	F(8, W64, config),
	F(16, W64, sample_period),
	F(24, W64, sample_type),
	F(32, W64, read_format),
	F(48, W32, wakeup_events),
	F(52, W32, bp_type),
	F(56, W64, config1),
	F(64, W64, config2),
	F(72, W64, branch_sample_type),
	F(80, W64, sample_regs_user),
	F(88, W32, sample_stack_user),
	F(92, W32, clockid),
	F(96, W64, sample_regs_intr),
	F(104, W32, aux_watermark),
	F(108, W16, sample_max_stack),
	F(112, W32, aux_sample_size),
	F(120, W64, sig_data),
	F(128, W64, config3),
};

#define FLAGS_OFFSET 40
#define HF_OFFSET 136

/* Little-endian layout of the flags word as (start bit, width) fields.
 * Bits 38-63 are reserved: one field, so they survive a round trip. */
struct bitfield {
	uint8_t shift, width;
};

static const struct bitfield flag_fields[] = {
	{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 1},
	{8, 1}, {9, 1}, {10, 1}, {11, 1}, {12, 1}, {13, 1}, {14, 1},
	{15, 2},	/* precise_ip */
	{17, 1}, {18, 1}, {19, 1}, {20, 1}, {21, 1}, {22, 1}, {23, 1},
	{24, 1}, {25, 1}, {26, 1}, {27, 1}, {28, 1}, {29, 1}, {30, 1},
	{31, 1}, {32, 1}, {33, 1}, {34, 1}, {35, 1}, {36, 1}, {37, 1},
	{38, 26},	/* __reserved_1 */
};

static const struct bitfield hf_fields[] = {
	{0, 32},	/* hf_sample_period */
	{32, 4},	/* hf_sample_rand */
	{36, 28},	/* reserved */
};

static uint64_t mask_of(unsigned int width)
{
	return width >= 64 ? ~0ULL : (1ULL << width) - 1;
}

/* Convert a bitfield word between the big-endian and little-endian
 * allocations. The mapping is its own inverse only for symmetric layouts,
 * so direction matters. */
static uint64_t be_to_le_bits(uint64_t v, const struct bitfield *bf, size_t n)
{
	uint64_t out = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned int be_shift = 64 - bf[i].shift - bf[i].width;

		out |= ((v >> be_shift) & mask_of(bf[i].width)) << bf[i].shift;
	}
	return out;
}

static uint64_t le_to_be_bits(uint64_t v, const struct bitfield *bf, size_t n)
{
	uint64_t out = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned int be_shift = 64 - bf[i].shift - bf[i].width;

		out |= ((v >> bf[i].shift) & mask_of(bf[i].width)) << be_shift;
	}
	return out;
}

static void set_member(struct pm_attr *a, const struct attr_field *f,
		       uint64_t v)
{
	char *p = (char *)a + f->member;

	switch (f->width) {
	case W16: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
	case W32: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
	default:  memcpy(p, &v, 8); break;
	}
}

static uint64_t get_member(const struct pm_attr *a, const struct attr_field *f)
{
	const char *p = (const char *)a + f->member;

	switch (f->width) {
	case W16: { uint16_t x; memcpy(&x, p, 2); return x; }
	case W32: { uint32_t x; memcpy(&x, p, 4); return x; }
	default:  { uint64_t x; memcpy(&x, p, 8); return x; }
	}
}

static uint64_t load(const uint8_t *p, unsigned int width, bool swap)
{
	switch (width) {
	case W16: return pm_load16(p, swap);
	case W32: return pm_load32(p, swap);
	default:  return pm_load64(p, swap);
	}
}

static void store(uint8_t *p, unsigned int width, uint64_t v, bool swap)
{
	switch (width) {
	case W16: pm_store16(p, (uint16_t)v, swap); break;
	case W32: pm_store32(p, (uint32_t)v, swap); break;
	default:  pm_store64(p, v, swap); break;
	}
}

int pm_attr__decode(struct pm_attr *attr, const void *buf, size_t len,
		    bool big_endian, struct pm_error *err)
{
	const uint8_t *b = buf;
	bool swap = big_endian != PM_HOST_BIG_ENDIAN;
	size_t avail, i;
	uint32_t size;

	memset(attr, 0, sizeof(*attr));
	if (len < 8)
		return pm_error__fmt(err, PM_ETRUNC,
				     "attr needs at least 8 bytes, has %zu", len);
	size = pm_load32(b + 4, swap);
	if (size && (size < PM_ATTR_SIZE_VER0 || size > PM_ATTR_SIZE_MAX))
		return pm_error__fmt(err, PM_EFORMAT,
				     "attr size %u is not a perf_event_attr size (%u to %u bytes)",
				     size, PM_ATTR_SIZE_VER0, PM_ATTR_SIZE_MAX);
	avail = size ? size : PM_ATTR_SIZE_VER0;
	if (avail > len)
		return pm_error__fmt(err, PM_EFORMAT,
				     "attr size %zu is larger than the %zu bytes it has",
				     avail, len);

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct attr_field *f = &fields[i];

		if (f->offset + f->width <= avail)
			set_member(attr, f, load(b + f->offset, f->width, swap));
	}
	if (FLAGS_OFFSET + 8 <= avail) {
		uint64_t v = pm_load64(b + FLAGS_OFFSET, swap);

		attr->flags = big_endian ?
			be_to_le_bits(v, flag_fields, (sizeof(flag_fields) / sizeof(flag_fields[0]))) : v;
	}
	if (HF_OFFSET + 8 <= avail) {
		uint64_t v = pm_load64(b + HF_OFFSET, swap);

		if (big_endian)
			v = be_to_le_bits(v, hf_fields, 3);
		attr->hf_sample_period = (uint32_t)v;
		attr->hf_sample_rand = (v >> 32) & 15;
		attr->hf_sample_reserved = (uint32_t)(v >> 36);
	}
	return 0;
}

static int unknown_bit(const struct pm_attr *attr, const char *what, uint64_t at,
		       const char *field, uint64_t value, unsigned int nr_known,
		       const char *last, struct pm_error *err)
{
	unsigned int bit = (unsigned int)__builtin_ctzll(value >> nr_known) + nr_known;
	char name[128];

	return pm_error__at(err, PM_EFORMAT, at,
			    "%s (%s): %s 0x%" PRIx64 " has bit %u (0x%" PRIx64 "), which "
			    "no perf or kernel ABI defines (bits 0-%u, up to %s): its records "
			    "would hold fields of unknown size, so they cannot be read",
			    what, pm_attr__name(attr, name, sizeof(name)), field, value, bit,
			    (uint64_t)1 << bit, nr_known - 1, last);
}

int pm_attr__check_abi(const struct pm_attr *attr, const char *what,
		       uint64_t attr_offset, struct pm_error *err)
{
	if (attr->sample_type >> PM_SAMPLE_MAX_BIT)
		return unknown_bit(attr, what, attr_offset + 24, "sample_type",
				   attr->sample_type, PM_SAMPLE_MAX_BIT, "WEIGHT_STRUCT", err);
	if (attr->read_format >> PM_FORMAT_MAX_BIT)
		return unknown_bit(attr, what, attr_offset + 32, "read_format",
				   attr->read_format, PM_FORMAT_MAX_BIT, "LOST", err);
	if ((attr->sample_type & PM_SAMPLE_BRANCH_STACK) &&
	    attr->branch_sample_type >> PM_BRANCH_MAX_BIT)
		return unknown_bit(attr, what, attr_offset + 72, "branch_sample_type",
				   attr->branch_sample_type, PM_BRANCH_MAX_BIT, "COUNTERS", err);
	return 0;
}

void pm_attr__encode(const struct pm_attr *attr, void *buf, size_t size,
		     bool big_endian)
{
	bool swap = big_endian != PM_HOST_BIG_ENDIAN;
	uint8_t *b = buf;
	size_t i;

	memset(b, 0, size);
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct attr_field *f = &fields[i];

		if (f->offset + f->width <= size)
			store(b + f->offset, f->width, get_member(attr, f), swap);
	}
	if (size >= 8)
		pm_store32(b + 4, (uint32_t)size, swap);
	if (FLAGS_OFFSET + 8 <= size) {
		uint64_t v = attr->flags;

		if (big_endian)
			v = le_to_be_bits(v, flag_fields, (sizeof(flag_fields) / sizeof(flag_fields[0])));
		pm_store64(b + FLAGS_OFFSET, v, swap);
	}
	if (HF_OFFSET + 8 <= size) {
		uint64_t v = attr->hf_sample_period |
			     ((uint64_t)(attr->hf_sample_rand & 15) << 32) |
			     ((uint64_t)attr->hf_sample_reserved << 36);

		if (big_endian)
			v = le_to_be_bits(v, hf_fields, 3);
		pm_store64(b + HF_OFFSET, v, swap);
	}
}

static const char *const flag_names[PM_ATTR_NR_FLAG_BITS] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user",
	"exclude_kernel", "exclude_hv", "exclude_idle", "mmap", "comm",
	"freq", "inherit_stat", "enable_on_exec", "task", "watermark",
	"precise_ip", "precise_ip", "mmap_data", "sample_id_all",
	"exclude_host", "exclude_guest", "exclude_callchain_kernel",
	"exclude_callchain_user", "mmap2", "comm_exec", "use_clockid",
	"context_switch", "write_backward", "namespaces", "ksymbol",
	"bpf_event", "aux_output", "cgroup", "text_poke", "build_id",
	"inherit_thread", "remove_on_exec", "sigtrap",
};

const char *pm_attr_flag_name(unsigned int bit)
{
	return bit < PM_ATTR_NR_FLAG_BITS ? flag_names[bit] : NULL;
}
