// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness over the allow/ignore list parser (config/speclist.c).
 *
 * Input layout: LIST-TEXT [ NUL QUERIES ]
 *   LIST-TEXT is parsed with kplug_speclist_parse() and, written to a memfd,
 *   loaded again with kplug_speclist_load(): both must agree.  The whole
 *   input (NUL included) is parsed once more: a NUL byte must be refused.
 *   QUERIES are lines: "sNAME" / "fNAME" match a source / function name,
 *   "+sGLOB" / "+fGLOB" add an inline entry.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config/speclist.h"

static int list_fd = -1;
static char list_path[64];

static void check(const struct kplug_speclist *sl, int ret)
{
	const char *err = kplug_speclist_error(sl);

	if (ret != 0 && ret != -1)
		abort();
	if (ret && (strncmp(err, "kplug: ", 7) || strlen(err) <= 7 ||
		    strchr(err, '\n'))) {
		fprintf(stderr, "bad error line: '%s'\n", err);
		abort();
	}
}

static void write_list(const uint8_t *data, size_t len)
{
	if (list_fd < 0) {
		list_fd = memfd_create("kplug-fuzz.list", 0);
		if (list_fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(list_path, sizeof(list_path), "/proc/self/fd/%d", list_fd);
	}
	if (ftruncate(list_fd, 0) || (len && pwrite(list_fd, data, len, 0) != (ssize_t)len)) {
		perror("memfd write");
		abort();
	}
}

static void query(struct kplug_speclist *sl, const char *line)
{
	enum kplug_spec_kind kind;
	int add = line[0] == '+';
	int m;

	line += add;
	if (line[0] != 's' && line[0] != 'f')
		return;
	kind = line[0] == 's' ? KPLUG_SPEC_SRC : KPLUG_SPEC_FUN;
	line++;
	if (add) {
		int before = kplug_speclist_count(sl, kind);
		int ret = kplug_speclist_add(sl, kind, line, "-fplugin-arg-kplug-fuzz");

		check(sl, ret);
		if (kplug_speclist_count(sl, kind) != before + !ret)
			abort();
		/* a literal pattern without wildcards matches itself */
		if (!ret && !strpbrk(line, "*?[\\") && !kplug_speclist_match(sl, kind, line))
			abort();
		return;
	}
	m = kplug_speclist_match(sl, kind, line);
	if (m != 0 && m != 1)
		abort();
	if (m && !kplug_speclist_count(sl, kind))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = (const uint8_t *)memchr(data, '\0', size);
	size_t tlen = nul ? (size_t)(nul - data) : size;
	struct kplug_speclist *a = kplug_speclist_new();
	struct kplug_speclist *b = kplug_speclist_new();
	struct kplug_speclist *c = kplug_speclist_new();
	int ra, rb, rc, k;

	ra = kplug_speclist_parse(a, "fuzz.list", (const char *)data, tlen);
	check(a, ra);
	write_list(data, tlen);
	rb = kplug_speclist_load(b, list_path);
	check(b, rb);
	if (ra != rb)
		abort();
	for (k = 0; k < KPLUG_SPEC_NKINDS; k++)
		if (!ra && kplug_speclist_count(a, (enum kplug_spec_kind)k) !=
			   kplug_speclist_count(b, (enum kplug_spec_kind)k))
			abort();
	rc = kplug_speclist_parse(c, "fuzz.list", (const char *)data, size);
	check(c, rc);
	if (nul && !rc)
		abort();	/* a NUL byte must be an error */
	if (nul) {
		char *q = strndup((const char *)nul + 1, size - tlen - 1);
		char *line, *save = NULL;

		for (line = strtok_r(q, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			query(a, line);
		free(q);
	}
	kplug_speclist_free(a);
	kplug_speclist_free(b);
	kplug_speclist_free(c);
	return 0;
}
