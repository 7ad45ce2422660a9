// SPDX-License-Identifier: GPL-2.0
/*
 * The feature sections of perf.data's header (and of HEADER_FEATURE
 * records in a pipe). Each is read through a cursor that refuses to step
 * past the section, so a lying length becomes an error with an offset.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "pmprof/bytes.h"
#include "pmprof/util.h"

/* A bounded walk through one section. */
struct cursor {
	const struct pm_reader *r;
	const uint8_t *p;
	size_t len, pos;
	uint64_t base;		/* file offset of p[0] */
	const char *what;	/* the feature's name, for messages */
	struct pm_error *err;
	bool failed;
};

static bool need(struct cursor *c, size_t n)
{
	if (c->failed)
		return false;
	if (n > c->len - c->pos) {
		pm_error__at(c->err, PM_ETRUNC, c->base + c->pos,
			     "%s section ends after %zu bytes, %zu more needed",
			     c->what, c->len - c->pos, n);
		c->failed = true;
		return false;
	}
	return true;
}

static uint32_t get_u32(struct cursor *c)
{
	uint32_t v;

	if (!need(c, 4))
		return 0;
	v = pm_reader__u32(c->r, c->p + c->pos);
	c->pos += 4;
	return v;
}

static uint64_t get_u64(struct cursor *c)
{
	uint64_t v;

	if (!need(c, 8))
		return 0;
	v = pm_reader__u64(c->r, c->p + c->pos);
	c->pos += 8;
	return v;
}

static char *get_string(struct cursor *c)
{
	char *s = NULL;
	size_t used;

	if (c->failed)
		return NULL;
	if (pm_read_string(c->r, c->p + c->pos, c->len - c->pos,
			   c->base + c->pos, &s, &used, c->err)) {
		c->failed = true;
		return NULL;
	}
	c->pos += used;
	return s;
}

/* A count of items of at least `min_size` bytes each must fit. */
static bool plausible_count(struct cursor *c, uint64_t nr, size_t min_size)
{
	if (c->failed)
		return false;
	if (nr > (c->len - c->pos) / (min_size ? min_size : 1)) {
		pm_error__at(c->err, PM_EFORMAT, c->base + c->pos,
			     "%s section claims %" PRIu64 " entries, more than fit in it",
			     c->what, nr);
		c->failed = true;
		return false;
	}
	return true;
}

int pm_read_string(const struct pm_reader *r, const uint8_t *p, size_t avail,
		   uint64_t offset, char **out, size_t *consumed,
		   struct pm_error *err)
{
	uint32_t len;

	if (avail < 4)
		return pm_error__at(err, PM_ETRUNC, offset,
				    "string length cut off");
	len = pm_reader__u32(r, p);
	if (len > avail - 4)
		return pm_error__at(err, PM_ETRUNC, offset,
				    "string of %u bytes runs past its section (%zu left)",
				    len, avail - 4);
	*out = pm_strndup((const char *)p + 4, strnlen((const char *)p + 4, len));
	*consumed = 4 + (size_t)len;
	return 0;
}

static char **get_string_list(struct cursor *c, uint32_t *nr_out)
{
	uint32_t nr = get_u32(c), i;
	char **list;

	*nr_out = 0;
	if (!plausible_count(c, nr, 4))
		return NULL;
	list = pm_calloc(nr ? nr : 1, sizeof(*list));
	for (i = 0; i < nr && !c->failed; i++)
		list[i] = get_string(c);
	*nr_out = c->failed ? i : nr;
	return list;
}

static void free_string_list(char **list, uint32_t nr)
{
	uint32_t i;

	for (i = 0; list && i < nr; i++)
		free(list[i]);
	free(list);
}

