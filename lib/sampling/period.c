// SPDX-License-Identifier: GPL-2.0
/*
 * The sampling model: see period.h for the rules. Everything here is
 * arithmetic on the state; no clock, no global, no I/O.
 */
#include <string.h>

#include "pmprof/period.h"

#define NSEC_PER_SEC 1000000000ULL

const char *pm_window_kind_name(enum pm_window_kind k)
{
	switch (k) {
	case PM_WINDOW_PLAIN: return "plain";
	case PM_WINDOW_OPENING: return "opening";
	case PM_WINDOW_LONG: return "long";
	case PM_WINDOW_SHORT: return "short";
	}
	return "?";
}

uint64_t pm_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t below(struct pm_period *m, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)pm_splitmix64(&m->rng) * n) >> 64);
}

void pm_period_config__from_attr(struct pm_period_config *cfg,
				 const struct pm_attr *attr, uint32_t hf_burst,
				 uint32_t hf_jitter)
{
	memset(cfg, 0, sizeof(*cfg));
	if (pm_attr__flag(attr, PM_ATTR_FREQ))
		cfg->freq = attr->sample_period;
	else
		cfg->period = attr->sample_period;
	cfg->hf_period = attr->hf_sample_period;
	cfg->hf_rand = attr->hf_sample_rand;
	cfg->hf_burst = hf_burst;
	cfg->hf_jitter = hf_jitter;
	cfg->hz = PM_PERIOD_DEFAULT_HZ;
	cfg->max_sample_rate = PM_PERIOD_DEFAULT_MAX_RATE;
	cfg->tick_adjust = true;
}

int pm_period_config__validate(const struct pm_period_config *c,
			       struct pm_error *err)
{
	uint32_t burst = c->hf_burst ? c->hf_burst : 1;

	if (!c->freq && !c->period)
		return pm_error__fmt(err, PM_EUSAGE, "a sampling event needs a period or a frequency");
	if (!c->freq && (c->period >> 63))
		return pm_error__fmt(err, PM_EUSAGE, "period too big");
	if (c->hf_rand > 15)
		return pm_error__fmt(err, PM_EUSAGE, "hf_sample_rand %u out of range (0-15)", c->hf_rand);
	if (!c->hf_period && (c->hf_rand || c->hf_burst > 1 || c->hf_jitter))
		return pm_error__fmt(err, PM_EUSAGE, "hf-rand, hf-burst and hf-jitter need hf-period");
	if (c->hf_period && !c->freq &&
	    (uint64_t)c->hf_period * burst >= c->period)
		return pm_error__fmt(err, PM_EUSAGE,
				     "hf-period (%u) x hf-burst (%u) must be below the period (%llu)",
				     c->hf_period, burst, (unsigned long long)c->period);
	if (c->hf_jitter && c->hf_jitter / 2 >= c->hf_period)
		return pm_error__fmt(err, PM_EUSAGE, "hf-jitter (%u) must be below 2 x hf-period (%u)",
				     c->hf_jitter, c->hf_period);
	return 0;
}

