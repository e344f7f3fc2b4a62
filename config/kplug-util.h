/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the config/ sources: allocation that never returns
 * NULL and the "kplug: ..." error line.  No GCC header, like all of config/.
 */
#ifndef KPLUG_UTIL_H
#define KPLUG_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void *kplug_xzalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p) {
		fputs("kplug: out of memory\n", stderr);
		abort();
	}
	return p;
}

static inline char *kplug_xstrndup(const char *s, size_t len)
{
	char *p = (char *)kplug_xzalloc(len + 1);

	memcpy(p, s, len);
	return p;
}

static inline char *kplug_xstrdup(const char *s)
{
	return kplug_xstrndup(s, strlen(s));
}

static inline char *kplug_xasprintf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* "FMT" formatted into a string allocated to fit. */
static inline char *kplug_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = (char *)kplug_xzalloc(len + 1);
	va_start(ap, fmt);
	vsnprintf(p, len + 1, fmt, ap);
	va_end(ap);
	return p;
}

/*
 * Replace *ERR with "kplug: FMT", allocated to fit (an error line quotes
 * values, which may be of any length); returns -1 for the caller to return.
 */
static inline int kplug_vfail(char **err, const char *fmt, va_list ap)
{
	static const char prefix[] = "kplug: ";
	va_list again;
	int len;

	va_copy(again, ap);
	len = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	free(*err);
	*err = (char *)kplug_xzalloc(sizeof(prefix) + (len > 0 ? len : 0));
	memcpy(*err, prefix, sizeof(prefix));
	vsnprintf(*err + sizeof(prefix) - 1, (len > 0 ? len : 0) + 1, fmt, ap);
	return -1;
}

#endif
