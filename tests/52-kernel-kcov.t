#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# KCOV end to end, on Linux 6.12 and on 7.2 (built in Debian 13's chroot
# with its gcc-14): an x86_64 kernel (tinyconfig + serial
# console + initramfs + debugfs + KCOV) whose KCOV instrumentation comes
# only from kplug boots in qemu-system-x86_64 (TCG); its /init
# (tests/kernel/kcov-init.c) runs the coverage example of
# Documentation/dev-tools/kcov.rst around read(-1), taken again if a
# context switch came in between.  The PCs must come
# back and lie in the read path, in functions whose call sites equal
# native -fsanitize-coverage=trace-pc's (the read path's objects compiled
# both ways from their .cmd lines, by the kernel's own compiler).
# One core, on what 51-kernel-build.t built (a "# runs alone" file, which the
# harness runs first): beside other files, never beside another kernel
# test reading those builds.
# lock: kernel-builds
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/kernel/lib-kernel.sh"
. "$TOP/tests/kernel/lib-qemu.sh"

kt_qemu_start "KCOV boot test" kcov-boot
WTOP=$W

# Native parity of the read path, statically: each object that holds a
# function of the read path is compiled again from its .cmd line (up to
# the source file: no objtool), once as built and once with kplug's flags
# replaced by native -fsanitize-coverage=trace-pc, by the compiler that
# built the kernel (7.2: gcc-14, in the chroot).  Per function, the
# trace_pc call sites (relocations: native's tail calls count too) must
# be equal, so the PCs a read(-1) collects are those native GCC would
# give.  (A whole native kernel to boot beside it would cost one more
# kernel build; 32-sancov-parity.t checks the same per function on
# GCC's tests.)
per_function() {	# per_function OBJ: "function count" for each function with call sites
	objdump -dr "$1" | perl -ne '
		if (/^[0-9a-f]+ <([^>]+)>:$/) { $f = $1; next }
		$n{$f}++ if defined $f && /R_X86_64_\w+\s+__sanitizer_cov_trace_pc\b/;
		END { print "$_ $n{$_}\n" for sort keys %n }'
}
recompile() {	# recompile OBJ NATIVE(0/1) OUT
	local cmd native=
	[ "$2" = 1 ] && native=--native
	cmd=$(perl "$TOP/tests/kernel/kbuild-cmd.pl" $native "$B" "$1") || return 1
	[ "$2" = 1 ] && cmd="$cmd -fsanitize-coverage=trace-pc"
	(cd "$B" && $(kt_runner "$V") sh -c "$cmd -o $3")
}

# kcov_build VER: the kplug KCOV kernel of Linux VER (51-kernel-build.t's
# cached build where there is one: kt_build says which)
kcov_build() {
	case $1 in
	6.12)	kt_build_x86 ;;
	7.2)	kt_build_x86_72 ;;
	esac
}
# kcov_bzimage: $B has a bzImage, configured with CONFIG_KPLUG_SANCOV=y
kcov_bzimage() { test -f "$B/arch/x86/boot/bzImage" && grep -qx 'CONFIG_KPLUG_SANCOV=y' "$B/.config"; }
# compiled_both OBJ: OBJ compiled again as built ($W/kplug.o) and with
# native trace-pc ($W/native.o)
compiled_both() {
	recompile "$1" 0 "$W/kplug.o" >"$W/cc.log" 2>&1 &&
		recompile "$1" 1 "$W/native.o" >>"$W/cc.log" 2>&1
}

