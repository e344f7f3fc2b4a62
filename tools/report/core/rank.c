// SPDX-License-Identifier: GPL-2.0
/* kplug-report: the order of records (most complex first) and the top N. */
#include <stdlib.h>
#include <string.h>

#include "tools/report/report.h"

/* -1, 0 or 1 as A is below, equal to or above B: no overflow. */
int cmp_int(long a, long b)
{
	return (a > b) - (a < b);
}

/* Higher M first; ties by file, line, function: the output is stable. */
int rec_before(const struct rec *a, const struct rec *b)
{
	int c;

	if (a->m != b->m)
		return a->m > b->m;
	c = strcmp(str_of(a->file), str_of(b->file));
	if (c)
		return c < 0;
	if (a->line != b->line)
		return a->line < b->line;
	return strcmp(str_of(a->func), str_of(b->func)) < 0;
}

int cmp_rec_ptr(const void *a, const void *b)
{
	const struct rec *x = *(const struct rec *const *)a;
	const struct rec *y = *(const struct rec *const *)b;

	return rec_before(x, y) ? -1 : rec_before(y, x) ? 1 : 0;
}

static void heap_down(const struct rec **h, size_t n, size_t i)
{
	const struct rec *t;

	for (;;) {
		size_t l = 2 * i + 1, w = i;

		/* a min-heap of "worst kept first": the root is the last in order */
		if (l < n && rec_before(h[w], h[l]))
			w = l;
		if (l + 1 < n && rec_before(h[w], h[l + 1]))
			w = l + 1;
		if (w == i)
			return;
		t = h[i];
		h[i] = h[w];
		h[w] = t;
		i = w;
	}
}

/* The first N records in rec_before order (all with N == 0), sorted. */
const struct rec **select_top(const struct recset *rs, size_t n, size_t *out)
{
	const struct rec **h;
	size_t i, k = 0;

	if (!n || n > rs->live)
		n = rs->live;
	h = xrealloc(NULL, (n + 1) * sizeof(*h));
	for (i = 0; i < rs->n && n; i++) {
		const struct rec *r = &rs->r[i];

		if (r->dead)
			continue;
		if (k < n) {
			h[k++] = r;
			if (k == n) {
				size_t j = n / 2 + 1;

				while (j--)
					heap_down(h, n, j);
			}
		} else if (rec_before(r, h[0])) {
			h[0] = r;
			heap_down(h, n, 0);
		}
	}
	qsort(h, k, sizeof(*h), cmp_rec_ptr);
	*out = k;
	return h;
}

/* Live functions at or above the threshold. */
size_t over_threshold(const struct recset *rs)
{
	size_t i, n = 0;

	for (i = 0; i < rs->n; i++)
		n += !rs->r[i].dead && rs->r[i].m >= opt.threshold;
	return n;
}
