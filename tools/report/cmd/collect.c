// SPDX-License-Identifier: GPL-2.0
/*
 * kplug-report collect: the records objects carry (cyc_complexity-embed=on),
 * printed as the JSON Lines format=jsonl writes; input/objects.c does the work.
 */
#include <stdio.h>

#include "tools/report/input/objects.h"
#include "tools/report/report.h"

static int print_embedded_records(char **inputs, int n)
{
	struct collect c;
	int i;

	if (opt.fmt != FMT_TEXT)
		die("collect prints JSON Lines; --format does not apply");
	collect_init(&c, stdout);
	for (i = 0; i < n; i++)
		collect_path(&c, inputs[i]);
	return collect_finish(&c) ? -1 : 0;
}

const struct command cmd_collect = {
	.name = "collect", .args = "DIR|FILE...",
	.help = "print the records embedded in objects, archives and .ko files as JSON Lines",
	.on_inputs = print_embedded_records,
};
