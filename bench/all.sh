#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every performance ratio of the project, side by side, in one run.
#
#   bench/all.sh [--reuse] [SCRIPT...]   (default: cyc.sh sancov.sh
#                                         sancov-abi.sh report.sh, then any
#                                         other bench/*.sh)
#
# --reuse prints the table from the logs of the last run instead of running
# the scripts again (a full run takes about 25 minutes on 2 busy cores).
#
# Runs each benchmark script (its full output goes to bench/out/all-NAME.log),
# collects every line of the form "... ratio ...: VALUE (target OP LIMIT)"
# and prints them in one table with a verdict.  A missing or failing script
# is reported in the table.  Exit status: 0 when every script ran and every
# ratio meets its target, 1 otherwise.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=${KPLUG_BENCH_OUT:-$TOP/bench/out}
mkdir -p "$OUT"

reuse=0
if [ "${1:-}" = --reuse ]; then
	reuse=1
	shift
fi
if [ $# -gt 0 ]; then
	scripts=("$@")
else
	scripts=(cyc.sh sancov.sh sancov-abi.sh prune.sh report.sh collect.sh)
	for f in "$TOP"/bench/*.sh; do
		n=$(basename "$f")
		case " ${scripts[*]} lib.sh all.sh " in *" $n "*) continue ;; esac
		scripts+=("$n")
	done
fi

# "NAME ratio ...: [KIND] VALUE (target OP LIMIT)[, KIND VALUE]..." lines as
# NAME [(KIND)] <tab> VALUE <tab> OP LIMIT <tab> ok|MISSED; the untargeted
# extra values become rows with verdict "info".
parse_ratios() {
	perl -ne '
		next unless /^(.*ratio[^:]*):\s*(?:([A-Za-z][\w -]*?)\s+)?([0-9][0-9.e+-]*)\s*\(target\s*([<>]=)\s*([0-9.]+)\)(.*)$/;
		my ($name, $kind, $v, $op, $lim, $rest) = ($1, $2, $3, $4, $5, $6);
		my $ok = $op eq "<=" ? $v <= $lim : $v >= $lim;
		printf "%s\t%s\t%s %s\t%s\n", $name . ($kind ? " ($kind)" : ""), $v, $op, $lim,
			$ok ? "ok" : "MISSED";
		while ($rest =~ /,\s*([A-Za-z][\w -]*?)\s+([0-9][0-9.e+-]*)/g) {
			printf "%s\t%s\t-\tinfo\n", "$name ($1)", $2;
		}' "$1"
}

rows=$OUT/all-rows.txt
: >"$rows"
status=0
for s in "${scripts[@]}"; do
	n=${s%.sh}
	if [ ! -f "$TOP/bench/$s" ]; then
		printf '%s\t%s\t%s\t%s\t%s\n' "$s" "(script missing: bench/$s)" "-" "-" "MISSING" >>"$rows"
		status=1
		continue
	fi
	if [ $reuse = 1 ] && [ -f "$OUT/all-$n.log" ]; then
		rc=0
		echo "== bench/$s: reusing $OUT/all-$n.log ($(date -u -r "$OUT/all-$n.log" '+%Y-%m-%d %H:%M UTC'))" >&2
	else
		echo "== bench/$s" >&2
		start=$(date +%s)
		bash "$TOP/bench/$s" >"$OUT/all-$n.log" 2>&1
		rc=$?
		secs=$(($(date +%s) - start))
		echo "   exit $rc after ${secs}s, log: $OUT/all-$n.log" >&2
	fi
	found=0
	while IFS= read -r line; do
		found=1
		printf '%s\t%s\n' "$s" "$line" >>"$rows"
	done < <(parse_ratios "$OUT/all-$n.log")
	if [ $found = 0 ]; then
		printf '%s\t%s\t%s\t%s\t%s\n' "$s" "(no ratio line; exit $rc: $(tail -1 "$OUT/all-$n.log"))" "-" "-" "FAILED" >>"$rows"
		status=1
	elif [ $rc -ne 0 ] && ! grep -q 'MISSED$' <(grep "^$s	" "$rows"); then
		printf '%s\t%s\t%s\t%s\t%s\n' "$s" "(script exited $rc)" "-" "-" "FAILED" >>"$rows"
		status=1
	fi
done

echo
printf '%-11s %-58s %10s %-10s %s\n' bench measure ratio target verdict
awk -F'\t' '{ printf "%-11s %-58s %10s %-10s %s\n", $1, substr($2, 1, 58), $3, $4, $5 }' "$rows"
grep -q '	MISSED$' "$rows" && status=1
echo
echo "kernel: Linux ${KPLUG_BENCH_KERNEL:-6.12} x86_64 tinyconfig; $(gcc --version | head -1); printed $(date -u '+%Y-%m-%d %H:%M UTC')"
exit $status
