// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON string escaper shared by the plugin and tools/kplug-report.
 * Plain C that also compiles as C++ (the plugin build compiles config/ with
 * g++); no GCC header.
 */
#include "config/kplug-json.h"

static int json_plain(unsigned char c)
{
	return c >= 0x20 && c != '"' && c != '\\';
}

void kplug_json_str(kplug_json_put put, void *ctx, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const char *run;

	put(ctx, "\"", 1);
	while (s && *s) {
		unsigned char c = (unsigned char)*s;

		for (run = s; *s && json_plain((unsigned char)*s); s++)
			;
		if (s > run) {
			put(ctx, run, (size_t)(s - run));
			continue;
		}
		if (c == '"' || c == '\\') {
			char esc[2] = { '\\', (char)c };

			put(ctx, esc, 2);
		} else {
			char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

			put(ctx, esc, 6);
		}
		s++;
	}
	put(ctx, "\"", 1);
}
