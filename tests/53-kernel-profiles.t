#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# In a kernel build the profile refines what Kconfig selected.  One Linux
# 6.12 x86_64 build (KCOV with comparisons, cyc_complexity) with
# kplug-test/paths.ini, checked object by object: its [PASS] and [path:]
# sections win over kbuild's Kconfig-derived defaults, while sancov never
# reaches an object KCOV does not instrument although [kplug] enables it.
# Then, compiling single objects from their .cmd lines (outputs redirected,
# the build directory left as it was): comparison tracing without
# KCOV_ENABLE_COMPARISONS is one error naming the profile line, the shipped
# profiles (config/*.ini) do what their comments say, and the kernel-built
# kplug.so is linked like the standalone one.
# One core, on what 51-kernel-build.t built (a "# runs alone" file, which the
# harness runs first): beside other files, never beside another kernel
# test reading those builds.
# lock: kernel-builds
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/kernel/lib-kernel.sh"
. "$TOP/tests/plugin-link.sh"

if quick; then
	skip "kernel builds (KPLUG_QUICK)"
	done_testing
fi

NAME=$KT_X86
check "$NAME: kernel built with kplug-test/paths.ini" kt_build_x86
B=$KOUT/$NAME
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# Call sites in an object: all sancov callbacks, trace_pc, comparisons.
sites() {	# sites OBJ REGEX
	objdump -dr "$1" 2>/dev/null | grep -cE "R_X86_64_(PLT32|PC32).*($2)"
}
ANY='__sanitizer_cov_'
PC='__sanitizer_cov_trace_pc\b'
CMP='__sanitizer_cov_trace_(const_)?cmp[1248]|__sanitizer_cov_trace_switch'

# The kplug objects under DIR that KCOV instruments (CFLAGS_KCOV on their
# command line), relative to $B.
kcov_objs() {
	(cd "$B" && grep -l -e '-fplugin-arg-kplug-permit=sancov' -r --include='.*.o.cmd' "$1" |
		sed 's|/\.\([^/]*\)\.cmd$|/\1|' | sort)
}

# Sum of call sites of REGEX over objects.
sum_sites() {	# sum_sites REGEX OBJ...
	local re=$1 o n=0
	shift
	for o; do n=$((n + $(sites "$B/$o" "$re"))); done
	echo $n
}

