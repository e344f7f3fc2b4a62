#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Embedded cyc_complexity records change nothing else in a kernel object.
# In the x86_64 6.12 build with kplug-test/paths.ini (53-kernel-profiles.t,
# from the build cache), whose objects carry their records in .kplug.cyc
# (kbuild's default), a sample of vmlinux's C objects is compiled again
# from its .cmd line into a scratch directory, once as built and once with
# -fplugin-arg-kplug-cyc_complexity-embed=off: with .kplug.cyc removed from
# both (the same objcopy), the two objects are byte-identical, so every
# allocated section, symbol and relocation is the same.  vmlinux has no
# .kplug.cyc (the final link drops it).
# One core, on what 51-kernel-build.t built (a "# runs alone" file, which the
# harness runs first): beside other files, never beside another kernel
# test reading those builds.
# lock: kernel-builds
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/kernel/lib-kernel.sh"

if quick; then
	skip "kernel build (KPLUG_QUICK)"
	done_testing
fi

NAME=$KT_X86
check "$NAME: kernel" kt_build_x86
B=$KOUT/$NAME
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# C objects of vmlinux compiled with kplug, every 25th.
objs=$(cd "$B" && ar t vmlinux.a | while read -r o; do
	c="$(dirname "$o")/.$(basename "$o").cmd"
	head -n 1 "$c" 2>/dev/null | grep -qE -- '-fplugin=[^ ]*kplug.so .* -c -o '"$o"' [^ ]*\.c( |;|$)' && echo "$o"
done | awk 'NR % 25 == 1')
n=$(wc -w <<<"$objs")
ok $((n >= 10 ? 0 : 1)) "$n objects sampled"

same=0 with_sec=0 no_rec=0 without_sec=0 i=0
for o in $objs; do
	i=$((i + 1))
	cmd=$(sed -n '1s/^[a-z_]*cmd_[^ ]* := //p' "$B/$(dirname "$o")/.$(basename "$o").cmd")
	# (the line goes on with objtool: the argument goes before -c)
	cmd=${cmd//" -c -o $o "/" -fplugin-arg-kplug-cyc_complexity-embed=\$EMBED -c -o \$OUT_O "}
	cmd=${cmd//"-Wp,-MMD,$(dirname "$o")/.$(basename "$o").d"/"-Wp,-MMD,$T/dep.d"}
	for v in on off; do
		rm -f "$T/$v.o" "$T/$v.s.o"
		(cd "$B" && EMBED=$v OUT_O=$T/$v.o eval "$cmd") \
			>"$T/$v.log" 2>&1 || { diag "$o (embed=$v) failed: $(head -n 3 "$T/$v.log")"; continue 2; }
		objcopy -R .kplug.cyc "$T/$v.o" "$T/$v.s.o"
	done
	if readelf -S "$T/on.o" | grep -q '\.kplug\.cyc'; then
		with_sec=$((with_sec + 1))
	else
		# no section: right only when the unit has no record (all its
		# functions under the profile's minimum), as a report file shows
		rm -f "$T/r.jsonl"
		(cd "$B" && EMBED="off -fplugin-arg-kplug-cyc_complexity-format=jsonl -fplugin-arg-kplug-cyc_complexity-output=$T/r.jsonl" \
			OUT_O=$T/r.o eval "$cmd") >"$T/r.log" 2>&1
		if [ $? -eq 0 ] && [ ! -s "$T/r.jsonl" ]; then
			no_rec=$((no_rec + 1))
			diag "$o: no record (so no .kplug.cyc)"
		else
			diag "$o: embed=on without .kplug.cyc, but $(wc -l <"$T/r.jsonl" 2>/dev/null) records in a report file"
		fi
	fi
	readelf -S "$T/off.o" | grep -q '\.kplug\.cyc' || without_sec=$((without_sec + 1))
	if cmp -s "$T/on.s.o" "$T/off.s.o"; then
		same=$((same + 1))
	else
		diag "$o: differs beyond .kplug.cyc"
	fi
done
is "$((with_sec + no_rec))/$without_sec" "$n/$n" "embed=on objects carry .kplug.cyc ($with_sec; $no_rec have no record), embed=off ones do not"
ok $((with_sec * 2 > n ? 0 : 1)) "most sampled objects have records ($with_sec of $n)"
is "$same" "$n" "without .kplug.cyc, each embed=on object is byte-identical to its embed=off twin"
# has_kplug_section FILE: readelf lists a .kplug.cyc section in FILE
has_kplug_section() { readelf -S "$1" | grep -q '\.kplug\.cyc'; }
check_exit 1 "vmlinux has no .kplug.cyc section" has_kplug_section "$B/vmlinux"
check "vmlinux.o (ld -r) still carries the records" has_kplug_section "$B/vmlinux.o"
done_testing
