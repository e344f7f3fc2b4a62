// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of config/ (options, ini profiles, precedence, errors).
 * Prints TAP.  Built against libinih.a only: no GCC headers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/kplug-config.h"

static const struct kplug_opt alpha_opts[] = {
	{ "n", KPLUG_OPT_INT, "5", NULL, 0, 100, "a number" },
	{ "s", KPLUG_OPT_STR, NULL, NULL, 0, 0, "a string" },
	{ "b", KPLUG_OPT_BOOL, "off", NULL, 0, 0, "a switch" },
	{ "e", KPLUG_OPT_ENUM, "text", "text,jsonl", 0, 0, "a choice" },
	{ "trace", KPLUG_OPT_SET, "pc", "pc,cmp", 0, 0, "a set" },
	{ "l", KPLUG_OPT_LIST, NULL, NULL, 0, 0, "a list" },
	{ NULL, KPLUG_OPT_STR, NULL, NULL, 0, 0, NULL }
};

static const struct kplug_opt beta_opts[] = {
	{ "min", KPLUG_OPT_INT, "0", NULL, 0, 1000, "threshold" },
	{ NULL, KPLUG_OPT_STR, NULL, NULL, 0, 0, NULL }
};

static const struct kplug_pass_info alpha = { "alpha", "first", alpha_opts };
static const struct kplug_pass_info beta = { "beta_pass", "second", beta_opts };
static const struct kplug_pass_info *const passes[] = { &alpha, &beta };

static int test_no, failures;
static char tmpdir[] = "/tmp/kplug-unit-XXXXXX";

static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	test_no++;
	printf("%s %d - ", cond ? "ok" : "not ok", test_no);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		failures++;
}

static void is_str(const char *got, const char *want, const char *what)
{
	int same = (!got && !want) || (got && want && !strcmp(got, want));

	ok(same, "%s", what);
	if (!same)
		printf("# got:      %s\n# expected: %s\n", got ? got : "(null)",
		       want ? want : "(null)");
}

static void is_long(long got, long want, const char *what)
{
	ok(got == want, "%s", what);
	if (got != want)
		printf("# got %ld, expected %ld\n", got, want);
}

static struct kplug_config *fresh(void)
{
	return kplug_config_new(passes, 2);
}

static char *write_file(const char *name, const char *text)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

static char *write_file_path(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return path;
}

/* Add one argument and return the error line ("" when it was accepted). */
static const char *arg_error(const char *key, const char *value)
{
	static char err[KPLUG_ERR_MAX];
	struct kplug_config *cfg = fresh();

	err[0] = '\0';
	if (kplug_config_add_arg(cfg, key, value))
		snprintf(err, sizeof(err), "%s", kplug_config_error(cfg));
	kplug_config_free(cfg);
	return err;
}

static const char *ini_error(const char *text)
{
	static char err[KPLUG_ERR_MAX];
	struct kplug_config *cfg = fresh();
	char *path = text ? write_file("t.ini", text) : write_file_path("t.ini");

	err[0] = '\0';
	if (kplug_config_load_ini(cfg, path))
		snprintf(err, sizeof(err), "%s", kplug_config_error(cfg));
	kplug_config_free(cfg);
	return err;
}

static void test_defaults(void)
{
	struct kplug_config *cfg = fresh();

	kplug_config_resolve(cfg, "x.c");
	is_long(kplug_config_enabled(cfg, 0), 0, "passes are off by default");
	is_long(kplug_config_int(cfg, 0, "n"), 5, "int default");
	is_str(kplug_config_str(cfg, 0, "s"), NULL, "unset string is NULL");
	is_long(kplug_config_set(cfg, 0, "trace"), 1, "set default pc = bit 0");
	is_str(kplug_config_origin(cfg, 0, "n"), "default", "origin of a default");
	kplug_config_free(cfg);
}

