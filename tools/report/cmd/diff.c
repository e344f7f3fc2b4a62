// SPDX-License-Identifier: GPL-2.0
/* kplug-report diff: new functions at or above the threshold and grown ones. */
#include <stdlib.h>

#include "tools/report/report.h"

/* file+function -> the record with the largest M among the live ones. */
static void index_functions(const struct recset *rs, struct map3 *m)
{
	size_t i, slot;
	int found;

	map3_init(m, rs->n);
	for (i = 0; i < rs->n; i++) {
		const struct rec *r = &rs->r[i];
		struct key3 k = { r->file, r->func, 0 };

		if (r->dead)
			continue;
		slot = map3_slot(m, k, &found);
		if (!found || rs->r[m->v[slot] - 1].m < r->m)
			m->v[slot] = (uint32_t)i + 1;
	}
}

static void diff_text(const struct finding *fds, size_t n, size_t nnew, size_t ngrown,
		      size_t nshrunk, size_t nremoved)
{
	size_t i;

	printf("%-7s %5s %5s %6s  %-40s %s\n", "change", "base", "M", "delta", "location",
	       "function");
	for (i = 0; i < n; i++) {
		const struct rec *r = fds[i].r;

		if (!fds[i].has_base)
			printf("%-7s %5s %5d %6s  ", "new", "-", r->m, "");
		else
			printf("%-7s %5d %5d %+6lld  ", "grown", fds[i].base_m, r->m,
			       (long long)r->m - fds[i].base_m);
		put_location(stdout, r, 40);
		printf(" %s\n", str_of(r->func));
	}
	printf("# %zu new at or above %ld, %zu grown, %zu shrunk, %zu removed\n", nnew,
	       opt.threshold, ngrown, nshrunk, nremoved);
}

static int cmp_finding(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;
	long dx = (long)x->r->m - (x->has_base ? x->base_m : 0);
	long dy = (long)y->r->m - (y->has_base ? y->base_m : 0);

	if (x->has_base != y->has_base)
		return x->has_base ? 1 : -1;
	if (dx != dy)
		return cmp_int(dy, dx);
	return cmp_rec_ptr(&x->r, &y->r);
}

static int diff_sets(struct recset *base, struct recset *cur)
{
	struct map3 bi, ci;
	struct finding *fds = xrealloc(NULL, (cur->live + 1) * sizeof(*fds));
	size_t i, n = 0, nnew = 0, ngrown = 0, nshrunk = 0, nremoved = 0, slot;
	int found, breach = 0;

	index_functions(base, &bi);
	index_functions(cur, &ci);
	for (i = 0; i < ci.size; i++) {
		const struct rec *r;
		struct key3 k;

		if (!ci.v[i])
			continue;
		r = &cur->r[ci.v[i] - 1];
		k = ci.k[i];
		slot = map3_slot(&bi, k, &found);
		if (!found) {
			bi.v[slot] = 0;		/* keep the baseline map unchanged */
			if (r->m < opt.threshold)
				continue;
			fds[n].has_base = 0;
			fds[n].base_m = 0;
			fds[n].rule = 0;
			nnew++;
			breach = 1;
		} else {
			int bm = base->r[bi.v[slot] - 1].m;

			nshrunk += r->m < bm;
			if (r->m <= bm)
				continue;
			fds[n].has_base = 1;
			fds[n].base_m = bm;
			fds[n].rule = 1;
			ngrown++;
			breach |= r->m >= opt.threshold;
		}
		fds[n++].r = r;
	}
	for (i = 0; i < bi.size; i++) {
		if (!bi.v[i])
			continue;
		map3_slot(&ci, bi.k[i], &found);
		nremoved += !found;
	}
	qsort(fds, n, sizeof(*fds), cmp_finding);
	switch (opt.fmt) {
	case FMT_TEXT:
		diff_text(fds, n, nnew, ngrown, nshrunk, nremoved);
		break;
	case FMT_SARIF:
		sarif(stdout, fds, n);
		break;
	case FMT_CHECKSTYLE:
		checkstyle(stdout, fds, n);
		break;
	case FMT_CSV:
		printf("change,base_M,M,file,line,function\n");
		for (i = 0; i < n; i++) {
			printf("%s,", fds[i].has_base ? "grown" : "new");
			if (fds[i].has_base)
				printf("%d", fds[i].base_m);
			printf(",%d,", fds[i].r->m);
			csv_str(stdout, path_of(fds[i].r->file));
			printf(",%d,", fds[i].r->line);
			csv_str(stdout, str_of(fds[i].r->func));
			putchar('\n');
		}
		break;
	case FMT_JSON:
		printf("{\"threshold\":%ld,\"new\":%zu,\"grown\":%zu,\"shrunk\":%zu,"
		       "\"removed\":%zu,\"changes\":[", opt.threshold, nnew, ngrown, nshrunk,
		       nremoved);
		for (i = 0; i < n; i++) {
			printf("%s{\"change\":\"%s\",\"base_M\":%d,\"record\":", i ? ",\n " : "",
			       fds[i].has_base ? "grown" : "new", fds[i].has_base ? fds[i].base_m : -1);
			rec_json(stdout, fds[i].r);
			putchar('}');
		}
		printf("]}\n");
		break;
	}
	map3_free(&bi);
	map3_free(&ci);
	free(fds);
	return breach;
}

/* BASE NEW: each loaded and de-duplicated on its own. */
static int diff(char **inputs, int n)
{
	struct recset base, cur;
	int ret;

	if (n != 2)
		die("diff needs exactly two inputs: BASE NEW");
	load(&base, &inputs[0], 1);
	load(&cur, &inputs[1], 1);
	ret = tool_error ? -1 : diff_sets(&base, &cur);
	recset_free(&base);
	recset_free(&cur);
	return ret;
}

const struct command cmd_diff = {
	.name = "diff", .args = "BASE NEW",
	.help = "new functions at or above the threshold and grown ones",
	.flags = CMD_MACROS | CMD_FINDINGS,
	.on_inputs = diff,
};
