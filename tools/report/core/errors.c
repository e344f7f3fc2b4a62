// SPDX-License-Identifier: GPL-2.0
/*
 * kplug-report: the two ways an error ends the run, and allocation.  Every
 * error line is "kplug-report: MESSAGE" on stderr; the exit status is 2.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "tools/report/report.h"

int tool_error;

static void error_line(const char *fmt, va_list ap)
{
	fprintf(stderr, TOOL ": ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_line(fmt, ap);
	va_end(ap);
	exit(EXIT_TOOL);
}

void flag_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_line(fmt, ap);
	va_end(ap);
	tool_error = 1;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		die("out of memory");
	return p;
}
