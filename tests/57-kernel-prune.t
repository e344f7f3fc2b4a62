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

kt_build_x86_72
ok $? "unpruned kernel $KT_X86_72 ($( ((KT_REUSED)) && echo 'cached build' || echo "built in ${KT_SECONDS}s"))"
kt_build_unique
ok $? "pruned kernel $KT_UNIQUE ($( ((KT_REUSED)) && echo 'cached build' || echo "built in ${KT_SECONDS}s"))"

grep -q -- '-fplugin-arg-kplug-default-sancov-prune=min ' "$P/fs/.read_write.o.cmd" &&
	grep -q -- '-fplugin-arg-kplug-default-sancov-prune=off ' "$B/fs/.read_write.o.cmd"
ok $? "fs/read_write.o: prune=min in the pruned kernel, off in the shared one"
for k in B P; do
	v=${!k}/vmlinux
	readelf -SW "$v" | grep -qE ' \.debug_kplug_sancov +PROGBITS +0+ '
	ok $? "$(basename "${!k}"): vmlinux keeps .debug_kplug_sancov, not loaded (address 0)"
	"$R" cover "$v" /dev/null >/dev/null 2>"$W/static-$k.txt"
	ok $? "$(basename "${!k}"): kplug-report cover reads vmlinux's map"
	eval "static_$k=\$(sed -n 's/.*functions, \([0-9]*\) probes.*/\1/p' \"$W/static-$k.txt\")"
done
ok $((static_P < static_B ? 0 : 1)) \
	"vmlinux static probes: pruned $static_P, unpruned $static_B, ratio $(awk -v a="$static_P" -v b="$static_B" 'BEGIN { printf "%.3f", a / b }')"

gcc -static -O2 -Wall -o "$W/init" "$TOP/tests/kernel/kcov-init.c"
ok $? "static /init built from tests/kernel/kcov-init.c"
kt_initramfs "$B" "$W/initramfs.cpio" "$W/init"
ok $? "initramfs"
declare -A N
for k in B P; do
	t=$(date +%s)
	kt_boot "${!k}" "$W/initramfs.cpio" "$W/serial-$k.log" nokaslr
	grep -q '^KCOV-COUNT ' "$W/serial-$k.log"
	ok $? "$(basename "${!k}") booted, /init ran the kcov.rst example ($(($(date +%s) - t))s)"
	kt_retries "$W/serial-$k.log"
	sed -n 's/^KCOV-PC //p' "$W/serial-$k.log" >"$W/pcs-$k.txt"
	N[$k]=$(wc -l <"$W/pcs-$k.txt")
	"$R" cover "${!k}/vmlinux" "$W/pcs-$k.txt" >"$W/lines-$k.txt" 2>"$W/cover-$k.txt"
	ok $? "$(basename "${!k}"): every recorded PC is in the map ($(tail -1 "$W/cover-$k.txt"))"
done
ok $((N[P] > 0 && N[P] < N[B] ? 0 : 1)) "PCs for one read(-1): pruned ${N[P]}, unpruned ${N[B]}"
nl=$(wc -l <"$W/lines-B.txt")
ok $((nl >= 10 ? 0 : 1)) "the unpruned kernel's PCs cover $nl source lines (>= 10)"
grep -q '^fs/read_write.c:' "$W/lines-B.txt" || grep -q '/fs/read_write.c:' "$W/lines-B.txt"
ok $? "the lines include fs/read_write.c (ksys_read)"
cmp -s "$W/lines-B.txt" "$W/lines-P.txt" || diff "$W/lines-B.txt" "$W/lines-P.txt" | head -10 | diag_in
ok $? "the pruned kernel's PCs infer exactly the unpruned kernel's lines"
# the comparison can fail: without the pruned trace's last PC, lines go
head -n -1 "$W/pcs-P.txt" >"$W/pcs-short.txt"
"$R" cover "$P/vmlinux" "$W/pcs-short.txt" >"$W/lines-short.txt" 2>/dev/null
! cmp -s "$W/lines-B.txt" "$W/lines-short.txt"
ok $? "one PC fewer in the pruned trace: $(wc -l <"$W/lines-short.txt") lines, not the same"
diag "pruned kernel test: $(($(date +%s) - T0))s"
done_testing
