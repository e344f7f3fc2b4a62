// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of config/ (options, ini profiles, precedence, errors).
 * Prints TAP.  Built against libinih.a only: no GCC headers.
 */
#define TEST_ERR_MAX	4096	/* expected lines in these tests are short */
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
	static char *err;
	struct kplug_config *cfg = fresh();

	free(err);
	err = strdup("");
	if (kplug_config_add_arg(cfg, key, value)) {
		free(err);
		err = strdup(kplug_config_error(cfg));
	}
	kplug_config_free(cfg);
	return err;
}

static const char *ini_error(const char *text)
{
	static char *err;
	struct kplug_config *cfg = fresh();
	char *path = text ? write_file("t.ini", text) : write_file_path("t.ini");

	free(err);
	err = strdup("");
	if (kplug_config_load_ini(cfg, path)) {
		free(err);
		err = strdup(kplug_config_error(cfg));
	}
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
	char want[1024], longline[400];

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
	INI_ERR(longline, "2: line longer than 199 characters", "over-long line");
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

/* Load TEXT as t.ini and resolve for x.c; NULL (error printed) on failure. */
static struct kplug_config *load(const char *text)
{
	struct kplug_config *cfg = fresh();

	if (kplug_config_load_ini(cfg, write_file("t.ini", text))) {
		printf("# %s\n", kplug_config_error(cfg));
		kplug_config_free(cfg);
		return NULL;
	}
	kplug_config_resolve(cfg, "x.c");
	return cfg;
}

/* The value of alpha's option KEY after loading TEXT ("(error)" if refused). */
static const char *alpha_str(const char *text, const char *key)
{
	static char val[512];
	struct kplug_config *cfg = load(text);
	const char *v;

	if (!cfg)
		return "(error)";
	v = kplug_config_str(cfg, 0, key);
	snprintf(val, sizeof(val), "%s", v ? v : "(unset)");
	kplug_config_free(cfg);
	return val;
}

/* "LINE: MESSAGE" of the error TEXT gives, without the "kplug: PATH:" prefix. */
static const char *ini_msg(const char *text)
{
	const char *err = ini_error(text);
	const char *p = strstr(err, "t.ini:");

	return p ? p + 6 : err;
}

/* The dialect of README "ini profiles", one rule at a time. */
static void test_ini_dialect(void)
{
	char line[400], want[400];
	int i;

	/* indentation */
	is_str(alpha_str("[alpha]\n    s = cyc.txt\n    e = jsonl\n", "s"), "cyc.txt",
	       "indented key is an ordinary line, not a continuation");
	is_str(alpha_str("[alpha]\n    s = cyc.txt\n    e = jsonl\n", "e"), "jsonl",
	       "the next indented key is read as its own key");
	is_str(alpha_str("\t[alpha]\n\t\ts = a\n", "s"), "a", "tab-indented section and key");
	is_str(ini_msg("[alpha]\ns = a\n  b\n"), "3: syntax error (expected [section] or key = value)",
	       "an indented line without '=' is a syntax error, never a continuation");
	/* comments */
	is_str(alpha_str("; c\n# c\n  ; c\n\t# c\n[alpha]\ns = a\n", "s"), "a",
	       "comment lines start with ; or #, indented too");
	is_str(alpha_str("[alpha]\ns = a.txt ; c\n", "s"), "a.txt", "inline ; comment after whitespace");
	is_str(alpha_str("[alpha]\ns = a.txt\t# c\n", "s"), "a.txt", "inline # comment after whitespace");
	is_str(alpha_str("[alpha]\ns = a;b#c\n", "s"), "a;b#c", "; and # without whitespace before are text");
	is_str(alpha_str("[alpha] ; c\ns = a\n", "s"), "a", "comment after a section header");
	/* sections */
	is_str(alpha_str("[ alpha ]\ns = a\n", "s"), "a", "whitespace inside [ ] is ignored");
	is_str(ini_msg("[alpha] s = a\n"), "1: text after the section header's ']'",
	       "text after ']' is refused");
	is_str(ini_msg("[]\ns = a\n"), "1: empty section name", "empty section name");
	is_str(ini_msg("[Alpha]\ns = a\n"),
	       "2: unknown section [Alpha] (expected kplug, path:GLOB or a pass: alpha, beta_pass)",
	       "section names are case-sensitive");
	snprintf(line, sizeof(line), "[path:%.44s]\nalpha-s = a\n",
		 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	ok(strcmp(alpha_str(line, "s"), "(error)") != 0, "a section name of 49 characters");
	snprintf(line, sizeof(line), "[path:%.45s]\nalpha-s = a\n",
		 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	is_str(ini_msg(line), "1: section name longer than 49 characters",
	       "a longer section name is refused, not cut");
	is_str(alpha_str("[alpha]\ns = a\n[beta_pass]\nmin = 1\n[alpha]\nn = 7\n", "s"), "a",
	       "a repeated section adds keys");
	/* keys and values */
	is_str(alpha_str("[alpha]\ns: a\n", "s"), "a", "':' separates like '='");
	is_str(alpha_str("[alpha]\ns = a=b:c\n", "s"), "a=b:c", "the first '=' or ':' separates");
	is_str(alpha_str("[alpha]\n  s   =   a b  \n", "s"), "a b",
	       "whitespace around key and value ignored, inside kept");
	is_str(ini_msg("[alpha]\nS = a\n"), "2: unknown key 'S' in [alpha]", "keys are case-sensitive");
	is_str(ini_msg("[alpha]\ns\n"), "2: syntax error (expected [section] or key = value)",
	       "a key without '=' is a syntax error");
	is_str(ini_msg("[alpha]\ns =\n"), "2: empty value for 'alpha-s'", "empty value");
	is_str(ini_msg("[alpha]\ns = ; nothing\n"), "2: empty value for 'alpha-s'",
	       "a value that is only a comment is empty");
	is_str(ini_msg("[alpha]\ns = \"a b\"\n"),
	       "2: value of 's' starts with a quote (kplug's ini has no quoting; write the value without quotes)",
	       "double quotes are refused");
	is_str(ini_msg("[alpha]\ns = 'a'\n"),
	       "2: value of 's' starts with a quote (kplug's ini has no quoting; write the value without quotes)",
	       "single quotes are refused");
	is_str(alpha_str("[alpha]\ns = a\"b'\n", "s"), "a\"b'", "quotes inside a value are text");
	/* repeated keys */
	is_str(ini_msg("[alpha]\ns = a\n\ns = b\n"), "4: 's' repeated in [alpha] (first set at line 2)",
	       "a key repeated in one section");
	is_str(ini_msg("[alpha]\nl = a\n[beta_pass]\nmin = 1\n[alpha]\nl = b\n"),
	       "6: 'l' repeated in [alpha] (first set at line 2)",
	       "a key repeated in a repeated section (lists too)");
	is_str(ini_msg("[kplug]\nenable = alpha\nenable = beta_pass\n"),
	       "3: 'enable' repeated in [kplug] (first set at line 2)", "enable repeated in [kplug]");
	{
		struct kplug_config *cfg = load("[alpha]\nn = 1\n[path:*.c]\nalpha-n = 2\n[path:x.*]\nalpha-n = 3\n");

		ok(cfg && kplug_config_int(cfg, 0, "n") == 3,
		   "the same key in different sections is no repetition");
		kplug_config_free(cfg);
	}
	/* BOM, line ends */
	is_str(alpha_str("\xef\xbb\xbf[alpha]\ns = a\n", "s"), "a", "UTF-8 BOM at the start");
	is_str(ini_error("\xef\xbb\xbf"), "", "a file that is only a BOM (found by the fuzzer)");
	is_str(alpha_str("\xef\xbb\xbf  [alpha]\ns = a\n", "s"), "a", "BOM then indentation");
	is_str(ini_msg("[alpha]\n\xef\xbb\xbfs = a\n"), "2: unknown key '\xef\xbb\xbfs' in [alpha]",
	       "a BOM elsewhere is text");
	is_str(alpha_str("[alpha]\r\ns = a\r\n", "s"), "a", "CRLF line ends");
	is_str(ini_msg("[alpha]\rs = a\r"), "1: carriage return inside a line",
	       "a bare CR (old Mac line ends) is refused");
	/* line length */
	for (i = 0; i < 2; i++) {
		size_t n = 199 + i;

		memset(line, 'x', sizeof(line));
		memcpy(line, "[alpha]\n  s = ", 14);
		line[8 + 2 + n] = '\n';
		line[8 + 2 + n + 1] = '\0';
		if (!i) {
			ok(strcmp(alpha_str(line, "s"), "(error)") != 0,
			   "199 characters after the indentation");
		} else {
			is_str(ini_msg(line), "2: line longer than 199 characters",
			       "200 characters are refused");
		}
	}
	memset(line, 'x', sizeof(line));
	memcpy(line, "[alpha]\n; ", 10);
	memcpy(line + 300, "\ns = a\n", 8);
	is_str(alpha_str(line, "s"), "a", "a comment line of any length");
	memset(line, 'x', sizeof(line));
	memcpy(line, "[alpha]\ns = a ; ", 16);
	memcpy(line + 300, "\n", 2);
	is_str(alpha_str(line, "s"), "a", "an inline comment does not count");
	/* line numbers */
	{
		struct kplug_config *cfg = load("; c\n\n  [alpha]\r\n\n    n = 4 ; c\n");

		snprintf(want, sizeof(want), "%s/t.ini:5", tmpdir);
		is_str(cfg ? kplug_config_origin(cfg, 0, "n") : NULL, want,
		       "line numbers count every line");
		kplug_config_free(cfg);
	}
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

/* Record the length of the first item. */
static int item_length(const char *item, void *arg)
{
	if (!*(size_t *)arg)
		*(size_t *)arg = strlen(item);
	return 0;
}

/* No fixed buffer cuts a list item or an error line. */
static void test_long_values(void)
{
	size_t n = 5000, len = 0;
	char *item = malloc(n + 16), *want = malloc(2 * n + 200);
	const char *got;
	struct kplug_config *cfg = fresh();

	memset(item, 'x', n);
	strcpy(item + n, " , y");
	kplug_list_foreach(item, item_length, &len);
	is_long((long)len, (long)n, "a list item of 5000 bytes is passed whole");
	item[n] = '\0';
	ok(!kplug_config_add_arg(cfg, "alpha-l", "a") && !kplug_config_add_arg(cfg, "alpha-l", item),
	   "a list option with a 5000-byte item");
	kplug_config_resolve(cfg, "x.c");
	is_long((long)strlen(kplug_config_str(cfg, 0, "l")), (long)n + 2, "and it accumulates whole");
	kplug_config_free(cfg);
	memcpy(item, "pc,", 3);
	snprintf(want, 2 * n + 200, "kplug: -fplugin-arg-kplug-alpha-trace=%s: unknown value '%s' for 'alpha-trace' (expected pc,cmp)",
		 item, item + 3);
	got = arg_error("alpha-trace", item);
	ok(!strcmp(got, want), "an error line quotes a 5000-byte value whole");
	if (strcmp(got, want))
		printf("# got %zu bytes, expected %zu\n", strlen(got), strlen(want));
	free(item);
	free(want);
}

/* Resolve CFG for INPUT and return the error line ("" when it resolved). */
static const char *resolve_error(struct kplug_config *cfg, const char *input)
{
	static char *err;

	free(err);
	err = strdup(kplug_config_resolve(cfg, input) ? kplug_config_error(cfg) : "");
	return err;
}

static void test_defaults_layer(void)
{
	struct kplug_config *cfg = fresh();
	char *path = write_file("d.ini",
		"[alpha]\n"
		"trace = pc\n"
		"[path:lib/*]\n"
		"disable = alpha\n"
		"[path:fs/*]\n"
		"alpha-n = 15\n");

	ok(!kplug_config_add_arg(cfg, "root", "/src") &&
	   !kplug_config_add_arg(cfg, "default-enable", "alpha") &&
	   !kplug_config_add_arg(cfg, "default-alpha-n", "0") &&
	   !kplug_config_add_arg(cfg, "default-alpha-trace", "pc,cmp") &&
	   !kplug_config_add_arg(cfg, "default-alpha-s", "out.txt") &&
	   !kplug_config_add_arg(cfg, "config", path), "defaults accepted before the profile");
	kplug_config_resolve(cfg, "/src/kernel/fork.c");
	ok(kplug_config_enabled(cfg, 0), "default enable applies");
	is_long(kplug_config_int(cfg, 0, "n"), 0, "default value where no section sets it");
	is_str(kplug_config_origin(cfg, 0, "n"), "-fplugin-arg-kplug-default-alpha-n=0",
	       "origin of a default argument");
	is_long(kplug_config_set(cfg, 0, "trace"), 1, "[PASS] section overrides a default");
	is_str(kplug_config_str(cfg, 0, "s"), "out.txt", "default string kept");
	kplug_config_resolve(cfg, "/src/lib/sort.c");
	ok(!kplug_config_enabled(cfg, 0), "[path:] disable overrides a default enable");
	kplug_config_resolve(cfg, "/src/fs/open.c");
	is_long(kplug_config_int(cfg, 0, "n"), 15, "[path:] value overrides a default");
	kplug_config_add_arg(cfg, "alpha-n", "7");
	kplug_config_resolve(cfg, "/src/fs/open.c");
	is_long(kplug_config_int(cfg, 0, "n"), 7, "a plain argument still overrides the profile");
	kplug_config_free(cfg);

	cfg = fresh();
	kplug_config_add_arg(cfg, "disable", "alpha");
	kplug_config_add_arg(cfg, "default-enable", "alpha");
	kplug_config_resolve(cfg, "x.c");
	ok(!kplug_config_enabled(cfg, 0), "a default never overrides a plain argument, whatever the order");
	kplug_config_free(cfg);

	is_str(arg_error("default-root", "/"),
	       "kplug: -fplugin-arg-kplug-default-root=/: 'root' cannot be a default (only enable, disable and PASS-OPTION can)",
	       "root cannot be a default");
	is_str(arg_error("default-config", "x.ini"),
	       "kplug: -fplugin-arg-kplug-default-config=x.ini: 'config' cannot be a default (only enable, disable and PASS-OPTION can)",
	       "config cannot be a default");
	is_str(arg_error("default-alpha-n", "x"),
	       "kplug: -fplugin-arg-kplug-default-alpha-n=x: 'x' is not a number for 'alpha-n'",
	       "defaults are validated");
	is_str(arg_error("default-gamma", "1"),
	       "kplug: -fplugin-arg-kplug-default-gamma=1: unknown option 'gamma'",
	       "unknown default option");
	{
		char want[TEST_ERR_MAX];

		snprintf(want, sizeof(want), "kplug: %s/t.ini:2: unknown option 'default-enable'",
			 tmpdir);
		is_str(ini_error("[path:x/*]\ndefault-enable = alpha\n"), want,
		       "defaults are command-line only");
	}
}

static void test_gates(void)
{
	struct kplug_config *cfg = fresh();
	char *path = write_file("g.ini",
		"[kplug]\n"
		"enable = alpha, beta_pass\n"
		"[path:mm/*]\n"
		"alpha-trace = pc, cmp\n");
	char want[TEST_ERR_MAX];

	ok(!kplug_config_add_arg(cfg, "config", path) &&
	   !kplug_config_add_arg(cfg, "forbid", "alpha"), "forbid accepted");
	kplug_config_resolve(cfg, "fs/open.c");
	ok(!kplug_config_enabled(cfg, 0) && kplug_config_enabled(cfg, 1),
	   "a forbidden pass stays off although the profile enables it");
	kplug_config_add_arg(cfg, "enable", "alpha");
	kplug_config_resolve(cfg, "fs/open.c");
	ok(!kplug_config_enabled(cfg, 0), "... and although an argument enables it");
	kplug_config_add_arg(cfg, "permit", "alpha");
	kplug_config_resolve(cfg, "fs/open.c");
	ok(kplug_config_enabled(cfg, 0), "a later permit lifts the forbid");

	ok(!kplug_config_add_arg(cfg, "limit-alpha-trace", "pc"), "limit accepted");
	is_str(resolve_error(cfg, "fs/open.c"), "", "a value inside its limit resolves");
	snprintf(want, sizeof(want),
		 "kplug: %s:4: 'cmp' for 'alpha-trace' is not allowed in this build (-fplugin-arg-kplug-limit-alpha-trace=pc)",
		 path);
	is_str(resolve_error(cfg, "mm/slab.c"), want, "a value outside its limit names the profile line");
	kplug_config_add_arg(cfg, "limit-alpha-trace", "pc,cmp");
	is_str(resolve_error(cfg, "mm/slab.c"), "", "the last limit wins");
	kplug_config_free(cfg);

	cfg = fresh();
	kplug_config_add_arg(cfg, "enable", "alpha");
	kplug_config_add_arg(cfg, "alpha-b", "on");
	kplug_config_add_arg(cfg, "limit-alpha-b", "off");
	is_str(resolve_error(cfg, "x.c"),
	       "kplug: -fplugin-arg-kplug-alpha-b=on: 'on' for 'alpha-b' is not allowed in this build (-fplugin-arg-kplug-limit-alpha-b=off)",
	       "limit on an on/off option");
	kplug_config_free(cfg);
	cfg = fresh();
	kplug_config_add_arg(cfg, "limit-alpha-e", "jsonl");
	is_str(resolve_error(cfg, "x.c"), "", "a limit alone, no pass enabled: the compile goes on");
	kplug_config_add_arg(cfg, "enable", "beta_pass");
	kplug_config_add_arg(cfg, "alpha-b", "on");
	kplug_config_add_arg(cfg, "limit-alpha-b", "off");
	is_str(resolve_error(cfg, "x.c"), "", "a limit on a pass that is off, another pass on");
	kplug_config_add_arg(cfg, "enable", "alpha");
	kplug_config_add_arg(cfg, "disable", "alpha");
	is_str(resolve_error(cfg, "x.c"), "", "... and on a pass enabled, then disabled");
	kplug_config_add_arg(cfg, "enable", "alpha");
	is_str(resolve_error(cfg, "x.c"),
	       "kplug: default: 'text' for 'alpha-e' is not allowed in this build (-fplugin-arg-kplug-limit-alpha-e=jsonl)",
	       "limit on a choice, the pass default outside it");
	kplug_config_add_arg(cfg, "forbid", "alpha");
	is_str(resolve_error(cfg, "x.c"), "", "a forbidden pass is off: its limits do not apply");
	kplug_config_free(cfg);
	cfg = fresh();
	path = write_file("g2.ini",
		"[kplug]\n"
		"enable = alpha\n"
		"[path:drivers/*]\n"
		"disable = alpha\n");
	kplug_config_add_arg(cfg, "config", path);
	kplug_config_add_arg(cfg, "limit-alpha-e", "jsonl");
	is_str(resolve_error(cfg, "drivers/x.c"), "",
	       "a limit on a pass a [path:] section turns off");
	is_str(resolve_error(cfg, "x.c"),
	       "kplug: default: 'text' for 'alpha-e' is not allowed in this build (-fplugin-arg-kplug-limit-alpha-e=jsonl)",
	       "... applies where the profile enables the pass");
	kplug_config_free(cfg);

	is_str(arg_error("forbid", "gamma"),
	       "kplug: -fplugin-arg-kplug-forbid=gamma: unknown pass 'gamma' (known: all, alpha, beta_pass)",
	       "forbid names an unknown pass");
	is_str(arg_error("permit", ""),
	       "kplug: -fplugin-arg-kplug-permit=: 'permit' needs a list of passes", "empty permit");
	is_str(arg_error("limit-alpha-n", "1"),
	       "kplug: -fplugin-arg-kplug-limit-alpha-n=1: only on/off and choice options can be limited, not 'alpha-n'",
	       "limit on a number refused");
	is_str(arg_error("limit-alpha-trace", "pc,bb"),
	       "kplug: -fplugin-arg-kplug-limit-alpha-trace=pc,bb: unknown value 'bb' for 'alpha-trace' (expected pc,cmp)",
	       "limit with an unknown choice");
	is_str(arg_error("limit-alpha-trace", NULL),
	       "kplug: -fplugin-arg-kplug-limit-alpha-trace: 'limit-alpha-trace' needs a value",
	       "limit without value");
	snprintf(want, sizeof(want), "kplug: %s/t.ini:2: unknown key 'forbid' in [kplug] (expected enable, disable, root)",
		 tmpdir);
	is_str(ini_error("[kplug]\nforbid = alpha\n"), want, "a profile cannot set a gate");
	snprintf(want, sizeof(want), "kplug: %s/t.ini:2: unknown option 'permit'", tmpdir);
	is_str(ini_error("[path:x/*]\npermit = alpha\n"), want, "... nor lift one in a path section");
	snprintf(want, sizeof(want), "kplug: %s/t.ini:2: unknown option 'limit-alpha-trace'", tmpdir);
	is_str(ini_error("[path:x/*]\nlimit-alpha-trace = pc,cmp\n"), want, "... nor change a limit");
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
	test_ini_dialect();
	test_disabled_pass_validated();
	test_defaults_layer();
	test_gates();
	test_lists();
	test_long_values();
	printf("1..%d\n", test_no);
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			return 1;
	}
	return failures != 0;
}
