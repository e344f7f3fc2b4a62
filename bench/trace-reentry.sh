#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What "kplug-report cover --trace" makes of a case the trace model does
# not model: a function re-entered from inside itself at a point that is
# no call (a kernel exception whose handler runs the interrupted function
# again).  Two small functions, f(a) for a = 0..7, built with min for
# traces (and unpruned, whose plain cover of f(a) and f(b) is the truth);
# for every a, b and every position i in f(a)'s trace, the trace of f(b)
# is put after f(a)'s i-th hit, and cover --trace on it either prints the
# true lines (same), refuses it (exit 2: no path gives those hits in that
# order), or prints other lines (misread).
# Prints "FUNCTION LEVEL: same N refused N misread N" per case; exit 1
# when a trace is misread.
# Usage: bench/trace-reentry.sh   (KPLUG_SO_PATH=... to use a built plugin;
# KPLUG_BENCH_ARGS=... adds arguments to the pruned compiles, e.g.
# -fplugin-arg-kplug-sancov-prune-check=off, which must give misreads)
. "$(dirname "$0")/lib.sh"
W=$(mktemp -d "$OUT/bench-reentry.XXXXXX")
trap 'rm -rf "$W"' EXIT
[ -n "${KPLUG_SO_PATH:-}" ] || KPLUG=$(kplug_so_for "$KCC") || exit 2
make -s -C "$TOP" tools >&2 || exit 2
R=$TOP/tools/kplug-report
PRUNE=-fplugin-arg-kplug-sancov-prune
SAN="-fplugin-arg-kplug-enable=sancov -fplugin-arg-kplug-sancov-map=on"
EXTRA=${KPLUG_BENCH_ARGS:-}

cat >"$W/diamonds.c" <<'C'
volatile int v[8];
__attribute__((noinline)) int f(int a)
{
	if (a & 1)
		v[0] = 1;
	else
		v[1] = 2;
	if (a & 2)
		v[2] = 3;
	else
		v[3] = 4;
	if (a & 4)
		v[4] = 5;
	else
		v[5] = 6;
	return v[3];
}
C
cat >"$W/loop.c" <<'C'
volatile int v[8];
__attribute__((noinline)) int f(int a)
{
	int i, s = 0;

	if (a == 5)
		return v[7];
	for (i = 0; i < (a & 3); i++) {
		if ((a >> i) & 1)
			s += v[0];
		else
			s -= v[1];
	}
	if (a & 4)
		v[4] = s;
	else
		v[5] = s;
	return v[3];
}
C
# main runs f(a), a = the length of its argument - 1
printf 'int f(int);\nint main(int c, char **v) { return f(__builtin_strlen(v[1]) - 1) == 12345; }\n' >"$W/main.c"
"$KCC" -O2 -c "$TOP/tests/sancov/prune-rt.c" -o "$W/rt.o" &&
	"$KCC" -O2 -c "$TOP/tests/sancov/prune-trace-rt.c" -o "$W/trt.o" &&
	"$KCC" -O2 -c "$W/main.c" -o "$W/main.o" || exit 2

# arg A: a string of length A + 1
arg() { printf "%0$(($1 + 1))d" 0; }
misread=0
for fn in diamonds loop; do
	for o in -O0 -O1 -O2; do
		b=$W/$fn$o
		"$KCC" $o -no-pie -fplugin="$KPLUG" $SAN "$W/$fn.c" "$W/main.o" "$W/rt.o" -o "$b-off" &&
			"$KCC" $o -no-pie -fplugin="$KPLUG" $SAN $PRUNE=min $PRUNE-observe=trace $EXTRA \
				"$W/$fn.c" "$W/main.o" "$W/trt.o" -o "$b-min" || exit 2
		for a in 0 1 2 3 4 5 6 7; do
			KPLUG_COV_OUT=$b-off-$a.hits "$b-off" "$(arg $a)"
			KPLUG_TRACE_OUT=$b-min-$a.trace "$b-min" "$(arg $a)"
		done
		same=0 refused=0 other=0
		for a in 0 1 2 3 4 5 6 7; do
			for c in 0 1 2 3 4 5 6 7; do
				cat "$b-off-$a.hits" "$b-off-$c.hits" >"$W/both.hits"
				"$R" cover "$b-off" "$W/both.hits" 2>/dev/null | sort >"$W/truth" || exit 2
				n=$(wc -l <"$b-min-$a.trace")
				for i in $(seq 0 "$n"); do
					{ head -n "$i" "$b-min-$a.trace"; cat "$b-min-$c.trace"
					  tail -n +$((i + 1)) "$b-min-$a.trace"; } >"$W/mixed"
					"$R" cover --trace "$b-min" "$W/mixed" >"$W/got" 2>"$W/err"
					case $? in
					0)	if sort "$W/got" | cmp -s - "$W/truth"; then
							same=$((same + 1))
						else
							other=$((other + 1))
						fi ;;
					2)	refused=$((refused + 1)) ;;
					*)	cat "$W/err" >&2; exit 2 ;;
					esac
				done
			done
		done
		echo "$fn $o: same $same refused $refused misread $other"
		misread=$((misread + other))
	done
done
[ "$misread" -eq 0 ]
