// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON string escaper shared by the plugin and tools/kplug-report.
 * Plain C that also compiles as C++ (the plugin build compiles config/ with
 * g++); no GCC header.
 */
#include "config/kplug-json.h"

static int json_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

static int cont(const char *s, int i)
{
	return ((unsigned char)s[i] & 0xc0) == 0x80;
}

/*
 * The length of the valid UTF-8 sequence at S (RFC 3629: no overlong form,
 * no surrogate, at most U+10FFFF), or 0.
 */
static int utf8_len(const char *s)
{
	unsigned char c = (unsigned char)s[0], c1 = (unsigned char)s[1];

	if (c >= 0xc2 && c <= 0xdf)
		return cont(s, 1) ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if (!cont(s, 1) || !cont(s, 2) || (c == 0xe0 && c1 < 0xa0) ||
		    (c == 0xed && c1 >= 0xa0))
			return 0;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (!cont(s, 1) || !cont(s, 2) || !cont(s, 3) ||
		    (c == 0xf0 && c1 < 0x90) || (c == 0xf4 && c1 >= 0x90))
			return 0;
		return 4;
	}
	return 0;
}

/* One byte that needs more than copying: an escape, UTF-8, or U+FFFD. */
static size_t json_special(kplug_json_put put, void *ctx, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c = (unsigned char)*s;
	int n;

	if (c == '"' || c == '\\') {
		char esc[2] = { '\\', (char)c };

		put(ctx, esc, 2);
		return 1;
	}
	if (c < 0x20) {
		char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

		put(ctx, esc, 6);
		return 1;
	}
	n = utf8_len(s);
	if (n) {
		put(ctx, s, (size_t)n);
		return (size_t)n;
	}
	put(ctx, "\xef\xbf\xbd", 3);	/* U+FFFD for a byte that is not UTF-8 */
	return 1;
}

void kplug_json_str(kplug_json_put put, void *ctx, const char *s)
{
	const char *run;

	put(ctx, "\"", 1);
	while (s && *s) {
		for (run = s; *s && json_plain((unsigned char)*s); s++)
			;
		if (s > run) {
			put(ctx, run, (size_t)(s - run));
			continue;
		}
		s += json_special(put, ctx, s);
	}
	put(ctx, "\"", 1);
}
