// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/hash.h"
#include "pmprof/keymap.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

static uint64_t key_hash(const void *arg, size_t i)
{
	const struct pm_keymap *m = arg;

	return pm_hash_bytes(m->keys[i], m->key_len[i]);
}

void **pm_keymap__findnew(struct pm_keymap *m, const void *key, size_t len,
			  bool *is_new)
{
	uint64_t h = pm_hash_bytes(key, len);
	size_t s = PM_HASH_FIND(&m->index, h, i,
				m->key_len[i] == len && !memcmp(m->keys[i], key, len));

	*is_new = false;
	if (!pm_hash__empty(&m->index, s))
		return &m->values[pm_hash__at(&m->index, s)];
	pm_hash__reserve(&m->index, m->nr, key_hash, m);
	s = PM_HASH_FIND(&m->index, h, i, false);
	PM_GROW(m->values, m->alloc, m->nr + 1);
	/* keys and key_len grow with values: same alloc, kept in step. */
	m->keys = pm_reallocarray(m->keys, m->alloc, sizeof(*m->keys));
	m->key_len = pm_reallocarray(m->key_len, m->alloc, sizeof(*m->key_len));
	m->keys[m->nr] = pm_malloc(len ? len : 1);
	memcpy(m->keys[m->nr], key, len);
	m->key_len[m->nr] = len;
	m->values[m->nr] = NULL;
	pm_hash__set(&m->index, s, m->nr);
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
	pm_hash__release(&m->index);
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
