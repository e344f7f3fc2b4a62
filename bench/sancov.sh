#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kplug's sancov against native -fsanitize-coverage=trace-pc on real kernel
# translation units (Linux, x86_64 tinyconfig; bench/lib.sh):
#  - cc1 work (callgrind instruction counts of cc1 alone), target <= 1.02;
#  - .text size of the objects: kplug with sancov-tailcall=on must equal
#    native exactly; kplug's default (no tail calls) is shown beside it.
# Usage: bench/sancov.sh   (KPLUG_BENCH_OBJS="a.o b.o" to pick objects)
. "$(dirname "$0")/lib.sh"
[ -f "$KPLUG" ] || { echo "bench: build kplug.so first (make)" >&2; exit 2; }
KPLUG=$(bench_plugin) || exit 2
objtree=$(bench_objtree) || { echo "bench: cannot prepare kernel tree" >&2; exit 2; }

NATIVE="-fsanitize-coverage=trace-pc"
KSAN="-fplugin=$KPLUG -fplugin-arg-kplug-enable=sancov"
KTAIL="$KSAN -fplugin-arg-kplug-sancov-tailcall=on"

# text CMD FLAGS...: .text bytes and jumps to callbacks of one object
text() {
	local cmd=$1 o=$OUT/bench-sancov.o
	shift
	(cd "$objtree" && eval "${cmd/ -o $OUT\/bench.o/ -o $o} $*") >/dev/null 2>&1 || return 1
	echo "$(size -A "$o" | awk '$1 == ".text" { print $2 }')" \
	     "$(objdump -dr --no-show-raw-insn "$o" | awk '/^ +[0-9a-f]+:\t/ { insn = $2 }
		/R_[A-Z0-9_]+\t__sanitizer_cov_/ { if (insn ~ /^j/) j++ } END { print j + 0 }')"
}

printf '%-16s %14s %14s %7s | %9s %9s %9s | %4s\n' object "native cc1" "kplug cc1" ratio \
	"native" "tailcall" "kplug" "jmp"
sum_n=0 sum_k=0 fail=0
for obj in $BENCH_OBJS; do
	cmd=$(bench_cmd "$obj" "$objtree")
	n=$(callgrind_cc1 "$objtree" "$cmd" $NATIVE) || exit 2
	k=$(callgrind_cc1 "$objtree" "$cmd" $KSAN) || exit 2
	read -r tn jn <<< "$(text "$cmd" $NATIVE)" || exit 2
	read -r tt jt <<< "$(text "$cmd" $KTAIL)" || exit 2
	read -r tk jk <<< "$(text "$cmd" $KSAN)" || exit 2
	printf '%-16s %14d %14d %7s | %9d %9d %9d | %4s\n' "$obj" "$n" "$k" "$(ratio "$k" "$n")" \
		"$tn" "$tt" "$tk" "$jn/$jk"
	[ "$tn" = "$tt" ] || fail=1
	[ "$jk" = 0 ] || fail=1
	sum_n=$((sum_n + n)) sum_k=$((sum_k + k))
done
r=$(ratio "$sum_k" "$sum_n")
echo "cc1 work ratio, kplug sancov / native trace-pc: $r (target <= 1.02)"
echo ".text: native vs kplug sancov-tailcall=on must be equal; jmp = native/kplug tail-called callbacks"
awk -v r="$r" 'BEGIN { exit !(r <= 1.02) }' || fail=1
exit $fail
