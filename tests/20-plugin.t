# kplug.so as a user meets it: build, install, options, profiles, output.
# per-compiler
# lock: plugin-dir
. "$(dirname "$0")/lib.sh"
FIX=$TOP/tests/fixtures
T=$(mktemp -d "$OUT/plugin.XXXXXX")
check "fixture directory" cd "$FIX"
diag "compiler: $KCC ($($KCC -dumpfullversion)), plugin: $KPLUG"

cyc() { kgcc -c sample.c -o /dev/null -fplugin-arg-kplug-enable=cyc_complexity "$@" 2>&1; }

# no_dynamic_inih SO: ldd reads SO and lists no libinih
no_dynamic_inih() { local libs; libs=$(ldd "$1") && ! grep -q inih <<<"$libs"; }
# exports_no_inih SO: nm reads SO's dynamic symbols and none is inih's
exports_no_inih() { local syms; syms=$(nm -D --defined-only "$1") && ! grep -q ' ini_' <<<"$syms"; }
check "make built kplug.so" test -f "$KPLUG"
check "ldd kplug.so shows no libinih (linked statically)" no_dynamic_inih "$KPLUG"
check "inih symbols are not exported" exports_no_inih "$KPLUG"

is "$(cyc -O0)" "$(cat sample.O0.expected)" "-O0: the 2016 plugin's exact lines"
is "$(cyc -O2)" "$(cat sample.O2.expected)" "-O2: the 2016 plugin's exact lines"
is "$(kgcc -O2 -c sample.c -o /dev/null 2>&1)" "" "loaded without enable: silent"
check "loaded without enable: compiles" kgcc -O2 -c sample.c -o "$T/s.o" >/dev/null 2>&1
# same_code_as_plain_gcc OBJ: sample.c compiled without kplug gives OBJ's code
same_code_as_plain_gcc() {
	$KCC -O2 -c sample.c -o "$T/n.o" &&
		cmp -s <(objdump -d "$1" | tail -n +3) <(objdump -d "$T/n.o" | tail -n +3)
}
check "no pass enabled: same code as without kplug" same_code_as_plain_gcc "$T/s.o"
is "$(cyc -O2 -fplugin-arg-kplug-cyc_complexity-min=3)" \
	"$(awk '$3 >= 3' sample.O2.expected)" "min=3 keeps M >= 3"
is "$(cyc -O2 -fplugin-arg-kplug-disable=all)" "" "disable=all after enable"
is "$(cyc -O0 -fplugin-arg-kplug-enable=all -fplugin-arg-kplug-sancov-trace=pc)" "$(cat sample.O0.expected)" "enable=all"

rm -f "$T/report"
is "$(cyc -O2 -fplugin-arg-kplug-cyc_complexity-output="$T/report")" "" "output=FILE: nothing on stderr"
cyc -O2 -fplugin-arg-kplug-cyc_complexity-output="$T/report" >/dev/null
is "$(cat "$T/report")" "$(cat sample.O2.expected sample.O2.expected)" "output=FILE appends"

# Parallel compiles append whole lines to one report.
rm -f "$T/par"
cp sample.h "$T/"
for i in $(seq 1 24); do
	cp sample.c "$T/p$i.c"
	echo "$T/p$i.c"
done | xargs -P 8 -I{} $KCC -fplugin="$KPLUG" -O2 -c {} -o /dev/null \
	-fplugin-arg-kplug-enable=cyc_complexity -fplugin-arg-kplug-cyc_complexity-output="$T/par"
is "$(wc -l < "$T/par")" 168 "24 parallel compiles: 168 lines"
is "$(grep -vc '^Cyclomatic Complexity [0-9]* /.*:[a-z_]*$' "$T/par")" 0 "no torn line"

# Profiles
is "$(kgcc -O2 -c sample.c -o /dev/null -fplugin-arg-kplug-config=profile.ini 2>&1)" \
	"$(awk '$3 >= 4' sample.O2.expected)" "profile: enable, [cyc_complexity], last matching [path:]"
is "$(kgcc -O2 -c sample.c -o /dev/null -fplugin-arg-kplug-config=profile.ini \
	-fplugin-arg-kplug-cyc_complexity-min=2 2>&1)" \
	"$(awk '$3 >= 2' sample.O2.expected)" "argument overrides profile"
mkdir -p "$T/other" && cp sample.c sample.h "$T/other/"
is "$(cd "$T" && $KCC -fplugin="$KPLUG" -O2 -c other/sample.c -o /dev/null \
	-fplugin-arg-kplug-config="$FIX/profile.ini" 2>&1 | wc -l)" 7 "path section relative to cwd"
