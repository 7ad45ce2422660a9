// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/keymap.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

/* FNV-1a: short keys, no adversary; good enough to spread the slots. */
static uint64_t hash(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--) {
		h ^= (unsigned char)*p++;
		h *= 0x100000001b3ull;
	}
	return h;
}

static void rehash(struct pm_keymap *m, size_t nr_slots)
{
	size_t i;

	free(m->slots);
	m->slots = pm_calloc(nr_slots, sizeof(*m->slots));
	m->nr_slots = nr_slots;
	for (i = 0; i < m->nr; i++) {
		size_t s = hash(m->keys[i], m->key_len[i]) & (nr_slots - 1);

		while (m->slots[s])
			s = (s + 1) & (nr_slots - 1);
		m->slots[s] = i + 1;
	}
}

void **pm_keymap__findnew(struct pm_keymap *m, const void *key, size_t len,
			  bool *is_new)
{
	size_t s;

	*is_new = false;
	if ((m->nr + 1) * 2 > m->nr_slots)
		rehash(m, m->nr_slots ? m->nr_slots * 2 : 64);
	s = hash(key, len) & (m->nr_slots - 1);
	while (m->slots[s]) {
		size_t i = m->slots[s] - 1;

		if (m->key_len[i] == len && !memcmp(m->keys[i], key, len))
			return &m->values[i];
		s = (s + 1) & (m->nr_slots - 1);
	}
	PM_GROW(m->values, m->alloc, m->nr + 1);
	/* keys and key_len grow with values: same alloc, kept in step. */
	m->keys = pm_reallocarray(m->keys, m->alloc, sizeof(*m->keys));
	m->key_len = pm_reallocarray(m->key_len, m->alloc, sizeof(*m->key_len));
	m->keys[m->nr] = pm_malloc(len ? len : 1);
	memcpy(m->keys[m->nr], key, len);
	m->key_len[m->nr] = len;
	m->values[m->nr] = NULL;
	m->slots[s] = m->nr + 1;
	*is_new = true;
	return &m->values[m->nr++];
}

void pm_keymap__release(struct pm_keymap *m)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->key_len);
	free(m->values);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

void *pm_keymap__findnew_zeroed(struct pm_keymap *m, const void *key,
				size_t len, size_t size, bool *is_new)
{
	void **slot = pm_keymap__findnew(m, key, len, is_new);

	if (*is_new)
		*slot = pm_zalloc(size);
	return *slot;
}

void pm_key__add_str(struct pm_strbuf *key, const char *s)
{
	if (!s) {
		pm_strbuf__addc(key, '\0');
		return;
	}
	pm_strbuf__addc(key, '\1');
	pm_strbuf__add(key, s, strlen(s) + 1);
}
