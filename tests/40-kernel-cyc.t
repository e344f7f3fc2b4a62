# cyc_complexity equals the 2016 plugin, line for line, on every translation
# unit of a Linux 6.1 x86_64 tinyconfig build.  Both plugins run in the same
# cc1 processes: the seed prints to stderr, kplug appends to a report file.
. "$(dirname "$0")/lib.sh"
if quick; then plan 1; skip "KPLUG_QUICK: kernel build skipped"; exit 0; fi
src=$(kernel_tree 6.1) || { plan 1; echo "not ok 1 - extract linux-source-6.1"; exit 1; }
seed=$(seed_cyc_plugin gcc) || { plan 1; echo "not ok 1 - build the 2016 plugin from $SEEDS/004-*.patch"; exit 1; }
T=$OUT/kernel-cyc-6.1
rm -rf "$T" && mkdir -p "$T/obj"
report=$T/kplug.txt

make -s -C "$src" O="$T/obj" ARCH=x86_64 tinyconfig >/dev/null 2>&1
ok $? "6.1 x86_64 tinyconfig"
start=$(date +%s)
nice make -s -C "$src" O="$T/obj" ARCH=x86_64 -j"$(nproc)" \
	KCFLAGS="-fplugin=$seed -fplugin=$KPLUG -fplugin-arg-kplug-enable=cyc_complexity -fplugin-arg-kplug-cyc_complexity-output=$report" \
	>"$T/stdout" 2>"$T/stderr"
ok $? "kernel builds with both plugins ($(( $(date +%s) - start )) s)"
grep -a '^Cyclomatic Complexity ' "$T/stderr" | LC_ALL=C sort > "$T/seed.sorted"
LC_ALL=C sort "$report" > "$T/kplug.sorted"
n_seed=$(wc -l < "$T/seed.sorted")
n_kplug=$(wc -l < "$T/kplug.sorted")
diag "2016 plugin: $n_seed lines, kplug: $n_kplug lines"
[ "$n_seed" -ge 20000 ]; ok $? "the 2016 plugin reported $n_seed functions (expected about 28,000)"
is "$n_kplug" "$n_seed" "kplug reports as many lines"
cmp -s "$T/seed.sorted" "$T/kplug.sorted"; same=$?
ok $same "every line equal"
[ $same -eq 0 ] || diff "$T/seed.sorted" "$T/kplug.sorted" | head -20 | while read -r l; do diag "$l"; done
is "$(grep -avc '^Cyclomatic Complexity [0-9]* [^ :]*:[A-Za-z0-9_.]*$' "$report")" 0 \
	"every report line is whole (parallel compiles never interleave)"
# 43-report-kernel.t checks its parallel JSON report against this verified one.
[ $same -eq 0 ] && [ "$n_seed" -ge 20000 ] && echo "$src" > "$T/verified-src-root"
n_obj=$(find "$T/obj" -name '*.o.cmd' | wc -l)
diag "$n_obj objects built"
rm -rf "$T/obj"
done_testing
