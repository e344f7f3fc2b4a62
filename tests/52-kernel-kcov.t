#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# KCOV end to end: an x86_64 Linux 6.12 kernel (tinyconfig + serial
# console + initramfs + debugfs + KCOV) whose KCOV instrumentation comes
# only from kplug boots in qemu-system-x86_64 (TCG); its /init
# (tests/kernel/kcov-init.c) runs the coverage example of
# Documentation/dev-tools/kcov.rst around read(-1).  The PCs must come
# back and lie in the read path.  The same config with native
# -fsanitize-coverage is built and booted once for the count comparison.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/kernel/lib-kernel.sh"

if quick; then
	skip "KCOV boot test (KPLUG_QUICK)"
	done_testing
fi
command -v qemu-system-x86_64 >/dev/null
ok $? "qemu-system-x86_64 installed (apt-get install qemu-system-x86)"

W=$KOUT/kcov-boot
rm -rf "$W" && mkdir -p "$W"
T0=$(date +%s)

# The kplug kernel: the x86_64 configuration 51-kernel-build.t builds,
# from the build cache when it is there.
B=$KOUT/x86_64-6.12
# shellcheck disable=SC2086
kt_build x86_64-6.12 6.12 x86_64 $KT_KPLUG $KT_X86_BOOT
ok $? "kplug KCOV kernel ($( ((KT_REUSED)) && echo 'cached build of 51-kernel-build.t' || echo built))"
test -f "$B/arch/x86/boot/bzImage" && grep -qx 'CONFIG_KPLUG_SANCOV=y' "$B/.config"
ok $? "kplug KCOV kernel: bzImage there, CONFIG_KPLUG_SANCOV=y"
SRC_KPLUG=$SRC
is "$(grep -rl --include='*.cmd' -e '-fsanitize-coverage' "$B" | wc -l)" 0 \
	"kplug kernel: no -fsanitize-coverage in any .cmd file"
grep -q -- '-fplugin-arg-kplug-default-enable=sancov' "$B/fs/.read_write.o.cmd"
ok $? "kplug kernel: fs/read_write.o instrumented by kplug's sancov"

# The same configuration with native -fsanitize-coverage and no kplug: its
# cache key does not depend on kplug's sources, so it is built once.
N=$KOUT/x86_64-6.12-native
NATIVE_OPTS="KCOV=y $KT_X86_BOOT"
# shellcheck disable=SC2086
kt_build x86_64-6.12-native 6.12 x86_64 $NATIVE_OPTS
ok $? "native KCOV kernel ($( ((KT_REUSED)) && echo 'cached' || echo built); same config without kplug)"
test -f "$N/arch/x86/boot/bzImage" && grep -qx 'CONFIG_KCOV=y' "$N/.config" &&
	! grep -q '^CONFIG_GCC_PLUGIN_KPLUG=y' "$N/.config"
ok $? "native KCOV kernel: bzImage there, KCOV without kplug"
grep -q -- '-fsanitize-coverage=trace-pc' "$N/fs/.read_write.o.cmd"
ok $? "native kernel: fs/read_write.o built with -fsanitize-coverage=trace-pc"

# initramfs with the static /init.
gcc -static -O2 -Wall -o "$W/init" "$TOP/tests/kernel/kcov-init.c"
ok $? "static /init built from tests/kernel/kcov-init.c"
printf '%s\n' "dir /dev 0755 0 0" "nod /dev/console 0600 0 0 c 5 1" \
	"dir /sys 0755 0 0" "file /init $W/init 0755 0 0" >"$W/initramfs.list"
"$B/usr/gen_init_cpio" "$W/initramfs.list" >"$W/initramfs.cpio"
ok $? "initramfs (usr/gen_init_cpio)"

