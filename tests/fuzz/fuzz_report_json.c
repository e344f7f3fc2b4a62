// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness over kplug-report's line reader (tools/report/input/batch.c
 * parse_batch(): JSON Lines records, text lines, bad lines).
 *
 * The input is one batch of lines, laid out as the tool lays out what it
 * reads: the data, a '\0' and SCAN_SLACK more bytes.  After parsing, the
 * invariants of the reader are checked: every line is a record or a bad
 * line with a reason; a record has a file and a function, a line >= 0,
 * parts that sum to M, and strings inside the batch or its decode buffer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/report/report.h"
#include "tools/report/input/batch.h"

static int inside(const struct batch *b, struct sref s)
{
	uintptr_t p = (uintptr_t)s.p;
	uintptr_t d = (uintptr_t)b->data, e = (uintptr_t)b->esc;

	if (!s.n)
		return 1;
	return (p >= d && p + s.n <= d + b->len) || (p >= e && p + s.n <= e + b->esclen);
}

static void check(const struct batch *b)
{
	size_t i, lines = 0;

	for (i = 0; i < b->len; i++)
		lines += b->data[i] == '\n';
	if (b->len && b->data[b->len - 1] != '\n')
		lines++;
	if (b->lines != lines || b->n + b->nbad != lines)
		abort();
	for (i = 0; i < b->nbad; i++)
		if (!b->bad[i].why || b->bad[i].lineno < 1 || b->bad[i].lineno > lines)
			abort();
	for (i = 0; i < b->n; i++) {
		const struct raw *r = &b->r[i];

		if (!r->file.n || !r->func.n || r->line < 0)
			abort();
		if (!inside(b, r->file) || !inside(b, r->func) || !inside(b, r->tu) ||
		    !inside(b, r->run))
			abort();
		if (r->has_parts && (int64_t)1 + r->own + r->macro + r->san + r->noret != r->m)
			abort();
		if (r->nmac && (r->mac_first + (size_t)r->nmac > b->nmac))
			abort();
	}
	for (i = 0; i < b->nmac; i++)
		if (!inside(b, b->mac[i].name))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1 + SCAN_SLACK);
	struct batch b;

	memcpy(buf, data, size);
	memset(buf + size, 0, 1 + SCAN_SLACK);
	memset(&b, 0, sizeof(b));
	b.data = buf;
	b.len = size;
	b.first_line = 1;
	want_macros = 1;
	json_init();
	parse_batch(&b);
	check(&b);
	batch_free(&b);
	free(buf);
	return 0;
}
