#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# GCC's C torture suite (gcc.c-torture/{compile,execute}, GCC 12.2) compiled
# with every kplug pass enabled, at -O0, -O1, -O2, -Os, -O3 and once more
# with -O2 -g -fcompare-debug.  Fails on any internal compiler error, on any
# -fcompare-debug failure that native GCC does not share, and on any file
# that native GCC compiles but kplug does not.  A file where kplug hits the
# timeout and native GCC needs half of it too is reported as SLOW only; an
# ICE that native GCC has as well (a GCC 11 bug fixed in 12) as NATIVE-ICE.
#
#   tests/torture.sh [--cc GCC] [--plugin KPLUG.SO] [--sample N] [--seed S]
#                    [--jobs J] [--levels "0 1 2 s 3 g"] [--timeout SEC]
#                    [--args "KPLUG ARGS"]
#
# --sample N takes N files per level (0: every file), from a seeded shuffle
# of the whole suite: level i gets the files i*N .. (i+1)*N-1 (wrapping), so
# the levels together cover min(total, 6*N) distinct files.  Level "g" is
# -O2 -g -fcompare-debug.  --args adds kplug arguments after the ones the
# script picks (every pass, sancov-trace=pc,cmp), e.g. --args
# "-fplugin-arg-kplug-sancov-trace=pc-guard,cmp -fplugin-arg-kplug-sancov-pc-table=on"
# (a later argument overrides an earlier one).  Results:
# $OUT/torture/<gcc>/results.
. "$(dirname "$0")/lib.sh"

cc=gcc
plugin=$KPLUG
sample=0
seed=1
jobs=2
levels="0 1 2 s 3 g"
tmo=300
extra=

# ---- worker: torture.sh --worker CC PLUGIN TMO "ARGS" LEVEL:FILE... ----
classify_ice() {	# rc stderr-file
	[ "$1" -ge 128 ] || [ "$1" -eq 4 ] ||
		grep -qE 'internal compiler error|there are active plugins|killed by signal|Segmentation fault' "$2"
}

level_flags() {
	case $1 in
	g) echo "-O2 -g -fcompare-debug" ;;
	*) echo "-O$1" ;;
	esac
}

# GCC 14 made implicit declarations, implicit int and pointer mismatches
# errors; the torture files are old C, which -fpermissive accepts again
# (as GCC 14's own testsuite does for them).
permissive() {
	local major
	major=$("$1" -dumpversion 2>/dev/null | cut -d. -f1)
	[ "${major:-0}" -lt 14 ] || echo -fpermissive
}

worker() {
	local cc=$1 plugin=$2 tmo=$3 args=$4 job lvl file flags rc nrc d t0 nms perm
	shift 4
	d=$(mktemp -d "${TMPDIR:-/tmp}/kplug-torture.XXXXXX") || exit 2
	perm=$(permissive "$cc")
	for job; do
		lvl=${job%%:*}
		file=${job#*:}
		flags="$(level_flags "$lvl") $perm"
		# bash's own "Segmentation fault" notice goes to /dev/null
		# shellcheck disable=SC2086
		{ timeout "$tmo" "$cc" -w $flags -fplugin="$plugin" $args \
			-S -o "$d/k.s" "$file" >"$d/k.err" 2>&1; } 2>/dev/null
		rc=$?
		if [ $rc -eq 0 ]; then
			echo "OK $lvl $file"
			continue
		fi
		# kplug failed: does native GCC fail the same way?
		# in milliseconds: whole seconds from date +%s made a 10 ms
		# native compile that crossed a second boundary "1 s", half of
		# a 2 s budget, and a kplug-only timeout passed as SLOW
		t0=${EPOCHREALTIME//[!0-9]/}	# the radix is the locale's
		# shellcheck disable=SC2086
		{ timeout "$tmo" "$cc" -w $flags -S -o "$d/n.s" "$file" >"$d/n.err" 2>&1; } 2>/dev/null
		nrc=$?
		nms=$(((${EPOCHREALTIME//[!0-9]/} - t0) / 1000))
		if classify_ice $rc "$d/k.err"; then
			if [ $nrc -ne 0 ] && classify_ice $nrc "$d/n.err"; then
				echo "NATIVE-ICE $lvl $file: $(grep -m1 'internal compiler error' "$d/n.err")"
			else
				echo "ICE $lvl $file rc=$rc: $(grep -m1 -E 'internal compiler error|active plugins|signal|Segmentation' "$d/k.err")"
			fi
		elif [ $rc -eq 124 ] && [ $((nms * 2)) -ge $((tmo * 1000)) ]; then
			# native needs half the budget too: a slow file, not ours
			echo "SLOW $lvl $file: kplug over ${tmo}s, native ${nms} ms (rc $nrc)"
		elif grep -q 'fcompare-debug failure' "$d/k.err"; then
			if grep -q 'fcompare-debug failure' "$d/n.err"; then
				echo "NATIVE-CMPDBG $lvl $file"
			else
				echo "CMPDBG $lvl $file: $(grep -m1 'fcompare-debug' "$d/k.err")"
			fi
		elif [ $nrc -eq 0 ]; then
			echo "FAIL $lvl $file rc=$rc: $(grep -m1 -E 'error|Killed|Terminated' "$d/k.err" || echo "exit $rc")"
		else
			echo "NATIVE-FAIL $lvl $file"
		fi
	done
	rm -rf "$d"
}

if [ "${1:-}" = --worker ]; then
	shift
	worker "$@"
	exit 0
fi

while [ $# -gt 0 ]; do
	case $1 in
	--cc) cc=$2; shift ;;
	--plugin) plugin=$2; shift ;;
	--sample) sample=$2; shift ;;
	--seed) seed=$2; shift ;;
	--jobs) jobs=$2; shift ;;
	--levels) levels=$2; shift ;;
	--timeout) tmo=$2; shift ;;
	--args) extra=$2; shift ;;
	*) echo "usage: $0 [--cc GCC] [--plugin SO] [--sample N] [--seed S] [--jobs J] [--levels L] [--timeout SEC] [--args ARGS]" >&2
	   exit 2 ;;
	esac
	shift
