// SPDX-License-Identifier: GPL-2.0
/* perf script's text for samples (pmprof/script.h). */
#include <inttypes.h>
#include <string.h>

#include "pmprof/error.h"
#include "pmprof/script.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

static const struct {
	const char *name;
	unsigned int bit;
	uint64_t needs;		/* the sample_type bit the field prints */
} fields[] = {
	{ "comm", PM_SCRIPT_COMM, PM_SAMPLE_TID },
	{ "tid", PM_SCRIPT_TID, PM_SAMPLE_TID },
	{ "pid", PM_SCRIPT_PID, PM_SAMPLE_TID },
	{ "cpu", PM_SCRIPT_CPU, PM_SAMPLE_CPU },
	{ "time", PM_SCRIPT_TIME, PM_SAMPLE_TIME },
	{ "period", PM_SCRIPT_PERIOD, PM_SAMPLE_PERIOD },
	{ "event", PM_SCRIPT_EVENT, 0 },
	{ "ip", PM_SCRIPT_IP, PM_SAMPLE_IP },
	{ "sym", PM_SCRIPT_SYM, PM_SAMPLE_IP },
	{ "symoff", PM_SCRIPT_SYMOFF, PM_SAMPLE_IP },
	{ "dso", PM_SCRIPT_DSO, PM_SAMPLE_IP },
};

static int field_bit(const char *name, size_t len, unsigned int *bit)
{
	for (size_t i = 0; i < PM_ARRAY_SIZE(fields); i++)
		if (strlen(fields[i].name) == len && !memcmp(fields[i].name, name, len)) {
			*bit = fields[i].bit;
			return 0;
		}
	return -1;
}

int pm_script_fields__parse(const char *spec, struct pm_script_fields *f,
			    struct pm_error *err)
{
	bool modify = spec[0] == '+' || spec[0] == '-';
	const char *p = spec;

	f->want = modify ? PM_SCRIPT_DEFAULT : 0;
	f->asked = 0;
	while (*p) {
		const char *end = strchrnul(p, ',');
		char op = modify ? *p : '+';
		unsigned int bit;

		if (modify && (op == '+' || op == '-'))
			p++;
		else if (modify)
			return pm_error__fmt(err, PM_EUSAGE,
					     "'%.*s': with +/- changes, each field needs its sign",
					     (int)(end - p), p);
		if (field_bit(p, (size_t)(end - p), &bit))
			return pm_error__fmt(err, PM_EUSAGE,
					     "'%.*s' is no field pmprof script prints (comm, tid, pid, cpu, time, period, event, ip, sym, symoff, dso)",
					     (int)(end - p), p);
		if (op == '+') {
			f->want |= bit;
			f->asked |= bit;
		} else {
			f->want &= ~bit;
			f->asked &= ~bit;
		}
		p = *end ? end + 1 : end;
	}
	if ((f->want & (PM_SCRIPT_SYM | PM_SCRIPT_SYMOFF | PM_SCRIPT_DSO)) &&
	    !(f->want & PM_SCRIPT_IP))
		return pm_error__fmt(err, PM_EUSAGE, "sym, symoff and dso need ip");
	if ((f->want & PM_SCRIPT_SYMOFF) && !(f->want & PM_SCRIPT_SYM))
		return pm_error__fmt(err, PM_EUSAGE, "symoff needs sym");
	if (!f->want)
		return pm_error__fmt(err, PM_EUSAGE, "no field to print");
	return 0;
}

int pm_script_fields__for_event(const struct pm_script_fields *f,
				const struct pm_event *ev, unsigned int *out,
				struct pm_error *err)
{
	uint64_t st = ev->attr.sample_type;

	*out = f->want;
	for (size_t i = 0; i < PM_ARRAY_SIZE(fields); i++) {
		if (!(f->want & fields[i].bit) || !fields[i].needs ||
		    (st & fields[i].needs))
			continue;
		if (f->asked & fields[i].bit)
			return pm_error__fmt(err, PM_EUSAGE,
					     "samples of '%s' do not record what %s prints",
					     ev->name, fields[i].name);
		*out &= ~fields[i].bit;
	}
	return 0;
}

