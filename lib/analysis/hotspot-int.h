/* SPDX-License-Identifier: GPL-2.0 */
/* The hotspot accumulator's entries and its sort-key descriptors. */
#ifndef PMPROF_HOTSPOT_INT_H
#define PMPROF_HOTSPOT_INT_H

#include "pmprof/callgraph.h"
#include "pmprof/hash.h"
#include "pmprof/hotspot.h"
#include "pmprof/table.h"

#define HOT_KEY_WORDS (2 * PM_HOT_MAX_KEYS)

struct hot_stat {
	uint64_t samples;	/* samples landing here (self) */
	uint64_t period;	/* their period (self) */
	uint64_t acc;		/* period of samples with this in their chain */
};

/* A row: its key, and what the key columns show. */
struct hot_entry {
	uint64_t key[HOT_KEY_WORDS];
	uint64_t hash;
	uint64_t seq;		/* last delivery that added to acc */
	struct pm_dso *dso;
	const struct pm_symbol *sym;
	uint64_t addr;
	char level;
	const char *comm;
	int32_t pid, tid;
	int64_t cpu;		/* -1 when not sampled, as perf shows it */
	uint64_t pc;
	struct pm_cg_node *tree;	/* -g: the chains through it (leader) */
	bool filtered;		/* --pid, --tid, --comm: hidden (the thread
				   of the sample that made it, as perf) */
	struct hot_stat st[];	/* one per group member */
};

/*
 * A sort key, as perf's sort entries: its --sort name, the column(s) it
 * shows as (a second one only in JSON), the two key words of a location,
 * the order of two rows that tie on their counts, and its cells.
 */
struct hot_key {
	const char *name;
	const char *alias;
	struct pm_table_column col;
	struct pm_table_column json_col;	/* .name NULL: none */
	void (*words)(const struct pm_sample_ctx *ctx,
		      const struct pm_addr_loc *loc, uint64_t *w);
	int (*cmp)(const struct hot_entry *a, const struct hot_entry *b);
	/* Set the key's cells from column col on (two with json_col). */
	void (*cells)(struct pm_table *t, size_t row, size_t col,
		      const struct hot_entry *e);
};

/* Where a row's call-graph nodes go: its table's columns, the period
 * percentages are of. Columns < 0: the table has none. */
struct hot_graph {
	const struct pm_cg_opts *opts;
	uint64_t total;
	size_t share_col, samples_col, period_col;
	size_t *count_col;	/* [kind * members + member]; SIZE_MAX: none */
	int self_col, dso_col, name_col[2];	/* name: table and JSON */
	int weight_col;		/* --children: the period through a node
				   (else period_col is) */
	int rest_col;		/* true on a fractal remainder ("[...]") */
	int more_col;		/* true on the last node shown of siblings
				   perf leaves more of, unshown */
	bool own_frame;		/* PM_TABLE_CALL_OWN_FRAME */
};

/* The tree's nodes (finished for opts) under the row, as perf -g shows
 * them (lib/analysis/hotspot-graph.c); row_period: the row's period
 * (--children: through it), what perf's fractal shares at the top are of. */
void hot_graph__rows(struct pm_table *t, size_t row, struct pm_cg_node *tree,
		     uint64_t row_period, const struct hot_graph *g);

/* The columns of a table of event idx (nr_slots group members): shares,
 * samples, periods, then the keys (their first columns in kcol), with g's
 * columns found (hotspot-columns.c). */
void hot_columns__add(struct pm_table *t, const struct pm_hotspot_opts *o,
		      struct pm_reader *r, int idx, size_t nr_slots,
		      size_t *kcol, struct hot_graph *g);
/* The table flags of o's call-graph view (0 without -g). */
unsigned int hot_graph__table_flags(const struct pm_hotspot_opts *o);

/* The descriptor of a key (enum pm_hot_key order). */
const struct hot_key *hot_key__get(enum pm_hot_key k);
/* The key named (or aliased) by the n characters at p; -1: none. */
int hot_key__find(const char *p, size_t n);

/* A column of a hotspot table: a count (all group members) or a key. */
enum hot_field_kind {
	HOT_F_OVERHEAD,		/* Overhead, or Self with children */
	HOT_F_CHILDREN,		/* Children */
	HOT_F_SAMPLE,
	HOT_F_PERIOD,
	HOT_F_NR_COUNTS,
	HOT_F_KEY = HOT_F_NR_COUNTS,
};

struct hot_field {
	enum hot_field_kind kind;
	enum pm_hot_key key;	/* HOT_F_KEY's */
};

#define HOT_MAX_FIELDS (HOT_F_NR_COUNTS + PM_HOT_MAX_KEYS)

/* With o->fields (hotspot-fields.c): the shown columns in perf's order
 * (-F's, then the keys it lacks); the order rows sort in (--sort's keys,
 * then -F's fields, then the other keys). Both return how many. */
size_t hot_fields__columns(const struct pm_hotspot_opts *o, struct hot_field *out);
size_t hot_fields__order(const struct pm_hotspot_opts *o, struct hot_field *out);

/* The last value of each sample-read counter, by id (hotspot-ids.c). */
struct hot_id_last {
	uint64_t id, last;
};

struct hot_ids {
	struct hot_id_last *ids;
	size_t nr, alloc;
	struct pm_hash index;
};

/* The id's last value, 0 when new. */
uint64_t *hot_ids__last(struct hot_ids *t, uint64_t id);
/* Forget every id (and free them): another recording's ids follow. */
void hot_ids__reset(struct hot_ids *t);

/* A fleet's events by name (hotspot-events.c): the names of the fleet
 * ids, and this recording's event index -> fleet id. */
struct hot_events {
	char **names;
	size_t nr_names, alloc_names;
	int *of_idx;
	size_t nr_idx;
};

/* The fleet id of event idx of r (this recording's). */
int hot_events__id(struct hot_events *fe, struct pm_reader *r, int idx);
/* Another recording follows: its indices are its own. */
void hot_events__next(struct hot_events *fe);
void hot_events__release(struct hot_events *fe);

/* A fleet's entries (hotspot-merge.c): those that show the same key cells
 * made one, their counts added, the others freed. The new count. */
size_t hot_rows__coalesce(struct hot_entry **e, size_t n, size_t nr_slots,
			  const struct pm_hotspot_opts *o);

#endif