is "$(cd / && $KCC -fplugin="$KPLUG" -O2 -c "$T/other/sample.c" -o /dev/null \
	-fplugin-arg-kplug-config="$FIX/profile.ini" -fplugin-arg-kplug-root="$T" 2>&1 | wc -l)" 7 \
	"path section relative to root="
is "$(kgcc -O2 -c sample.c -o /dev/null -fplugin-arg-kplug-cyc_complexity-min=3 2>&1)" "" \
	"settings of a pass that is not enabled have no effect"
# Indented lines are ordinary lines (Debian's inih would continue the previous key).
mkdir -p "$T/indent"
printf '[kplug]\n  enable = cyc_complexity\n[cyc_complexity]\n    output = cyc.txt\n    format = jsonl\n' \
	> "$T/indent/p.ini"
is "$(cd "$T/indent" && kgcc -O2 -c "$FIX/sample.c" -o /dev/null -fplugin-arg-kplug-config=p.ini 2>&1)" "" \
	"indented profile: nothing on stderr"
is "$(ls "$T/indent")" "$(printf 'cyc.txt\np.ini')" "indented profile: the report goes to output = cyc.txt"
is "$(grep -c '^{"file":' "$T/indent/cyc.txt" 2>/dev/null)" "$(wc -l < sample.O2.expected)" \
	"indented profile: format = jsonl applies"

# The profiles shipped in config/ load and do what their comments say.
for f in "$TOP"/config/*.ini; do
	is "$(cd "$T" && kgcc -c -x c /dev/null -o /dev/null -fplugin-arg-kplug-config="$f" 2>&1)" "" \
		"shipped profile $(basename "$f") is valid"
done
survey=$(cd "$T" && kgcc -O2 -c "$FIX/sample.c" -o /dev/null \
	-fplugin-arg-kplug-config="$TOP/config/complexity-survey.ini" 2>&1; cat kplug-complexity.jsonl)
is "$(echo "$survey" | grep -c '^{.*"function":"classify"')" 1 "complexity-survey.ini writes JSON Lines"
gate=$(cd "$T" && kgcc -O2 -c "$FIX/sample.c" -o /dev/null -fplugin-arg-kplug-config="$TOP/config/ci-gate.ini" \
	-fplugin-arg-kplug-cyc_complexity-warn=4 2>&1)
is "$(echo "$gate" | grep -c 'warning: .*complexity')" 1 "ci-gate.ini warns at M >= warn"

# Errors: one line, non-zero exit.
err=$(kgcc -c sample.c -o /dev/null -fplugin-arg-kplug-enable=sancovv 2>&1); rc=$?
passes=$($KCC -v --help -fplugin="$KPLUG" 2>&1 | sed -n 's/^      \([a-z_0-9]*\): .*/\1/p' | paste -sd, | sed 's/,/, /g')
is "$err" "cc1: error: kplug: -fplugin-arg-kplug-enable=sancovv: unknown pass 'sancovv' (known: all, $passes)" "unknown pass"
ok $((rc == 0)) "unknown pass: exit status $rc"
err=$(cyc -fplugin-arg-kplug-cyc_complexity-output="$T/no/such/dir/r" ); rc=$?
is "$err" "cc1: error: kplug: -fplugin-arg-kplug-cyc_complexity-output=$T/no/such/dir/r: cannot open cyc_complexity output '$T/no/such/dir/r': No such file or directory" "unwritable output"
ok $((rc == 0)) "unwritable output: exit status $rc"
printf '[cyc_complexity]\nmin = -3\n' > "$T/bad.ini"
is "$(kgcc -c sample.c -o /dev/null -fplugin-arg-kplug-config="$T/bad.ini" 2>&1)" \
	"cc1: error: kplug: $T/bad.ini:2: -3 is out of range for 'cyc_complexity-min' (0..2147483647)" \
	"bad number in a profile names file:line"

# Help and version
help=$($KCC -v --help -fplugin="$KPLUG" 2>&1)
check "version shown with -v" grep -q '^ kplug: 0\.' <<<"$help"
check "help lists every option" grep -q 'cyc_complexity-min (default 0)' <<<"$help"

