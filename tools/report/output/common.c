// SPDX-License-Identifier: GPL-2.0
/*
 * kplug-report: what every output format shares: paths as printed
 * (--root), escaping for JSON, XML and CSV, and the choice of format for a
 * list of records.
 */
#include <string.h>

#include "config/kplug-json.h"
#include "tools/report/report.h"

const char *path_of(uint32_t file)
{
	const char *p = str_of(file);

	if (opt.root && !strncmp(p, opt.root, opt.root_len) && p[opt.root_len] == '/')
		return p + opt.root_len + 1;
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	return p;
}

static void put_file(void *f, const char *s, size_t n)
{
	fwrite(s, 1, n, (FILE *)f);
}

/* The plugin's own escaper (config/kplug-json.c). */
void json_str(FILE *f, const char *s)
{
	kplug_json_str(put_file, f, s);
}

void xml_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, f);
		}
	}
}

void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* "FILE:LINE", padded with blanks to WIDTH; never cut. */
void put_location(FILE *f, const struct rec *r, int width)
{
	int n = fprintf(f, "%s:%d", path_of(r->file), r->line);

	while (n >= 0 && n < width) {
		fputc(' ', f);
		n++;
	}
}

/* A list of records in the format asked for. */
void recs_out(FILE *f, const struct rec **v, size_t n)
{
	switch (opt.fmt) {
	case FMT_TEXT:
		top_text(f, v, n);
		break;
	case FMT_CSV:
		top_csv(f, v, n);
		break;
	case FMT_JSON:
		recs_json(f, v, n);
		break;
	default:
		findings_out(f, v, n);
	}
}
