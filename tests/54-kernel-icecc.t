#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Linux 6.12 x86_64 (tinyconfig + KCOV, kplug's sancov and cyc_complexity,
# the [path:] profile kplug-test/paths.ini) built the way developers go
# fast, and compared with the plain local build of the same configuration
# ($KT_X86, the build 51 checks and 52, 53, 55 share: kt_build_x86):
#
#  1. cold: the directories of $DIRS (one of each kind of the profile:
#     kernel/ sancov with cmp, mm/ sancov off, fs/ a [path:]
#     cyc_complexity threshold; lib/ is mm/'s kind) built with
#     make CC="ccache gcc", CCACHE_PREFIX=icecc and an empty private
#     ccache, every compile forced down icecream's remote path
#     (tests/kernel/icecc-net.sh): one build serves both tools;
#  2. warm: make clean, the same make again: every compile a ccache hit;
#  3. an object directory inside the source tree (srctree "..", relative
#     paths and root): four units through icecream, each one's .text the
#     local build's.
#
# Each object of 1 and 2 has the .text and relocations of the local
# build's object, and the same collected cyc_complexity records
# (kplug-report collect over those directories; the per-compile "run" id
# left out).  icecream's log shows 0 C objects compiled locally and remote
# jobs for all of them; ccache -s shows a hit rate of at least 99 % on the
# warm build.  (The directories, not the whole kernel: a cold build
# through icecream on this machine's two cores takes twice the local
# one, and the link adds nothing icecream or ccache could change.)
# runs alone
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/kernel/lib-kernel.sh"
NET=$TOP/tests/kernel/icecc-net.sh

if quick; then
	skip "kernel builds (KPLUG_QUICK)"
	done_testing
fi
if [ "$(id -u)" != 0 ] || ! command -v icecc >/dev/null || ! command -v ccache >/dev/null; then
	skip "needs root (network namespace, chroot), icecc and ccache"
	done_testing
fi

REF=$KT_X86
NAME=$KT_X86-icecc-ccache

DIRS="fs kernel mm"

# code_of NAME OBJ: every code section (.text, .init.text, .sched.text,
# ...) and its relocations, as objdump prints them (the file name line
# left out): equal code and equal link inputs.  Empty for an object with
# data only.
code_of() {
	objdump -dr "$KOUT/$1/$2" 2>/dev/null | sed 1,3d
}
records() {
	(cd "$KOUT/$1" && kplug_collect $DIRS) | sed -E 's/"run":"[^"]*",//' | LC_ALL=C sort
}
# C objects of $DIRS built with kplug: their .cmd files name the plugin.
kplug_objs() {
	(cd "$KOUT/$1" && grep -rl --include='.*.o.cmd' -e '-fplugin=[^ ]*kplug.so' $DIRS) |
		sed 's|/\.\([^/]*\)\.cmd$|/\1|' | LC_ALL=C sort
}
stat_of() { ccache --print-stats | awk -v k="$1" '$1 == k { print $2 }'; }

# check_same NAME WHAT: every kplug object of $DIRS has the local build's
# code, the records are the local build's.
check_same() {
	local name=$1 what=$2 n o differ=0 first= with_code=0
	kplug_objs "$name" >"$T/$name.objs"
	check "$what: the same $(wc -l <"$T/ref.objs") kplug objects as the local build" cmp -s "$T/$name.objs" "$T/ref.objs"
	while read -r o; do
		code_of "$name" "$o" >"$T/a.code"
		code_of "$REF" "$o" >"$T/b.code"
		[ -s "$T/b.code" ] && with_code=$((with_code + 1))
		if [ ! -e "$KOUT/$name/$o" ] || ! cmp -s "$T/a.code" "$T/b.code"; then
			differ=$((differ + 1))
			first=${first:-$o}
		fi
	done <"$T/ref.objs"
	ok $((with_code > 150 ? 0 : 1)) "$what: $with_code of the objects have code (the rest data only)"
	is "$differ" 0 "$what: each object's code sections and relocations are the local build's${first:+ (first differing: $first)}"
	records "$name" >"$T/$name.records"
	n=$(wc -l <"$T/$name.records")
	ok $((n > 5000 ? 0 : 1)) "$what: $n cyc_complexity records collected from the objects"
	check "$what: the same records as the local build's ($(wc -l <"$T/ref.records"))" cmp -s "$T/$name.records" "$T/ref.records"
}

T=$(mktemp -d "$OUT/k54.XXXXXX")
chmod 755 "$T"		# the icecream daemons run as user icecc
# the cluster outside the checkout, which may sit in a folder only root
# can enter (a mktemp -d clone), where user icecc could not reach it
# icecream's daemons (user icecc) read the plugin they ship: the checkout
# must be searchable by others (a mktemp -d clone is not: chmod o+x it)
if ! su -s /bin/sh icecc -c 'test -r "$1"' sh "$KPLUG"; then
	ok 1 "user icecc can read $KPLUG (make the folders above it searchable: chmod o+x)"
	done_testing
fi
ICE_TOP=$(mktemp -d /tmp/kplug-icecc.XXXXXX) && chmod 755 "$ICE_TOP"
ICE=$ICE_TOP/ice
trap '"$NET" stop "$ICE"; rm -rf "$T" "$ICE_TOP"' EXIT

check "$REF: the local build" kt_build_x86
kplug_objs $REF >"$T/ref.objs"
ok $(($(wc -l <"$T/ref.objs") > 150 ? 0 : 1)) "$REF: $(wc -l <"$T/ref.objs") kplug objects in $DIRS"
# calls_trace_pc NAME OBJ: code_of shows OBJ of build NAME calling trace_pc
calls_trace_pc() { code_of "$1" "$2" | grep -q '__sanitizer_cov_trace_pc'; }
check "$REF: code_of reads code with relocations (fs/read_write.o calls trace_pc)" calls_trace_pc $REF fs/read_write.o
records $REF >"$T/ref.records"
ok $(($(wc -l <"$T/ref.records") > 5000 ? 0 : 1)) "$REF: $(wc -l <"$T/ref.records") records collected"

