#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sancov pruning in a kernel: the shared x86_64 Linux 7.2 build
# (kt_build_x86_72, gcc-14 in Debian 13's chroot; unpruned, with the
# coverage map: KPLUG_SANCOV_MAP defaults to y) against the same kernel
# with KPLUG_SANCOV_PRUNE_MIN: the KPLUG_KCOV_UNIQUE kernel of 56 (same
# profile with pc-guard for pc; kt_build_unique, one build for both
# tests), whose guard callback records a PC per call in a KCOV_TRACE_PC
# session as trace_pc does.  Both boot in qemu and run the kcov.rst
# example around one read(-1) (tests/kernel/kcov-init.c); the pruned
# kernel must record fewer PCs, and "kplug-report cover vmlinux PCS" must
# give the same source lines for both.  Static probes (the maps' counts)
# are reported, pruned against unpruned.  The trace-model kernel
# (kt_build_trace: the shared kernel's configuration with
# KPLUG_SANCOV_PRUNE_MIN and KPLUG_SANCOV_PRUNE_TRACE) boots beside them:
# "kplug-report cover --trace" on its ordered PCs must give the unpruned
# kernel's lines, from fewer PCs; plain "cover" must refuse its map, and
# a PC dropped or two swapped must not give the same lines.  Kconfig must
# refuse the trace model with KPLUG_KCOV_UNIQUE.
# runs alone
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/kernel/lib-kernel.sh"
. "$TOP/tests/kernel/lib-qemu.sh"

kt_qemu_start "pruned KCOV kernel" kcov-prune
R=$TOP/tools/kplug-report
make -s -C "$TOP" tools >&2
P=$KOUT/$KT_UNIQUE
B=$KOUT/$KT_X86_72
T=$KOUT/$KT_TRACE

# (kt_build says whether it reused a cached build or how long it took)
check "unpruned kernel $KT_X86_72" kt_build_x86_72
check "pruned kernel $KT_UNIQUE" kt_build_unique
check "trace-model kernel $KT_TRACE" kt_build_trace

# unique_keeps_set: with KPLUG_KCOV_UNIQUE, KPLUG_SANCOV_PRUNE_TRACE does
# not survive olddefconfig (kt_configure fails naming it), UNIQUE does
unique_keeps_set() {
	local b=$KOUT/$KT_TRACE-unique
	# shellcheck disable=SC2086
	! kt_configure "$KT_TRACE-unique" 7.2 x86_64 $KT_KPLUG $KT_X86_BOOT KPLUG_KCOV_UNIQUE=y \
		KPLUG_SANCOV_PRUNE_MIN=y KPLUG_SANCOV_PRUNE_TRACE=y &&
		grep -qx 'CONFIG_KPLUG_KCOV_UNIQUE=y' "$b/.config" &&
		! grep -q '^CONFIG_KPLUG_SANCOV_PRUNE_TRACE=' "$b/.config"
}
check "Kconfig: KPLUG_KCOV_UNIQUE leaves no KPLUG_SANCOV_PRUNE_TRACE (the set model)" unique_keeps_set
rm -rf "${KOUT:?}/$KT_TRACE-unique"

# prune_flags: fs/read_write.o has prune=min in $P, off in $B
prune_flags() {
	grep -q -- '-fplugin-arg-kplug-default-sancov-prune=min ' "$P/fs/.read_write.o.cmd" &&
		grep -q -- '-fplugin-arg-kplug-default-sancov-prune=off ' "$B/fs/.read_write.o.cmd"
}
check "fs/read_write.o: prune=min in the pruned kernel, off in the shared one" prune_flags
# trace_flags: fs/read_write.o has prune=min, observe=trace, cuts=calls in
# $T, observe=set and cuts=indirect in $P
trace_flags() {
	local f
	for f in prune=min prune-observe=trace prune-cuts=calls; do
		grep -q -- "-fplugin-arg-kplug-default-sancov-$f " "$T/fs/.read_write.o.cmd" || return 1
	done
	grep -q -- '-fplugin-arg-kplug-default-sancov-prune-observe=set ' "$P/fs/.read_write.o.cmd" &&
		grep -q -- '-fplugin-arg-kplug-default-sancov-prune-cuts=indirect ' "$P/fs/.read_write.o.cmd"
}
check "fs/read_write.o: observe=trace, cuts=calls in the trace kernel; set, indirect in the pruned one" trace_flags
# map_unloaded VMLINUX: VMLINUX has .debug_kplug_sancov, at address 0
map_unloaded() { readelf -SW "$1" | grep -qE ' \.debug_kplug_sancov +PROGBITS +0+ '; }
for k in B P T; do
	v=${!k}/vmlinux
	check "$(basename "${!k}"): vmlinux keeps .debug_kplug_sancov, not loaded (address 0)" map_unloaded "$v"
	check "$(basename "${!k}"): kplug-report cover reads vmlinux's map" "$R" cover "$v" /dev/null >/dev/null 2>"$W/static-$k.txt"
	eval "static_$k=\$(sed -n 's/.*functions, \([0-9]*\) probes.*/\1/p' \"$W/static-$k.txt\")"
done
ok $((static_P < static_B ? 0 : 1)) \
	"vmlinux static probes: pruned $static_P, unpruned $static_B, ratio $(awk -v a="$static_P" -v b="$static_B" 'BEGIN { printf "%.3f", a / b }')"
ok $((static_T < static_B ? 0 : 1)) \
	"vmlinux static probes: trace model $static_T, unpruned $static_B, ratio $(awk -v a="$static_T" -v b="$static_B" 'BEGIN { printf "%.3f", a / b }')"