static void parse_build_ids(struct cursor *c, struct pm_features *f)
{
	/* {header, s32 pid, u8 build_id[20] (+4 pad: 24), filename} */
	while (c->len - c->pos >= 8 && !c->failed) {
		size_t start = c->pos;
		uint16_t misc = pm_reader__u16(c->r, c->p + c->pos + 4);
		uint16_t size = pm_reader__u16(c->r, c->p + c->pos + 6);
		struct pm_build_id_entry *e;
		const uint8_t *q;
		size_t fname_len;

		if (size < 8 + 4 + 24 || size > c->len - c->pos) {
			pm_error__at(c->err, PM_EFORMAT, c->base + c->pos,
				     "BUILD_ID entry of size %u does not fit", size);
			c->failed = true;
			return;
		}
		q = c->p + start + 8;
		f->build_ids = pm_reallocarray(f->build_ids, f->nr_build_ids + 1,
					       sizeof(*f->build_ids));
		e = &f->build_ids[f->nr_build_ids++];
		memset(e, 0, sizeof(*e));
		e->misc = misc;
		e->pid = (int32_t)pm_reader__u32(c->r, q);
		memcpy(e->build_id, q + 4, 20);
		/* With misc bit 15 the size byte after the id counts;
		 * older perf wrote 20-byte SHA-1 ids only. */
		e->size = (misc & PM_MISC_BUILD_ID_SIZE) && q[24] <= 20 ? q[24] : 20;
		fname_len = size - (8 + 4 + 24);
		e->filename = pm_strndup((const char *)q + 28,
					 strnlen((const char *)q + 28, fname_len));
		c->pos = start + size;
	}
}

static void parse_event_desc(struct cursor *c, struct pm_features *f)
{
	uint32_t nr = get_u32(c), asize = get_u32(c), i;

	if (c->failed)
		return;
	if (asize < PM_ATTR_SIZE_VER0 || asize > PM_ATTR_SIZE_MAX ||
	    asize > c->len) {
		pm_error__at(c->err, PM_EFORMAT, c->base + 4,
			     "EVENT_DESC attr size %u is invalid (%u to %u bytes)",
			     asize, PM_ATTR_SIZE_VER0, PM_ATTR_SIZE_MAX);
		c->failed = true;
		return;
	}
	if (!plausible_count(c, nr, asize + 8))
		return;
	f->event_desc = pm_calloc(nr ? nr : 1, sizeof(*f->event_desc));
	for (i = 0; i < nr && !c->failed; i++) {
		struct pm_event_desc *d = &f->event_desc[i];
		uint32_t nids, j;

		if (!need(c, asize))
			break;
		if (pm_attr__decode(&d->attr, c->p + c->pos, asize,
				    c->r->big_endian, c->err)) {
			if (c->err) {
				c->err->has_offset = true;
				c->err->offset = c->base + c->pos;
			}
			c->failed = true;
			break;
		}
		c->pos += asize;
		f->nr_event_desc = i + 1;
		nids = get_u32(c);
		d->name = get_string(c);
		if (!plausible_count(c, nids, 8))
			break;
		d->ids = pm_calloc(nids ? nids : 1, sizeof(*d->ids));
		for (j = 0; j < nids; j++)
			d->ids[j] = get_u64(c);
		d->nr_ids = nids;
	}
}

static void parse_cpu_topology(struct cursor *c, struct pm_features *f)
{
	uint32_t i;

	f->topology.core_siblings = get_string_list(c, &f->topology.nr_core_siblings);
	f->topology.thread_siblings = get_string_list(c, &f->topology.nr_thread_siblings);
	if (c->failed)
		return;
	/* The tail grew over the years: per-CPU core and socket ids (when
	 * the section still has room), then die ids and die siblings. */
	if (c->len - c->pos >= 8ULL * f->nr_cpus_avail && f->nr_cpus_avail) {
		f->topology.cpus = pm_calloc(f->nr_cpus_avail,
					     sizeof(*f->topology.cpus));
		f->topology.nr_cpus = f->nr_cpus_avail;
		for (i = 0; i < f->nr_cpus_avail; i++) {
			f->topology.cpus[i].core_id = (int32_t)get_u32(c);
			f->topology.cpus[i].socket_id = (int32_t)get_u32(c);
			f->topology.cpus[i].die_id = -1;
		}
	}
	if (f->topology.cpus && c->len - c->pos >= 4) {
		f->topology.die_siblings =
			get_string_list(c, &f->topology.nr_die_siblings);
		if (c->len - c->pos >= 4ULL * f->topology.nr_cpus) {
			f->topology.has_die = true;
			for (i = 0; i < f->topology.nr_cpus; i++)
				f->topology.cpus[i].die_id = (int32_t)get_u32(c);
		}
	}
}

