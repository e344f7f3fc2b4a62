#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Pruned coverage, proven by running programs: each FILE (a
# gcc.c-torture/execute program) is built unpruned and with
# sancov-prune=clang and =min (all with the coverage map), linked with
# tests/sancov/prune-rt.c, run, and kplug-report cover turns each run's
# hits into source lines: the pruned runs must give exactly the lines of
# the unpruned run.  The trace mode rotates over the files: pc,
# inline-bool-flag, pc-guard.  Programs that do not build or do not exit
# 0 unpruned are dropped (counted).
#
# With PRUNE_OBSERVE=trace, the pruned builds are placed for ordered hits
# (sancov-prune-observe=trace), linked with tests/sancov/prune-trace-rt.c
# (every hit's PC, in order) and read with cover --trace; the unpruned
# reference stays the set runtime's.  The trace mode rotates over pc and
# pc-guard; a program whose trace overflows the runtime's buffer is
# dropped (counted).
#
#   prune-exec.sh CC KPLUG_SO "OPT [KPLUG ARGS]" WORKDIR FILE...
#
# Prints one line per mismatch and a summary:
#   programs N dropped D compared C mismatch-clang X mismatch-min Y
#   probes off P clang Q min R
SANCOV_DIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$SANCOV_DIR/../.." && pwd)
REPORT=$TOP/tools/kplug-report
MODES="clang min"

one() {
	local cc=$1 so=$2 opt=$3 work=$4 f=$5
	local n d
	n=$(basename "$f" .c)
	d=$work/$n
	mkdir -p "$d"
	one_program "$cc" "$so" "$opt" "$work" "$f" "$n" "$d" >"$d/result"
	rm -f "$d"/*.hits "$d"/off "$d"/clang "$d"/min
}

one_program() {
	local cc=$1 so=$2 opt=$3 work=$4 f=$5 n=$6 d=$7 b mode trace rc
	local observe=${PRUNE_OBSERVE:-set} rt args cover
	if [ "$observe" = trace ]; then
		case $(( $(cksum <<<"$n" | cut -d' ' -f1) % 2 )) in
		0) trace=pc ;;
		*) trace=pc-guard ;;
		esac
	else
		case $(( $(cksum <<<"$n" | cut -d' ' -f1) % 3 )) in
		0) trace=pc ;;
		1) trace=inline-bool-flag ;;
		*) trace=pc-guard ;;
		esac
	fi
	for mode in off $MODES; do
		b=$d/$mode
		rt=$work.rt.o args= cover=(cover)
		if [ "$observe" = trace ] && [ $mode != off ]; then
			rt=$work.trt.o
			args=-fplugin-arg-kplug-sancov-prune-observe=trace
			cover=(cover --trace)
		fi
		# shellcheck disable=SC2086
		timeout 60 "$cc" -w -no-pie -fplugin="$so" -fplugin-arg-kplug-enable=sancov \
			-fplugin-arg-kplug-sancov-trace=$trace -fplugin-arg-kplug-sancov-map=on \
			-fplugin-arg-kplug-sancov-prune=$mode $args $opt "$f" "$rt" -lm \
			-o "$b" >"$b.err" 2>&1 || {
			[ $mode = off ] && { echo "dropped $n build"; return; }
			echo "ERROR $n $mode: build failed: $(head -3 "$b.err" | tr '\n' ' ')"
			return
		}
		(cd "$d" && KPLUG_COV_OUT=$b.hits KPLUG_TRACE_OUT=$b.hits timeout 10 "$b" \
			>/dev/null 2>&1 </dev/null)
		rc=$?
		if [ $rc -eq 3 ] && [ "$rt" = "$work.trt.o" ]; then
			echo "dropped $n trace"	# longer than the runtime's buffer
			return
		fi
		if [ $rc -ne 0 ]; then
			[ $mode = off ] && { echo "dropped $n run"; return; }
			echo "ERROR $n $mode: exit $rc"
			return
		fi
		"$REPORT" "${cover[@]}" "$b" "$b.hits" >"$b.lines" 2>"$b.rep" || {
			echo "ERROR $n $mode: kplug-report cover failed: $(head -2 "$b.rep" | tr '\n' ' ')"
			return
		}
		echo "probes $mode $(sed -n 's/.*functions, \([0-9]*\) probes.*/\1/p' "$b.rep")"
	done
	for mode in $MODES; do
		if cmp -s "$d/off.lines" "$d/$mode.lines"; then
			echo "match $mode"
		else
			echo "mismatch-$mode $n ($trace): $(diff "$d/off.lines" "$d/$mode.lines" |
				grep '^[<>]' | head -4 | tr '\n' ' ')"
		fi
	done
}

if [ "${1:-}" != "--batch" ]; then
	[ $# -ge 5 ] || { echo "usage: prune-exec.sh CC KPLUG_SO OPT WORKDIR FILE..." >&2; exit 2; }
	gcc -O2 -c "$SANCOV_DIR/prune-rt.c" -o "$4.rt.o" || exit 2
	gcc -O2 -c "$SANCOV_DIR/prune-trace-rt.c" -o "$4.trt.o" || exit 2
fi
. "$SANCOV_DIR/batch.sh"
batch_main prune-exec.sh 2 10 "$@"
cat "$work"/*/result | perl -e '
my (%n, %probes, @bad);
while (<STDIN>) {
	if (/^dropped/) { $n{dropped}++; next }
	if (/^probes (\S+) (\d+)/) { $probes{$1} += $2; next }
	if (/^match (\S+)/) { $n{"match-$1"}++; next }
	if (/^(mismatch-\S+)/) { $n{$1}++ } else { $n{error}++ }	# ERROR, or a line nobody expects
	push @bad, $_;
}
print for @bad[0 .. ($#bad < 29 ? $#bad : 29)];
my $cmp = ($n{"match-min"} // 0) + ($n{"mismatch-min"} // 0);
printf "programs %d dropped %d compared %d mismatch-clang %d mismatch-min %d errors %d\n",
	$cmp + ($n{dropped} // 0) + ($n{error} // 0), $n{dropped} // 0, $cmp,
	$n{"mismatch-clang"} // 0, $n{"mismatch-min"} // 0, $n{error} // 0;
printf "probes off %d clang %d min %d\n", map { $probes{$_} // 0 } qw(off clang min);
exit(($n{error} || $n{"mismatch-clang"} || $n{"mismatch-min"} || !$cmp) ? 1 : 0);
'
