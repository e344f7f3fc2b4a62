// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness over kplug-report's coverage map reader
 * (tools/report/input/covmap.c): the input is the contents of a
 * .debug_kplug_sancov section.  A map that loads is then hit at every
 * address it names and at a few it does not, and its lines and totals are
 * read: nothing may crash, read or write out of bounds, or leak.
 *
 * Invariants: a failed load gives a reason; the probes hit never exceed
 * the probes counted.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/report/input/covmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct covmap m = { 0 };
	const char *err = NULL;
	size_t i, n, probes, hit;
	char **lines;

	/* covmap_free() frees the data the records point into */
	m.data = malloc(size + 1);
	memcpy(m.data, data, size);
	if (covmap_load(&m, m.data, size, &err) < 0) {
		if (!err)
			abort();
		covmap_free(&m);
		return 0;
	}
	for (i = 0; i < m.npcs; i++) {
		covmap_hit(&m, m.pcs[i].pc);
		covmap_hit(&m, m.pcs[i].pc + 1);
	}
	for (i = 0; i < m.nfns; i++)
		covmap_hit(&m, m.fns[i].array + m.fns[i].elt_size);
	lines = covmap_lines(&m, &n);
	for (i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	covmap_stats(&m, &probes, &hit);
	if (hit > probes)
		abort();
	covmap_free(&m);
	return 0;
}
