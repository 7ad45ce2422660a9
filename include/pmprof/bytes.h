/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loads and stores of multi-byte fields in a given byte order, safe for
 * unaligned addresses. Every multi-byte field pmprof reads from a file
 * goes through these: nothing casts file bytes to a struct.
 */
#ifndef PMPROF_BYTES_H
#define PMPROF_BYTES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PM_HOST_BIG_ENDIAN 1
#else
#define PM_HOST_BIG_ENDIAN 0
#endif

static inline uint16_t pm_bswap16(uint16_t v) { return __builtin_bswap16(v); }
static inline uint32_t pm_bswap32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint64_t pm_bswap64(uint64_t v) { return __builtin_bswap64(v); }

/* `swap` means: the bytes are in the other order than the host's. */
static inline uint16_t pm_load16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? pm_bswap16(v) : v;
}

static inline uint32_t pm_load32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? pm_bswap32(v) : v;
}

static inline uint64_t pm_load64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? pm_bswap64(v) : v;
}

static inline void pm_store16(void *p, uint16_t v, bool swap)
{
	if (swap)
		v = pm_bswap16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void pm_store32(void *p, uint32_t v, bool swap)
{
	if (swap)
		v = pm_bswap32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void pm_store64(void *p, uint64_t v, bool swap)
{
	if (swap)
		v = pm_bswap64(v);
	memcpy(p, &v, sizeof(v));
}

/* Fixed-order loads, for payloads whose order the hardware fixes. */
static inline uint32_t pm_le32(const void *p) { return pm_load32(p, PM_HOST_BIG_ENDIAN); }
static inline uint64_t pm_le64(const void *p) { return pm_load64(p, PM_HOST_BIG_ENDIAN); }
static inline uint32_t pm_be32(const void *p) { return pm_load32(p, !PM_HOST_BIG_ENDIAN); }
static inline uint64_t pm_be64(const void *p) { return pm_load64(p, !PM_HOST_BIG_ENDIAN); }

static inline uint64_t pm_align8(uint64_t v) { return (v + 7) & ~(uint64_t)7; }

#endif