static void parse_pmu_mappings(struct cursor *c, struct pm_features *f)
{
	uint32_t nr = get_u32(c), i;

	if (!plausible_count(c, nr, 8))
		return;
	f->pmu_mappings = pm_calloc(nr ? nr : 1, sizeof(*f->pmu_mappings));
	for (i = 0; i < nr && !c->failed; i++) {
		f->pmu_mappings[i].type = get_u32(c);
		f->pmu_mappings[i].name = get_string(c);
		f->nr_pmu_mappings = i + 1;
	}
}

static void parse_group_desc(struct cursor *c, struct pm_features *f)
{
	uint32_t nr = get_u32(c), i;

	if (!plausible_count(c, nr, 12))
		return;
	f->groups = pm_calloc(nr ? nr : 1, sizeof(*f->groups));
	for (i = 0; i < nr && !c->failed; i++) {
		f->groups[i].name = get_string(c);
		f->groups[i].leader_idx = get_u32(c);
		f->groups[i].nr_members = get_u32(c);
		f->nr_groups = i + 1;
	}
}

/* One PMU's {u32 nr, nr x (string name, string value)}. */
static void parse_caps(struct cursor *c, struct pm_pmu_caps *pc)
{
	uint32_t nr = get_u32(c), i;

	if (!plausible_count(c, nr, 8))
		return;
	pc->names = pm_calloc(nr ? nr : 1, sizeof(*pc->names));
	pc->values = pm_calloc(nr ? nr : 1, sizeof(*pc->values));
	for (i = 0; i < nr && !c->failed; i++) {
		pc->names[i] = get_string(c);
		pc->values[i] = get_string(c);
		pc->nr = i + 1;
	}
}

static void free_caps(struct pm_pmu_caps *pc)
{
	free_string_list(pc->names, pc->nr);
	free_string_list(pc->values, pc->nr);
	free(pc->pmu);
}

/* Drop the entries a feature wrote before (a pipe may repeat it). */
static void drop_caps(struct pm_features *f, unsigned int feat)
{
	uint32_t i, n = 0;

	for (i = 0; i < f->nr_pmu_caps; i++) {
		if (f->pmu_caps[i].feat == feat)
			free_caps(&f->pmu_caps[i]);
		else
			f->pmu_caps[n++] = f->pmu_caps[i];
	}
	f->nr_pmu_caps = n;
}

static struct pm_pmu_caps *new_caps(struct pm_features *f, unsigned int feat,
				    bool first)
{
	struct pm_pmu_caps *pc;

	f->pmu_caps = pm_reallocarray(f->pmu_caps, f->nr_pmu_caps + 1,
				      sizeof(*f->pmu_caps));
	if (first)
		memmove(f->pmu_caps + 1, f->pmu_caps,
			f->nr_pmu_caps * sizeof(*f->pmu_caps));
	pc = &f->pmu_caps[first ? 0 : f->nr_pmu_caps];
	f->nr_pmu_caps++;
	memset(pc, 0, sizeof(*pc));
	pc->feat = feat;
	return pc;
}

/* CPU_PMU_CAPS: the "cpu" PMU's caps. PMU_CAPS: {u32 nr_pmu, nr_pmu x
 * (caps, string pmu name)}. */
static void parse_pmu_caps(struct cursor *c, struct pm_features *f,
			   unsigned int feat)
{
	uint32_t nr, i;

	drop_caps(f, feat);
	if (feat == PM_FEAT_CPU_PMU_CAPS) {
		struct pm_pmu_caps *pc = new_caps(f, feat, true);

		pc->pmu = pm_strdup("cpu");
		parse_caps(c, pc);
		return;
	}
	nr = get_u32(c);
	if (!plausible_count(c, nr, 8))
		return;
	for (i = 0; i < nr && !c->failed; i++) {
		struct pm_pmu_caps *pc = new_caps(f, feat, false);

		parse_caps(c, pc);
		pc->pmu = get_string(c);
	}
}

const char *pm_features__pmu_cap(const struct pm_features *f, const char *pmu,
				 const char *cap)
{
	uint32_t i, k;

	for (i = 0; i < f->nr_pmu_caps; i++) {
		const struct pm_pmu_caps *pc = &f->pmu_caps[i];

		if (pmu && (!pc->pmu || strcmp(pc->pmu, pmu)))
			continue;
		for (k = 0; k < pc->nr; k++)
			if (pc->names[k] && !strcmp(pc->names[k], cap))
				return pc->values[k] ? pc->values[k] : "";
	}
	return NULL;
}

