# Complexity reporting on a real kernel: the Linux 6.1 x86_64 tinyconfig
# build that 40-kernel-cyc.t checks against the 2016 plugin (kt_seed_build:
# both plugins in the same cc1 processes, make -j2, kplug writing ONE JSON
# Lines report), then kplug-report on it.
#
# Integrity of the parallel report: nothing is lost or torn when the -j2
# report has exactly the multiset of (file, function, M) of the 2016
# plugin's lines from the same compiles, and every line of it parses.
# One core, on what 40-kernel-cyc.t built (a "# runs alone" file, which the
# harness runs first): beside other files, never beside another kernel
# test reading those builds.
# lock: kernel-builds
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/kernel/lib-kernel.sh"
if quick; then skip "KPLUG_QUICK: kernel build skipped"; done_testing; fi
need_seeds || done_testing
T=$OUT/report-kernel
R=$TOP/tools/kplug-report
rm -rf "$T" && mkdir -p "$T"
[ -x "$R" ] || make -s -C "$TOP" tools/kplug-report

check "6.1 x86_64 tinyconfig with the 2016 plugin and kplug" kt_seed_build
cp "$SEED_B/report.jsonl" "$T/report.jsonl"
grep -a '^Cyclomatic Complexity ' "$SEED_B/stderr" >"$T/report.txt"
# nonempty FILE...: every FILE is there with something in it
nonempty() { local f; for f; do [ -s "$f" ] || return 1; done; }
check "the -j2 JSON Lines report and the 2016 plugin's lines are there" nonempty "$T/report.jsonl" "$T/report.txt"

# Every line parses, has the fields, and its parts sum to M.
python3 - "$T/report.jsonl" "$T/report.txt" > "$T/check.out" 2>&1 <<'EOF'
import collections, json, sys
bad = 0
recs = collections.Counter()
need = {"file", "line", "function", "M", "parts", "macros", "inline_header", "tu", "run", "gcc", "opt"}
for n, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    try:
        r = json.loads(line)
        assert line.endswith("\n") and need <= set(r), "fields"
        assert sum(r["parts"].values()) == r["M"], "parts"
        assert sum(r["macros"].values()) == r["parts"]["macro"], "macros"
        recs[(r["file"], r["function"], r["M"])] += 1
    except Exception as e:
        bad += 1
        print("bad line %d: %s" % (n, e))
text = collections.Counter()
for line in open(sys.argv[2], encoding="utf-8"):
    _, _, m, loc = line.rstrip("\n").split(" ", 3)
    f, fn = loc.rsplit(":", 1)
    text[(f, fn, int(m))] += 1
print("records", sum(recs.values()), "bad", bad, "text", sum(text.values()),
      "missing", sum((text - recs).values()), "extra", sum((recs - text).values()))
EOF
read -r _ nrec _ nbad _ ntext _ nmiss _ nextra < <(tail -1 "$T/check.out")
diag "$(tail -1 "$T/check.out")"
ok $((nrec < 10000)) "the -j2 report has $nrec records"
is "$nbad" 0 "every line of the -j2 report parses, with parts summing to M"
is "$nrec" "$ntext" "records equal the 2016 plugin's lines of the same compiles"
is "$nmiss/$nextra" "0/0" "same (file, function, M) multiset as the 2016 plugin"
is "$(grep -c '"inline_header":true' "$T/report.jsonl" | awk '{print ($1 > 0)}')" 1 \
	"header inlines are flagged"

# kplug-report on the real report
check "kplug-report top -n 10" "$R" top -n 10 "$T/report.jsonl" > "$T/top10" 2>"$T/top10.err"
is "$(wc -l < "$T/top10")" 11 "top-10: a header and ten rows"
diag "$(cat "$T/top10")" "$(cat "$T/top10.err")"
nfun=$(sed -n 's/.* \([0-9]*\) functions after de-duplication.*/\1/p' "$T/top10.err")
ok $((nfun >= nrec || nfun == 0)) "de-duplication: $nfun functions from $nrec records"
check_exit 1 "sarif --threshold 20: gate breached (exit 1)" "$R" sarif --threshold 20 --root "$SEED_SRC" "$T/report.jsonl" > "$T/report.sarif" 2>/dev/null
check "SARIF 2.1.0: required properties, rules, locations, fingerprints" python3 - "$T/report.sarif" > "$T/sarif.out" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == "2.1.0" and d["$schema"].endswith("/sarif-schema-2.1.0.json")
run, = d["runs"]
drv = run["tool"]["driver"]
assert drv["name"] and drv["version"]
ids = [r["id"] for r in drv["rules"]]
assert len(ids) == len(set(ids)) and all(r["shortDescription"]["text"] for r in drv["rules"])
fps = set()
for res in run["results"]:
    assert res["ruleId"] in ids and ids[res["ruleIndex"]] == res["ruleId"]
    assert res["level"] in ("none", "note", "warning", "error") and res["message"]["text"]
    loc, = res["locations"]
    pl = loc["physicalLocation"]
    assert pl["artifactLocation"]["uri"] and not pl["artifactLocation"]["uri"].startswith("/")
    assert pl["region"]["startLine"] >= 1
    assert loc["logicalLocations"][0]["kind"] == "function"
    fp = res["partialFingerprints"]["kplugFunction/v1"]
    assert len(fp) == 16
    fps.add(fp)
    assert res["properties"]["M"] >= 20