int pm_script__event_width(struct pm_reader *r)
{
	size_t w = 0;

	for (size_t i = 0; i < pm_reader__nr_events(r); i++) {
		const struct pm_event *ev = pm_reader__event(r, i);

		if (ev && ev->name)
			w = PM_MAX(w, strlen(ev->name));
	}
	return (int)PM_MIN(w, 256);
}

static void add_header(unsigned int f, int event_width,
		       const struct pm_sample_ctx *ctx, bool chain,
		       struct pm_strbuf *sb)
{
	const struct pm_sample *smp = ctx->sample;

	if (f & PM_SCRIPT_COMM)
		pm_strbuf__addf(sb, chain ? "%s " : "%16s ", ctx->thread->comm);
	if ((f & PM_SCRIPT_PID) && (f & PM_SCRIPT_TID))
		pm_strbuf__addf(sb, "%5d/%-5d ", (int)smp->pid, (int)smp->tid);
	else if (f & PM_SCRIPT_PID)
		pm_strbuf__addf(sb, "%5d ", (int)smp->pid);
	else if (f & PM_SCRIPT_TID)
		pm_strbuf__addf(sb, "%5d ", (int)smp->tid);
	if (f & PM_SCRIPT_CPU)
		pm_strbuf__addf(sb, "[%03u] ", smp->cpu);
	if (f & PM_SCRIPT_TIME)
		pm_strbuf__addf(sb, "%5" PRIu64 ".%06" PRIu64 ": ",
				smp->time / 1000000000, smp->time % 1000000000 / 1000);
	if (f & PM_SCRIPT_PERIOD)
		pm_strbuf__addf(sb, "%10" PRIu64 " ", smp->period);
	if (f & PM_SCRIPT_EVENT)
		pm_strbuf__addf(sb, "%*s: ", event_width,
				ctx->event ? ctx->event->name : "unknown");
}

/* " SYM+OFF (DSO)" of a location. */
static void add_where(unsigned int f, const struct pm_addr_loc *loc,
		      struct pm_strbuf *sb)
{
	if (f & PM_SCRIPT_SYM) {
		if (!loc->sym)
			pm_strbuf__adds(sb, " [unknown]");
		else if (f & PM_SCRIPT_SYMOFF)
			pm_strbuf__addf(sb, " %s+0x%" PRIx64, loc->sym->name, loc->sym_off);
		else
			pm_strbuf__addf(sb, " %s", loc->sym->name);
	}
	if (f & PM_SCRIPT_DSO)
		pm_strbuf__addf(sb, " (%s)", loc->dso ? pm_dso__name(loc->dso)
						      : "[unknown]");
}

void pm_script__format(unsigned int f, int event_width, struct pm_session *s,
		       const struct pm_sample_ctx *ctx, struct pm_strbuf *sb)
{
	const struct pm_addr_loc *chain = NULL;
	size_t n = 0;

	/* an event that samples call chains prints them as a block, even an
	 * empty one (perf drops a chain it cannot read: then the header
	 * line and the blank line alone) */
	bool chained = (f & PM_SCRIPT_IP) && ctx->sample &&
		       (ctx->sample->sample_type & PM_SAMPLE_CALLCHAIN);

	if (f & PM_SCRIPT_IP)
		n = pm_session__callchain(s, &chain);
	chained = chained || n > 0;
	add_header(f, event_width, ctx, chained, sb);
	if (!chained) {
		if (f & PM_SCRIPT_IP) {
			pm_strbuf__addf(sb, " %16" PRIx64, ctx->ip.ip);
			add_where(f, &ctx->ip, sb);
		}
		pm_strbuf__addc(sb, '\n');
		return;
	}
	pm_strbuf__addc(sb, '\n');
	for (size_t i = 0; i < n; i++) {
		/* perf's map-relative address: the file offset in a file map,
		 * which an executable linked at 0x400000 tells apart */
		pm_strbuf__addf(sb, "\t%16" PRIx64, chain[i].map ? chain[i].rel
								  : chain[i].ip);
		add_where(f, &chain[i], sb);
		pm_strbuf__addc(sb, '\n');
	}
	pm_strbuf__addc(sb, '\n');
}
