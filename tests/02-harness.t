#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The harness itself (tests/harness.pl), on made-up test files: the closing
# counts per check, a skip that CI=true counts as a failure, a file that
# breaks its plan or dies, two files at a time, "# lock: NAME" files never
# side by side, "# runs alone" files with nothing beside them.  Each file
# writes when it starts and ends into one log; overlaps are read from it.
# A failed check is listed with its diagnostics.
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d "$OUT/harness.XXXXXX")
trap 'rm -rf "$T"' EXIT
LOG=$T/spans

# mk NAME MARKER BODY: a test file that logs its span around BODY
mk() {
	cat >"$T/$1.t" <<EOF
#!/bin/bash
$2
echo "start $1 \$(date +%s%N)" >>"$LOG"
$3
echo "end $1 \$(date +%s%N)" >>"$LOG"
EOF
}
plan1='echo 1..1; echo "ok 1 - fine"; sleep 1'
mk a '# lock: L' "$plan1"
mk b '' "$plan1"
mk c '# lock: L' "$plan1"
mk d '' "$plan1"
mk e '# runs alone' "$plan1"
mk skip '' 'echo 1..2; echo "ok 1 - fine"; echo "ok 2 # SKIP no reason at all"'
mk short '' 'echo 1..3; echo "ok 1 - fine"'
mk dies '' 'echo 1..1; echo "ok 1 - fine"; exit 3'
files() { printf "$T/%s.t " a e c b d skip short dies; }

# overlap X Y: 0 when the spans of X and Y in the log overlap
overlap() {
	awk -v x="$1" -v y="$2" '
		$1 == "start" { s[$2] = $3 } $1 == "end" { e[$2] = $3 }
		END { exit !(s[x] < e[y] && s[y] < e[x]) }' "$LOG"
}
# any_overlap X Y [X Y]...: 0 when the spans of some pair overlap, 1 when
# none does, overlap's error status when the log cannot be read.
any_overlap() {
	local rc
	while [ $# -ge 2 ]; do
		overlap "$1" "$2"
		rc=$?
		[ $rc -eq 1 ] || return $rc
		shift 2
	done
	return 1
}

out=$(env -u CI perl "$TOP/tests/harness.pl" --keep-env $(files) 2>&1); rc=$?
ok $((rc == 0)) "a failing file fails the run (exit $rc)"
is "$(grep -c '^start' "$LOG")/$(grep -c '^end' "$LOG")" 8/7 "every file ran (one of them dies early)"
is "$(echo "$out" | tail -1)" "8 passed, 2 failed, 1 skipped" "closing line counts checks"
check "a broken plan is a failure, named" grep -q "short.t: planned 3, ran 1" <<<"$out"
check "a non-zero exit is a failure, named" grep -q "dies.t: exit status 3" <<<"$out"
check "the skip is listed with its reason" grep -q "skip.t 2: no reason at all" <<<"$out"
check_exit 1 "files with the same lock never run side by side" overlap a c
n=0
for x in a b c d skip short dies; do
	overlap e $x && n=$((n + 1))
done
is "$n" 0 "a '# runs alone' file runs with nothing beside it"
# first_to_end X: 0 when X ended before every other file of the log started
first_to_end() {
	awk -v x="$1" '
		$1 == "start" && $2 != x { s[$2] = $3 } $1 == "end" && $2 == x { e = $3 }
		END { if (e == "") exit 2; for (f in s) if (s[f] < e) exit 1 }' "$LOG"
}
check "... and first, named second: the others may read what it built" first_to_end e
check "two files do run at a time" any_overlap a b a d b c c d b d
check "the table gives wall and CPU time per file" grep -qE '^  .*/b\.t +[0-9.]+s +[0-9.]+s$' <<<"$out"

: >"$LOG"
out=$(CI=true perl "$TOP/tests/harness.pl" --keep-env "$T/skip.t" 2>&1)
is "$(echo "$out" | tail -1)" "1 passed, 1 failed, 0 skipped" "CI=true: a skip counts as a failure"

: >"$LOG"
out=$(KPLUG_JOBS=1 perl "$TOP/tests/harness.pl" --keep-env "$T/a.t" "$T/b.t" "$T/d.t" 2>&1)
check_exit 1 "KPLUG_JOBS=1: one after the other" any_overlap a b b d a d
out=$(KPLUG_JOBS=x perl "$TOP/tests/harness.pl" --keep-env "$T/a.t" 2>&1); rc=$?
is "$rc/$out" "2/harness.pl: KPLUG_JOBS=x: give a whole number >= 1" "KPLUG_JOBS=x: one error line"
# A failed check is listed with the diagnostics around it: those since
# the check before it (at most 3) and those after it, no others.
cat >"$T/said.t" <<EOF
. "$TOP/tests/lib.sh"
diag 'before one'
ok 0 one
diag 'before two a' 'before two b' 'before two c' 'before two d'
is got expected two
diag 'after two'
ok 0 three
diag 'after three'
done_testing
EOF
out=$(perl "$TOP/tests/harness.pl" --keep-env "$T/said.t" 2>/dev/null)
is "$(echo "$out" | sed -n '/said\.t 2 - two$/,/^$/p' | sed '1d;$d' | paste -sd'|')" \
	"$(printf '      # %s|' 'before two b' 'before two c' 'before two d' 'got:      got' \
		'expected: expected' 'after two' | sed 's/|$//')" \
	"a failed check is listed with the diagnostics around it"

# ok and is return the check's result (in a subshell: its counts stay there).
is "$( (ok 0 x; echo "rc=$?"; ok 1 y; echo "rc=$?"; is a a z; echo "rc=$?"; is a b w; echo "rc=$?") 2>/dev/null |
	grep '^rc=' | paste -sd' ')" "rc=0 rc=1 rc=0 rc=1" "ok and is return 0 on a pass and 1 on a failure"
