// SPDX-License-Identifier: GPL-2.0
/* kplug-report: the histogram as an SVG bar chart. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "tools/report/report.h"

int write_svg(const char *path, const size_t *count, int nb, size_t max)
{
	FILE *f = fopen(path, "w");
	const int w = 40, gap = 8, height = 240, left = 60, top = 30;
	char label[32];
	int b;

	if (!f) {
		flag_error("%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n", left + nb * (w + gap) + 20,
		height + top + 60);
	fprintf(f, "<text x=\"%d\" y=\"18\" font-size=\"14\">Cyclomatic complexity per "
		"function (log scale of counts)</text>\n", left);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
		left - 4, top + height, left + nb * (w + gap), top + height);
	for (b = 0; b < nb; b++) {
		double frac = count[b] ? log10((double)count[b] + 1) / log10((double)max + 1) : 0;
		int h = (int)(frac * height + 0.5), x = left + b * (w + gap);

		bucket_label(label, sizeof(label), b);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\">"
			"<title>M %s: %zu functions</title></rect>\n", x, top + height - h, w, h,
			(1L << b) > opt.threshold ? "#c0392b" : "#2e86c1", label, count[b]);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%zu</text>\n",
			x + w / 2, top + height - h - 4, count[b]);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			x + w / 2, top + height + 16, label);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\">M (red: buckets reaching the threshold %ld)"
		"</text>\n</svg>\n", left, top + height + 40, opt.threshold);
	if (fclose(f)) {
		flag_error("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
