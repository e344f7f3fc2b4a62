// SPDX-License-Identifier: GPL-2.0
/* kplug-report: the text reader, "Cyclomatic Complexity M file:function". */
#include <stdint.h>

#include "tools/report/input/batch.h"

/* M as written by the 2016 plugin: decimal digits, at most INT32_MAX. */
static const char *text_m(struct scan *s, const char *p, int32_t *m)
{
	int64_t v = 0;
	int digits = 0;

	while (p < s->end && *p >= '0' && *p <= '9') {
		v = v * 10 + (*p++ - '0');
		digits++;
		if (v > INT32_MAX) {
			scan_fail(s, "M out of range");
			return NULL;
		}
	}
	if (!digits || p >= s->end || *p != ' ') {
		scan_fail(s, "bad text record");
		return NULL;
	}
	*m = (int32_t)v;
	return p + 1;
}

/* The line starts with TEXT_HEAD; file and function are split at the last ':'. */
int parse_text_line(struct scan *s, struct raw *r)
{
	const char *p = s->p + sizeof(TEXT_HEAD) - 1, *colon = NULL, *sp;
	int32_t m;

	sp = p = text_m(s, p, &m);
	if (!p)
		return -1;
	for (; p < s->end; p++)
		if (*p == ':')
			colon = p;
	if (!colon || colon == sp || colon + 1 == s->end)
		return scan_fail(s, "bad text record");
	if (s->end - sp > UINT32_MAX)
		return scan_fail(s, "string too long");
	r->m = m;
	r->file.p = sp;
	r->file.n = (uint32_t)(colon - sp);
	r->func.p = colon + 1;
	r->func.n = (uint32_t)(s->end - colon - 1);
	r->header = (colon - sp > 2 && colon[-2] == '.' && colon[-1] == 'h');
	return 0;
}
