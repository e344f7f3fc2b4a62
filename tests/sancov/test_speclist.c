// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of config/speclist.c, TAP output.  Built and run by
 * tests/31-sancov-lists.t.
 */
#include <stdio.h>
#include <string.h>
#include "config/speclist.h"

static int n, failed;

static void ok(int cond, const char *what)
{
	n++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n, what);
	if (!cond)
		failed++;
}

static struct kplug_speclist *parse(const char *text, int *ret)
{
	struct kplug_speclist *sl = kplug_speclist_new();

	*ret = kplug_speclist_parse(sl, "l.txt", text, strlen(text));
	return sl;
}

/* TEXT must fail with exactly ERR. */
static void bad(const char *text, const char *err)
{
	int ret;
	struct kplug_speclist *sl = parse(text, &ret);

	ok(ret == -1 && !strcmp(kplug_speclist_error(sl), err), err);
	if (ret != -1 || strcmp(kplug_speclist_error(sl), err))
		printf("# got %d '%s'\n", ret, kplug_speclist_error(sl));
	kplug_speclist_free(sl);
}

int main(void)
{
	struct kplug_speclist *sl;
	int ret;

	sl = parse("# comment\n\n  src:drivers/net/*  \r\nfun:foo*\n"
		   "fun:bar\n[address]\nfun:asan_only\n[cov*]\nfun:cov_only\n"
		   "[*]\nsrc:mm/*\nfun:cat=init\n", &ret);
	ok(ret == 0, "valid list parses");
	ok(kplug_speclist_count(sl, KPLUG_SPEC_SRC) == 2, "two src entries apply");
	ok(kplug_speclist_count(sl, KPLUG_SPEC_FUN) == 3, "three fun entries apply");
	ok(kplug_speclist_match(sl, KPLUG_SPEC_SRC, "drivers/net/x/y.c"), "'*' crosses '/'");
	ok(!kplug_speclist_match(sl, KPLUG_SPEC_SRC, "drivers/block/y.c"), "src mismatch");
	ok(kplug_speclist_match(sl, KPLUG_SPEC_SRC, "mm/slab.c"), "[*] section applies");
	ok(kplug_speclist_match(sl, KPLUG_SPEC_FUN, "foobar"), "fun glob");
	ok(kplug_speclist_match(sl, KPLUG_SPEC_FUN, "bar"), "fun exact");
	ok(!kplug_speclist_match(sl, KPLUG_SPEC_FUN, "barx"), "fun exact only");
	ok(!kplug_speclist_match(sl, KPLUG_SPEC_FUN, "asan_only"), "[address] section skipped");
	ok(kplug_speclist_match(sl, KPLUG_SPEC_FUN, "cov_only"), "[cov*] section applies");
	ok(!kplug_speclist_match(sl, KPLUG_SPEC_FUN, "cat"), "entry with a category never matches");
	ok(!kplug_speclist_match(sl, KPLUG_SPEC_FUN, "src:drivers/net/a"), "kinds are separate");
	ok(kplug_speclist_add(sl, KPLUG_SPEC_FUN, "inl[ai]ne", "ini:3") == 0, "inline glob");
	ok(kplug_speclist_match(sl, KPLUG_SPEC_FUN, "inline"), "inline glob matches");
	ok(kplug_speclist_add(sl, KPLUG_SPEC_FUN, "x[ab", "ini:4") == -1 &&
	   !strcmp(kplug_speclist_error(sl), "kplug: ini:4: fun glob 'x[ab' has an unclosed '['"),
	   "bad inline glob");
	ok(kplug_speclist_add(sl, KPLUG_SPEC_SRC, "", "arg") == -1 &&
	   !strcmp(kplug_speclist_error(sl), "kplug: arg: empty src glob"), "empty inline glob");
	kplug_speclist_free(sl);

	sl = parse("fun:[]x]\nfun:[!]]y\nfun:a\\*\n", &ret);
	ok(ret == 0, "brackets with a leading ']' and escapes");
	ok(kplug_speclist_match(sl, KPLUG_SPEC_FUN, "]") &&
	   kplug_speclist_match(sl, KPLUG_SPEC_FUN, "ay") &&
	   !kplug_speclist_match(sl, KPLUG_SPEC_FUN, "]x"), "[]x] and [!]] are bracket expressions");
	ok(kplug_speclist_match(sl, KPLUG_SPEC_FUN, "a*") &&
	   !kplug_speclist_match(sl, KPLUG_SPEC_FUN, "ab"), "escaped star is literal");
	kplug_speclist_free(sl);

	sl = parse("", &ret);
	ok(ret == 0 && !kplug_speclist_count(sl, KPLUG_SPEC_SRC) &&
	   !kplug_speclist_match(sl, KPLUG_SPEC_FUN, "f"), "empty list matches nothing");
	kplug_speclist_free(sl);

	bad("src:a\nfoo\n", "kplug: l.txt:2: malformed line 'foo' (expected src:GLOB or fun:GLOB)");
	bad("global:x\n", "kplug: l.txt:1: unknown entry type 'global:' (sancov lists use src: and fun:)");
	bad("\n\nfun:\n", "kplug: l.txt:3: empty fun glob");
	bad("src:a[b\n", "kplug: l.txt:1: src glob 'a[b' has an unclosed '['");
	bad("fun:a\\\n", "kplug: l.txt:1: fun glob 'a\\' ends with a backslash");
	bad("[coverage\n", "kplug: l.txt:1: malformed section header '[coverage' (expected [GLOB])");
	bad("[]\n", "kplug: l.txt:1: empty section name '[]'");
	bad("fun:x=\n", "kplug: l.txt:1: empty category after '='");
	bad("bad\x01line\n", "kplug: l.txt:1: malformed line 'bad?line' (expected src:GLOB or fun:GLOB)");
	{
		static const char nul[] = "fun:a\nfun:b\0c\n";
		sl = kplug_speclist_new();
		ret = kplug_speclist_parse(sl, "l.txt", nul, sizeof(nul) - 1);
		ok(ret == -1 && !strcmp(kplug_speclist_error(sl), "kplug: l.txt:2: NUL byte in list"),
		   "NUL byte refused with its line");
		kplug_speclist_free(sl);
	}
	sl = kplug_speclist_new();
	ret = kplug_speclist_load(sl, "/nonexistent/list.txt");
	ok(ret == -1 && !strcmp(kplug_speclist_error(sl),
				"kplug: /nonexistent/list.txt: cannot read list: No such file or directory"),
	   "missing file");
	ret = kplug_speclist_load(sl, "/");
	ok(ret == -1 && !strcmp(kplug_speclist_error(sl), "kplug: /: cannot read list: Is a directory"),
	   "directory refused");
	kplug_speclist_free(sl);

	printf("1..%d\n", n);
	return failed != 0;
}
