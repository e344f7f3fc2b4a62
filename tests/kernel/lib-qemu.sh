# SPDX-License-Identifier: GPL-2.0
# The qemu side of the KCOV boot tests (52, 56); source after lib-kernel.sh.
#
# kt_initramfs BUILD OUT.cpio INIT [FILE...]: an initramfs with /dev/console,
# /sys, the static INIT as /init and each FILE in / (usr/gen_init_cpio).
# kt_boot BUILD INITRAMFS LOG [ARGS]: boot BUILD's bzImage in qemu (TCG, one
# CPU, 256 MB, serial console, niced), kernel arguments ARGS added; the
# serial output goes to LOG without CRs.  qemu ends when /init reboots.
# no_timer_check: on a loaded host, TCG can be too slow for the kernel's
# IO-APIC timer check, which then panics at boot.
# kt_retries LOG: the traces /init took again after a context switch
# (KCOV-RETRY lines, see tests/kernel/kcov-init.c), as diagnostics.
# kt_qemu_start WHAT DIR: the start of a boot test: one skip naming WHAT
# under KPLUG_QUICK (and the end of the test), else checks qemu, empties
# $KOUT/DIR and sets W to it and T0 to the time.
# kt_symbolize VMLINUX < PCs: "function+0xoffset" per PC, from nm (the
# tinyconfig kernels have no DWARF for addr2line).

kt_initramfs() {
	local b=$1 out=$2 init=$3 f
	shift 3
	{
		printf '%s\n' "dir /dev 0755 0 0" "nod /dev/console 0600 0 0 c 5 1" \
			"dir /sys 0755 0 0" "file /init $init 0755 0 0"
		for f; do
			echo "file /$(basename "$f") $f 0644 0 0"
		done
	} >"$out.list" &&
		$(kt_runner "$(cat "$b/.kt-ver" 2>/dev/null)") "$b/usr/gen_init_cpio" "$out.list" >"$out"
}

kt_boot() {
	nice -n 19 timeout 300 qemu-system-x86_64 -nographic -no-reboot -m 256 -smp 1 \
		-accel tcg -kernel "$1/arch/x86/boot/bzImage" \
		-initrd "$2" \
		-append "console=ttyS0 panic=-1 no_timer_check${4:+ $4}" </dev/null 2>&1 | tr -d '\r' >"$3"
}

# The functions of read(-1)'s path on x86_64 6.12 and 7.2, as a grep -E
# pattern for kt_symbolize's lines (7.2, gcc-14: the fd class's cleanups
# fdput and fdput_pos are functions of read_write.c, out of line).
KT_READ_PATH='^(__x64_sys_read|ksys_read|__fdget_pos|fdget_pos|__fget_light|__fget_files|fdget|fput|fdput|fdput_pos|__f_unlock_pos|vfs_read)\+'

kt_retries() {
	grep '^KCOV-RETRY' "$1" | diag_in
}

kt_symbolize() {
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

kt_qemu_start() {
	if quick; then
		skip "$1 (KPLUG_QUICK)"
		done_testing
	fi
	check "qemu-system-x86_64 installed (apt-get install qemu-system-x86)" command -v qemu-system-x86_64 >/dev/null
	W=$KOUT/$2
	rm -rf "$W" && mkdir -p "$W"
	T0=$(date +%s)
}
