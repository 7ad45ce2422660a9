// SPDX-License-Identifier: GPL-2.0
/*
 * Feature payloads, encoded in the output order as they are set; the
 * ones derived from the events (EVENT_DESC, GROUP_DESC) when the header
 * or the pipe's feature records are laid out.
 */
#include <string.h>

#include "pmprof/bytes.h"
#include "pmprof/util.h"
#include "writer-int.h"

static int settable(struct pm_writer *w, unsigned int feat,
		    struct pm_error *err)
{
	if (feat == 0 || feat >= PM_FEAT_BITS)
		return pm_error__fmt(err, PM_EUSAGE, "feature %u out of range",
				     feat);
	if (w->pipe && w->begun)
		return pm_error__fmt(err, PM_EUSAGE,
				     "pipe mode writes features before the first record");
	return 0;
}

/* Start (or restart) a feature's payload. */
static struct pm_bytebuf *start(struct pm_writer *w, unsigned int feat)
{
	w->feat[feat].set = true;
	pm_bytebuf__reset(&w->feat[feat].payload);
	return &w->feat[feat].payload;
}

int pm_writer__set_string(struct pm_writer *w, unsigned int feat,
			  const char *s, struct pm_error *err)
{
	int ret = settable(w, feat, err);

	if (ret)
		return ret;
	switch (feat) {
	case PM_FEAT_HOSTNAME: case PM_FEAT_OSRELEASE: case PM_FEAT_VERSION:
	case PM_FEAT_ARCH: case PM_FEAT_CPUDESC: case PM_FEAT_CPUID:
		break;
	default:
		return pm_error__fmt(err, PM_EUSAGE,
				     "feature %u is not a string feature", feat);
	}
	pm_writer__put_string(start(w, feat), s ? s : "", w->swap);
	return 0;
}

int pm_writer__set_nrcpus(struct pm_writer *w, uint32_t avail,
			  uint32_t online, struct pm_error *err)
{
	int ret = settable(w, PM_FEAT_NRCPUS, err);
	struct pm_bytebuf *b;

	if (ret)
		return ret;
	b = start(w, PM_FEAT_NRCPUS);
	pm_bytebuf__u32(b, avail, w->swap);
	pm_bytebuf__u32(b, online, w->swap);
	return 0;
}

int pm_writer__set_total_mem(struct pm_writer *w, uint64_t kb,
			     struct pm_error *err)
{
	int ret = settable(w, PM_FEAT_TOTAL_MEM, err);

	if (ret)
		return ret;
	pm_bytebuf__u64(start(w, PM_FEAT_TOTAL_MEM), kb, w->swap);
	return 0;
}

int pm_writer__set_cmdline(struct pm_writer *w, uint32_t argc,
			   const char *const *argv, struct pm_error *err)
{
	int ret = settable(w, PM_FEAT_CMDLINE, err);
	struct pm_bytebuf *b;
	uint32_t i;

	if (ret)
		return ret;
	b = start(w, PM_FEAT_CMDLINE);
	pm_bytebuf__u32(b, argc, w->swap);
	for (i = 0; i < argc; i++)
		pm_writer__put_string(b, argv[i] ? argv[i] : "", w->swap);
	return 0;
}

int pm_writer__set_sample_time(struct pm_writer *w, uint64_t first,
			       uint64_t last, struct pm_error *err)
{
	int ret = settable(w, PM_FEAT_SAMPLE_TIME, err);
	struct pm_bytebuf *b;

	if (ret)
		return ret;
	b = start(w, PM_FEAT_SAMPLE_TIME);
	pm_bytebuf__u64(b, first, w->swap);
	pm_bytebuf__u64(b, last, w->swap);
	return 0;
}

int pm_writer__set_clockid(struct pm_writer *w, uint64_t res_ns,
			   struct pm_error *err)
{
	int ret = settable(w, PM_FEAT_CLOCKID, err);

	if (ret)
		return ret;
	pm_bytebuf__u64(start(w, PM_FEAT_CLOCKID), res_ns, w->swap);
	return 0;
}

/*
 * A BUILD_ID entry: {u32 type (0), u16 misc, u16 size, s32 pid,
 * u8 build_id[20], u8 size, 3 pad, filename padded to 64}. The id's size
 * is always given, so misc carries PM_MISC_BUILD_ID_SIZE.
 */
