// SPDX-License-Identifier: GPL-2.0
/*
 * The records that say what a header says: perf's pipe mode carries the
 * attrs and features as HEADER_ATTR, HEADER_FEATURE and HEADER_BUILD_ID
 * records, and either mode may name events (EVENT_UPDATE) and say which
 * CPU and thread an id counts on (ID_INDEX). Applied to the reader's
 * events and features as the records go past.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "pmprof/records.h"
#include "pmprof/util.h"

static int apply_header_attr(struct pm_reader *r, const struct pm_record *rec,
			     struct pm_error *err)
{
	const uint8_t *body = rec->data + 8;
	size_t len = pm_record__body_len(rec);
	struct pm_attr attr;
	uint32_t asize;
	struct pm_event *ev;
	size_t i, nids;
	int ret;

	if (len < 8)
		return pm_error__at(err, PM_EFORMAT, rec->offset,
				    "HEADER_ATTR record too short (%u bytes)", rec->size);
	asize = pm_reader__u32(r, body + 4);
	if (!asize)
		asize = PM_ATTR_SIZE_VER0;
	if (asize > len)
		return pm_error__at(err, PM_EFORMAT, rec->offset,
				    "HEADER_ATTR record (%u bytes) is smaller than its attr (%u bytes)",
				    rec->size, asize);
	ret = pm_attr__decode(&attr, body, asize, r->big_endian, err);
	if (ret) {
		if (err) {	/* the message stays: it says what is wrong */
			err->has_offset = true;
			err->offset = rec->offset;
		}
		return ret;
	}
	ret = pm_attr__check_abi(&attr, "HEADER_ATTR", rec->offset + 8, err);
	if (ret)
		return ret;
	ev = pm_reader__add_event(r, &attr);
	nids = (len - asize) / 8;
	for (i = 0; i < nids; i++)
		pm_reader__add_id(r, ev, pm_reader__u64(r, body + asize + 8 * i));
	pm_reader__apply_features(r);
	return 0;
}

static int apply_header_feature(struct pm_reader *r, const struct pm_record *rec,
				struct pm_error *err)
{
	size_t len = pm_record__body_len(rec);
	uint64_t feat;
	int ret;

	if (len < 8)
		return pm_error__at(err, PM_EFORMAT, rec->offset,
				    "HEADER_FEATURE record too short (%u bytes)", rec->size);
	feat = pm_reader__u64(r, rec->data + 8);
	/* The list ends with an empty record naming the writer's last
	 * feature number; numbers past the bitmap cannot be kept. */
	if (feat >= PM_FEAT_BITS || (feat >= PM_FEAT_LAST_KNOWN && len == 8))
		return 0;
	r->feat.present[feat / 64] |= 1ULL << (feat % 64);
	r->feat.section[feat].offset = rec->offset + 16;
	r->feat.section[feat].size = len - 8;
	ret = pm_features__parse(r, (unsigned int)feat, rec->data + 16, len - 8,
				 rec->offset + 16, err);
	if (ret)
		return ret;
	pm_reader__apply_features(r);
	return 0;
}

static int apply_event_update(struct pm_reader *r, const struct pm_record *rec,
			      struct pm_error *err)
{
	size_t len = pm_record__body_len(rec);
	const struct pm_id_entry *e;
	uint64_t type, id;
	struct pm_event *ev;

	if (len < 16)
		return pm_error__at(err, PM_EFORMAT, rec->offset,
				    "EVENT_UPDATE record too short (%u bytes)", rec->size);
	type = pm_reader__u64(r, rec->data + 8);
	id = pm_reader__u64(r, rec->data + 16);
	e = pm_idmap__find(&r->ids, id);
	if (type != 2 /* NAME */ || !e)
		return 0;
	ev = r->events[e->idx];
	free(ev->name);
	ev->name = pm_strdup(pm_reader__scratch_str(r, rec->data + 24, len - 16));
	return 0;
}

static int apply_id_index(struct pm_reader *r, const struct pm_record *rec,
			  struct pm_error *err)
{
	struct pm_rec_id_index idx;
	uint64_t i;

	if (pm_rec__id_index(r, rec, &idx, err))
		return -PM_EFORMAT;
	for (i = 0; i < idx.nr; i++) {
		struct pm_id_index_entry ent;
		struct pm_id_entry *e;

		pm_rec_id_index__entry(r, &idx, i, &ent);
		e = pm_idmap__find(&r->ids, ent.id);
		if (!e)
			continue;
		e->cpu = (int32_t)ent.cpu;
		e->tid = (int32_t)ent.tid;
	}
	return 0;
}

int pm_reader__apply_header_record(struct pm_reader *r,
				   const struct pm_record *rec,
				   struct pm_error *err)
{
	/* A file's header already said what these records say in a pipe. */
	switch (rec->type) {
	case PM_RECORD_HEADER_ATTR:
		return r->pipe ? apply_header_attr(r, rec, err) : 0;
	case PM_RECORD_HEADER_FEATURE:
		return r->pipe ? apply_header_feature(r, rec, err) : 0;
	case PM_RECORD_HEADER_BUILD_ID:
		return r->pipe ? pm_features__parse_build_id_record(r, rec, err) : 0;
	case PM_RECORD_EVENT_UPDATE:
		return apply_event_update(r, rec, err);
	case PM_RECORD_ID_INDEX:
		return apply_id_index(r, rec, err);
	}
	return 0;
}
