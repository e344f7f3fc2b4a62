// SPDX-License-Identifier: GPL-2.0
/*
 * kplug-report: findings, the functions SARIF and checkstyle list: the
 * rules, the message of a finding and the fingerprint of its function.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "tools/report/report.h"

const struct rule rules[] = {
	{ "KPLUG-CC1", "cyclomatic-complexity",
	  "Cyclomatic complexity (M = E - N + 2 of the GCC CFG after the ssa pass) "
	  "at or above the threshold" },
	{ "KPLUG-CC2", "cyclomatic-complexity-growth",
	  "Cyclomatic complexity grew against the baseline and is at or above the threshold" },
};
const size_t nrules = sizeof(rules) / sizeof(rules[0]);

/*
 * The fingerprint of a function that survives line shifts: 64-bit FNV-1a
 * of "FILE:FUNCTION" (FILE as printed, after --root), the same everywhere.
 */
uint64_t fingerprint(const struct rec *r)
{
	uint64_t h = 1469598103934665603ULL;
	const char *parts[3] = { path_of(r->file), ":", str_of(r->func) };
	const char *p;
	int i;

	for (i = 0; i < 3; i++) {
		for (p = parts[i]; *p; p++) {
			h ^= (unsigned char)*p;
			h *= 1099511628211ULL;
		}
	}
	return h;
}

/* The message of a finding, whole (the caller frees it). */
char *finding_message(const struct finding *fd)
{
	const struct rec *r = fd->r;
	char *msg;
	int n;

	if (fd->rule == 1)
		n = asprintf(&msg, "function '%s' grew from cyclomatic complexity %d to %d "
			     "(threshold %ld)", str_of(r->func), fd->base_m, r->m, opt.threshold);
	else
		n = asprintf(&msg, "function '%s' has cyclomatic complexity %d (threshold %ld)",
			     str_of(r->func), r->m, opt.threshold);
	if (n < 0)
		die("out of memory");
	return msg;
}

/* SARIF and checkstyle list findings: the functions at or above the threshold. */
void findings_out(FILE *f, const struct rec **v, size_t n)
{
	struct finding *fds = xrealloc(NULL, (n + 1) * sizeof(*fds));
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (v[i]->m < opt.threshold)
			continue;
		fds[k].r = v[i];
		fds[k].rule = 0;
		fds[k].has_base = 0;
		fds[k++].base_m = 0;
	}
	if (opt.fmt == FMT_SARIF)
		sarif(f, fds, k);
	else
		checkstyle(f, fds, k);
	free(fds);
}
