// SPDX-License-Identifier: GPL-2.0
/* kplug-report sarif: every function at or above the threshold, as findings. */
#include <stdlib.h>

#include "tools/report/report.h"

static int sarif_cmd(struct recset *rs)
{
	size_t n, k;
	const struct rec **v = select_top(rs, 0, &n);

	for (k = 0; k < n && v[k]->m >= opt.threshold; k++)
		;
	if (opt.fmt != FMT_CHECKSTYLE)
		opt.fmt = FMT_SARIF;
	recs_out(stdout, v, k);
	free(v);
	return 0;
}

const struct command cmd_sarif = {
	.name = "sarif", .args = "INPUT...",
	.help = "every function at or above the threshold, as SARIF 2.1.0",
	.flags = CMD_FINDINGS,
	.on_records = sarif_cmd,
};
