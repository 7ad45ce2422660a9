/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_event_attr, decoded into host order. Every size is accepted: the
 * fields a size does not reach read as zero, fields past the largest size
 * pmprof knows (144, the proposed hf_sample) are ignored on read.
 */
#ifndef PMPROF_ATTR_H
#define PMPROF_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/abi.h"
#include "pmprof/error.h"

struct pm_attr {
	uint32_t type;
	uint32_t size;		/* as written; 0 in old files means 64 */
	uint64_t config;
	uint64_t sample_period;	/* or sample_freq when PM_ATTR_FREQ is set */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags;		/* bit i = enum pm_attr_flag_bits i */
	uint32_t wakeup_events;	/* or wakeup_watermark */
	uint32_t bp_type;
	uint64_t config1;	/* bp_addr, kprobe_func, uprobe_path */
	uint64_t config2;	/* bp_len, kprobe_addr, probe_offset */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint32_t aux_sample_size;
	uint64_t sig_data;
	uint64_t config3;
	/* Proposed VER9 (144 bytes): the hf_sample u64. */
	uint32_t hf_sample_period;
	uint8_t hf_sample_rand;	/* 0-15 */
	uint32_t hf_sample_reserved; /* bits 36-63, kept to round-trip */
};

static inline bool pm_attr__flag(const struct pm_attr *a, unsigned int bit)
{
	return (a->flags >> bit) & 1;
}

static inline void pm_attr__set_flag(struct pm_attr *a, unsigned int bit, bool on)
{
	if (on)
		a->flags |= 1ULL << bit;
	else
		a->flags &= ~(1ULL << bit);
}

static inline unsigned int pm_attr__precise_ip(const struct pm_attr *a)
{
	return (a->flags >> PM_ATTR_PRECISE_IP) & 3;
}

static inline void pm_attr__set_precise_ip(struct pm_attr *a, unsigned int v)
{
	a->flags &= ~(3ULL << PM_ATTR_PRECISE_IP);
	a->flags |= (uint64_t)(v & 3) << PM_ATTR_PRECISE_IP;
}

/* Name of flag bit `bit` as perf spells it ("exclude_kernel"), or NULL. */
const char *pm_attr_flag_name(unsigned int bit);

/*
 * Decode `len` bytes of an attr stored in the given byte order
 * (big_endian: the writer was big endian). The attr's own size field says
 * how many bytes are meaningful; `len` is how many are available, and
 * decoding never reads past either. A size field that is not 0 (64) and
 * not from 64 to PM_ATTR_SIZE_MAX (a page, as the kernel takes), or that
 * is larger than `len`, is an error: every later use of attr->size can
 * trust it.
 */
int pm_attr__decode(struct pm_attr *attr, const void *buf, size_t len,
		    bool big_endian, struct pm_error *err);

/*
 * Whether the records of an event with this attr can be parsed: every
 * sample_type and read_format bit is one the kernel ABI defines (perf
 * 6.1 and Linux 6.18 define the same: sample_type bits 0-24, read_format
 * 0-4), and with BRANCH_STACK so is every branch_sample_type bit (0-19).
 * A bit beyond those would add fields of unknown size to every sample and
 * record trailer, so the file is refused rather than misread: -PM_EFORMAT
 * at attr_offset plus the field's offset, the message naming `what` (the
 * attr's place, "attr 2"), the event as its attr names it and the bit.
 */
int pm_attr__check_abi(const struct pm_attr *attr, const char *what,
		       uint64_t attr_offset, struct pm_error *err);

/*
 * Encode into `size` bytes (any size from 64; bytes beyond 144 are zero)
 * in the given byte order. attr->size is not consulted: the caller picks
 * the on-disk size and the size field written is `size`.
 */
void pm_attr__encode(const struct pm_attr *attr, void *buf, size_t size,
		     bool big_endian);

/*
 * The event's name as perf derives it from an attr alone ("cycles",
 * "L1-dcache-load-misses", "raw 0x11", ...), with perf's modifier suffix
 * (":u", ":ppp") when exclude bits or precise_ip are set. Returns buf.
 */
char *pm_attr__name(const struct pm_attr *attr, char *buf, size_t size);

/*
 * perf's generic event names (lib/perfdata/event_names.c): a hardware or
 * software symbol ("cycles", "cs") to its type and config, 0 or -1; an
 * L1-dcache-load-misses style name to its HW_CACHE config, 0 or -1; the
 * canonical name of a type and config (NULL if none), and of a name
 * (the name itself when it is not a generic one).
 */
int pm_event_name__lookup(const char *name, size_t len, uint32_t *type,
			  uint64_t *config);
int pm_event_name__cache(const char *name, size_t len, uint64_t *config);
const char *pm_event_name__of(uint32_t type, uint64_t config);
const char *pm_event_name__canonical(const char *name);
/* The i-th symbol (aliases follow their event), NULL past the end. */
const char *pm_event_name__symbol_at(size_t i, uint32_t *type, uint64_t *config);
/* The i-th generic cache event perf defines, in perf's spelling
 * ("L1-dcache-load-misses"), and its type 3 config; -1 past the end. */
int pm_event_name__cache_at(size_t i, char *buf, size_t size, uint64_t *config);

#endif