# The version check: kplug.so built for the other GCC of the pair (other_cc),
# loaded into this one, names both and the rebuild command.
datestamp() { sed -n 's/^static char datestamp\[\] = "\(.*\)";/\1/p' "$($1 -print-file-name=plugin)/include/plugin-version.h"; }
other=$(other_cc)
check "make CC=$other" kplug_so_for "$other" >/dev/null
other_so=$(kplug_so_path "$other")
err=$($KCC -fplugin="$other_so" -c sample.c -o /dev/null 2>&1); rc=$?
is "$err" "cc1: error: kplug: kplug.so was built for GCC $($other -dumpfullversion) ($(datestamp "$other")) but loaded into GCC $($KCC -dumpfullversion) ($(datestamp "$KCC")); rebuild it for this compiler: make -C $TOP CC=$KCC clean install" \
	"version mismatch (plugin for $other in $KCC): one line naming both GCCs and the rebuild command"
ok $((rc == 0)) "version mismatch: exit status $rc"

# install / uninstall into a staging root and into the real plugin directory
make -s -C "$TOP" CC="$KCC" KPLUG_SO="$KPLUG" install DESTDIR="$T/root" >&2
check "make install DESTDIR=" test -f "$T/root$($KCC -print-file-name=plugin)/kplug.so"
plugdir=$($KCC -print-file-name=plugin)
if [ -w "$plugdir" ] && [ ! -e "$plugdir/kplug.so" ]; then
	make -s -C "$TOP" CC="$KCC" KPLUG_SO="$KPLUG" install >&2
	is "$($KCC -fplugin=kplug -O2 -c sample.c -o /dev/null -fplugin-arg-kplug-enable=cyc_complexity 2>&1)" \
		"$(cat sample.O2.expected)" "-fplugin=kplug after make install"
	make -s -C "$TOP" CC="$KCC" KPLUG_SO="$KPLUG" uninstall >&2
	check "make uninstall removes it" test ! -e "$plugdir/kplug.so"
else
	skip "plugin directory not writable or kplug already installed"
	skip "plugin directory not writable or kplug already installed"
fi

# Checks that do not depend on the compiler run in the gcc run only.
if [ "$KCC" = gcc ]; then
	# Missing prerequisites name the Debian package.
	err=$(make -s -C "$TOP" CC=aarch64-linux-gnu-gcc-99 KPLUG_SO="$T/x.so" 2>&1); rc=$?
	check "missing compiler: clear message" grep -q "^kplug: compiler 'aarch64-linux-gnu-gcc-99' not found" <<<"$err"
	ok $((rc == 0)) "missing compiler: make fails"
	fake=$T/fakecc; mkdir -p "$fake/plugin"
	printf '#!/bin/sh\ncase "$1" in -print-file-name=plugin) echo %s/plugin;; -dumpversion) echo 13;; -dumpmachine) gcc -dumpmachine;; *) exec gcc "$@";; esac\n' "$fake" > "$fake/gcc-13"
	chmod +x "$fake/gcc-13"
	err=$(make -s -C "$TOP" CC="$fake/gcc-13" KPLUG_SO="$T/x.so" 2>&1); rc=$?
	is "$(echo "$err" | grep kplug)" "kplug: no GCC plugin headers for $fake/gcc-13 in $fake/plugin/include: apt-get install gcc-13-plugin-dev (or: make deps)" "missing plugin headers name the package"
	ok $((rc == 0)) "missing plugin headers: make fails"
	# CC=gcc-13 builds with g++-13: where it is missing, that is named
	mkdir -p "$fake/plugin/include" && touch "$fake/plugin/include/plugin-version.h"
	err=$(PATH=$fake:$PATH make -s -C "$TOP" CC=gcc-13 KPLUG_SO="$T/x.so" 2>&1); rc=$?
	if command -v g++-13 >/dev/null; then
		ok 1 "missing g++-13: this check needs a machine without g++-13"
	else
		is "$(echo "$err" | grep kplug)" "kplug: g++-13 not found: apt-get install g++-13 (or: make deps)" \
			"CC=gcc-13 without g++-13: the C++ compiler derived from CC is named"
	fi
	ok $((rc == 0)) "missing g++-13: make fails"

	# The README's main job: the bundled example.
	check "example/run.sh succeeds" env KPLUG="$KPLUG" "$TOP/example/run.sh" >"$T/example.out" 2>&1
	ex=$(cat "$T/example.out")
	check "example: text report" grep -q '^Cyclomatic Complexity 10 driver.c:handle_irq$' <<<"$ex"
	check "example: JSON Lines with macro attribution" \
		grep -q '^{"file":"driver.c","line":23,"function":"regs_init","M":5,.*"macros":{"CHECK_RANGE":2}' <<<"$ex"
fi

rm -rf "$T"
done_testing
