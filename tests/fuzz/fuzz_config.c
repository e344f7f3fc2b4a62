// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness over kplug's configuration code (config/, through kplug-config.h):
 * arguments, ini profiles and resolving them for an input path.
 *
 * Input layout: chunks separated by NUL bytes.
 *   chunk 0      the text of an ini profile (written to a memfd); loaded
 *                directly with kplug_config_load_ini() when non-empty
 *   "@PATH"      the translation unit path given to kplug_config_resolve()
 *   "KEY=VALUE"  kplug_config_add_arg(KEY, VALUE)
 *   "KEY"        kplug_config_add_arg(KEY, NULL)
 *   "~"          resolve with the current directory deleted (getcwd() fails)
 * A "config" argument with a value loads the chunk-0 profile again (never a
 * path taken from the input: /dev/stdin would block the fuzzer).
 *
 * After every call the invariants of the API are checked: a failure leaves
 * exactly one line starting with "kplug: " in the error buffer; after
 * resolve every getter answers and every typed value is in its range.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/kplug-config.h"

/* One pass per option type, named like the real ones. */
static const struct kplug_opt cyc_opts[] = {
	{ "output", KPLUG_OPT_STR, NULL, NULL, 0, 0, "report file" },
	{ "min", KPLUG_OPT_INT, "0", NULL, 0, INT_MAX, "threshold" },
	{ NULL, KPLUG_OPT_STR, NULL, NULL, 0, 0, NULL }
};

static const struct kplug_opt sancov_opts[] = {
	{ "trace", KPLUG_OPT_SET, "pc", "pc,cmp", 0, 0, "what to trace" },
	{ "allow", KPLUG_OPT_LIST, NULL, NULL, 0, 0, "allow lists" },
	{ "ignore", KPLUG_OPT_LIST, NULL, NULL, 0, 0, "ignore lists" },
	{ "mode", KPLUG_OPT_ENUM, "kcov", "kcov,user,none", 0, 0, "runtime" },
	{ "tailcall", KPLUG_OPT_BOOL, "off", NULL, 0, 0, "allow tail calls" },
	{ "offset", KPLUG_OPT_INT, "-5", NULL, -100, 100, "signed int" },
	{ NULL, KPLUG_OPT_STR, NULL, NULL, 0, 0, NULL }
};

static const struct kplug_opt plain_opts[] = {
	{ NULL, KPLUG_OPT_STR, NULL, NULL, 0, 0, NULL }
};

static const struct kplug_pass_info cyc_info = { "cyc_complexity", "cc", cyc_opts };
static const struct kplug_pass_info sancov_info = { "sancov", "cov", sancov_opts };
static const struct kplug_pass_info plain_info = { "plain", "no options", plain_opts };
static const struct kplug_pass_info *const passes[] = {
	&cyc_info, &sancov_info, &plain_info,
};
#define NPASSES	((int)(sizeof(passes) / sizeof(passes[0])))

static int ini_fd = -1;
static char ini_path[64];
static int here_fd = -1, gone_fd = -1;

/* A directory that no longer exists, kept open to fchdir() into it. */
static void open_dirs(void)
{
	char tmpl[] = "/tmp/kplug-fuzz-cwd.XXXXXX";

	here_fd = open(".", O_RDONLY | O_DIRECTORY);
	if (here_fd < 0 || !mkdtemp(tmpl))
		abort();
	gone_fd = open(tmpl, O_RDONLY | O_DIRECTORY);
	if (gone_fd < 0 || rmdir(tmpl))
		abort();
}

static void check_error(const struct kplug_config *cfg, int ret)
{
	const char *err = kplug_config_error(cfg);

	if (ret != 0 && ret != -1)
		abort();
	if (ret && (strncmp(err, "kplug: ", 7) || strlen(err) <= 7)) {
		fprintf(stderr, "bad error line: '%s'\n", err);
		abort();
	}
}

static void check_values(const struct kplug_config *cfg)
{
	int p;

	for (p = 0; p < NPASSES; p++) {
		const struct kplug_opt *o;
		int e = kplug_config_enabled(cfg, p);

		if (e != 0 && e != 1)
			abort();
		for (o = passes[p]->opts; o->key; o++) {
			const char *s = kplug_config_str(cfg, p, o->key);
			const char *origin = kplug_config_origin(cfg, p, o->key);
			long n = kplug_config_int(cfg, p, o->key);

			if (!origin || !*origin)
				abort();
			if (s && !*s)
				abort();	/* empty values are refused */
			if (o->type == KPLUG_OPT_INT && s && (n < o->min || n > o->max))
				abort();
			if (o->type == KPLUG_OPT_BOOL && n != 0 && n != 1)
				abort();
			if (o->type == KPLUG_OPT_ENUM && s && (n < 0 || n > 2))
				abort();
			if (o->type == KPLUG_OPT_SET && (n < 0 || n > 3))
				abort();
			/* touch the whole string: ASan catches a dangling one */
			if (s && strlen(s) > (1u << 24))
				abort();
			if (strlen(origin) > (1u << 24))
				abort();
		}
	}
}

static void write_ini(const uint8_t *data, size_t len)
{
	if (ini_fd < 0) {
		ini_fd = memfd_create("kplug-fuzz.ini", 0);
		if (ini_fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(ini_path, sizeof(ini_path), "/proc/self/fd/%d", ini_fd);
	}
	if (ftruncate(ini_fd, 0) || (len && pwrite(ini_fd, data, len, 0) != (ssize_t)len)) {
		perror("memfd write");
		abort();
	}
}

static void run_arg(struct kplug_config *cfg, char *chunk)
{
	char *eq = strchr(chunk, '=');
	const char *value = NULL;

	if (eq) {
		*eq = '\0';
		value = eq + 1;
	}
	if (!strcmp(chunk, "config") && value && *value)
		value = ini_path;
	check_error(cfg, kplug_config_add_arg(cfg, chunk, value));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *end = data + size;
	const uint8_t *nul = (const uint8_t *)memchr(data, '\0', size);
	const uint8_t *p = nul ? nul + 1 : end;
	struct kplug_config *cfg;
	char *input = NULL;
	int ret, gone = 0;

	write_ini(data, nul ? (size_t)(nul - data) : size);
	cfg = kplug_config_new(passes, NPASSES);
	if (nul != data && size) {
		ret = kplug_config_load_ini(cfg, ini_path);
		check_error(cfg, ret);
	}
	while (p < end) {
		const uint8_t *q = (const uint8_t *)memchr(p, '\0', end - p);
		size_t len = (q ? q : end) - p;
		char *chunk = strndup((const char *)p, len);

		if (!strcmp(chunk, "~")) {
			gone = 1;
		} else if (chunk[0] == '@') {
			free(input);
			input = strdup(chunk + 1);
		} else {
			run_arg(cfg, chunk);
		}
		free(chunk);
		p += len + 1;
	}
	/* Resolve twice, for the input and for none: resolve must reset. */
	if (gone) {
		if (here_fd < 0)
			open_dirs();
		if (fchdir(gone_fd))
			abort();
	}
	check_error(cfg, kplug_config_resolve(cfg, input ? input : "init/main.c"));
	if (gone && fchdir(here_fd))
		abort();
	check_values(cfg);
	if (input && kplug_config_match_path(cfg) == NULL)
		abort();
	check_error(cfg, kplug_config_resolve(cfg, NULL));
	check_values(cfg);
	if (kplug_config_match_path(cfg) != NULL)
		abort();
	free(input);
	kplug_config_free(cfg);
	return 0;
}
