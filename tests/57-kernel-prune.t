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
# are reported, pruned against unpruned.
# runs alone
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/kernel/lib-kernel.sh"
. "$TOP/tests/kernel/lib-qemu.sh"

kt_qemu_start "pruned KCOV kernel" kcov-prune
R=$TOP/tools/kplug-report
make -s -C "$TOP" tools >&2
P=$KOUT/$KT_UNIQUE
B=$KOUT/$KT_X86_72

# (kt_build says whether it reused a cached build or how long it took)
check "unpruned kernel $KT_X86_72" kt_build_x86_72
check "pruned kernel $KT_UNIQUE" kt_build_unique

# prune_flags: fs/read_write.o has prune=min in $P, off in $B
prune_flags() {
	grep -q -- '-fplugin-arg-kplug-default-sancov-prune=min ' "$P/fs/.read_write.o.cmd" &&
		grep -q -- '-fplugin-arg-kplug-default-sancov-prune=off ' "$B/fs/.read_write.o.cmd"
}
check "fs/read_write.o: prune=min in the pruned kernel, off in the shared one" prune_flags
# map_unloaded VMLINUX: VMLINUX has .debug_kplug_sancov, at address 0
map_unloaded() { readelf -SW "$1" | grep -qE ' \.debug_kplug_sancov +PROGBITS +0+ '; }
for k in B P; do
	v=${!k}/vmlinux
	check "$(basename "${!k}"): vmlinux keeps .debug_kplug_sancov, not loaded (address 0)" map_unloaded "$v"
	check "$(basename "${!k}"): kplug-report cover reads vmlinux's map" "$R" cover "$v" /dev/null >/dev/null 2>"$W/static-$k.txt"
	eval "static_$k=\$(sed -n 's/.*functions, \([0-9]*\) probes.*/\1/p' \"$W/static-$k.txt\")"
done
ok $((static_P < static_B ? 0 : 1)) \
	"vmlinux static probes: pruned $static_P, unpruned $static_B, ratio $(awk -v a="$static_P" -v b="$static_B" 'BEGIN { printf "%.3f", a / b }')"

check "static /init built from tests/kernel/kcov-init.c" gcc -static -O2 -Wall -o "$W/init" "$TOP/tests/kernel/kcov-init.c"
check "initramfs" kt_initramfs "$B" "$W/initramfs.cpio" "$W/init"
declare -A N
for k in B P; do
	t=$(date +%s)
	kt_boot "${!k}" "$W/initramfs.cpio" "$W/serial-$k.log" nokaslr
	check "$(basename "${!k}") booted, /init ran the kcov.rst example ($(($(date +%s) - t))s)" grep -q '^KCOV-COUNT ' "$W/serial-$k.log"
	kt_retries "$W/serial-$k.log"
	sed -n 's/^KCOV-PC //p' "$W/serial-$k.log" >"$W/pcs-$k.txt"
	N[$k]=$(wc -l <"$W/pcs-$k.txt")
	check "$(basename "${!k}"): every recorded PC is in the map" \
		"$R" cover "${!k}/vmlinux" "$W/pcs-$k.txt" >"$W/lines-$k.txt" 2>"$W/cover-$k.txt"
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
diag "pruned kernel test: $(($(date +%s) - T0))s"
done_testing
