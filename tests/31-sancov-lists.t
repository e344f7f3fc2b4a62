# sancov allow/ignore lists (Clang's format), inline globs, [path:] sections.
# per-compiler
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/sancov/common.sh"
T=$(mktemp -d "$OUT/sancov-lists.XXXXXX")
S=$SANCOV_DIR

# ---- the parser and matcher alone (config/speclist.c) ----
check "speclist unit test builds without warnings" $KCC -Wall -Wextra -Werror -I"$TOP" \
	-o "$T/test_speclist" "$S/test_speclist.c" "$TOP/config/speclist.c"
out=$("$T/test_speclist"); rc=$?
# unit_test_passed RC OUT: the unit test exited 0 and OUT has no failure
unit_test_passed() { [ "$1" -eq 0 ] && ! grep -q '^not ok' <<<"$2"; }
check "speclist unit test: $(echo "$out" | grep -c '^ok') checks pass" unit_test_passed "$rc" "$out"
[ $rc -eq 0 ] || diag "$(echo "$out" | grep -A1 '^not ok')"

# Instrumented functions of lists.c (those with at least one callback).
covered() {	# covered [FLAGS...]
	local d
	d=$(mktemp -d "$T/c.XXXXXX")
	(cd "$T" && $KCC -O2 -c "${SRC:-$S/lists.c}" -o "$d/x.o" -fplugin="$KPLUG" \
		-fdump-tree-optimized="$d/x.opt" "$@") || { echo "compile failed"; return; }
	touch "$d/x.opt"
	perl "$S/count.pl" "$d/x.opt" | awk '$2 != "-" { print $1 }' | sort -u | xargs
}
ALL="helper.constprop mm_alloc net_rx net_tx"
is "$(covered $KSANCOV)" "$ALL" "no list: every function"

# ---- ignore ----
printf '# noise\nfun:net_*\n' > "$T/ign-fun.txt"
is "$(covered $KSANCOV -fplugin-arg-kplug-sancov-ignore=ign-fun.txt)" "helper.constprop mm_alloc" \
	"ignore fun:net_*"
printf 'fun:helper\n' > "$T/ign-clone.txt"
is "$(covered $KSANCOV -fplugin-arg-kplug-sancov-ignore=ign-clone.txt)" "mm_alloc net_rx net_tx" \
	"fun:helper also matches its clone helper.constprop"
printf 'src:*/sancov/lists.c\n' > "$T/ign-src.txt"
is "$(covered $KSANCOV -fplugin-arg-kplug-sancov-ignore=ign-src.txt)" "" "ignore src:"
is "$(covered $KSANCOV -fplugin-arg-kplug-sancov-ignore-fun=mm_*,net_tx)" "helper.constprop net_rx" \
	"inline ignore-fun"
is "$(covered $KSANCOV -fplugin-arg-kplug-sancov-ignore-fun=mm_* \
	-fplugin-arg-kplug-sancov-ignore-fun=net_tx)" "helper.constprop net_rx" \
	"ignore-fun accumulates"
is "$(covered $KSANCOV -fplugin-arg-kplug-sancov-ignore-src='*/lists.c')" "" "inline ignore-src"
# A glob longer than 4,095 bytes is used whole: cut there, it would match net_rx.
long="net_rx$(printf '%4100s' '' | tr ' ' '*')Q"
is "$(covered $KSANCOV -fplugin-arg-kplug-sancov-ignore-fun="$long")" "$ALL" \
	"a 4,107-byte inline glob is not cut"

# An ignored unit is compiled exactly as without the pass.
$KCC -O2 -c "$S/lists.c" -o "$T/plain.o"
$KCC -O2 -c "$S/lists.c" -o "$T/ign.o" -fplugin="$KPLUG" $KSANCOV \
	-fplugin-arg-kplug-sancov-ignore-src='*lists.c'
for o in plain ign; do objdump -d "$T/$o.o" 2>/dev/null | tail -n +3 > "$T/$o.dis"; done
same_nonempty "$T/plain.dis" "$T/ign.dis" "ignored unit: same code as a build without coverage"