static void test_args(void)
{
	struct kplug_config *cfg = fresh();

	ok(!kplug_config_add_arg(cfg, "enable", "alpha") &&
	   !kplug_config_add_arg(cfg, "enable", "beta_pass") &&
	   !kplug_config_add_arg(cfg, "alpha-n", "42") &&
	   !kplug_config_add_arg(cfg, "alpha-b", "yes") &&
	   !kplug_config_add_arg(cfg, "alpha-e", "jsonl") &&
	   !kplug_config_add_arg(cfg, "alpha-trace", "pc, cmp") &&
	   !kplug_config_add_arg(cfg, "alpha-l", "a*,b") &&
	   !kplug_config_add_arg(cfg, "alpha-l", "c") &&
	   !kplug_config_add_arg(cfg, "beta_pass-min", "7"), "valid arguments accepted");
	kplug_config_resolve(cfg, "x.c");
	is_long(kplug_config_enabled(cfg, 0) && kplug_config_enabled(cfg, 1), 1,
		"repeated enable accumulates");
	is_long(kplug_config_int(cfg, 0, "n"), 42, "int argument");
	is_long(kplug_config_bool(cfg, 0, "b"), 1, "bool yes");
	is_long(kplug_config_enum(cfg, 0, "e"), 1, "enum index");
	is_long(kplug_config_set(cfg, 0, "trace"), 3, "set pc,cmp with spaces");
	is_str(kplug_config_str(cfg, 0, "l"), "a*,b,c", "list arguments accumulate");
	is_long(kplug_config_int(cfg, 1, "min"), 7, "pass name with underscore");
	is_str(kplug_config_origin(cfg, 0, "n"), "-fplugin-arg-kplug-alpha-n=42",
	       "origin of an argument");
	kplug_config_free(cfg);

	cfg = fresh();
	kplug_config_add_arg(cfg, "enable", "all");
	kplug_config_add_arg(cfg, "disable", "alpha");
	kplug_config_resolve(cfg, NULL);
	ok(!kplug_config_enabled(cfg, 0) && kplug_config_enabled(cfg, 1),
	   "enable=all then disable=alpha");
	kplug_config_free(cfg);
}

static void test_arg_errors(void)
{
	is_str(arg_error("enable", "gamma"),
	       "kplug: -fplugin-arg-kplug-enable=gamma: unknown pass 'gamma' (known: all, alpha, beta_pass)",
	       "unknown pass");
	is_str(arg_error("enable", ""),
	       "kplug: -fplugin-arg-kplug-enable=: empty list for 'enable'", "empty list");
	is_str(arg_error("enable", NULL),
	       "kplug: -fplugin-arg-kplug-enable: 'enable' needs a value", "missing value");
	is_str(arg_error("enable", "alpha,,beta_pass"),
	       "kplug: -fplugin-arg-kplug-enable=alpha,,beta_pass: empty item in pass list",
	       "empty list item");
	is_str(arg_error("frob", "1"), "kplug: -fplugin-arg-kplug-frob=1: unknown option 'frob'",
	       "unknown option");
	is_str(arg_error("alpha", "1"),
	       "kplug: -fplugin-arg-kplug-alpha=1: 'alpha' is a pass, not an option; use enable=alpha",
	       "pass name used as option");
	is_str(arg_error("alpha-x", "1"),
	       "kplug: -fplugin-arg-kplug-alpha-x=1: unknown option 'x' of pass alpha",
	       "unknown pass option");
	is_str(arg_error("alpha-n", "12abc"),
	       "kplug: -fplugin-arg-kplug-alpha-n=12abc: '12abc' is not a number for 'alpha-n'",
	       "bad number");
	is_str(arg_error("alpha-n", "101"),
	       "kplug: -fplugin-arg-kplug-alpha-n=101: 101 is out of range for 'alpha-n' (0..100)",
	       "number out of range");
	is_str(arg_error("alpha-n", "99999999999999999999999"),
	       "kplug: -fplugin-arg-kplug-alpha-n=99999999999999999999999: '99999999999999999999999' is not a number for 'alpha-n'",
	       "number overflow");
	is_str(arg_error("alpha-b", "maybe"),
	       "kplug: -fplugin-arg-kplug-alpha-b=maybe: 'maybe' is not on/off for 'alpha-b'",
	       "bad bool");
	is_str(arg_error("alpha-e", "xml"),
	       "kplug: -fplugin-arg-kplug-alpha-e=xml: unknown value 'xml' for 'alpha-e' (expected one of text,jsonl)",
	       "bad enum");
	is_str(arg_error("alpha-trace", "pc,bb"),
	       "kplug: -fplugin-arg-kplug-alpha-trace=pc,bb: unknown value 'bb' for 'alpha-trace' (expected pc,cmp)",
	       "bad set item");
	is_str(arg_error("alpha-s", ""),
	       "kplug: -fplugin-arg-kplug-alpha-s=: empty value for 'alpha-s'", "empty string");
	is_str(arg_error("alpha-n", NULL),
	       "kplug: -fplugin-arg-kplug-alpha-n: 'alpha-n' needs a value", "option without value");
	is_str(arg_error("config", "/nonexistent/p.ini"),
	       "kplug: /nonexistent/p.ini: cannot open profile: No such file or directory",
	       "missing profile");
}

