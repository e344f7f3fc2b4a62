#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# "make PROFILE=file.ini": the profile embedded in kplug.so (section
# .kplug.profile) acts like -fplugin-arg-kplug-config= before every
# argument, so the plugin file alone carries the settings wherever it is
# loaded (icecream's remote, ccache's key).  Bad profiles fail at make time
# and at load time with one line.
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d "$OUT/embed.XXXXXX")
mkdir -p "$T/src/drivers/net" "$T/src/fs" "$T/emb" "$T/bad"
cat >"$T/src/drivers/net/x.c" <<'EOF'
int g;
int f(int x) { if (x > 3) g++; else g--; for (int i = 0; i < x; i++) g += i; return g; }
EOF
cp "$T/src/drivers/net/x.c" "$T/src/fs/y.c"
cp "$TOP/tests/fixtures/net-off.ini" "$T/prof.ini"
cd "$T/src" || exit 1

# embed PROFILE OUT_DIR: make PROFILE= into OUT_DIR/kplug.so
embed() { make -s -C "$TOP" PROFILE="$1" KPLUG_SO="$2/kplug.so" plugin >"$T/make.log" 2>&1; }
calls() { objdump -dr "$1" | grep -c 'R_X86_64_PLT32[[:space:]]*__sanitizer_cov_trace_pc-'; }
text() { objdump -dr "$1" | tail -n +4; }
# profile_in_section SO: SO's section .kplug.profile holds prof.ini
profile_in_section() { readelf -p .kplug.profile "$1" | grep -q 'path:drivers/net'; }
# profile_section_allocated SO: .kplug.profile has a W, A or X flag
profile_section_allocated() {
	readelf -S -W "$1" | grep '\.kplug\.profile' | grep -qE ' [WAX]+ +[0-9]'
}
# compiled_both_ways SRC NAME: SRC compiled with config=prof.ini and with
# the embedded profile
compiled_both_ways() {
	gcc -O2 -fplugin="$KPLUG" -fplugin-arg-kplug-config="$T/prof.ini" -c "$1" -o "$T/file-$2.o" &&
	gcc -O2 -fplugin="$T/emb/kplug.so" -c "$1" -o "$T/emb-$2.o"
}
# names_line_and_profile: the failed make's log names the bad line and PROFILE=
names_line_and_profile() {
	grep -q "^cc1: error: kplug: $T/bad.ini (embedded in $T/bad/kplug.so):4: " "$T/make.log" &&
		grep -q "kplug: PROFILE=$T/bad.ini is not a valid profile" "$T/make.log"
}

check "make PROFILE=prof.ini KPLUG_SO=.../kplug.so" embed "$T/prof.ini" "$T/emb"
check "the profile is in section .kplug.profile" profile_in_section "$T/emb/kplug.so"
check_exit 1 "the section is not allocated (not mapped, not in any segment)" \
	profile_section_allocated "$T/emb/kplug.so"

for f in drivers/net/x.c fs/y.c; do
	o=${f//\//_}
	check "$f: compiled with config=prof.ini and with the embedded profile" compiled_both_ways "$f" "$o"
	is "$(text "$T/emb-$o.o")" "$(text "$T/file-$o.o")" "$f: same code either way"
done
is "$(calls "$T/emb-drivers_net_x.c.o")/$(calls "$T/emb-fs_y.c.o")" "0/$(calls "$T/file-fs_y.c.o")" \
	"[path:drivers/net/*] disables sancov there only ($(calls "$T/file-fs_y.c.o") calls in fs/y.o)"
ok $(($(calls "$T/file-fs_y.c.o") > 0 ? 0 : 1)) "fs/y.o is instrumented"

gcc -O2 -fplugin="$T/emb/kplug.so" -fplugin-arg-kplug-disable=sancov -c fs/y.c -o "$T/y-off.o"
is "$(calls "$T/y-off.o")" 0 "arguments still override the embedded profile"

printf '[kplug]\nenable = sancov\n[sancov]\ntrace = pc, bogus\n' >"$T/bad.ini"
check_exit 2 "make PROFILE=bad.ini fails" embed "$T/bad.ini" "$T/bad"
check "... naming the profile's line and the PROFILE" names_line_and_profile
diag "$(grep kplug: "$T/make.log")"
check "... and leaves no kplug.so behind" test ! -e "$T/bad/kplug.so"

# A damaged kplug.so: the section headers cut off (dlopen still works,
# it needs only the segments): one line, exit 1.
cp "$T/emb/kplug.so" "$T/bad/kplug.so"
truncate -s -100 "$T/bad/kplug.so"
check_exit 1 "kplug.so with damaged section headers: compile fails" \
	gcc -fplugin="$T/bad/kplug.so" -c fs/y.c -o "$T/d.o" >"$T/d.out" 2>&1
out=$(cat "$T/d.out")
is "$out" "cc1: error: kplug: $T/bad/kplug.so: damaged ELF file (the section headers past its end)" \
	"... with one line"
# A section without the name's NUL.
printf 'no name' >"$T/sec"
objcopy --add-section .kplug.profile="$T/sec" "$KPLUG" "$T/bad/kplug.so"
check_exit 1 "section without the profile's name: compile fails" \
	gcc -fplugin="$T/bad/kplug.so" -c fs/y.c -o "$T/d.o" >"$T/d.out" 2>&1
out=$(cat "$T/d.out")
is "$out" "cc1: error: kplug: $T/bad/kplug.so: section .kplug.profile: no NUL byte ends the name of the profile" \
	"... with one line"

# Without a section: nothing changes (the plain kplug.so is quiet).
is "$(readelf -S "$KPLUG" | grep -c kplug.profile)" 0 "the plain kplug.so has no embedded profile"
rm -rf "$T"
done_testing
