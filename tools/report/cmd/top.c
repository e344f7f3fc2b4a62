// SPDX-License-Identifier: GPL-2.0
/* kplug-report top: the N most complex functions. */
#include <stdlib.h>

#include "tools/report/report.h"

static int top(struct recset *rs)
{
	size_t n;
	const struct rec **v = select_top(rs, opt.top_n, &n);

	recs_out(stdout, v, n);
	free(v);
	return 0;
}

const struct command cmd_top = {
	.name = "top", .args = "INPUT...",
	.help = "the N most complex functions (-n, default 10; 0: all)",
	.flags = CMD_MACROS | CMD_FINDINGS,
	.on_records = top,
};