# ---- allow (Clang's rules: a unit needs a src: match, a function a fun: match) ----
printf 'src:*\nfun:net_*\n' > "$T/allow-net.txt"
is "$(covered $KSANCOV -fplugin-arg-kplug-sancov-allow=allow-net.txt)" "net_rx net_tx" "allow fun:net_*"
printf 'src:*\nfun:*\n' > "$T/allow-all.txt"
is "$(covered $KSANCOV -fplugin-arg-kplug-sancov-allow=allow-all.txt)" "$ALL" "allow src:* fun:*"
printf 'fun:*\n' > "$T/allow-nosrc.txt"
is "$(covered $KSANCOV -fplugin-arg-kplug-sancov-allow=allow-nosrc.txt)" "" \
	"allow list without src: allows no unit (as Clang)"
printf 'src:drivers/*\nfun:*\n' > "$T/allow-other.txt"
is "$(covered $KSANCOV -fplugin-arg-kplug-sancov-allow=allow-other.txt)" "" "allow: other source tree"
is "$(covered $KSANCOV -fplugin-arg-kplug-sancov-allow=allow-net.txt \
	-fplugin-arg-kplug-sancov-ignore-fun=net_tx)" "net_rx" "allow and ignore together"

# ---- sections inside a list ----
printf 'src:*\nfun:*\n[address]\nfun:net_rx\n[cov*]\nfun:net_tx\n' > "$T/sect.txt"
is "$(covered $KSANCOV -fplugin-arg-kplug-sancov-ignore=sect.txt)" "" "entries before any section apply"
printf '[address]\nfun:net_rx\n[coverage]\nfun:net_tx\nfun:mm_alloc=init\n' > "$T/sect2.txt"
is "$(covered $KSANCOV -fplugin-arg-kplug-sancov-ignore=sect2.txt)" "helper.constprop mm_alloc net_rx" \
	"[address] ignored, [coverage] applies, an entry with a category never matches"

# ---- src: relative to root=, [path:GLOB] sections per subsystem ----
mkdir -p "$T/tree/net" "$T/tree/mm"
cp "$S/lists.c" "$T/tree/net/core.c"
cp "$S/lists.c" "$T/tree/mm/slab.c"
printf 'src:net/*\nfun:*\n' > "$T/allow-rel.txt"
is "$(SRC=$T/tree/net/core.c covered $KSANCOV -fplugin-arg-kplug-root="$T/tree" \
	-fplugin-arg-kplug-sancov-allow=allow-rel.txt)" "$ALL" "src: matches the path below root="
is "$(SRC=$T/tree/mm/slab.c covered $KSANCOV -fplugin-arg-kplug-root="$T/tree" \
	-fplugin-arg-kplug-sancov-allow=allow-rel.txt)" "" "src: below root=, other subsystem"
cat > "$T/tree/p.ini" <<END
[kplug]
enable = sancov
root = $T/tree
[sancov]
ignore-fun = helper
[path:mm/*]
disable = sancov
[path:net/*]
sancov-ignore-fun = net_tx
END
is "$(SRC=$T/tree/net/core.c covered -fplugin-arg-kplug-config="$T/tree/p.ini")" "mm_alloc net_rx" \
	"[path:net/*] adds to the ignore globs"
is "$(SRC=$T/tree/mm/slab.c covered -fplugin-arg-kplug-config="$T/tree/p.ini")" "" \
	"[path:mm/*] disable = sancov"
printf '[kplug]\nenable = sancov\n[path:*/mm/*]\ndisable = sancov\n[path:*/mm/slab.c]\nenable = sancov\n' \
	> "$T/tree/q.ini"
is "$(SRC=$T/tree/mm/slab.c covered -fplugin-arg-kplug-config="$T/tree/q.ini")" "$ALL" \
	"a later [path:] section turns it back on"

rm -rf "$T"
done_testing