/* A string feature replaces the previous value (a pipe may repeat). */
static void set_string(char **slot, char *s)
{
	free(*slot);
	*slot = s;
}

/* A pipe may send a feature twice: the later copy replaces the earlier. */
static void free_topology(struct pm_features *f)
{
	free_string_list(f->topology.core_siblings, f->topology.nr_core_siblings);
	free_string_list(f->topology.thread_siblings, f->topology.nr_thread_siblings);
	free_string_list(f->topology.die_siblings, f->topology.nr_die_siblings);
	free(f->topology.cpus);
	memset(&f->topology, 0, sizeof(f->topology));
}

static void free_pmu_mappings(struct pm_features *f)
{
	uint32_t i;

	for (i = 0; i < f->nr_pmu_mappings; i++)
		free(f->pmu_mappings[i].name);
	free(f->pmu_mappings);
	f->pmu_mappings = NULL;
	f->nr_pmu_mappings = 0;
}

static void free_groups(struct pm_features *f)
{
	uint32_t i;

	for (i = 0; i < f->nr_groups; i++)
		free(f->groups[i].name);
	free(f->groups);
	f->groups = NULL;
	f->nr_groups = 0;
}

static void free_build_ids(struct pm_features *f)
{
	uint32_t i;

	for (i = 0; i < f->nr_build_ids; i++)
		free(f->build_ids[i].filename);
	free(f->build_ids);
	f->build_ids = NULL;
	f->nr_build_ids = 0;
}

static void free_event_desc(struct pm_features *f)
{
	uint32_t i;

	for (i = 0; i < f->nr_event_desc; i++) {
		free(f->event_desc[i].name);
		free(f->event_desc[i].ids);
	}
	free(f->event_desc);
	f->event_desc = NULL;
	f->nr_event_desc = 0;
}

int pm_features__parse(struct pm_reader *r, unsigned int feat,
		       const uint8_t *p, size_t size, uint64_t offset,
		       struct pm_error *err)
{
	struct pm_features *f = &r->feat;
	struct cursor c = {
		.r = r, .p = p, .len = size, .base = offset, .err = err,
		.what = pm_feature_name(feat) ? pm_feature_name(feat) : "feature",
	};

	switch (feat) {
	case PM_FEAT_HOSTNAME:	set_string(&f->hostname, get_string(&c)); break;
	case PM_FEAT_OSRELEASE:	set_string(&f->osrelease, get_string(&c)); break;
	case PM_FEAT_VERSION:	set_string(&f->version, get_string(&c)); break;
	case PM_FEAT_ARCH:	set_string(&f->arch, get_string(&c)); break;
	case PM_FEAT_CPUDESC:	set_string(&f->cpudesc, get_string(&c)); break;
	case PM_FEAT_CPUID:	set_string(&f->cpuid, get_string(&c)); break;
	case PM_FEAT_NRCPUS:
		f->nr_cpus_avail = get_u32(&c);
		f->nr_cpus_online = get_u32(&c);
		break;
	case PM_FEAT_TOTAL_MEM:
		f->total_mem_kb = get_u64(&c);
		break;
	case PM_FEAT_CMDLINE:
		free_string_list(f->cmdline, f->nr_cmdline);
		f->cmdline = get_string_list(&c, &f->nr_cmdline);
		break;
	case PM_FEAT_EVENT_DESC:
		free_event_desc(f);
		parse_event_desc(&c, f);
		break;
	case PM_FEAT_BUILD_ID:
		free_build_ids(f);
		parse_build_ids(&c, f);
		break;
	case PM_FEAT_CPU_TOPOLOGY:
		free_topology(f);
		parse_cpu_topology(&c, f);
		break;
	case PM_FEAT_PMU_MAPPINGS:
		free_pmu_mappings(f);
		parse_pmu_mappings(&c, f);
		break;
	case PM_FEAT_GROUP_DESC:
		free_groups(f);
		parse_group_desc(&c, f);
		break;
	case PM_FEAT_CPU_PMU_CAPS:
	case PM_FEAT_PMU_CAPS:
		parse_pmu_caps(&c, f, feat);
		break;
	case PM_FEAT_SAMPLE_TIME:
		f->sample_time_first = get_u64(&c);
		f->sample_time_last = get_u64(&c);
		break;
	case PM_FEAT_CLOCKID:
		f->clockid_res_ns = get_u64(&c);
		break;
	case PM_FEAT_DIR_FORMAT:
		f->dir_format_version = get_u64(&c);
		break;
	case PM_FEAT_CLOCK_DATA:
		f->clock_data.version = get_u32(&c);
		f->clock_data.clockid = get_u32(&c);
		f->clock_data.tod_ns = get_u64(&c);
		f->clock_data.clockid_ns = get_u64(&c);
		break;
	case PM_FEAT_COMPRESSED:
		f->compressed.version = get_u32(&c);
		f->compressed.type = get_u32(&c);
		f->compressed.level = get_u32(&c);
		f->compressed.ratio = get_u32(&c);
		f->compressed.mmap_len = get_u32(&c);
		break;
	default:
		break;	/* listed by name and size only */
	}
	return c.failed ? (err ? err->code : -PM_EFORMAT) : 0;
}

