#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kplug-report top on 1,000,000 JSON Lines records against sort -n on the
# same file, side by side in one run, with peak memory.
#
#   bench/report.sh [RECORDS]        (default 1000000)
#
# The records have the plugin's exact schema (tests/43-report-tool.t checks
# that a real report parses the same way); about 5% are header inlines
# repeated from several translation units.  Both programs run with LC_ALL=C,
# output to /dev/null, page cache warm; each is run 3 times, best wall time
# kept (with that run's CPU time and peak RSS).  sort may use every CPU;
# kplug-report uses two threads (parse, intern).  Exit 0 when the wall
# ratio is <= 1.0.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=${KPLUG_BENCH_OUT:-$TOP/bench/out}
N=${1:-1000000}
REPORT=$TOP/tools/kplug-report
mkdir -p "$OUT"
export LC_ALL=C

[ -x "$REPORT" ] || make -s -C "$TOP" tools/kplug-report || exit 2
command -v /usr/bin/time >/dev/null || { echo "kplug: /usr/bin/time not found: apt-get install time" >&2; exit 2; }

DATA=$OUT/report-$N.jsonl
if [ ! -s "$DATA" ]; then
	awk -v n="$N" 'BEGIN {
		srand(1);
		split("drivers/net/ethernet drivers/gpu/drm fs/ext4 kernel/sched mm net/ipv4 sound/soc arch/x86/kernel lib crypto", dirs, " ");
		split("WARN_ON BUG_ON min max clamp likely unlikely list_for_each_entry spin_lock_irqsave dev_err", macs, " ");
		for (i = 0; i < n; i++) {
			tu = sprintf("%s/file%d.c", dirs[1 + int(i / 40) % 10], int(i / 40));
			if (rand() < 0.05) {
				h = int(rand() * 2000);
				file = sprintf("include/linux/hdr%d.h", h % 200); fn = sprintf("inline_fn%d", h); hdr = "true";
				m = 1 + h % 7;
			} else {
				file = tu; fn = sprintf("func_%d_%d", i, int(rand() * 1000)); hdr = "false";
				m = 1 + int(-log(1 - rand()) * 6);
				if (rand() < 0.001) m += int(rand() * 300);
			}
			san = 0; macro = int(m * rand() / 3); noret = -int(rand() * 2); own = m - 1 - macro - san - noret;
			mj = "";
			if (macro) mj = sprintf("\"%s\":%d", macs[1 + int(rand() * 10)], macro);
			printf "{\"file\":\"%s\",\"line\":%d,\"function\":\"%s\",\"M\":%d,\"parts\":{\"base\":1,\"own\":%d,\"macro\":%d,\"sanitizer\":%d,\"noreturn\":%d},\"macros\":{%s},\"inline_header\":%s,\"tu\":\"%s\",\"run\":\"%x-6760a1b2\",\"gcc\":\"12.2.0\",\"opt\":\"O2\"}\n", file, 1 + int(rand() * 3000), fn, m, own, macro, san, noret, mj, hdr, tu, 1000 + int(i / 40);
		}
	}' > "$DATA.tmp" && mv "$DATA.tmp" "$DATA" || exit 2
fi
cat "$DATA" > /dev/null	# warm the page cache

# best_of CMD...: the best of 3 wall times, with the CPU time (user + sys)
# and peak RSS of that run
best_of() {
	local best="" cpu="" rss="" i t u k r
	for i in 1 2 3; do
		/usr/bin/time -f '%e %U %S %M' -o "$OUT/time.tmp" "$@" > /dev/null 2> "$OUT/stderr.tmp" ||
			[ $? -eq 1 ] || { echo "kplug: failed: $* ($(head -1 "$OUT/stderr.tmp"))" >&2; exit 2; }
		read -r t u k r < <(tail -1 "$OUT/time.tmp")
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$t
			cpu=$(awk -v u="$u" -v k="$k" 'BEGIN { printf "%.2f", u + k }')
			rss=$r
		fi
	done
	echo "$best $cpu $rss"
}

read -r rt rc rr < <(best_of "$REPORT" top -n 10 "$DATA")
read -r st sc sr < <(best_of sort -t: -k5,5 -n -r -o /dev/null "$DATA")
size=$(stat -c %s "$DATA")
echo "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
printf '%-36s %10s %10s %14s\n' "$N records, $((size / 1048576)) MiB" "wall s" "CPU s" "peak RSS MiB"
printf '%-36s %10s %10s %14s\n' "kplug-report top -n 10" "$rt" "$rc" "$((rr / 1024))"
printf '%-36s %10s %10s %14s\n' "sort -t: -k5,5 -n -r" "$st" "$sc" "$((sr / 1024))"
awk -v a="$rt" -v b="$st" -v c="$rc" -v d="$sc" 'BEGIN {
	printf "ratio kplug-report/sort: wall %.3f (target <= 1.0), CPU %.3f\n", (b > 0 ? a / b : 0), (d > 0 ? c / d : 0) }'
awk -v a="$rt" -v b="$st" 'BEGIN { exit !(a <= b) }'
