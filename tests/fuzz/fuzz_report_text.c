// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness over kplug-report's text reader (tools/report/input/text-record.c):
 * "Cyclomatic Complexity " followed by the input, as one line.
 *
 * Invariants: a record has M in 0..INT32_MAX written as the decimal digits
 * of the line, a non-empty file and function that are the rest of the line
 * split at its last ':'; a failure gives a reason.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/report/report.h"
#include "tools/report/input/batch.h"

static void check(const char *line, size_t len, const struct raw *r)
{
	const char *rest = memchr(line + sizeof(TEXT_HEAD) - 1, ' ', len - (sizeof(TEXT_HEAD) - 1));
	char m[16];
	int n;

	if (!rest || r->m < 0 || !r->file.n || !r->func.n)
		abort();
	n = snprintf(m, sizeof(m), "%d", r->m);
	/* the digits may carry leading zeros: the value is what counts */
	if ((size_t)(rest - line) - (sizeof(TEXT_HEAD) - 1) < (size_t)n ||
	    memcmp(rest - n, m, n))
		abort();
	if (r->file.p != rest + 1 || r->file.p[r->file.n] != ':' ||
	    r->func.p != r->file.p + r->file.n + 1 || r->func.p + r->func.n != line + len ||
	    memchr(r->func.p, ':', r->func.n))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len = sizeof(TEXT_HEAD) - 1 + size;
	char *line = malloc(len + 1 + SCAN_SLACK);
	struct scan s;
	struct raw r;

	memcpy(line, TEXT_HEAD, sizeof(TEXT_HEAD) - 1);
	memcpy(line + sizeof(TEXT_HEAD) - 1, data, size);
	memset(line + len, 0, 1 + SCAN_SLACK);
	/* a line ends at its first newline */
	if (memchr(line, '\n', len))
		len = (char *)memchr(line, '\n', len) - line;
	memset(&s, 0, sizeof(s));
	memset(&r, 0, sizeof(r));
	s.p = line;
	s.end = line + len;
	if (!parse_text_line(&s, &r))
		check(line, len, &r);
	else if (!s.err)
		abort();
	free(line);
	return 0;
}