# check and check_exit: the command is an argument; its redirections
# apply to it alone, never to the verdict; a command that cannot run or
# exits otherwise than wanted fails the check; the command does not
# hold the test's output (a daemon would keep the harness waiting).
cat >"$T/check.t" <<'EOF'
. "$TOP/tests/lib.sh"
check "true passes" true
check "the verdict is not redirected" echo to-file >"$T/check.out"
check_exit 1 "grep finds nothing" grep -q nothing /dev/null
check "false fails" false
check_exit 1 "a missing file is no match" grep -q nothing "$T/no-such-file"
check_exit 1 "a missing command is no failure" kplug-no-such-command
check "the command holds no copy of the test's output" sh -c "test ! -e /proc/\$\$/fd/$TAP_OUT"
done_testing
EOF
out=$(T=$T TOP=$TOP KPLUG_VERBOSE=1 perl "$TOP/tests/harness.pl" --keep-env "$T/check.t" 2>/dev/null)
is "$(echo "$out" | sed -n 's/^  \(\(not \)\?ok [0-9]*\) - .*/\1/p' | paste -sd,)" \
	"ok 1,ok 2,ok 3,not ok 4,not ok 5,not ok 6,ok 7" \
	"check and check_exit: 4 passes; exit status 1, 2 and 127 fail where 0 or 1 is wanted"
is "$(cat "$T/check.out" 2>&1)" "to-file" "check's redirection took the command's output, not the verdict"
out=$(T=$T TOP=$TOP perl "$TOP/tests/harness.pl" --keep-env "$T/check.t" 2>&1)
is "$(sed -n '/check\.t 5 - /,/check\.t 6 - /p' <<<"$out" | grep -c "# exit status 2 (wanted 1): grep -q nothing $T/no-such-file$")" 1 \
	"a failed check names the exit status and the command"

# A check in a subshell writes where ok does, to the subshell's output,
# for its caller to read (58's self-check reads a function's checks).
inner=$(check "inner check" true; check "inner failure" false 2>/dev/null)
is "$(sed 's/^\(\(not \)\?ok\) [0-9]* - /\1 /' <<<"$inner" | paste -sd,)" "ok inner check,not ok inner failure" \
	"a check in \$(...) is read by its caller, not written to the test's output"

# No test passes "$?" to ok ("cond; ok $? ..." breaks silently when a
# line comes between the two): the suite uses check and check_exit.
# ok_status_uses FILE...: prints each such line, fails when there is one.
ok_status_uses() {
	awk '/^[[:space:]]*#/ { next }
	     /(^|[;&|[:space:]])ok "?\$\?/ { print FILENAME ":" FNR ": " $0; n++ }
	     END { exit n > 0 }' "$@"
}
suite=("$TOP"/tests/*.t "$TOP"/tests/*.sh "$TOP"/tests/*/*.sh)
check "no test of the suite's ${#suite[@]} files passes \$? to ok" ok_status_uses "${suite[@]}" >&2
printf 'true\nfalse; ok $%s "x"\n' '?' >"$T/uses.t"
check_exit 1 "... and a file that does is named" ok_status_uses "$T/uses.t" >"$T/uses.out"
is "$(cat "$T/uses.out")" "$T/uses.t:2: false; ok \$? \"x\"" "... with its line"

# A "# long" file starts first, however late it is named.
: >"$LOG"
mk l1 '' "$plan1"
mk l2 '' "$plan1"
mk l3 '' "$plan1"
mk long '# long' "$plan1"
perl "$TOP/tests/harness.pl" --keep-env "$T/l1.t" "$T/l2.t" "$T/l3.t" "$T/long.t" >/dev/null 2>&1
is "$(awk '$1 == "start" { print $2 }' "$LOG" | head -2 | grep -c '^long$')" 1 \
	"a '# long' file is among the first two to start, though named last"

# kplug_so_for builds one compiler's plugin once at a time: two test files
# that run side by side may both ask for it (a make on PATH logs its span).
mkdir -p "$T/bin"
cat >"$T/bin/make" <<EOF
#!/bin/sh
echo "start \$\$ \$(date +%s%N)" >>"$T/makes"
sleep 1
echo "end \$\$ \$(date +%s%N)" >>"$T/makes"
EOF
chmod +x "$T/bin/make"
(PATH=$T/bin:$PATH; kplug_so_for kplug-harness-cc >/dev/null & kplug_so_for kplug-harness-cc >/dev/null; wait)
is "$(awk '$1 == "start" { n++; if (open) bad = 1; open = 1 } $1 == "end" { open = 0 }
	END { print n, bad + 0 }' "$T/makes")" "2 0" "two builds of one compiler's plugin never overlap"

# The harness builds the plugins of per-compiler files two at a time
# (each make is serial), before any file runs.
: >"$T/makes"
mk cc '# per-compiler' "$plan1"
PATH=$T/bin:$PATH KPLUG_COMPILERS="kplug-harness-a kplug-harness-b kplug-harness-c" \
	perl "$TOP/tests/harness.pl" --keep-env "$T/cc.t" >/dev/null 2>&1
is "$(awk '$1 == "start" { n++; if (open) both = 1; open++ } $1 == "end" { open-- }
	END { print n, both + 0 }' "$T/makes")" "3 1" "the harness builds three compilers' plugins, two at a time"
done_testing