# --- the build: each section wins over kbuild's defaults -------------------
mapfile -t MM < <(kcov_objs mm)
mapfile -t LIB < <(kcov_objs lib)
mapfile -t FS < <(kcov_objs fs)
ok $((${#MM[@]} > 5 && ${#LIB[@]} > 5 && ${#FS[@]} > 5 ? 0 : 1)) \
	"$NAME: KCOV instruments ${#MM[@]} mm/, ${#LIB[@]} lib/, ${#FS[@]} fs/ objects (CFLAGS_KCOV on their command lines)"
is "$(sum_sites "$ANY" "${MM[@]}")" 0 "[path:mm/*] disable = sancov: no sancov call site in any of them"
is "$(sum_sites "$ANY" "${LIB[@]}")" 0 "[path:lib/*] disable = sancov: none in lib/ either"
n=$(sum_sites "$PC" "${FS[@]}")
ok $((n > 100 ? 0 : 1)) "fs/: $n trace_pc call sites"
is "$(sum_sites "$CMP" "${FS[@]}")" 0 "[sancov] trace = pc wins over kbuild's default pc,cmp (KCOV_ENABLE_COMPARISONS=y): no comparison callbacks in fs/"
n=$(sites "$B/kernel/fork.o" "$CMP")
ok $((n > 10 ? 0 : 1)) "[path:kernel/*] sancov-trace = pc, cmp: kernel/fork.o has $n comparison call sites"

check "$NAME: build checker ran" kt_check $NAME x86_64
ok $(($(chk kcovn) > 5 ? 0 : 1)) "$NAME: $(chk kcovn) KCOV_INSTRUMENT := n objects"
is "$(chk kcovn_inst)/$(chk kcovn_calls)" 0/0 \
	"none of them is instrumented although the profile's [kplug] enables sancov everywhere"
is "$(chk noinst_calls)" 0 "no call site in any of the $(chk noinst) objects without CFLAGS_KCOV"
is "$(sites "$B/kernel/kcov.o" "$ANY")" 0 "kernel/kcov.o (KCOV_INSTRUMENT_kcov.o := n) has none"

# The report: the records embedded in the objects (KPLUG_CYC_COMPLEXITY's
# default), one "M file function" line each.
R=$T/report
kt_cyc_records $NAME | perl -MJSON::PP -ne '$r = decode_json($_); print "$r->{M} $r->{file} $r->{function}\n"' >"$R"
fs_lines=$(awk '$2 ~ /(^|\/)fs\//' "$R" | wc -l)
fs_low=$(awk '$2 ~ /(^|\/)fs\// && $1 < 15' "$R" | wc -l)
other_low=$(awk '$2 !~ /(^|\/)fs\// && $1 < 15' "$R" | wc -l)
ok $((fs_lines > 20 ? 0 : 1)) "report (embedded records): $fs_lines records for fs/"
is "$fs_low" 0 "[path:fs/*] cyc_complexity-min = 15 wins over kbuild's default min 0: no fs/ record below 15"
ok $((other_low > 1000 ? 0 : 1)) "elsewhere the default min 0 holds: $other_low records below 15"
check "no report file: KPLUG_CYC_COMPLEXITY embeds the records" test ! -e "$B/kplug-cyc_complexity.txt"
# linked_without_orphans LOG: LOG has the vmlinux link and no orphan warning
linked_without_orphans() { grep -q ' LD  *vmlinux$' "$1" && ! grep -q 'orphan' "$1"; }
check "no orphan-section warning in the log of the whole build, vmlinux link included (6.12 links with LD_ORPHAN_WARN)" \
	linked_without_orphans "$B/build-full.log"

# --- single objects from their saved command lines ---------------------------
# kcmd OBJ: the compile command of OBJ, with its outputs (object, dep
# file) moved to $T.  Further arguments are sed
# expressions applied to it.
kcmd() {
	local obj=$1 cmd
	shift
	cmd=$(sed -n "s|^savedcmd_$obj := ||p" "$B/$(dirname "$obj")/.$(basename "$obj").cmd")
	cmd=${cmd%%;*}
	cmd=$(sed -e "s| -o $obj | -o $T/obj.o |" -e "s|-Wp,-MMD,[^ ]*|-Wp,-MMD,$T/obj.d|" <<<"$cmd")
	for e; do cmd=$(sed -e "$e" <<<"$cmd"); done
	echo "$cmd"
}
kcompile() {	# kcompile OBJ SED...: compile in $B into $T/obj.o, stderr in $T/err
	rm -f "$T/obj.o"
	(cd "$B" && eval "$(kcmd "$@")") 2>"$T/err"
}
# The build's kplug.so carries paths.ini (section .kplug.profile): these
# compiles load a copy without it, and name another profile, if any, with
# -fplugin-arg-kplug-config.
mkdir -p "$T/plain"
check "kplug.so without its embedded profile" objcopy --remove-section .kplug.profile "$B/scripts/gcc-plugins/kplug/kplug.so" "$T/plain/kplug.so"
PLUGIN_ARG="-fplugin=[^ ]*kplug.so"
profile() { echo "s|$PLUGIN_ARG|-fplugin=$T/plain/kplug.so -fplugin-arg-kplug-config=$1|"; }
no_profile="s|$PLUGIN_ARG|-fplugin=$T/plain/kplug.so|"

# The mm/ and lib/ objects do have code to instrument: without the profile
# (kbuild's defaults alone) they get call sites, so the zeros above count.
kcompile "${MM[0]}" "$no_profile"
n=$(sites "$T/obj.o" "$PC")
ok $((n > 0 ? 0 : 1)) "${MM[0]} compiled without the profile: $n trace_pc call sites"
n=$(sites "$T/obj.o" "$CMP")
ok $((n > 0 ? 0 : 1)) "... and $n comparison call sites (kbuild's default trace = pc,cmp)"

# KCOV_ENABLE_COMPARISONS=n: Makefile.kplug limits trace to pc ...
make -C "$SRC" O="$B" ARCH=x86_64 -n V=1 CONFIG_KCOV_ENABLE_COMPARISONS= fs/read_write.o >"$T/dry" 2>&1
check "without KCOV_ENABLE_COMPARISONS, CFLAGS_KCOV limits sancov-trace to pc" grep -q -- '-fplugin-arg-kplug-limit-sancov-trace=pc -' "$T/dry"
check_exit 1 "... and no longer allows cmp" grep -q -- '-fplugin-arg-kplug-limit-sancov-trace=pc,cmp' "$T/dry"
# ... and a profile asking for cmp stops the compile with one line.
nocmp='s/sancov-trace=pc,cmp/sancov-trace=pc/g'
# kcompile_fails OBJ SED...: kcompile OBJ fails (whatever status the kbuild command line gives)
kcompile_fails() { ! kcompile "$@"; }
check "trace = pc, cmp without the kernel's comparison callbacks fails the compile" \
	kcompile_fails fs/read_write.o "$(profile "$SRC/kplug-test/cmp.ini")" "$nocmp"
is "$(wc -l <"$T/err")/$(sed 's/^[^ ]*: error: //' "$T/err")" \
	"1/kplug: $SRC/kplug-test/cmp.ini:4: 'cmp' for 'sancov-trace' is not allowed in this build (-fplugin-arg-kplug-limit-sancov-trace=pc)" \
	"... with one error line naming the profile line"
check "paths.ini (trace = pc) compiles without comparisons" kcompile fs/read_write.o "$(profile "$SRC/kplug-test/paths.ini")" "$nocmp"

# Quiet: a successful compile through kbuild prints nothing on stderr
# (icecream recompiles locally whenever a remote compile does).
quiet=0
for o in fs/read_write.o kernel/fork.o "${MM[@]:0:3}" "${LIB[@]:0:3}" init/main.o; do
	kcompile "$o" && [ ! -s "$T/err" ] && quiet=$((quiet + 1))
done
is "$quiet" 9 "9 objects compiled from their kbuild command lines, not a byte on stderr"

# --- the shipped profiles, object by object -----------------------------------
# copy_shipped: config/*.ini copied into $SRC/kplug-shipped
copy_shipped() { mkdir -p "$SRC/kplug-shipped" && cp "$TOP"/config/*.ini "$SRC/kplug-shipped/"; }
check "shipped profiles copied into the tree" copy_shipped

# kcov-fuzzing.ini: pc+cmp everywhere, pc only in mm/, nothing in lib/.
fuzz=$(profile "$SRC/kplug-shipped/kcov-fuzzing.ini")
for o in fs/read_write.o kernel/fork.o; do
	check "kcov-fuzzing.ini: $o compiles" kcompile $o "$fuzz"
	ok $(($(sites "$T/obj.o" "$PC") > 0 && $(sites "$T/obj.o" "$CMP") > 0 ? 0 : 1)) \
		"kcov-fuzzing.ini: $o traces pc and comparisons"
done
kcompile "${MM[0]}" "$fuzz"
ok $(($(sites "$T/obj.o" "$PC") > 0 ? 0 : 1)) "kcov-fuzzing.ini [path:mm/*]: ${MM[0]} traces pc"
is "$(sites "$T/obj.o" "$CMP")" 0 "kcov-fuzzing.ini [path:mm/*] sancov-trace = pc: no comparisons in ${MM[0]}"
n=0 m=0
for o in "${LIB[@]:0:5}"; do
	kcompile "$o" "$fuzz"
	n=$((n + $(sites "$T/obj.o" "$ANY")))
	kcompile "$o" "$no_profile"
	m=$((m + $(sites "$T/obj.o" "$ANY")))
done
is "$n" 0 "kcov-fuzzing.ini [path:lib/*] disable = sancov: no coverage in ${LIB[*]:0:5}"
ok $((m > 0 ? 0 : 1)) "... which get $m call sites without the profile"

# complexity-survey.ini: every function as JSON Lines into its own file.
if [ -e "$B/kplug-complexity.jsonl" ]; then
	ok 1 "$B/kplug-complexity.jsonl exists before the test"
else
	check "complexity-survey.ini: fs/read_write.o compiles" kcompile fs/read_write.o "$(profile "$SRC/kplug-shipped/complexity-survey.ini")"
	mv "$B/kplug-complexity.jsonl" "$T/survey.jsonl" 2>/dev/null
	n=$(wc -l <"$T/survey.jsonl" 2>/dev/null || echo 0)
	ok $((n > 20 ? 0 : 1)) "complexity-survey.ini: $n JSON Lines records in kplug-complexity.jsonl"
	check "... each a JSON object" python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$T/survey.jsonl"
	check "... ksys_read among them" grep -q '"ksys_read"' "$T/survey.jsonl"
	objcopy --dump-section .kplug.cyc="$T/emb" "$T/obj.o" /dev/null 2>/dev/null
	is "$(wc -l <"$T/emb" 2>/dev/null)" "$n" "... and kbuild's default embed = on still puts the same records into the object"
fi

# ci-gate.ini: a warning at functions with M >= 60 (outside drivers/).
read -r M file fn < <(awk '$1 >= 60 && $2 !~ /drivers\// && $2 ~ /\.c$/ { print; exit }' "$R")
if [ -n "${fn:-}" ]; then
	obj=${file#"$SRC"/}; obj=${obj#../}; obj=${obj%.c}.o
	check "ci-gate.ini: $obj compiles (severity = warning)" kcompile "$obj" "$(profile "$SRC/kplug-shipped/ci-gate.ini")"
	# (GCC quotes the name with ' or with typographic quotes, by locale)
	check "ci-gate.ini: warns at $fn (M = $M)" \
		grep -q "warning: kplug: function [^ ]*$fn[^ ]* has cyclomatic complexity $M (>= 60)" "$T/err"
	kcompile "$obj"
	check "... which paths.ini compiles without a word on stderr" test ! -s "$T/err"
else
	skip "no function with M >= 60 outside drivers/ in this build"
fi

# --- the kernel-built kplug.so ----------------------------------------------
check_plugin_link kbuild "$B/scripts/gcc-plugins/kplug/kplug.so" "make -C $B CC=gcc-11 scripts"

done_testing
