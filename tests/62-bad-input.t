#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The bad-input table: options, ini syntax, paths, permissions, versions,
# list files, unwritable outputs and conflicting settings.  Each case must
# make gcc exit non-zero with exactly one line on stderr, the given
# "cc1: error: kplug: ..." line, naming the culprit.
# per-compiler
. "$(dirname "$0")/lib.sh"

CC=$KCC
d=$OUT/bad-input
rm -rf "$d"
mkdir -p "$d/ro"
chmod 755 "$d" "$d/ro"
cd "$d" || exit 1

printf 'int f(int x)\n{\n\tif (x)\n\t\treturn 1;\n\treturn 2;\n}\nint g(int x) { return x; }\n' >t.c
printf '[kplug\nenable = all\n' >syntax.ini
printf '[kplug]\nenable = all\n[nosuch]\nx = 1\n' >section.ini
printf '; profile\n[kplug]\nfoo = bar\n' >key.ini
printf 'enable = all\n' >outside.ini
printf '[kplug]\nenable = all\n[path:lib/*]\nroot = /\n' >rootpath.ini
printf '[path:]\nenable = all\n' >emptyglob.ini
printf '[cyc_complexity]\nmin = lots\n' >value.ini
printf '[cyc_complexity]\nnosuch = 1\n' >passkey.ini
printf '[kplug]\nenable = cyc_complexity, nosuch\n' >pass.ini
{ printf '[kplug]\nenable = '; head -c 400 /dev/zero | tr '\0' 'x'; printf '\n'; } >long.ini
printf '[kplug]\nenable = a\0b\n' >nul.ini
printf '[kplug] enable = all\n' >after.ini
printf '[path:drivers/net/ethernet/intel/ixgbe/ixgbe_main.c]\nenable = all\n' >longsec.ini
printf '[cyc_complexity]\noutput = "cc.txt"\n' >quote.ini
printf '[cyc_complexity]\nmin = 3\n; later\nmin = 4\n' >repeat.ini
printf '[kplug]\renable = all\r' >cr.ini
printf '[cyc_complexity]\nmin = 3\n    4\n' >cont.ini
printf '[kplug]\nenable = all\n' >secret.ini
chmod 000 secret.ini
printf 'src:*\nobj:foo.o\n' >bad.list
printf '# list\n[coverage\nsrc:*\n' >section.list
printf 'fun:\n' >empty.list
printf 'src:*\n' >secret.list
chmod 000 secret.list
chmod 644 t.c ./*.ini ./*.list 2>/dev/null
chmod 000 secret.ini secret.list

datestamp() { sed -n 's/^static char datestamp\[\] = "\(.*\)";/\1/p' "$1/plugin-version.h"; }

# As an unprivileged user: root reads mode 000 files.
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }

TODO=
# bad DESCRIPTION EXPECTED-LINE GCC-ARGS...  (gcc runs in $d on t.c)
bad() {
	local desc=$1 want=$2 err rc n
	shift 2
	err=$("${RUNNER[@]}" "$CC" -fplugin="$KPLUG" "$@" -S -o /dev/null t.c 2>&1)
	rc=$?
	n=$((_tap_n + 1))
	if [ $rc -ne 0 ] && [ "$err" == "$want" ]; then
		echo "ok $n - $desc${TODO:+ # TODO $TODO}"
	else
		echo "not ok $n - $desc${TODO:+ # TODO $TODO}"
		[ -n "$TODO" ] || _tap_fail=$((_tap_fail + 1))
		diag "exit: $rc" "got:" "$err" "expected:" "$want"
	fi
	_tap_n=$n
}
RUNNER=()
E="cc1: error: kplug:"
A=-fplugin-arg-kplug

# ---- options ----
bad "unknown option" \
	"$E $A-bogus=1: unknown option 'bogus'" "$A-bogus=1"
bad "unknown option of a pass" \
	"$E $A-cyc_complexity-nosuch=1: unknown option 'nosuch' of pass cyc_complexity" \
	"$A-cyc_complexity-nosuch=1"
bad "a pass given as an option" \
	"$E $A-sancov: 'sancov' is a pass, not an option; use enable=sancov" "$A-sancov"
bad "unknown pass in enable=" \
	"$E $A-enable=cyc_complexity,nosuch: unknown pass 'nosuch' (known: all, cyc_complexity, sancov)" \
	"$A-enable=cyc_complexity,nosuch"
bad "enable without a value" \
	"$E $A-enable: 'enable' needs a value" "$A-enable"
bad "integer option: not a number" \
	"$E $A-cyc_complexity-min=12abc: '12abc' is not a number for 'cyc_complexity-min'" \
	"$A-cyc_complexity-min=12abc"
bad "integer option: out of range" \
	"$E $A-cyc_complexity-min=-1: -1 is out of range for 'cyc_complexity-min' (0..2147483647)" \
	"$A-cyc_complexity-min=-1"
bad "integer option: overflow" \
	"$E $A-cyc_complexity-min=99999999999999999999: '99999999999999999999' is not a number for 'cyc_complexity-min'" \
	"$A-cyc_complexity-min=99999999999999999999"
bad "empty value" \
	"$E $A-cyc_complexity-output=: empty value for 'cyc_complexity-output'" \
	"$A-cyc_complexity-output="
bad "set option: unknown member" \
	"$E $A-sancov-trace=pc,edge: unknown value 'edge' for 'sancov-trace' (expected pc,cmp,pc-guard,inline-8bit-counters,inline-bool-flag)" \
	"$A-sancov-trace=pc,edge"
bad "set option: empty member" \
	"$E $A-sancov-trace=pc,,cmp: empty item in list for 'sancov-trace'" \
	"$A-sancov-trace=pc,,cmp"
bad "boolean option: not on/off" \
	"$E $A-sancov-float=maybe: 'maybe' is not on/off for 'sancov-float'" \
	"$A-sancov-float=maybe"
bad "enum option: unknown choice" \
	"$E $A-cyc_complexity-format=xml: unknown value 'xml' for 'cyc_complexity-format' (expected one of text,jsonl)" \
	"$A-cyc_complexity-format=xml"
bad "config without a file name" \
	"$E $A-config: 'config' needs a file name" "$A-config"

# ---- ini syntax ----
bad "ini: unterminated section header" \
	"$E syntax.ini:1: syntax error (expected [section] or key = value)" "$A-config=syntax.ini"
bad "ini: unknown section" \
	"$E section.ini:4: unknown section [nosuch] (expected kplug, path:GLOB or a pass: cyc_complexity, sancov)" \
	"$A-config=section.ini"
bad "ini: unknown key in [kplug]" \
	"$E key.ini:3: unknown key 'foo' in [kplug] (expected enable, disable, root)" "$A-config=key.ini"
bad "ini: key outside any section" \
	"$E outside.ini:1: 'enable' outside any [section]" "$A-config=outside.ini"
bad "ini: root inside a [path:] section" \
	"$E rootpath.ini:4: 'root' belongs in [kplug], not [path:lib/*]" "$A-config=rootpath.ini"
bad "ini: empty [path:] glob" \
	"$E emptyglob.ini:2: empty glob in section [path:]" "$A-config=emptyglob.ini"
bad "ini: bad value" \
	"$E value.ini:2: 'lots' is not a number for 'cyc_complexity-min'" "$A-config=value.ini"
bad "ini: unknown key of a pass" \
	"$E passkey.ini:2: unknown key 'nosuch' in [cyc_complexity]" "$A-config=passkey.ini"
bad "ini: unknown pass in enable" \
	"$E pass.ini:2: unknown pass 'nosuch' (known: all, cyc_complexity, sancov)" "$A-config=pass.ini"
bad "ini: over-long line" \
	"$E long.ini:2: line longer than 199 characters" "$A-config=long.ini"
bad "ini: NUL byte" \
	"$E nul.ini:2: NUL byte in line" "$A-config=nul.ini"
bad "ini: text after a section header (inih ignores it)" \
	"$E after.ini:1: text after the section header's ']'" "$A-config=after.ini"
bad "ini: section name inih would cut to 49 characters" \
	"$E longsec.ini:1: section name longer than 49 characters" "$A-config=longsec.ini"
bad "ini: quoted value" \
	"$E quote.ini:2: value of 'output' starts with a quote (kplug's ini has no quoting; write the value without quotes)" \
	"$A-config=quote.ini"
bad "ini: repeated key" \
	"$E repeat.ini:4: 'min' repeated in [cyc_complexity] (first set at line 2)" "$A-config=repeat.ini"
bad "ini: bare CR line ends" \
	"$E cr.ini:1: carriage return inside a line" "$A-config=cr.ini"
bad "ini: indented line is no continuation" \
	"$E cont.ini:3: syntax error (expected [section] or key = value)" "$A-config=cont.ini"

# ---- paths and permissions ----
bad "profile does not exist" \
	"$E missing.ini: cannot open profile: No such file or directory" "$A-config=missing.ini"
bad "profile is a directory" \
	"$E ro: cannot open profile: Is a directory" "$A-config=ro"
bad "profile under a file" \
	"$E t.c/x.ini: cannot open profile: Not a directory" "$A-config=t.c/x.ini"
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	RUNNER=(as_nobody)
	bad "profile unreadable (mode 000, as nobody)" \
		"$E secret.ini: cannot open profile: Permission denied" "$A-config=secret.ini"
	bad "allow list unreadable (mode 000, as nobody)" \
		"$E secret.list: cannot read list: Permission denied" \
		"$A-enable=sancov" "$A-sancov-allow=secret.list"
	bad "output in a directory nobody may write" \
		"$E $A-cyc_complexity-output=ro/cc.txt: cannot open cyc_complexity output 'ro/cc.txt': Permission denied" \
		"$A-enable=cyc_complexity" "$A-cyc_complexity-output=ro/cc.txt"
	RUNNER=()
else
	skip "permission cases need root and setpriv"
fi

# ---- list files ----
bad "allow list does not exist" \
	"$E missing.list: cannot read list: No such file or directory" \
	"$A-enable=sancov" "$A-sancov-allow=missing.list"
bad "ignore list is a directory" \
	"$E ro: cannot read list: Is a directory" "$A-enable=sancov" "$A-sancov-ignore=ro"
bad "list: unknown entry type" \
	"$E bad.list:2: unknown entry type 'obj:' (sancov lists use src: and fun:)" \
	"$A-enable=sancov" "$A-sancov-ignore=bad.list"
bad "list: malformed section header" \
	"$E section.list:2: malformed section header '[coverage' (expected [GLOB])" \
	"$A-enable=sancov" "$A-sancov-allow=section.list"
bad "list: empty pattern" \
	"$E empty.list:1: empty fun glob" "$A-enable=sancov" "$A-sancov-ignore=empty.list"
bad "inline ignore glob: empty item" \
	"$E $A-sancov-ignore-fun=a,,b: empty item in list for 'sancov-ignore-fun'" \
	"$A-enable=sancov" "$A-sancov-ignore-fun=a,,b"

# ---- unwritable outputs ----
bad "output is a directory" \
	"$E $A-cyc_complexity-output=ro: cannot open cyc_complexity output 'ro': Is a directory" \
	"$A-enable=cyc_complexity" "$A-cyc_complexity-output=ro"
bad "output directory does not exist" \
	"$E $A-cyc_complexity-output=nodir/cc.txt: cannot open cyc_complexity output 'nodir/cc.txt': No such file or directory" \
	"$A-enable=cyc_complexity" "$A-cyc_complexity-output=nodir/cc.txt"
longpath=nodir$(printf '/abcdefghij%.0s' $(seq 200))/cc.txt
bad "output path of 2,212 bytes: the error line quotes it whole" \
	"$E $A-cyc_complexity-output=$longpath: cannot open cyc_complexity output '$longpath': No such file or directory" \
	"$A-enable=cyc_complexity" "$A-cyc_complexity-output=$longpath"
bad "output full (/dev/full)" \
	"$E $A-cyc_complexity-output=/dev/full: cannot write cyc_complexity output '/dev/full': No space left on device" \
	"$A-enable=cyc_complexity" "$A-cyc_complexity-output=/dev/full"
bad "output refuses writes (/proc/version)" \
	"$E $A-cyc_complexity-output=/proc/version: cannot write cyc_complexity output '/proc/version': Input/output error" \
	"$A-enable=cyc_complexity" "$A-cyc_complexity-output=/proc/version"
TODO=

# ---- conflicting settings ----
bad "sancov together with -fsanitize-coverage" \
	"$E sancov: -fsanitize-coverage is given too; use either native coverage or kplug's sancov, not both" \
	-fsanitize-coverage=trace-pc "$A-enable=sancov"
bad "conflict resolved last-wins: the losing value is still validated" \
	"$E $A-cyc_complexity-min=x: 'x' is not a number for 'cyc_complexity-min'" \
	"$A-cyc_complexity-min=x" "$A-cyc_complexity-min=3"

# ---- versions ----
# A kplug.so whose plugin-version.h differs from the loading GCC's: the
# same GCC 12 headers with another configure line, as a distro rebuild.
if quick; then
	skip "version mismatch build (KPLUG_QUICK)"
else
	inc=$($CC -print-file-name=plugin)/include
	mkdir -p "$d/fakever"
	cp "$inc/plugin-version.h" "$d/fakever/"
	sed 's/^\(static const char configuration_arguments\[\] = "\)/\1--kplug-rebuilt /' \
		"$inc/configargs.h" >"$d/fakever/configargs.h"
	# build_rebuilt: $d/fake/kplug.so built against $d/fakever's headers, and carrying them
	build_rebuilt() {
		make -s -C "$TOP" CC="$CC" CXX="g++${KCC#gcc} -I$d/fakever" BUILD="$d/build" \
			KPLUG_SO="$d/fake/kplug.so" plugin >"$d/fakever.log" 2>&1 &&
			grep -q -- --kplug-rebuilt "$d/fake/kplug.so"
	}
	check "kplug.so built against a rebuilt GCC's plugin-version.h" build_rebuilt
	ver=$($CC -dumpfullversion)
	ds=$(datestamp "$inc")
	KPLUG=$d/fake/kplug.so bad "plugin built for another build of the same GCC" \
		"$E kplug.so was built for GCC $ver ($ds) but loaded into GCC $ver ($ds), same version but a different build configuration; rebuild it for this compiler: make -C $TOP CC=$(basename "$CC") clean install" \
		"$A-enable=cyc_complexity"
fi
# The plugin built for the other GCC of the pair (other_cc) loaded into this one.
other=$(other_cc)
if quick; then
	skip "plugin for $other (KPLUG_QUICK)"
else
	other_so=$(kplug_so_for "$other" 2>"$d/other.log")
	vother="$($other -dumpfullversion) ($(datestamp "$($other -print-file-name=plugin)/include"))"
	vthis="$($CC -dumpfullversion) ($(datestamp "$($CC -print-file-name=plugin)/include"))"
	KPLUG=$other_so bad "plugin built for $other loaded into $CC" \
		"$E kplug.so was built for GCC $vother but loaded into GCC $vthis; rebuild it for this compiler: make -C $TOP CC=$(basename "$CC") clean install" \
		"$A-enable=cyc_complexity"
fi
done_testing