check "icecream cluster started" "$NET" start "$ICE"

# 1. cold ccache, through icecream.  Always a real build: the icecream log
# belongs to this run.
# compiler_check=content: Linux 6.12's "make clean" deletes kplug.so and
# its objects (the top-level find of *.o, clean-files), the rebuild relinks
# the same bytes with a new mtime, and ccache's default (mtime) hashes the
# -fplugin= file by size and mtime: every kplug object would miss (seen:
# 45 hits and 32 misses in the first 77 compiles of the warm rebuild).
export CCACHE_DIR=$T/ccache CCACHE_PREFIX=icecc CCACHE_COMPILERCHECK=content
unset CCACHE_DISABLE CCACHE_NODIRECT CCACHE_RECACHE
ccache -z >/dev/null
KT_MAKE_WRAP=("$NET" run "$ICE")
KT_MAKE_VARS=(CC="ccache gcc")
kt_forget $NAME
"$NET" mark "$ICE"
KT_TARGETS=($(printf '%s/ ' $DIRS))
check "$NAME: $DIRS built with CC=\"ccache gcc\", CCACHE_PREFIX=icecc" kt_build_x86 $NAME
COLD_SECONDS=$KT_SECONDS
counts=$("$NET" count "$ICE")
diag "cold build: ${COLD_SECONDS}s wall; icecream: $counts; ccache: $(stat_of cache_miss) misses"
objs=$(kplug_objs $NAME | wc -l)
remote=$(sed -n 's/.*remote=\([0-9]*\).*/\1/p' <<<"$counts")
is "$(sed -n 's/.* \(local=[0-9]*\).*/\1/p' <<<"$counts")" local=0 \
	"icecream: no C object compiled locally (no remote failure, no stderr fallback)"
ok $((objs > 150 && remote >= objs ? 0 : 1)) "icecream: $remote remote jobs for the $objs C objects built with kplug"
check_same $NAME "cold (icecream)"

# 2. make clean, then the same build with a warm cache.
check "make clean" kt_make $NAME x86_64 clean
check "... removed the objects" test ! -e "$KOUT/$NAME/fs/read_write.o"
ccache -z >/dev/null
"$NET" mark "$ICE"
check "warm rebuild" kt_make $NAME x86_64 "${KT_TARGETS[@]}"
WARM_SECONDS=$KT_SECONDS
hits=$(($(stat_of direct_cache_hit) + $(stat_of preprocessed_cache_hit)))
misses=$(stat_of cache_miss)
diag "warm build: ${WARM_SECONDS}s wall; ccache: $hits hits, $misses misses; icecream: $("$NET" count "$ICE")"
ccache -s | diag_in
ok $((hits * 100 >= (hits + misses) * 99 && hits >= objs ? 0 : 1)) \
	"warm: ccache hit rate $((hits * 1000 / (hits + misses + (hits + misses == 0)))) per mille (>= 990), $hits hits for $objs kplug objects"
check_same $NAME "warm (ccache)"

# 3. An object directory inside the source tree (O=$SRC/DIR: kbuild's
# srctree is then "..", relative like the sources' paths, against which
# kplug matches [path:] sections): units of the four kinds of the profile
# built through icecream (every compile remote) are the local build's.
# Only the units and what they need (prepare), not a whole kernel.
INSIDE=$SRC/kplug-o-inside
UNITS="fs/read_write.o kernel/exit.o lib/string.o mm/filemap.o"
rm -rf "$INSIDE" && mkdir -p "$INSIDE" && cp "$KOUT/$REF/.config" "$INSIDE/.config"
export CCACHE_DIR=$T/ccache-inside	# cold: every unit compiled
"$NET" mark "$ICE"
# build_inside: $UNITS configured and built through icecream in $INSIDE, logged to $T/inside.log
build_inside() {
	"$NET" run "$ICE" make -C "$SRC" O="$INSIDE" ARCH=x86_64 CC="ccache gcc" olddefconfig >"$T/inside.log" 2>&1 &&
		"$NET" run "$ICE" make -C "$SRC" O="$INSIDE" ARCH=x86_64 CC="ccache gcc" -j2 $UNITS >>"$T/inside.log" 2>&1
}
check "O=\$SRC/kplug-o-inside (srctree ..): $UNITS built through icecream" build_inside || tail -5 "$T/inside.log" | diag_in
check "... with root=.. (relative, as kbuild's srctree)" grep -q -- '-fplugin-arg-kplug-root=\.\. ' "$INSIDE/fs/.read_write.o.cmd"
counts=$("$NET" count "$ICE")
diag "O= inside the tree: icecream: $counts"
is "$(sed -n 's/.* \(local=[0-9]*\).*/\1/p' <<<"$counts")" local=0 "... no C object compiled locally"
ok $(($(sed -n 's/.*remote=\([0-9]*\).*/\1/p' <<<"$counts") >= 4 ? 0 : 1)) "... the units compiled remotely"
for u in $UNITS; do
	objcopy -O binary --only-section=.text "$INSIDE/$u" "$T/in.text" &&
		objcopy -O binary --only-section=.text "$KOUT/$REF/$u" "$T/ref.text"
	same_nonempty "$T/in.text" "$T/ref.text" "O= inside the tree: $u's .text is the local build's"
done
rm -rf "$INSIDE"

kt_forget $NAME		# the next run builds it again, for real
done_testing