# kcov_kernel VER NAME: build (or reuse) the kernel, compare the read
# path with native, boot it and check its trace.
kcov_kernel() {
V=$1 NAME=$2 B=$KOUT/$2 W=$WTOP/$2
mkdir -p "$W"
check "$NAME: kplug KCOV kernel, Linux $V" kcov_build "$V"
check "$NAME: bzImage there, CONFIG_KPLUG_SANCOV=y" kcov_bzimage
is "$(grep -rl --include='*.cmd' -e '-fsanitize-coverage' "$B" | wc -l)" 0 \
	"$NAME: no -fsanitize-coverage in any .cmd file"
check "$NAME: fs/read_write.o instrumented by kplug's sancov" grep -q -- '-fplugin-arg-kplug-default-enable=sancov' "$B/fs/.read_write.o.cmd"

for o in fs/read_write.o fs/file.o fs/file_table.o; do
	rm -f "$W/kplug.o" "$W/native.o"
	check "$NAME: $o: compiled again as built and with native -fsanitize-coverage=trace-pc" compiled_both "$o"
	per_function "$W/kplug.o" >"$W/fun-kplug.txt"
	per_function "$W/native.o" >"$W/fun-native.txt"
	ok $(($(wc -l <"$W/fun-native.txt") >= 3 ? 0 : 1)) \
		"$NAME: $o: native instruments $(wc -l <"$W/fun-native.txt") functions"
	cmp -s "$W/fun-kplug.txt" "$W/fun-native.txt" ||
		diff "$W/fun-native.txt" "$W/fun-kplug.txt" | head -n 10 | diag_in
	is "$(cat "$W/fun-kplug.txt" | paste -sd' ')" "$(cat "$W/fun-native.txt" | paste -sd' ')" \
		"$NAME: $o: kplug's trace_pc call sites per function = native's"
	cat "$W/fun-kplug.txt" >>"$W/fun-all.txt"
done
check "$NAME: ksys_read/vfs_read among the functions compared" grep -qE '^(ksys_read|vfs_read) [0-9]+$' "$W/fun-all.txt"

# initramfs with the static /init.
check "$NAME: static /init built from tests/kernel/kcov-init.c" gcc -static -O2 -Wall -o "$W/init" "$TOP/tests/kernel/kcov-init.c"
check "$NAME: initramfs (usr/gen_init_cpio)" kt_initramfs "$B" "$W/initramfs.cpio" "$W/init"

boot() { kt_boot "$1" "$W/initramfs.cpio" "$2"; }	# boot BUILD LOG

declare -A COUNT FUNCS
for kind in kplug; do
	b=$B
	t=$(date +%s)
	boot "$b" "$W/serial-$kind.log"
	check "$NAME booted, /init ran the kcov.rst example ($(($(date +%s) - t))s)" grep -q '^KCOV-COUNT ' "$W/serial-$kind.log"
	grep '^KCOV-ERROR' "$W/serial-$kind.log" | diag_in
	kt_retries "$W/serial-$kind.log"
	sed -n 's/^KCOV-PC //p' "$W/serial-$kind.log" >"$W/pcs-$kind.txt"
	COUNT[$kind]=$(wc -l <"$W/pcs-$kind.txt")
	is "${COUNT[$kind]}" "$(sed -n 's/^KCOV-COUNT //p' "$W/serial-$kind.log")" \
		"$NAME: KCOV-COUNT matches the PCs printed"
	kt_symbolize "$b/vmlinux" <"$W/pcs-$kind.txt" >"$W/syms-$kind.txt"
	FUNCS[$kind]=$(sed 's/+0x.*//' "$W/syms-$kind.txt" | sort -u | tr '\n' ' ')
	diag "$NAME: ${COUNT[$kind]} PCs in: ${FUNCS[$kind]}"
done

ok $((COUNT[kplug] > 0 ? 0 : 1)) "$NAME: coverage came back (${COUNT[kplug]} PCs)"
check "$NAME: PCs in ksys_read" grep -q '^ksys_read+' "$W/syms-kplug.txt"
check "$NAME: PCs in the fd lookup (__fdget_pos/__fget_light)" grep -qE '^(__fdget_pos|fdget_pos|__fget_light|__fget_files|fdget)\+' "$W/syms-kplug.txt"
grep -vE "$KT_READ_PATH" "$W/syms-kplug.txt" >"$W/off-path.txt"
ok "$(wc -l <"$W/off-path.txt")" "$NAME: every PC lies in the read path"
diag_in <"$W/off-path.txt"
# addr2line where vmlinux carries line information, else function names.
if [ "${COUNT[kplug]}" -gt 0 ]; then
	addr2line -f -e "$B/vmlinux" <"$W/pcs-kplug.txt" >"$W/addr2line-kplug.txt" 2>&1
	diag "$NAME: addr2line of the kplug PCs: $(paste -sd' ' "$W/addr2line-kplug.txt" | cut -c1-300)"
fi
# Every function the boot's PCs lie in was compared with native above.
n=0 miss=
for f in ${FUNCS[kplug]}; do
	if grep -q "^$f [0-9]*$" "$W/fun-all.txt"; then
		n=$((n + 1))
	else
		miss="$miss $f"
	fi
done
is "${miss:-none}" none "$NAME: every function of the boot's PCs ($n) has native-equal call sites"
diag "$NAME: PCs for one read(-1): kplug ${COUNT[kplug]}"
}

# KPLUG_KERNEL_BUILDS="x86_64-7.2-paths" boots only the kernels named (for
# development, as in 51); the default is both.
want() { [ -z "${KPLUG_KERNEL_BUILDS:-}" ] || [[ " $KPLUG_KERNEL_BUILDS " == *" $1 "* ]]; }
want "$KT_X86" && kcov_kernel 6.12 "$KT_X86"
want "$KT_X86_72" && kcov_kernel 7.2 "$KT_X86_72"
diag "kcov boot test: $(($(date +%s) - T0))s"
done_testing