int pm_writer__add_build_id(struct pm_writer *w,
			    const struct pm_build_id_entry *e,
			    struct pm_error *err)
{
	int ret = settable(w, PM_FEAT_BUILD_ID, err);
	const char *name = e->filename ? e->filename : "";
	size_t n = strlen(name) + 1, padded = (n + 63) & ~(size_t)63;
	size_t size = 36 + padded;
	struct pm_bytebuf *b = &w->build_ids;
	uint8_t *p;

	if (ret)
		return ret;
	if (size > UINT16_MAX)
		return pm_error__fmt(err, PM_EUNSUP,
				     "build-id file name of %zu bytes is too long",
				     n - 1);
	if (e->size > 20)
		return pm_error__fmt(err, PM_EUSAGE,
				     "build-id of %u bytes: at most 20", e->size);
	pm_bytebuf__u32(b, 0, w->swap);
	pm_bytebuf__u16(b, e->misc | PM_MISC_BUILD_ID_SIZE, w->swap);
	pm_bytebuf__u16(b, (uint16_t)size, w->swap);
	pm_bytebuf__u32(b, (uint32_t)e->pid, w->swap);
	p = pm_bytebuf__grow(b, 24);
	memcpy(p, e->build_id, 20);
	p[20] = e->size;
	memcpy(pm_bytebuf__grow(b, padded), name, n - 1);
	/* The payload is kept apart so raw BUILD_ID bytes can replace it. */
	w->feat[PM_FEAT_BUILD_ID].set = true;
	pm_bytebuf__reset(&w->feat[PM_FEAT_BUILD_ID].payload);
	pm_bytebuf__add(&w->feat[PM_FEAT_BUILD_ID].payload, b->data, b->len);
	return 0;
}

int pm_writer__set_raw_feature(struct pm_writer *w, unsigned int feat,
			       const void *payload, size_t len,
			       struct pm_error *err)
{
	int ret = settable(w, feat, err);

	if (ret)
		return ret;
	pm_bytebuf__add(start(w, feat), payload, len);
	if (feat == PM_FEAT_BUILD_ID)
		pm_bytebuf__reset(&w->build_ids);
	return 0;
}

int pm_writer__set_tracing_data(struct pm_writer *w, const void *blob,
				size_t len, struct pm_error *err)
{
	return pm_writer__set_raw_feature(w, PM_FEAT_TRACING_DATA, blob, len,
					  err);
}

static void encode_caps(struct pm_writer *w, struct pm_bytebuf *b,
			const struct pm_pmu_caps *pc)
{
	uint32_t k;

	pm_bytebuf__u32(b, pc->nr, w->swap);
	for (k = 0; k < pc->nr; k++) {
		pm_writer__put_string(b, pc->names[k] ? pc->names[k] : "", w->swap);
		pm_writer__put_string(b, pc->values[k] ? pc->values[k] : "", w->swap);
	}
}

int pm_writer__set_pmu_caps(struct pm_writer *w, const struct pm_pmu_caps *caps,
			    size_t nr, struct pm_error *err)
{
	int ret = settable(w, PM_FEAT_PMU_CAPS, err);
	uint32_t others = 0;
	struct pm_bytebuf *b;
	size_t i;

	if (ret)
		return ret;
	w->feat[PM_FEAT_CPU_PMU_CAPS].set = false;
	w->feat[PM_FEAT_PMU_CAPS].set = false;
	for (i = 0; i < nr; i++) {
		if (!caps[i].pmu || !strcmp(caps[i].pmu, "cpu"))
			encode_caps(w, start(w, PM_FEAT_CPU_PMU_CAPS), &caps[i]);
		else
			others++;
	}
	if (!others)
		return 0;
	b = start(w, PM_FEAT_PMU_CAPS);
	pm_bytebuf__u32(b, others, w->swap);
	for (i = 0; i < nr; i++) {
		if (!caps[i].pmu || !strcmp(caps[i].pmu, "cpu"))
			continue;
		encode_caps(w, b, &caps[i]);
		pm_writer__put_string(b, caps[i].pmu, w->swap);
	}
	return 0;
}

