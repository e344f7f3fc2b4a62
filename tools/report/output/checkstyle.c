// SPDX-License-Identifier: GPL-2.0
/* kplug-report: findings as checkstyle XML. */
#include <stdlib.h>
#include <string.h>

#include "tools/report/report.h"

static int cmp_finding_file(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;
	int c = strcmp(path_of(x->r->file), path_of(y->r->file));

	return c ? c : cmp_int(x->r->line, y->r->line);
}

void checkstyle(FILE *f, struct finding *fds, size_t n)
{
	const char *cur = NULL;
	size_t i;

	qsort(fds, n, sizeof(*fds), cmp_finding_file);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n");
	for (i = 0; i < n; i++) {
		const char *path = path_of(fds[i].r->file);
		char *msg;

		if (!cur || strcmp(cur, path)) {
			if (cur)
				fprintf(f, "  </file>\n");
			fprintf(f, "  <file name=\"");
			xml_str(f, path);
			fprintf(f, "\">\n");
			cur = path;
		}
		msg = finding_message(&fds[i]);
		fprintf(f, "    <error line=\"%d\" severity=\"warning\" message=\"",
			fds[i].r->line);
		xml_str(f, msg);
		free(msg);
		fprintf(f, "\" source=\"kplug.%s\"/>\n", rules[fds[i].rule].name);
	}
	if (cur)
		fprintf(f, "  </file>\n");
	fprintf(f, "</checkstyle>\n");
}
