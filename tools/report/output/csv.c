// SPDX-License-Identifier: GPL-2.0
/* kplug-report: records as CSV. */
#include "tools/report/report.h"

void top_csv(FILE *f, const struct rec **v, size_t n)
{
	size_t i;

	fprintf(f, "M,own,macro,sanitizer,noreturn,file,line,function,inline_header,tus\n");
	for (i = 0; i < n; i++) {
		const struct rec *r = v[i];

		if (r->has_parts)
			fprintf(f, "%d,%d,%d,%d,%d,", r->m, r->own, r->macro, r->san, r->noret);
		else
			fprintf(f, "%d,,,,,", r->m);
		csv_str(f, path_of(r->file));
		fprintf(f, ",%d,", r->line);
		csv_str(f, str_of(r->func));
		fprintf(f, ",%d,%u\n", r->header, r->tus);
	}
}
