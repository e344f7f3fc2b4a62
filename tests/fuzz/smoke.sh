# SPDX-License-Identifier: GPL-2.0
# One seeded short libFuzzer run, shared by 61-fuzz.t and 64-fuzz-report.t
# (source after tests/lib.sh):
#	fuzz_smoke HARNESS RUNS [LIBFUZZER OPTION...]
# runs tests/fuzz/HARNESS on its corpus (tests/fuzz/corpus/NAME without the
# fuzz_ prefix) and checks: exit 0, runs counted, no crash or leak file.

# fuzz_run_clean RC EXECS SCRATCH: the run exited 0, counted its runs and
# left no crash or leak file in SCRATCH
fuzz_run_clean() {
	[ "$1" -eq 0 ] && [ -n "$2" ] && ! ls "$3"/crash-* "$3"/leak-* >/dev/null 2>&1
}

fuzz_smoke() {
	local h=$1 n=$2 F=$TOP/tests/fuzz corpus scratch start rc secs execs cov
	shift 2
	corpus=$F/corpus/${h#fuzz_}
	scratch=$OUT/fuzz-smoke/$h
	rm -rf "$scratch"
	mkdir -p "$scratch"
	start=$(date +%s)
	(cd "$scratch" && nice "$F/$h" -runs="$n" -seed=1 -max_total_time=120 \
		-detect_leaks=1 -print_final_stats=1 "$@" -artifact_prefix="$scratch/" \
		"$scratch" "$corpus" >"$scratch.log" 2>&1)
	rc=$?
	secs=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch.log")
	cov=$(grep -o 'cov: [0-9]*' "$scratch.log" | tail -1)
	check "$h: $execs runs (seed 1, $(ls "$corpus" | wc -l) seeds), $cov, no crash, no leak (${secs}s)" \
		fuzz_run_clean "$rc" "$execs" "$scratch"
	[ $rc -eq 0 ] || grep -E 'ERROR|SUMMARY|runtime error|==[0-9]+==' "$scratch.log" | head -10 |
		while read -r l; do diag "$l"; done
}
