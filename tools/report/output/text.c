// SPDX-License-Identifier: GPL-2.0
/* kplug-report: records as a text table. */
#include "tools/report/report.h"

static void macro_list(FILE *f, const struct rec *r, const char *sep)
{
	uint32_t i;

	for (i = 0; i < r->nmac; i++)
		fprintf(f, "%s%s %d", i ? sep : "", str_of(macs.v[r->mac_off + i].name),
			macs.v[r->mac_off + i].count);
}

void top_text(FILE *f, const struct rec **v, size_t n)
{
	size_t i;

	fprintf(f, "%5s %5s %5s %5s %5s  %-40s %s\n", "M", "own", "macro", "san",
		"noret", "location", "function");
	for (i = 0; i < n; i++) {
		const struct rec *r = v[i];

		if (r->has_parts)
			fprintf(f, "%5d %5d %5d %5d %5d  ", r->m, r->own, r->macro, r->san,
				r->noret);
		else
			fprintf(f, "%5d %5s %5s %5s %5s  ", r->m, "-", "-", "-", "-");
		put_location(f, r, 40);
		fprintf(f, " %s", str_of(r->func));
		if (r->header)
			fprintf(f, " [header, %u TUs]", r->tus);
		if (r->nmac) {
			fprintf(f, " (macros: ");
			macro_list(f, r, ", ");
			fputc(')', f);
		}
		fputc('\n', f);
	}
}
