// SPDX-License-Identifier: GPL-2.0
/* kplug-report macros: the macros charged with the most decision points. */
#include <stdlib.h>
#include <string.h>

#include "tools/report/report.h"

struct macstat {
	uint32_t name;
	long decisions;
	size_t functions;
	int max;
	const struct rec *worst;
};

static int cmp_macstat(const void *a, const void *b)
{
	const struct macstat *x = a, *y = b;

	if (x->decisions != y->decisions)
		return x->decisions < y->decisions ? 1 : -1;
	return strcmp(str_of(x->name), str_of(y->name));
}

static int macros(struct recset *rs)
{
	/* indexed by interned name id */
	struct macstat *by = xcalloc(strs.n + 1, sizeof(*by));
	struct macstat *v = xrealloc(NULL, (strs.n + 1) * sizeof(*v));
	size_t i, n = 0, nparts = 0;
	long total = 0;

	for (i = 0; i < rs->n; i++) {
		const struct rec *r = &rs->r[i];
		uint32_t j;

		if (r->dead)
			continue;
		nparts += r->has_parts;
		total += r->macro;
		for (j = 0; j < r->nmac; j++) {
			const struct mac *m = &macs.v[r->mac_off + j];
			struct macstat *s = &by[m->name];

			s->name = m->name;
			s->decisions += m->count;
			s->functions++;
			if (!s->worst || m->count > s->max) {
				s->max = m->count;
				s->worst = r;
			}
		}
	}
	if (!nparts) {
		flag_error("macros needs JSON Lines records (format=jsonl)");
		free(by);
		free(v);
		return -1;
	}
	for (i = 0; i < strs.n; i++)
		if (by[i].worst)
			v[n++] = by[i];
	qsort(v, n, sizeof(*v), cmp_macstat);
	if (opt.top_n && (size_t)opt.top_n < n)
		n = opt.top_n;
	if (opt.fmt == FMT_TEXT)
		printf("%-32s %10s %9s %5s  %s\n", "macro", "decisions", "functions", "max",
		       "worst function");
	else if (opt.fmt == FMT_CSV)
		printf("macro,decisions,functions,max,worst_file,worst_function\n");
	else
		printf("[");
	for (i = 0; i < n; i++) {
		const struct macstat *s = &v[i];

		if (opt.fmt == FMT_TEXT) {
			printf("%-32s %10ld %9zu %5d  %s:%s\n", str_of(s->name), s->decisions,
			       s->functions, s->max, path_of(s->worst->file),
			       str_of(s->worst->func));
		} else if (opt.fmt == FMT_CSV) {
			csv_str(stdout, str_of(s->name));
			printf(",%ld,%zu,%d,", s->decisions, s->functions, s->max);
			csv_str(stdout, path_of(s->worst->file));
			putchar(',');
			csv_str(stdout, str_of(s->worst->func));
			putchar('\n');
		} else {
			printf("%s{\"macro\":", i ? ",\n " : "");
			json_str(stdout, str_of(s->name));
			printf(",\"decisions\":%ld,\"functions\":%zu,\"max\":%d,\"worst\":",
			       s->decisions, s->functions, s->max);
			rec_json(stdout, s->worst);
			putchar('}');
		}
	}
	if (opt.fmt == FMT_JSON)
		printf("]\n");
	else if (opt.fmt == FMT_TEXT)
		printf("# %ld decision points come from macros in %zu functions\n", total,
		       rs->live);
	free(by);
	free(v);
	return 0;
}

const struct command cmd_macros = {
	.name = "macros", .args = "INPUT...",
	.help = "the macros charged with the most decision points",
	.flags = CMD_MACROS,
	.on_records = macros,
};