print("results", len(run["results"]), "fingerprints", len(fps))
EOF
diag "$(tail -3 "$T/sarif.out")"

# Baseline diff after changing one kernel function: lib/cmdline.c's
# get_option() gains two decisions; a comment shifts every line of the file.
# The changed copy is compiled with the object's own command line from its
# .cmd file (the shared build and tree stay as they are), and its records
# are given the original file name back.
mkdir -p "$T/src/lib"
f=$T/src/lib/cmdline.c
sed -e '1i /* kplug-report test: every line moves down */' \
	-e "s/^\tif (\*\*str == '-')$/\tif (**str == ';')\n\t\treturn 4;\n\tif (**str == ':')\n\t\treturn 5;\n&/" \
	"$SEED_SRC/lib/cmdline.c" >"$f"
is "$(diff "$SEED_SRC/lib/cmdline.c" "$f" | grep -c '^>')" 5 "lib/cmdline.c copy: a comment and four lines added"
cmd=$(sed -n '1s/^[a-z_]*cmd_lib\/cmdline\.o := //p' "$SEED_B/obj/lib/.cmdline.o.cmd")
check "the recorded command line of lib/cmdline.o" grep -q -- "-fplugin-arg-kplug-cyc_complexity-output=$SEED_B/report.jsonl .*$SEED_SRC/lib/cmdline.c" <<<"$cmd"
cmd=${cmd//"$SEED_B/report.jsonl"/"$T/rebuild.raw"}
cmd=${cmd//"$SEED_SRC/lib/cmdline.c"/"$f"}
cmd=${cmd//" -o lib/cmdline.o "/" -o $T/cmdline.o "}
cmd=${cmd//"-Wp,-MMD,lib/.cmdline.o.d"/"-Wp,-MMD,$T/cmdline.o.d"}
# cmdline_rebuilt: $cmd, run where kbuild ran it, wrote $T/cmdline.o
cmdline_rebuilt() { (cd "$SEED_B/obj" && eval "$cmd") >"$T/build3.log" 2>&1 && [ -s "$T/cmdline.o" ]; }
check "the changed lib/cmdline.c compiled with its kernel command line" cmdline_rebuilt
sed "s#$T/src/#$SEED_SRC/#g" "$T/rebuild.raw" >"$T/rebuild.jsonl"
tu="\"tu\":\"$SEED_SRC/lib/cmdline.c\""	# not arch/x86/lib/cmdline.c
check "the build reported $(grep -c "$tu" "$T/report.jsonl") functions of lib/cmdline.c" \
	test "$(grep -c "$tu" "$T/report.jsonl")" -gt 3
is "$(grep -c "$tu" "$T/rebuild.jsonl")" "$(grep -c "$tu" "$T/report.jsonl")" \
	"the rebuild reported as many functions for lib/cmdline.c"
cat "$T/report.jsonl" "$T/rebuild.jsonl" > "$T/new.jsonl"
check "diff BASE NEW without a gate: exit 0" "$R" diff "$T/report.jsonl" "$T/new.jsonl" > "$T/diff" 2>&1
diag "$(cat "$T/diff")"
is "$(grep -c '^grown' "$T/diff")" 1 "one grown function"
is "$(awk '$1 == "grown" { print $NF, $4 }' "$T/diff")" "get_option +2" "get_option grew by 2"
is "$(grep -c '^new' "$T/diff")" 0 "no new function"
newm=$(awk '$1 == "grown" { print $3 }' "$T/diff")
check_exit 1 "diff --threshold $newm: gate breached" "$R" diff --threshold "$newm" "$T/report.jsonl" "$T/new.jsonl" >/dev/null 2>&1
check_exit 0 "diff --threshold 1000: fine" "$R" diff --threshold 1000 "$T/report.jsonl" "$T/new.jsonl" >/dev/null 2>&1
fp() { "$R" top -n 0 --format=sarif --threshold 1 --root "$SEED_SRC" "$1" 2>/dev/null |
	python3 -c 'import json,sys; [print(r["partialFingerprints"]["kplugFunction/v1"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in json.load(sys.stdin)["runs"][0]["results"] if r["locations"][0]["logicalLocations"][0]["name"] == "get_option"]'; }
read -r fp1 l1 < <(fp "$T/report.jsonl")
read -r fp2 l2 < <(fp "$T/new.jsonl")
ok $(( l2 != l1 + 1 )) "get_option moved from line $l1 to $l2"
# fingerprint_kept FP1 FP2: FP1 is a fingerprint and FP2 the same
fingerprint_kept() { [ -n "$1" ] && [ "$2" = "$1" ]; }
check "its SARIF fingerprint did not change ($fp1)" fingerprint_kept "$fp1" "$fp2"
rm -rf "$T/src"
done_testing
