// SPDX-License-Identifier: GPL-2.0
/* kplug-report hist: a histogram of M in log2 buckets (--svg: a chart). */
#include "tools/report/report.h"

/* Buckets 1, 2, 3-4, 5-8, 9-16, ...; M <= 0 goes to the first. */
static int bucket_of(int m)
{
	int b = 0;

	while (b < NBUCKET - 1 && m > (1 << b))
		b++;
	return b;
}

void bucket_label(char *buf, size_t len, int b)
{
	int lo = b ? (1 << (b - 1)) + 1 : 1, hi = 1 << b;

	if (b == NBUCKET - 1)
		snprintf(buf, len, "%d+", lo);
	else if (lo == hi)
		snprintf(buf, len, "%d", lo);
	else
		snprintf(buf, len, "%d-%d", lo, hi);
}

static int hist(struct recset *rs)
{
	size_t count[NBUCKET] = { 0 }, max = 0, i;
	int nb = 1, b;
	char label[32];

	for (i = 0; i < rs->n; i++) {
		if (rs->r[i].dead)
			continue;
		b = bucket_of(rs->r[i].m);
		count[b]++;
		if (b + 1 > nb)
			nb = b + 1;
	}
	for (b = 0; b < nb; b++)
		if (count[b] > max)
			max = count[b];
	if (opt.fmt == FMT_CSV)
		printf("bucket,low,high,functions\n");
	else if (opt.fmt == FMT_JSON)
		printf("[");
	for (b = 0; b < nb; b++) {
		int lo = b ? (1 << (b - 1)) + 1 : 1;
		long hi = b == NBUCKET - 1 ? -1 : 1L << b;

		bucket_label(label, sizeof(label), b);
		if (opt.fmt == FMT_TEXT) {
			int bar = max ? (int)((count[b] * 50 + max - 1) / max) : 0;

			printf("%8s %8zu ", label, count[b]);
			while (bar--)
				putchar('#');
			putchar('\n');
		} else if (opt.fmt == FMT_CSV) {
			printf("%s,%d,%ld,%zu\n", label, lo, hi, count[b]);
		} else {
			printf("%s{\"bucket\":\"%s\",\"low\":%d,\"high\":%ld,\"functions\":%zu}",
			       b ? ",\n " : "", label, lo, hi, count[b]);
		}
	}
	if (opt.fmt == FMT_JSON)
		printf("]\n");
	if (opt.svg && write_svg(opt.svg, count, nb, max))
		return -1;
	return 0;
}

const struct command cmd_hist = {
	.name = "hist", .args = "INPUT...",
	.help = "histogram of M (text; --svg FILE writes a chart)",
	.flags = CMD_SVG,
	.on_records = hist,
};
