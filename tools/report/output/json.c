// SPDX-License-Identifier: GPL-2.0
/* kplug-report: records as JSON. */
#include "tools/report/report.h"

void rec_json(FILE *f, const struct rec *r)
{
	uint32_t i;

	fprintf(f, "{\"file\":");
	json_str(f, path_of(r->file));
	fprintf(f, ",\"line\":%d,\"function\":", r->line);
	json_str(f, str_of(r->func));
	fprintf(f, ",\"M\":%d", r->m);
	if (r->has_parts)
		fprintf(f, ",\"own\":%d,\"macro\":%d,\"sanitizer\":%d,\"noreturn\":%d",
			r->own, r->macro, r->san, r->noret);
	fprintf(f, ",\"inline_header\":%s,\"tus\":%u", r->header ? "true" : "false", r->tus);
	if (r->nmac) {
		fprintf(f, ",\"macros\":{");
		for (i = 0; i < r->nmac; i++) {
			fprintf(f, "%s", i ? "," : "");
			json_str(f, str_of(macs.v[r->mac_off + i].name));
			fprintf(f, ":%d", macs.v[r->mac_off + i].count);
		}
		fputc('}', f);
	}
	fputc('}', f);
}

/* An array of records, one per line. */
void recs_json(FILE *f, const struct rec **v, size_t n)
{
	size_t i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		fputs(i ? ",\n " : "", f);
		rec_json(f, v[i]);
	}
	fputs("]\n", f);
}
