// SPDX-License-Identifier: GPL-2.0
/* kplug-report: options, the error exit and allocation. */
#include <stdarg.h>
#include <stdlib.h>

#include "tools/report/report.h"

const char *const fmt_names[NFMT] = { "text", "csv", "json", "sarif", "checkstyle" };
const struct options opt_defaults = {
	.fmt = FMT_TEXT,
	.threshold = 30,
	.top_n = 10,
};
struct options opt;
int tool_error;
int want_macros;

void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, TOOL ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_TOOL);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}