boot() {	# boot BUILD LOG
	timeout 300 qemu-system-x86_64 -nographic -no-reboot -m 256 -smp 1 \
		-accel tcg -kernel "$1/arch/x86/boot/bzImage" \
		-initrd "$W/initramfs.cpio" \
		-append "console=ttyS0 panic=-1" </dev/null 2>&1 | tr -d '\r' >"$2"
}

# PCs -> function names with nm (tinyconfig has no DWARF for addr2line).
symbolize() {	# symbolize VMLINUX < PCs
	perl -e '
		my @s;
		open(my $nm, "-|", "nm", "-n", $ARGV[0]) or die;
		while (<$nm>) {
			push @s, [hex($1), $2] if /^([0-9a-f]+) [tTwW] (\S+)$/;
		}
		while (my $pc = <STDIN>) {
			$pc = hex($pc);
			my ($lo, $hi) = (0, $#s);
			while ($lo < $hi) {
				my $m = int(($lo + $hi + 1) / 2);
				if ($s[$m][0] <= $pc) { $lo = $m } else { $hi = $m - 1 }
			}
			printf "%s+0x%x\n", $s[$lo][1], $pc - $s[$lo][0];
		}' "$1"
}

declare -A COUNT FUNCS
for kind in kplug native; do
	b=$B
	[ $kind = native ] && b=$N
	t=$(date +%s)
	boot "$b" "$W/serial-$kind.log"
	grep -q '^KCOV-COUNT ' "$W/serial-$kind.log"
	ok $? "$kind kernel booted, /init ran the kcov.rst example ($(($(date +%s) - t))s)"
	grep '^KCOV-ERROR' "$W/serial-$kind.log" | diag_in
	sed -n 's/^KCOV-PC //p' "$W/serial-$kind.log" >"$W/pcs-$kind.txt"
	COUNT[$kind]=$(wc -l <"$W/pcs-$kind.txt")
	is "${COUNT[$kind]}" "$(sed -n 's/^KCOV-COUNT //p' "$W/serial-$kind.log")" \
		"$kind: KCOV-COUNT matches the PCs printed"
	symbolize "$b/vmlinux" <"$W/pcs-$kind.txt" >"$W/syms-$kind.txt"
	FUNCS[$kind]=$(sed 's/+0x.*//' "$W/syms-$kind.txt" | sort -u | tr '\n' ' ')
	diag "$kind: ${COUNT[$kind]} PCs in: ${FUNCS[$kind]}"
done

ok $((COUNT[kplug] > 0 ? 0 : 1)) "kplug: coverage came back (${COUNT[kplug]} PCs)"
grep -q '^ksys_read+' "$W/syms-kplug.txt"
ok $? "kplug: PCs in ksys_read"
grep -qE '^(__fdget_pos|fdget_pos|__fget_light|__fget_files|fdget)\+' "$W/syms-kplug.txt"
ok $? "kplug: PCs in the fd lookup (__fdget_pos/__fget_light)"
ok "$(grep -cvE '^(__x64_sys_read|ksys_read|__fdget_pos|fdget_pos|__fget_light|__fget_files|fdget|fput|__f_unlock_pos|vfs_read)\+' "$W/syms-kplug.txt")" \
	"kplug: every PC lies in the read path"
# addr2line where vmlinux carries line information, else function names.
if [ "${COUNT[kplug]}" -gt 0 ]; then
	addr2line -f -e "$B/vmlinux" <"$W/pcs-kplug.txt" >"$W/addr2line-kplug.txt" 2>&1
	diag "addr2line of the kplug PCs: $(paste -sd' ' "$W/addr2line-kplug.txt" | cut -c1-300)"
fi
is "${FUNCS[kplug]}" "${FUNCS[native]}" "kplug and native coverage hit the same functions"
diag "PCs for one read(-1): kplug ${COUNT[kplug]}, native -fsanitize-coverage=trace-pc ${COUNT[native]}"
diag "kcov boot test: $(($(date +%s) - T0))s"
: "$SRC_KPLUG"
done_testing