check "static /init built from tests/kernel/kcov-init.c" gcc -static -O2 -Wall -o "$W/init" "$TOP/tests/kernel/kcov-init.c"
check "initramfs" kt_initramfs "$B" "$W/initramfs.cpio" "$W/init"
declare -A N
# cover_of K: "cover" on kernel K's PCs; the trace kernel's are read in order
cover_of() { if [ "$1" = T ]; then echo cover --trace; else echo cover; fi; }
for k in B P T; do
	t=$(date +%s)
	kt_boot "${!k}" "$W/initramfs.cpio" "$W/serial-$k.log" nokaslr
	check "$(basename "${!k}") booted, /init ran the kcov.rst example ($(($(date +%s) - t))s)" grep -q '^KCOV-COUNT ' "$W/serial-$k.log"
	kt_retries "$W/serial-$k.log"
	sed -n 's/^KCOV-PC //p' "$W/serial-$k.log" >"$W/pcs-$k.txt"
	N[$k]=$(wc -l <"$W/pcs-$k.txt")
	# shellcheck disable=SC2046
	check "$(basename "${!k}"): every recorded PC is in the map ($(cover_of $k))" \
		"$R" $(cover_of $k) "${!k}/vmlinux" "$W/pcs-$k.txt" >"$W/lines-$k.txt" 2>"$W/cover-$k.txt"
	diag "$(basename "${!k}"): $(tail -1 "$W/cover-$k.txt")"
done
ok $((N[P] > 0 && N[P] < N[B] ? 0 : 1)) "PCs for one read(-1): pruned ${N[P]}, unpruned ${N[B]}"
nl=$(wc -l <"$W/lines-B.txt")
ok $((nl >= 10 ? 0 : 1)) "the unpruned kernel's PCs cover $nl source lines (>= 10)"
# has_read_write LINES: LINES (cover's output) has lines of fs/read_write.c
has_read_write() { grep -q '^fs/read_write.c:' "$1" || grep -q '/fs/read_write.c:' "$1"; }
check "the lines include fs/read_write.c (ksys_read)" has_read_write "$W/lines-B.txt"
check "the pruned kernel's PCs infer exactly the unpruned kernel's lines" cmp -s "$W/lines-B.txt" "$W/lines-P.txt" ||
	diff "$W/lines-B.txt" "$W/lines-P.txt" | head -10 | diag_in
# the comparison can fail: without the pruned trace's last PC, lines go
head -n -1 "$W/pcs-P.txt" >"$W/pcs-short.txt"
"$R" cover "$P/vmlinux" "$W/pcs-short.txt" >"$W/lines-short.txt" 2>/dev/null
check_exit 1 "one PC fewer in the pruned trace: $(wc -l <"$W/lines-short.txt") lines, not the same" \
	cmp -s "$W/lines-B.txt" "$W/lines-short.txt"

ok $((N[T] > 0 && N[T] < N[B] ? 0 : 1)) "PCs for one read(-1): trace model ${N[T]}, unpruned ${N[B]}"
check "the trace kernel's ordered PCs infer exactly the unpruned kernel's lines (cover --trace)" \
	cmp -s "$W/lines-B.txt" "$W/lines-T.txt" ||
	diff "$W/lines-B.txt" "$W/lines-T.txt" | head -10 | diag_in
# refuses_set_reading: plain cover on the trace kernel's PCs exits 2 naming
# a function pruned for ordered hits
refuses_set_reading() {
	"$R" cover "$T/vmlinux" "$W/pcs-T.txt" >/dev/null 2>"$W/set-T.txt"
	[ $? -eq 2 ] && grep -q 'was pruned for ordered hits (sancov-prune-observe=trace)' "$W/set-T.txt"
}
check "plain cover refuses the trace kernel's map (exit 2, named)" refuses_set_reading
head -1 "$W/set-T.txt" | diag_in
# other_reading PCS: cover --trace on PCS refuses (exit 2) or prints other
# lines than the unpruned kernel's
other_reading() {
	local rc
	"$R" cover --trace "$T/vmlinux" "$1" >"$1.lines" 2>"$1.err"
	rc=$?
	diag "$(basename "$1"): exit $rc, $(wc -l <"$1.lines") lines, $(head -1 "$1.err")"
	[ $rc -eq 2 ] || { [ $rc -eq 0 ] && ! cmp -s "$W/lines-B.txt" "$1.lines"; }
}
head -n -1 "$W/pcs-T.txt" >"$W/pcs-T-short.txt"
check "trace kernel: without its last PC, cover --trace refuses or gives other lines" other_reading "$W/pcs-T-short.txt"
# the first two consecutive PCs of one function (addr2line -f: the
# function, then FILE:LINE, per PC) that differ, swapped: cover --trace
# reads each function's PCs apart, so only a swap inside one is seen
# shellcheck disable=SC2094 # pcs-T.txt is read twice, written never
addr2line -f -e "$T/vmlinux" <"$W/pcs-T.txt" | paste - - | cut -f1 |
	paste - "$W/pcs-T.txt" | awk '{ fn[NR] = $1; pc[NR] = $2 } END {
	for (i = 1; i < NR && (fn[i] != fn[i + 1] || pc[i] == pc[i + 1]); i++) ;
	if (i < NR) { t = pc[i]; pc[i] = pc[i + 1]; pc[i + 1] = t }
	for (i = 1; i <= NR; i++) print pc[i] }' >"$W/pcs-T-swapped.txt"
check "trace kernel: two PCs swapped, cover --trace refuses or gives other lines" other_reading "$W/pcs-T-swapped.txt"
diag "pruned kernel test: $(($(date +%s) - T0))s"
done_testing
