// SPDX-License-Identifier: GPL-2.0
/* kplug-report dirs: per directory count, max, p95, mean and count over threshold. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/report/report.h"

struct dirstat {
	uint32_t dir;
	size_t count, over;
	int max, p95;
	double mean;
};

static uint32_t dir_of(const struct rec *r)
{
	const char *p = path_of(r->file), *slash = NULL, *q;
	int depth = 0;

	for (q = p; *q; q++) {
		if (*q != '/')
			continue;
		if (opt.depth && depth == opt.depth)
			break;
		slash = q;
		depth++;
	}
	if (!slash)
		return intern(".", 1);
	return intern(p, slash - p);	/* P is in the string table: intern() copes */
}

struct dm {
	uint32_t dir;
	int32_t m;
};

static int cmp_dm(const void *a, const void *b)
{
	const struct dm *x = a, *y = b;
	int c = x->dir == y->dir ? 0 : strcmp(str_of(x->dir), str_of(y->dir));

	if (c)
		return c;
	return cmp_int(x->m, y->m);
}

static int cmp_dirstat(const void *a, const void *b)
{
	const struct dirstat *x = a, *y = b;

	if (x->max != y->max)
		return cmp_int(y->max, x->max);
	if (x->p95 != y->p95)
		return cmp_int(y->p95, x->p95);
	return strcmp(str_of(x->dir), str_of(y->dir));
}

static int dirs(struct recset *rs)
{
	struct dm *v = xrealloc(NULL, (rs->live + 1) * sizeof(*v));
	struct dirstat *d = xrealloc(NULL, (rs->live + 1) * sizeof(*d));
	size_t i, j, k = 0, nd = 0;

	for (i = 0; i < rs->n; i++) {
		if (rs->r[i].dead)
			continue;
		v[k].dir = dir_of(&rs->r[i]);
		v[k++].m = rs->r[i].m;
	}
	qsort(v, k, sizeof(*v), cmp_dm);
	for (i = 0; i < k; i = j) {
		double sum = 0;
		size_t n, over = 0;

		for (j = i; j < k && v[j].dir == v[i].dir; j++) {
			sum += v[j].m;
			over += v[j].m >= opt.threshold;
		}
		n = j - i;
		d[nd].dir = v[i].dir;
		d[nd].count = n;
		d[nd].over = over;
		d[nd].max = v[j - 1].m;
		/* nearest rank: the smallest M with at least 95% at or below it */
		d[nd].p95 = v[i + (size_t)ceil(0.95 * n) - 1].m;
		d[nd++].mean = sum / n;
	}
	qsort(d, nd, sizeof(*d), cmp_dirstat);
	if (opt.top_n && (size_t)opt.top_n < nd)
		nd = opt.top_n;
	if (opt.fmt == FMT_TEXT)
		printf("%-40s %8s %6s %6s %8s %8s\n", "directory", "count", "max", "p95",
		       "mean", "over");
	else if (opt.fmt == FMT_CSV)
		printf("directory,count,max,p95,mean,over_%ld\n", opt.threshold);
	else
		printf("[");
	for (i = 0; i < nd; i++) {
		const char *name = str_of(d[i].dir);

		if (opt.fmt == FMT_TEXT) {
			printf("%-40s %8zu %6d %6d %8.2f %8zu\n", name, d[i].count,
			       d[i].max, d[i].p95, d[i].mean, d[i].over);
		} else if (opt.fmt == FMT_CSV) {
			csv_str(stdout, name);
			printf(",%zu,%d,%d,%.2f,%zu\n", d[i].count, d[i].max, d[i].p95,
			       d[i].mean, d[i].over);
		} else {
			printf("%s{\"directory\":", i ? ",\n " : "");
			json_str(stdout, name);
			printf(",\"count\":%zu,\"max\":%d,\"p95\":%d,\"mean\":%.2f,"
			       "\"over\":%zu,\"threshold\":%ld}", d[i].count, d[i].max,
			       d[i].p95, d[i].mean, d[i].over, opt.threshold);
		}
	}
	if (opt.fmt == FMT_JSON)
		printf("]\n");
	free(v);
	free(d);
	return 0;
}

const struct command cmd_dirs = {
	.name = "dirs", .args = "INPUT...",
	.help = "per directory: count, max, p95, mean, count at or above threshold",
	.on_records = dirs,
};