int pm_features__parse_build_id_record(struct pm_reader *r,
				       const struct pm_record *rec,
				       struct pm_error *err)
{
	/* A pipe's HEADER_BUILD_ID record is one BUILD_ID feature entry. */
	struct cursor c = {
		.r = r, .p = rec->data, .len = rec->size, .base = rec->offset,
		.err = err, .what = "HEADER_BUILD_ID",
	};

	parse_build_ids(&c, &r->feat);
	return c.failed ? (err ? err->code : -PM_EFORMAT) : 0;
}

void pm_features__release(struct pm_features *f)
{
	free(f->hostname);
	free(f->osrelease);
	free(f->version);
	free(f->arch);
	free(f->cpudesc);
	free(f->cpuid);
	free_string_list(f->cmdline, f->nr_cmdline);
	free_build_ids(f);
	free_pmu_mappings(f);
	free_groups(f);
	free_event_desc(f);
	free_topology(f);
	drop_caps(f, PM_FEAT_CPU_PMU_CAPS);
	drop_caps(f, PM_FEAT_PMU_CAPS);
	free(f->pmu_caps);
	memset(f, 0, sizeof(*f));
}

/* EVENT_DESC's entry for an event: the one sharing its first id, else
 * the one at the same position. */
static const struct pm_event_desc *desc_for(const struct pm_features *f,
					    const struct pm_event *ev)
{
	uint32_t i;

	for (i = 0; ev->nr_ids && i < f->nr_event_desc; i++)
		if (f->event_desc[i].nr_ids && f->event_desc[i].ids[0] == ev->ids[0])
			return &f->event_desc[i];
	if ((uint32_t)ev->idx < f->nr_event_desc)
		return &f->event_desc[ev->idx];
	return NULL;
}

void pm_reader__apply_features(struct pm_reader *r)
{
	struct pm_features *f = &r->feat;
	size_t i;
	uint32_t g, m;

	for (i = 0; i < r->nr_events; i++) {
		struct pm_event *ev = r->events[i];
		const struct pm_event_desc *d = desc_for(f, ev);
		char buf[128];

		if (d && d->name) {
			free(ev->name);
			ev->name = pm_strdup(d->name);
		} else if (!ev->name) {
			ev->name = pm_strdup(pm_attr__name(&ev->attr, buf, sizeof(buf)));
		}
	}
	for (g = 0; g < f->nr_groups; g++) {
		const struct pm_group_desc *gd = &f->groups[g];

		if (gd->leader_idx >= r->nr_events ||
		    gd->nr_members > r->nr_events - gd->leader_idx)
			continue;	/* a group desc that names no real events */
		for (m = 0; m < gd->nr_members; m++) {
			struct pm_event *ev = r->events[gd->leader_idx + m];

			ev->leader_idx = (int)gd->leader_idx;
			ev->nr_members = (int)gd->nr_members;
		}
		free(r->events[gd->leader_idx]->group_name);
		r->events[gd->leader_idx]->group_name =
			gd->name ? pm_strdup(gd->name) : NULL;
	}
}

const char *pm_reader__scratch_str(struct pm_reader *r, const uint8_t *p,
				   size_t avail)
{
	size_t n = strnlen((const char *)p, avail);

	PM_GROW(r->str, r->str_alloc, n + 1);
	memcpy(r->str, p, n);
	r->str[n] = '\0';
	return r->str;
}