int pm_writer__copy_features(struct pm_writer *w, const struct pm_features *f,
			     struct pm_error *err)
{
	static const unsigned int strings[] = {
		PM_FEAT_HOSTNAME, PM_FEAT_OSRELEASE, PM_FEAT_VERSION,
		PM_FEAT_ARCH, PM_FEAT_CPUDESC, PM_FEAT_CPUID,
	};
	const char *values[] = {
		f->hostname, f->osrelease, f->version, f->arch, f->cpudesc,
		f->cpuid,
	};
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < PM_ARRAY_SIZE(strings); i++)
		if (pm_features__has(f, strings[i]))
			ret = pm_writer__set_string(w, strings[i], values[i], err);
	if (!ret && pm_features__has(f, PM_FEAT_NRCPUS))
		ret = pm_writer__set_nrcpus(w, f->nr_cpus_avail,
					    f->nr_cpus_online, err);
	if (!ret && pm_features__has(f, PM_FEAT_TOTAL_MEM))
		ret = pm_writer__set_total_mem(w, f->total_mem_kb, err);
	if (!ret && pm_features__has(f, PM_FEAT_CMDLINE))
		ret = pm_writer__set_cmdline(w, f->nr_cmdline,
					     (const char *const *)f->cmdline, err);
	if (!ret && pm_features__has(f, PM_FEAT_SAMPLE_TIME))
		ret = pm_writer__set_sample_time(w, f->sample_time_first,
						 f->sample_time_last, err);
	if (!ret && pm_features__has(f, PM_FEAT_CLOCKID))
		ret = pm_writer__set_clockid(w, f->clockid_res_ns, err);
	for (i = 0; !ret && pm_features__has(f, PM_FEAT_BUILD_ID) &&
		    i < f->nr_build_ids; i++)
		ret = pm_writer__add_build_id(w, &f->build_ids[i], err);
	if (!ret && f->nr_pmu_caps)
		ret = pm_writer__set_pmu_caps(w, f->pmu_caps, f->nr_pmu_caps, err);
	/* An empty BUILD_ID section is still a section perf expects. */
	if (!ret && pm_features__has(f, PM_FEAT_BUILD_ID) && !f->nr_build_ids)
		ret = pm_writer__set_raw_feature(w, PM_FEAT_BUILD_ID, NULL, 0,
						 err);
	return ret;
}

/* ---- derived from the events ----------------------------------------- */

static void encode_event_desc(struct pm_writer *w)
{
	struct pm_bytebuf *b = start(w, PM_FEAT_EVENT_DESC);
	size_t i;
	uint32_t k;

	pm_bytebuf__u32(b, (uint32_t)w->nr_events, w->swap);
	pm_bytebuf__u32(b, w->attr_size, w->swap);
	for (i = 0; i < w->nr_events; i++) {
		const struct pm_event *e = &w->events[i];

		pm_attr__encode(&e->attr, pm_bytebuf__grow(b, w->attr_size),
				w->attr_size, w->big_endian);
		pm_bytebuf__u32(b, e->nr_ids, w->swap);
		pm_writer__put_string(b, e->name ? e->name : "", w->swap);
		for (k = 0; k < e->nr_ids; k++)
			pm_bytebuf__u64(b, e->ids[k], w->swap);
	}
}

static void encode_group_desc(struct pm_writer *w, uint32_t nr)
{
	struct pm_bytebuf *b = start(w, PM_FEAT_GROUP_DESC);
	size_t i;

	pm_bytebuf__u32(b, nr, w->swap);
	for (i = 0; i < w->nr_events; i++) {
		const struct pm_event *e = &w->events[i];

		if (e->leader_idx != e->idx || e->nr_members < 2)
			continue;
		/* perf names unnamed groups so. */
		pm_writer__put_string(b, e->group_name ? e->group_name :
				"{anon_group}", w->swap);
		pm_bytebuf__u32(b, (uint32_t)e->idx, w->swap);
		pm_bytebuf__u32(b, (uint32_t)e->nr_members, w->swap);
	}
}

int pm_writer__encode_features(struct pm_writer *w, struct pm_error *err)
{
	uint32_t groups = 0;
	bool named = false;
	size_t i;

	(void)err;
	for (i = 0; i < w->nr_events; i++) {
		const struct pm_event *e = &w->events[i];

		if (e->name)
			named = true;
		if (e->leader_idx == e->idx && e->nr_members > 1)
			groups++;
	}
	if (named && !w->feat[PM_FEAT_EVENT_DESC].set)
		encode_event_desc(w);
	if (groups && !w->feat[PM_FEAT_GROUP_DESC].set)
		encode_group_desc(w, groups);
	if (w->want_hostname && !w->feat[PM_FEAT_HOSTNAME].set)
		pm_writer__put_string(start(w, PM_FEAT_HOSTNAME), "", w->swap);
	return 0;
}
