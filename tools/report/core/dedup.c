// SPDX-License-Identifier: GPL-2.0
/* kplug-report: de-duplication of the loaded records. */
#include "tools/report/report.h"

/*
 * Later records of the same translation unit, file and function replace
 * earlier ones; header inlines with the same file, function and M from
 * several translation units are kept once.
 */
void dedup(struct recset *rs)
{
	struct map3 m;
	size_t i, slot;
	int found;

	/* the last compile ("run") of each translation unit wins */
	map3_init(&m, rs->n);
	for (i = 0; i < rs->n; i++) {
		struct rec *r = &rs->r[i];
		struct key3 k = { r->tu, 0, 0 };

		if (!r->tu || !r->run)
			continue;
		slot = map3_slot(&m, k, &found);
		m.v[slot] = r->run + 1;
	}
	for (i = 0; i < rs->n; i++) {
		struct rec *r = &rs->r[i];
		struct key3 k = { r->tu, 0, 0 };

		if (!r->tu || !r->run)
			continue;
		slot = map3_slot(&m, k, &found);
		r->dead = m.v[slot] != r->run + 1;
	}
	map3_free(&m);
	/* without a run: a later record of the same TU, file and function wins */
	map3_init(&m, rs->n);
	for (i = 0; i < rs->n; i++) {
		struct rec *r = &rs->r[i];
		struct key3 k = { r->tu, r->file, r->func };

		if (!r->tu || r->dead)
			continue;
		slot = map3_slot(&m, k, &found);
		if (found)
			rs->r[m.v[slot] - 1].dead = 1;
		m.v[slot] = (uint32_t)i + 1;
	}
	map3_free(&m);
	map3_init(&m, rs->n);
	rs->live = 0;
	for (i = 0; i < rs->n; i++) {
		struct rec *r = &rs->r[i];
		struct key3 k = { r->file, r->func, (uint32_t)r->m };

		if (r->dead)
			continue;
		if (r->header) {
			slot = map3_slot(&m, k, &found);
			if (found) {
				r->dead = 1;
				rs->r[m.v[slot] - 1].tus++;
				continue;
			}
			m.v[slot] = (uint32_t)i + 1;
		}
		rs->live++;
	}
	map3_free(&m);
}