uint64_t pm_period_target(uint64_t count, uint64_t nsec, uint64_t freq)
{
	unsigned __int128 num = (unsigned __int128)count * NSEC_PER_SEC;
	unsigned __int128 den = (unsigned __int128)nsec * freq;
	unsigned __int128 q;

	if (!den)
		return num > UINT64_MAX ? UINT64_MAX : (uint64_t)num;
	q = num / den;
	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

uint64_t pm_period_lowpass(uint64_t base, uint64_t target)
{
	int64_t delta = (int64_t)(target - base);
	uint64_t next;

	/* Round away from zero by 7/8, then divide: the kernel's filter. */
	if (delta >= 0)
		delta += 7;
	else
		delta -= 7;
	delta /= 8;
	next = base + (uint64_t)delta;
	return next ? next : 1;
}

static uint32_t burst_of(const struct pm_period *m)
{
	return m->cfg.hf_burst ? m->cfg.hf_burst : 1;
}

static int64_t plain_jitter(struct pm_period *m)
{
	uint64_t j = m->cfg.hf_jitter;

	if (!j)
		return 0;
	return (int64_t)below(m, j) - (int64_t)(j / 2);
}

/* Choose the next window after an overflow (the kernel's hf block in
 * __perf_event_overflow, plus bursts and hf_jitter). */
static void next_window(struct pm_period *m)
{
	uint64_t hf_total = (uint64_t)m->cfg.hf_period * burst_of(m);
	int64_t len = (int64_t)m->base;
	enum pm_window_kind kind = PM_WINDOW_PLAIN;

	/* hf_rand moves every window that is not a short one */
	if (m->cfg.hf_period && m->cfg.hf_rand && !m->shorts_due) {
		uint64_t r = 1ULL << m->cfg.hf_rand;

		len += (int64_t)(pm_splitmix64(&m->rng) & (r - 1)) - (int64_t)(r / 2);
	}
	if (m->cfg.hf_period && len > (int64_t)hf_total) {
		if (m->shorts_due) {
			len = m->cfg.hf_period;
			m->shorts_due--;
			kind = PM_WINDOW_SHORT;
		} else {
			len -= (int64_t)hf_total;
			m->shorts_due = burst_of(m);
			kind = PM_WINDOW_LONG;
		}
		len += plain_jitter(m);
	}
	if (len < 1)
		len = 1;
	m->length = m->left = (uint64_t)len;
	m->kind = kind;
}

void pm_period__init(struct pm_period *m, const struct pm_period_config *cfg)
{
	uint64_t hf_total;

	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	if (!m->cfg.hz)
		m->cfg.hz = PM_PERIOD_DEFAULT_HZ;
	m->rng = cfg->seed;
	/* Frequency mode starts from a period of 1, as the kernel does. */
	m->base = cfg->freq ? 1 : cfg->period;
	if (!m->base)
		m->base = 1;
	if (cfg->max_sample_rate)
		m->max_per_tick = (cfg->max_sample_rate + m->cfg.hz - 1) / m->cfg.hz;
	hf_total = (uint64_t)cfg->hf_period * burst_of(m);
	if (cfg->hf_period && hf_total < m->base) {
		m->length = m->base - hf_total;
		m->kind = PM_WINDOW_OPENING;
		m->shorts_due = burst_of(m);
	} else {
		m->length = m->base;
		m->kind = PM_WINDOW_PLAIN;
	}
	m->left = m->length;
}

uint64_t pm_period__left(const struct pm_period *m)
{
	return m->throttled ? UINT64_MAX : m->left;
}

static void adjust(struct pm_period *m, uint64_t nsec, uint64_t count)
{
	m->base = pm_period_lowpass(m->base, pm_period_target(count, nsec, m->cfg.freq));
}

void pm_period__overflow(struct pm_period *m, uint64_t now_ns,
			 struct pm_overflow *ov)
{
	uint64_t tick_ns = NSEC_PER_SEC / m->cfg.hz;

	memset(ov, 0, sizeof(*ov));
	ov->period = m->length;
	ov->kind = m->kind;
	m->overflows++;

	/* Throttling: the kernel counts interrupts per tick. */
	m->interrupts++;
	if (m->max_per_tick && m->interrupts > m->max_per_tick) {
		ov->throttle = true;
		m->throttled = true;
	}
	/* Frequency: only a window that is not a short one feeds it. */
	if (m->cfg.freq && m->kind != PM_WINDOW_SHORT) {
		if (m->freq_stamp_valid) {
			uint64_t delta = now_ns - m->freq_stamp;

			if (now_ns > m->freq_stamp && delta < 2 * tick_ns) {
				adjust(m, delta, m->length);
				ov->feeds_freq = true;
			}
		}
		m->freq_stamp = now_ns;
		m->freq_stamp_valid = true;
	}
	next_window(m);
	ov->base = m->base;
	ov->next_period = m->length;
	ov->next_kind = m->kind;
}

int pm_period__count(struct pm_period *m, uint64_t *events, uint64_t now_ns,
		     struct pm_overflow *ov)
{
	if (m->throttled) {
		*events = 0;
		return 0;
	}
	if (*events < m->left) {
		m->left -= *events;
		m->tick_events += *events;
		*events = 0;
		return 0;
	}
	*events -= m->left;
	m->tick_events += m->left;
	m->left = 0;
	pm_period__overflow(m, now_ns, ov);
	return 1;
}

void pm_period__tick(struct pm_period *m, uint64_t now_ns, struct pm_tick *t)
{
	uint64_t tick_ns = NSEC_PER_SEC / m->cfg.hz;

	(void)now_ns;
	memset(t, 0, sizeof(*t));
	m->interrupts = 0;
	if (m->throttled) {
		m->throttled = false;
		t->unthrottle = true;
	}
	if (m->cfg.freq && m->cfg.tick_adjust && m->tick_events) {
		uint64_t before = m->base;

		adjust(m, tick_ns, m->tick_events);
		t->adjusted = m->base != before;
		/* A window far longer than the new base is cut short. */
		if (m->left > 8 * m->base) {
			uint64_t hf_total = (uint64_t)m->cfg.hf_period * burst_of(m);
			uint64_t len = m->base;

			if (m->kind == PM_WINDOW_SHORT)
				len = m->cfg.hf_period;
			else if ((m->kind == PM_WINDOW_LONG || m->kind == PM_WINDOW_OPENING) &&
				 m->base > hf_total)
				len = m->base - hf_total;
			m->length = m->left = len ? len : 1;
			t->restarted = true;
		}
	}
	m->tick_events = 0;
}
