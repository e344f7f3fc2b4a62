#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kplug-report collect over a Linux 6.12 x86_64 tinyconfig (+ KCOV) build
# directory whose objects carry embedded cyc_complexity records, against
# reading every object of it: find DIR -name '*.o' -exec cat {} + >
# /dev/null, side by side in one run.  Each command runs 3 times,
# alternating, page cache warm; the best wall time of each is kept.
# The build is the kernel tests' shared x86_64 build (kt_build_x86 in
# tests/kernel/lib-kernel.sh, cached; built here when missing).  Target: collect <= 1.5x the read.
set -u
. "$(dirname "$0")/../tests/lib.sh"
. "$TOP/tests/kernel/lib-kernel.sh"
REPORT=$TOP/tools/kplug-report
[ -x "$REPORT" ] || make -s -C "$TOP" tools/kplug-report || exit 2

NAME=$KT_X86
kt_build_x86 2>/dev/null ||
	{ echo "bench/collect.sh: cannot build $NAME" >&2; exit 2; }
B=$KOUT/$NAME

wall() {	# wall CMD...: seconds, from bash's time
	local TIMEFORMAT=%R t
	t=$( { time "$@" >/dev/null 2>&1; } 2>&1 ) || return 1
	echo "$t"
}
read_all() { find "$B" -name '*.o' -exec cat {} + ; }
collect() { "$REPORT" collect "$B"; }

nrec=$(collect | wc -l)
nobj=$(find "$B" -name '*.o' | wc -l)
[ "$nrec" -gt 1000 ] || { echo "bench/collect.sh: only $nrec records in $B" >&2; exit 2; }
read_all >/dev/null	# warm the page cache
best_r= best_c=
for i in 1 2 3; do
	r=$(wall read_all) && c=$(wall collect) || exit 2
	best_r=$(echo "$r ${best_r:-$r}" | awk '{ print ($1 < $2) ? $1 : $2 }')
	best_c=$(echo "$c ${best_c:-$c}" | awk '{ print ($1 < $2) ? $1 : $2 }')
done
echo "collect: $nrec records from $nobj objects in $B"
echo "find -name '*.o' -exec cat: ${best_r}s wall, kplug-report collect: ${best_c}s wall (best of 3 each)"
ratio=$(awk -v c="$best_c" -v r="$best_r" 'BEGIN { printf "%.2f", (r > 0) ? c / r : 99 }')
echo "collect/read ratio: $ratio (target <= 1.5)"
awk -v x="$ratio" 'BEGIN { exit !(x <= 1.5) }'
