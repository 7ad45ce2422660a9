/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal to the -e parser: its state and the term layer that evspec.c
 * (events, modifiers, groups) and evspec-terms.c (the "/term=value,.../"
 * lists: generic terms, PMU format fields, events/ aliases) share.
 */
#ifndef PMPROF_SAMPLING_EVSPEC_PARSE_H
#define PMPROF_SAMPLING_EVSPEC_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/error.h"
#include "pmprof/evspec.h"

#define GENERIC_TERMS "config,config1,config2,config3,name,period,freq," \
	"call-graph,stack-size,max-stack,hf-period,hf-rand,hf-burst,hf-jitter"

struct term {
	const char *key;	/* points into the string */
	size_t klen;
	const char *val;	/* NULL: no '=' */
	size_t vlen;
	size_t pos, vpos;
};

struct parser {
	const char *s;
	size_t pos;
	const char *root;
	struct pm_evspec_list *out;
	struct pm_error *err;
	bool mount_tracefs;		/* may mount tracefs (once) */
	bool mount_tried;
	struct pm_error mount_err;	/* why it could not be mounted */
};

/* The event being built, and which of its terms came where. */
struct build {
	struct pm_evspec_event ev;
	size_t hf_pos, rand_pos, burst_pos, jitter_pos, period_pos;
	bool has_hf, has_rand, has_burst, has_jitter;
};

/* A usage error at byte pos of the string: always negative. */
int evs_perr(struct parser *p, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

bool evs_is_name_char(char c);
size_t evs_name_len(const char *s);
/* Terms every event kind takes. 1: not generic, 0: done, <0: error. */
int evs_generic_term(struct parser *p, struct build *b, const struct term *t,
		     bool tracepoint);
/* The hf terms' rules, once every term is in. */
int evs_check_hf(struct parser *p, struct build *b);
/* One term of a PMU event: a format field, a generic term or an alias. */
int evs_pmu_term(struct parser *p, struct build *b, const char *pmu,
		 const struct term *t, int depth);
/* Apply an events/ alias: its text is itself a term list. */
int evs_apply_alias(struct parser *p, struct build *b, const char *pmu,
		    const char *text, size_t pos, int depth);
/* Read "/term,term=value,.../" starting at the first '/'. */
int evs_parse_terms(struct parser *p, struct term **terms, size_t *nr);

#endif
