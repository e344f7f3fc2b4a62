// SPDX-License-Identifier: GPL-2.0
/* kplug-report: an open-addressing map from three ids to a record index. */
#include <stdlib.h>

#include "tools/report/report.h"

void map3_init(struct map3 *m, size_t n)
{
	m->size = 1024;
	while (m->size < n * 2)
		m->size *= 2;
	m->k = xcalloc(m->size, sizeof(*m->k));
	m->v = xcalloc(m->size, sizeof(*m->v));
}

void map3_free(struct map3 *m)
{
	free(m->k);
	free(m->v);
}

/* The slot for KEY: *found says whether it holds KEY already. */
size_t map3_slot(struct map3 *m, struct key3 key, int *found)
{
	uint64_t h = (key.a * 0x9E3779B97F4A7C15ULL) ^ (key.b * 0xC2B2AE3D27D4EB4FULL) ^
		     (key.c * 0x165667B19E3779F9ULL);
	size_t i = (size_t)(h ^ (h >> 29)) & (m->size - 1);

	while (m->v[i]) {
		struct key3 *k = &m->k[i];

		if (k->a == key.a && k->b == key.b && k->c == key.c) {
			*found = 1;
			return i;
		}
		i = (i + 1) & (m->size - 1);
	}
	*found = 0;
	m->k[i] = key;
	return i;
}
