// SPDX-License-Identifier: GPL-2.0
/*
 * kplug-report: the string table.  Every file name, function, translation
 * unit, run and macro name is interned once and named by a 32-bit id.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/report/report.h"

struct strtab strs;

/* A multiplicative hash, eight bytes at a time; stable across runs. */
static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 0x9E3779B97F4A7C15ULL ^ n, w;

	while (n >= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
		h ^= h >> 32;
		s += 8;
		n -= 8;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xC4CEB9FE1A85EC53ULL;
	return h ^ (h >> 29);
}

/*
 * A slot: the upper 32 bits of the hash (the tag, which also places the
 * slot: a rehash needs no string) and the id + 1 (0: empty).
 */
#define SLOT(h, id)	((((h) >> 32) << 32) | ((uint64_t)(id) + 1))
#define SLOT_ID(v)	((uint32_t)(v) - 1)
#define SLOT_TAG(v)	((v) >> 32)

static size_t str_len(uint32_t id)
{
	size_t end = id + 1 < strs.n ? strs.off[id + 1] : strs.len;

	return end - strs.off[id] - 1;
}

static void str_rehash(void)
{
	uint32_t i, j, n = strs.nslot ? strs.nslot * 2 : 1024;
	uint64_t *old = strs.slot, *slot = xcalloc(n, sizeof(*slot));

	for (i = 0; i < strs.nslot; i++) {
		uint64_t v = old[i];

		if (!v)
			continue;
		j = (uint32_t)SLOT_TAG(v) & (n - 1);
		while (slot[j])
			j = (j + 1) & (n - 1);
		slot[j] = v;
	}
	free(old);
	strs.slot = slot;
	strs.nslot = n;
}

/* Room for N more bytes in the arena; S may point into the arena. */
static const char *arena_reserve(const char *s, size_t n)
{
	uintptr_t a = (uintptr_t)strs.arena, p = (uintptr_t)s;
	size_t at;

	if (strs.len + n + 1 <= strs.size)
		return s;
	/* a string of the arena moves with it */
	at = a && p >= a && p < a + strs.len ? (size_t)(p - a) : SIZE_MAX;
	strs.size = (strs.len + n + 1) * 2;
	strs.arena = xrealloc(strs.arena, strs.size);
	return at == SIZE_MAX ? s : strs.arena + at;
}

/*
 * The id of the N bytes at S, added if new.  Slots keep the hash tag, so a
 * probe touches the string arena only when the tags match.  S may point
 * into the arena itself (a prefix of an interned string).
 */
uint32_t intern(const char *s, size_t n)
{
	uint64_t h, v;
	uint32_t i;

	if ((strs.n + 1) * 2 > strs.nslot)
		str_rehash();
	h = hash_bytes(s, n);
	i = (uint32_t)(h >> 32) & (strs.nslot - 1);
	while ((v = strs.slot[i])) {
		if (SLOT_TAG(v) == h >> 32 && str_len(SLOT_ID(v)) == n &&
		    !memcmp(str_of(SLOT_ID(v)), s, n))
			return SLOT_ID(v);
		i = (i + 1) & (strs.nslot - 1);
	}
	if (strs.len + n + 1 > UINT32_MAX || strs.n == UINT32_MAX - 1)
		die("too many strings in the input");
	s = arena_reserve(s, n);
	if (strs.n == strs.cap) {
		strs.cap = strs.cap ? strs.cap * 2 : 1024;
		strs.off = xrealloc(strs.off, strs.cap * sizeof(*strs.off));
	}
	memcpy(strs.arena + strs.len, s, n);
	strs.arena[strs.len + n] = '\0';
	strs.off[strs.n] = (uint32_t)strs.len;
	strs.len += n + 1;
	strs.slot[i] = SLOT(h, strs.n);
	return strs.n++;
}

void strtab_free(void)
{
	free(strs.arena);
	free(strs.off);
	free(strs.slot);
	memset(&strs, 0, sizeof(strs));
}