done

case $tmo in ''|*[!0-9]*|0) echo "torture: --timeout '$tmo': a whole number of seconds, at least 1" >&2; exit 2 ;; esac
command -v "$cc" >/dev/null || { echo "torture: $cc not found" >&2; exit 2; }
[ -f "$plugin" ] || { echo "torture: $plugin not found (build it first)" >&2; exit 2; }
plugin=$(cd "$(dirname "$plugin")" && pwd)/$(basename "$plugin")
src=$(gcc_source) || { echo "torture: cannot extract GCC sources" >&2; exit 2; }

res=$OUT/torture/$(basename "$cc")
mkdir -p "$res/plugin"
# A private copy: a rebuild of kplug.so during the run must not be loaded
# half-written ("file too short").
cp "$plugin" "$res/plugin/kplug.so" || exit 2
plugin=$res/plugin/kplug.so

# Every pass the plugin knows, learnt from its own error message, plus the
# settings that make each pass do the most work.
probe() { "$cc" -fplugin="$plugin" "$@" -x c -S -o /dev/null /dev/null 2>&1; }
known=$(probe -fplugin-arg-kplug-enable=. | sed -n "s/.*unknown pass '.' (known: \(.*\))$/\1/p")
[ -n "$known" ] || { echo "torture: cannot list kplug's passes: $(probe -fplugin-arg-kplug-enable=.)" >&2; exit 2; }
args="-fplugin-arg-kplug-enable=all"
for want in cyc_complexity-output=/dev/null sancov-trace=pc,cmp; do
	case ", $known," in *", ${want%%-*},"*) ;; *) continue ;; esac
	msg=$(probe $args "-fplugin-arg-kplug-$want")
	if [ -z "$msg" ]; then
		args="$args -fplugin-arg-kplug-$want"
	else
		echo "torture: not using $want: $msg" >&2
	fi
done
[ -n "$extra" ] && args="$args $extra"
msg=$(probe $args)
[ -z "$msg" ] || { echo "torture: kplug refuses $args: $msg" >&2; exit 2; }

find "$src/gcc/testsuite/gcc.c-torture/compile" "$src/gcc/testsuite/gcc.c-torture/execute" \
	-maxdepth 1 -name '*.c' | sort >"$res/all"
total=$(wc -l <"$res/all")
awk -v s="$seed" 'BEGIN { srand(s) } { printf "%.12f\t%s\n", rand(), $0 }' "$res/all" |
	sort -k1,1 | cut -f2- >"$res/shuffled"
[ "$sample" -gt 0 ] && [ "$sample" -lt "$total" ] || sample=$total

: >"$res/jobs"
i=0
for lvl in $levels; do
	awk -v n="$sample" -v t="$total" -v s=$((i * sample)) -v l="$lvl" \
		'{ f[NR - 1] = $0 } END { for (k = 0; k < n; k++) print l ":" f[(s + k) % t] }' \
		"$res/shuffled" >>"$res/jobs"
	i=$((i + 1))
done
njobs=$(wc -l <"$res/jobs")
nfiles=$(cut -d: -f2- "$res/jobs" | sort -u | wc -l)
echo "torture: $("$cc" --version | head -1), kplug passes: ${known#all, }"
echo "torture: $njobs compiles of $nfiles distinct files (of $total), $sample per level," \
	"levels: $levels, seed $seed, $jobs jobs"
echo "torture: plugin arguments: $args"

start=$(date +%s)
xargs -P "$jobs" -n 25 bash "$0" --worker "$cc" "$plugin" "$tmo" "$args" \
	<"$res/jobs" >"$res/results"
secs=$(($(date +%s) - start))

count() { grep -c "^$1 " "$res/results"; }
n_ok=$(count OK) n_ice=$(count ICE) n_cmp=$(count CMPDBG) n_fail=$(count FAIL)
n_nfail=$(count NATIVE-FAIL) n_ncmp=$(count NATIVE-CMPDBG) n_slow=$(count SLOW) n_nice=$(count NATIVE-ICE)
done_n=$(wc -l <"$res/results")
for lvl in $levels; do
	printf 'torture: -%-3s %5d compiled, %d ICE, %d kplug-only failures\n' \
		"$(level_flags "$lvl" | sed 's/^-//')" \
		"$(grep -c "^OK $lvl " "$res/results")" \
		"$(grep -c "^ICE $lvl " "$res/results")" \
		"$(grep -c "^FAIL $lvl " "$res/results")"
done
grep -E '^(ICE|CMPDBG|FAIL|SLOW|NATIVE-ICE) ' "$res/results" | head -20 | sed 's/^/torture: /'
echo "torture: $done_n/$njobs compiles in ${secs}s: $n_ok ok, $n_ice ICE," \
	"$n_cmp compare-debug failures, $n_fail kplug-only failures," \
	"$n_nfail native failures, $n_nice native ICEs, $n_ncmp native compare-debug failures," \
	"$n_slow too slow natively as well (timeout ${tmo}s)"
[ "$done_n" -eq "$njobs" ] && [ $((n_ice + n_cmp + n_fail)) -eq 0 ]
