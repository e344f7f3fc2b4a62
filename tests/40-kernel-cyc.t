# cyc_complexity equals the 2016 plugin, line for line, on every translation
# unit of a Linux 6.1 x86_64 tinyconfig build.  Both plugins run in the same
# cc1 processes (kt_seed_build, shared with 43-report-kernel.t): the seed
# prints to stderr, kplug appends JSON Lines to one report file, whose
# records are written back as the 2016 text lines here.  (The text writer
# itself is checked line for line on the fixtures in 20-plugin.t and on
# kbuild's report in 51-kernel-build.t.)
# runs alone
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/kernel/lib-kernel.sh"
if quick; then skip "KPLUG_QUICK: kernel build skipped"; done_testing; fi
need_seeds || done_testing

check "6.1 x86_64 tinyconfig with the 2016 plugin and kplug" kt_seed_build
T=$OUT/kernel-cyc-6.1
rm -rf "$T" && mkdir -p "$T"
grep -a '^Cyclomatic Complexity ' "$SEED_B/stderr" | LC_ALL=C sort > "$T/seed.sorted"
check "every kplug record read back (none torn by the parallel build)" python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print("Cyclomatic Complexity %d %s:%s" % (r["M"], r["file"], r["function"]))
' <"$SEED_B/report.jsonl" >"$T/kplug.txt"
LC_ALL=C sort "$T/kplug.txt" > "$T/kplug.sorted"
n_seed=$(wc -l < "$T/seed.sorted")
n_kplug=$(wc -l < "$T/kplug.sorted")
diag "2016 plugin: $n_seed lines, kplug: $n_kplug records"
check "the 2016 plugin reported $n_seed functions (expected about 28,000)" test "$n_seed" -ge 20000
is "$n_kplug" "$n_seed" "kplug reports as many functions"
same_nonempty "$T/seed.sorted" "$T/kplug.sorted" "every line equal"
done_testing