static void test_ini(void)
{
	struct kplug_config *cfg = fresh();
	char *path = write_file("p.ini",
		"; profile\n"
		"[kplug]\n"
		"enable = alpha\n"
		"root = /src/linux\n"
		"[alpha]\n"
		"n = 10\n"
		"l = one\n"
		"[path:drivers/*]\n"
		"alpha-n = 20\n"
		"enable = beta_pass\n"
		"[path:drivers/net/*]\n"
		"alpha-n = 30\n"
		"disable = alpha\n"
		"[path:fs/*]\n"
		"alpha-n = 40\n");

	ok(!kplug_config_load_ini(cfg, path), "profile loads");
	kplug_config_add_arg(cfg, "alpha-l", "two");
	kplug_config_resolve(cfg, "/src/linux/drivers/net/foo.c");
	is_str(kplug_config_match_path(cfg), "drivers/net/foo.c", "path relative to root");
	is_long(kplug_config_int(cfg, 0, "n"), 30, "last matching path section wins");
	ok(!kplug_config_enabled(cfg, 0) && kplug_config_enabled(cfg, 1),
	   "enable/disable in path sections");
	is_str(kplug_config_str(cfg, 0, "l"), "one,two", "list from ini and argument");
	{
		char want[600];

		snprintf(want, sizeof(want), "%s:12", path);
		is_str(kplug_config_origin(cfg, 0, "n"), want, "origin names file:line");
	}

	kplug_config_resolve(cfg, "/src/linux/kernel/fork.c");
	is_long(kplug_config_int(cfg, 0, "n"), 10, "no path section: [alpha] value");
	ok(kplug_config_enabled(cfg, 0) && !kplug_config_enabled(cfg, 1),
	   "resolve is repeatable");

	kplug_config_add_arg(cfg, "alpha-n", "50");
	kplug_config_resolve(cfg, "/src/linux/fs/open.c");
	is_long(kplug_config_int(cfg, 0, "n"), 50, "argument overrides path section");

	kplug_config_add_arg(cfg, "root", "/src");
	kplug_config_resolve(cfg, "/src/linux/fs/open.c");
	is_str(kplug_config_match_path(cfg), "linux/fs/open.c", "root argument overrides ini root");
	kplug_config_free(cfg);

	cfg = fresh();
	path = write_file("q.ini", "[path:*.c]\nalpha-n = 3\n");
	kplug_config_load_ini(cfg, path);
	kplug_config_resolve(cfg, "./a/../b.c");
	is_str(kplug_config_match_path(cfg), "b.c", "relative input normalised");
	is_long(kplug_config_int(cfg, 0, "n"), 3, "relative path matches");
	kplug_config_free(cfg);
}

