/* SPDX-License-Identifier: GPL-2.0 */
/* The hotspot accumulator's entries and its sort-key descriptors. */
#ifndef PMPROF_HOTSPOT_INT_H
#define PMPROF_HOTSPOT_INT_H

#include "pmprof/callgraph.h"
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
	int self_col, dso_col, name_col[2];	/* name: table and JSON */
	int weight_col;		/* --children: the period through a node
				   (else period_col is) */
};

/* The tree's nodes (finished for opts) under the row, as perf -g shows
 * them (lib/analysis/hotspot-graph.c). */
void hot_graph__rows(struct pm_table *t, size_t row, struct pm_cg_node *tree,
		     const struct hot_graph *g);

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

#endif
