// SPDX-License-Identifier: GPL-2.0
/*
 * Special case lists in Clang's format for sancov's allow and ignore lists;
 * see speclist.h for the format.  No GCC header here.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "speclist.h"
#include "kplug-util.h"

#define SPEC_QUOTE_MAX	64	/* bytes of a culprit quoted in an error */
#define SPEC_SECTION	"coverage"

struct spec_entry {
	char *glob;
	struct spec_entry *next;
};

struct kplug_speclist {
	struct spec_entry *head[KPLUG_SPEC_NKINDS];
	struct spec_entry **tail[KPLUG_SPEC_NKINDS];
	int count[KPLUG_SPEC_NKINDS];
	char *err;		/* the last error line, or NULL */
};

static const char *const spec_prefix[KPLUG_SPEC_NKINDS] = { "src", "fun" };

static int spec_fail(struct kplug_speclist *sl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int spec_fail(struct kplug_speclist *sl, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = kplug_vfail(&sl->err, fmt, ap);
	va_end(ap);
	return ret;
}

/*
 * A printable copy of LEN bytes of S for an error message: at most
 * SPEC_QUOTE_MAX bytes, control characters as '?', never a newline.
 */
static void spec_quote(char *buf, size_t size, const char *s, size_t len)
{
	size_t i, n = len < SPEC_QUOTE_MAX ? len : SPEC_QUOTE_MAX;

	if (n >= size)
		n = size - 1;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		buf[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	buf[n] = '\0';
	if (n < len && n >= 3)
		memcpy(buf + n - 3, "...", 3);
}

struct kplug_speclist *kplug_speclist_new(void)
{
	struct kplug_speclist *sl =
		(struct kplug_speclist *)kplug_xzalloc(sizeof(*sl));
	int k;

	for (k = 0; k < KPLUG_SPEC_NKINDS; k++)
		sl->tail[k] = &sl->head[k];
	return sl;
}

void kplug_speclist_free(struct kplug_speclist *sl)
{
	struct spec_entry *e, *next;
	int k;

	if (!sl)
		return;
	for (k = 0; k < KPLUG_SPEC_NKINDS; k++) {
		for (e = sl->head[k]; e; e = next) {
			next = e->next;
			free(e->glob);
			free(e);
		}
	}
	free(sl->err);
	free(sl);
}

const char *kplug_speclist_error(const struct kplug_speclist *sl)
{
	return sl->err ? sl->err : "";
}

/*
 * Check that GLOB (LEN bytes) is a well-formed fnmatch(3) pattern: every
 * '[' closes (a ']' right after '[' or '[!' / '[^' is literal) and no
 * pattern ends in a lone backslash.  Returns NULL or what is wrong.
 */
static const char *spec_glob_problem(const char *glob, size_t len)
{
	size_t i = 0;

	while (i < len) {
		char c = glob[i++];

		if (c == '\\') {
			if (i == len)
				return "ends with a backslash";
			i++;
		} else if (c == '[') {
			if (i < len && (glob[i] == '!' || glob[i] == '^'))
				i++;
			if (i < len && glob[i] == ']')
				i++;
			while (i < len && glob[i] != ']')
				i++;
			if (i == len)
				return "has an unclosed '['";
			i++;
		}
	}
	return NULL;
}

static void spec_append(struct kplug_speclist *sl, enum kplug_spec_kind kind,
			const char *glob, size_t len)
{
	struct spec_entry *e = (struct spec_entry *)kplug_xzalloc(sizeof(*e));

	e->glob = kplug_xstrndup(glob, len);
	*sl->tail[kind] = e;
	sl->tail[kind] = &e->next;
	sl->count[kind]++;
}

int kplug_speclist_add(struct kplug_speclist *sl, enum kplug_spec_kind kind,
		       const char *glob, const char *origin)
{
	char q[SPEC_QUOTE_MAX + 1];
	const char *why;
	size_t len;

	if ((int)kind < 0 || kind >= KPLUG_SPEC_NKINDS)
		return spec_fail(sl, "%s: bad list entry kind %d", origin, (int)kind);
	len = strlen(glob);
	if (!len)
		return spec_fail(sl, "%s: empty %s glob", origin, spec_prefix[kind]);
	why = spec_glob_problem(glob, len);
	if (why) {
		spec_quote(q, sizeof(q), glob, len);
		return spec_fail(sl, "%s: %s glob '%s' %s", origin,
				 spec_prefix[kind], q, why);
	}
	spec_append(sl, kind, glob, len);
	return 0;
}

static int spec_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* "[GLOB]": does the section apply to sancov?  -1 on a bad header. */
static int spec_section(struct kplug_speclist *sl, const char *name, int line,
			const char *s, size_t len)
{
	char q[SPEC_QUOTE_MAX + 1];
	const char *why;
	char *glob;
	int applies;

	if (s[len - 1] != ']') {
		spec_quote(q, sizeof(q), s, len);
		return spec_fail(sl, "%s:%d: malformed section header '%s' (expected [GLOB])",
				 name, line, q);
	}
	s++;
	len -= 2;
	if (!len)
		return spec_fail(sl, "%s:%d: empty section name '[]'", name, line);
	why = spec_glob_problem(s, len);
	if (why) {
		spec_quote(q, sizeof(q), s, len);
		return spec_fail(sl, "%s:%d: section glob '%s' %s", name, line, q, why);
	}
	glob = kplug_xstrndup(s, len);
	applies = !fnmatch(glob, SPEC_SECTION, 0);
	free(glob);
	return applies;
}

/* "src:GLOB[=CATEGORY]" or "fun:GLOB[=CATEGORY]". */
static int spec_entry_line(struct kplug_speclist *sl, const char *name, int line,
			   const char *s, size_t len, int applies)
{
	char q[SPEC_QUOTE_MAX + 1];
	const char *colon = (const char *)memchr(s, ':', len);
	const char *glob, *eq, *why;
	size_t plen, glen;
	int kind;

	if (!colon) {
		spec_quote(q, sizeof(q), s, len);
		return spec_fail(sl, "%s:%d: malformed line '%s' (expected src:GLOB or fun:GLOB)",
				 name, line, q);
	}
	plen = colon - s;
	for (kind = 0; kind < KPLUG_SPEC_NKINDS; kind++)
		if (strlen(spec_prefix[kind]) == plen &&
		    !memcmp(s, spec_prefix[kind], plen))
			break;
	if (kind == KPLUG_SPEC_NKINDS) {
		spec_quote(q, sizeof(q), s, plen);
		return spec_fail(sl, "%s:%d: unknown entry type '%s:' (sancov lists use src: and fun:)",
				 name, line, q);
	}
	glob = colon + 1;
	glen = len - plen - 1;
	eq = (const char *)memchr(glob, '=', glen);
	if (eq) {
		if (eq == glob + glen - 1)
			return spec_fail(sl, "%s:%d: empty category after '='",
					 name, line);
		applies = 0;	/* a category: never used for coverage */
		glen = eq - glob;
	}
	if (!glen)
		return spec_fail(sl, "%s:%d: empty %s glob", name, line,
				 spec_prefix[kind]);
	why = spec_glob_problem(glob, glen);
	if (why) {
		spec_quote(q, sizeof(q), glob, glen);
		return spec_fail(sl, "%s:%d: %s glob '%s' %s", name, line,
				 spec_prefix[kind], q, why);
	}
	if (applies)
		spec_append(sl, (enum kplug_spec_kind)kind, glob, glen);
	return 0;
}

int kplug_speclist_parse(struct kplug_speclist *sl, const char *name,
			 const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	int line = 0, applies = 1;

	while (p < end) {
		const char *nl = (const char *)memchr(p, '\n', end - p);
		const char *e = nl ? nl : end;
		const char *s = p;
		int ret;

		line++;
		p = nl ? nl + 1 : end;
		if (memchr(s, '\0', e - s))
			return spec_fail(sl, "%s:%d: NUL byte in list", name, line);
		while (s < e && spec_is_blank(*s))
			s++;
		while (e > s && spec_is_blank(e[-1]))
			e--;
		if (s == e || *s == '#')
			continue;
		if (*s == '[') {
			ret = spec_section(sl, name, line, s, e - s);
			if (ret < 0)
				return -1;
			applies = ret;
			continue;
		}
		if (spec_entry_line(sl, name, line, s, e - s, applies))
			return -1;
	}
	return 0;
}

int kplug_speclist_load(struct kplug_speclist *sl, const char *path)
{
	struct stat st;
	char *text = NULL;
	size_t len = 0, cap = 0;
	FILE *f;
	int ret;

	f = fopen(path, "rb");
	if (!f)
		return spec_fail(sl, "%s: cannot read list: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return spec_fail(sl, "%s: cannot read list: %s", path, strerror(EISDIR));
	}
	for (;;) {
		size_t n;

		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			text = (char *)realloc(text, cap);
			if (!text) {
				fputs("kplug: out of memory\n", stderr);
				abort();
			}
		}
		n = fread(text + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		ret = spec_fail(sl, "%s: cannot read list: %s", path, strerror(errno));
	} else {
		ret = kplug_speclist_parse(sl, path, text, len);
	}
	fclose(f);
	free(text);
	return ret;
}

int kplug_speclist_count(const struct kplug_speclist *sl,
			 enum kplug_spec_kind kind)
{
	if ((int)kind < 0 || kind >= KPLUG_SPEC_NKINDS)
		return 0;
	return sl->count[kind];
}

int kplug_speclist_match(const struct kplug_speclist *sl,
			 enum kplug_spec_kind kind, const char *name)
{
	const struct spec_entry *e;

	if ((int)kind < 0 || kind >= KPLUG_SPEC_NKINDS || !name)
		return 0;
	for (e = sl->head[kind]; e; e = e->next)
		if (!fnmatch(e->glob, name, 0))
			return 1;
	return 0;
}