static void test_ini_errors(void)
{
	char want[KPLUG_ERR_MAX], longline[400];

#define INI_ERR(text, msg, what) do { \
	snprintf(want, sizeof(want), "kplug: %s/t.ini:%s", tmpdir, msg); \
	is_str(ini_error(text), want, what); \
} while (0)
	INI_ERR("[kplug]\nenable = alpha\n[gamma]\nx = 1\n",
		"4: unknown section [gamma] (expected kplug, path:GLOB or a pass: alpha, beta_pass)",
		"unknown section");
	INI_ERR("[alpha]\nfrob = 1\n", "2: unknown key 'frob' in [alpha]", "unknown key");
	INI_ERR("[kplug]\nconfig = x.ini\n",
		"2: unknown key 'config' in [kplug] (expected enable, disable, root)",
		"no nested config");
	INI_ERR("[alpha]\nn = 1\nthis line is garbage\n",
		"3: syntax error (expected [section] or key = value)", "syntax error");
	INI_ERR("[alpha\nn = 1\n", "1: syntax error (expected [section] or key = value)",
		"unclosed section");
	INI_ERR("n = 1\n", "1: 'n' outside any [section]", "key outside a section");
	INI_ERR("[alpha]\nn = ten\n", "2: 'ten' is not a number for 'alpha-n'", "bad number in ini");
	INI_ERR("[kplug]\nenable =\n", "2: empty list for 'enable'", "empty list in ini");
	INI_ERR("[path:]\nalpha-n = 1\n", "2: empty glob in section [path:]", "empty glob");
	INI_ERR("[path:x/*]\nroot = /\n", "2: 'root' belongs in [kplug], not [path:x/*]",
		"root in a path section");
	INI_ERR("[path:x/*]\nalpha-q = 1\n", "2: unknown option 'q' of pass alpha",
		"unknown option in a path section");
	memset(longline, 'x', sizeof(longline) - 2);
	memcpy(longline, "[alpha]\ns = ", 12);
	longline[sizeof(longline) - 2] = '\n';
	longline[sizeof(longline) - 1] = '\0';
	INI_ERR(longline, "2: line longer than 198 characters", "over-long line");
#undef INI_ERR
	{
		FILE *f = fopen(write_file("t.ini", ""), "w");

		fwrite("[alpha]\nn = 1\0junk\n", 1, 19, f);
		fclose(f);
		snprintf(want, sizeof(want), "kplug: %s/t.ini:2: NUL byte in line", tmpdir);
		is_str(ini_error(NULL), want, "NUL byte in a line");
	}
	snprintf(want, sizeof(want), "kplug: %s: cannot open profile: Is a directory", tmpdir);
	is_str(arg_error("config", tmpdir), want, "profile is a directory");
	is_str(ini_error("[alpha]\nn = 1\n"), "", "a good profile has no error");
	is_str(ini_error("[alpha]\nn = 1"), "", "last line without newline");
}

static void test_disabled_pass_validated(void)
{
	struct kplug_config *cfg = fresh();

	ok(!kplug_config_add_arg(cfg, "beta_pass-min", "3"),
	   "setting of a disabled pass accepted");
	kplug_config_resolve(cfg, "a.c");
	ok(!kplug_config_enabled(cfg, 1), "and the pass stays disabled");
	kplug_config_free(cfg);
	is_str(arg_error("beta_pass-min", "-1"),
	       "kplug: -fplugin-arg-kplug-beta_pass-min=-1: -1 is out of range for 'beta_pass-min' (0..1000)",
	       "setting of a disabled pass still validated");
}

static void test_lists(void)
{
	is_long(kplug_choice_index("pc,cmp", "cmp", 3), 1, "choice index");
	is_long(kplug_choice_index("pc,cmp", "cm", 2), -1, "no prefix match");
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_defaults();
	test_args();
	test_arg_errors();
	test_ini();
	test_ini_errors();
	test_disabled_pass_validated();
	test_lists();
	printf("1..%d\n", test_no);
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			return 1;
	}
	return failures != 0;
}
