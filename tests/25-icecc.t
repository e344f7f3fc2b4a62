#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kplug through icecream, one file at a time, every job forced down the
# remote path (tests/kernel/icecc-net.sh: the compiler environment in a
# chroot, the preprocessed source on stdin): the rows of issue 9's table.
# Each remote object is compared with the same compile run locally, and
# icecream's own log says whether the job really stayed remote (a remote
# job that writes to stderr is silently recompiled locally).
# long
. "$(dirname "$0")/lib.sh"
NET=$TOP/tests/kernel/icecc-net.sh

if [ "$(id -u)" != 0 ] || ! command -v icecc >/dev/null; then
	skip "icecream tests need root (network namespace, chroot) and icecc"
	done_testing
fi

T=$(mktemp -d "$OUT/icecc.XXXXXX")
chmod 755 "$T"		# the daemons run as user icecc
# the cluster outside the checkout, which may sit in a folder only root
# can enter (a mktemp -d clone), where user icecc could not reach it
# icecream's daemons (user icecc) read the plugin they ship: the checkout
# must be searchable by others (a mktemp -d clone is not: chmod o+x it)
if ! su -s /bin/sh icecc -c 'test -r "$1"' sh "$KPLUG"; then
	ok 1 "user icecc can read $KPLUG (make the folders above it searchable: chmod o+x)"
	done_testing
fi
ICE_TOP=$(mktemp -d /tmp/kplug-icecc.XXXXXX) && chmod 755 "$ICE_TOP"
ICE=$ICE_TOP/ice
trap '"$NET" stop "$ICE"; rm -rf "$T" "$ICE_TOP"' EXIT
check "icecream cluster started (scheduler, a local and a remote daemon, loopback only)" "$NET" start "$ICE"

mkdir -p "$T/src/drivers/net" "$T/src/fs"
cp "$TOP/tests/fixtures/branchy.c" "$T/src/drivers/net/x.c"
cp "$T/src/drivers/net/x.c" "$T/src/fs/y.c"
cp "$TOP/tests/fixtures/net-off.ini" "$T/prof.ini"
cd "$T/src" || exit 1

calls() { objdump -dr "$1" | grep -c 'R_X86_64_PLT32[[:space:]]*__sanitizer_cov_trace_pc-'; }
text() { objdump -dr "$1" | tail -n +4; }
counts() { "$NET" count "$ICE"; }

# both NAME SRC ARGS...: compile SRC locally into NAME.local.o and through
# icecream into NAME.remote.o; the icecream log is marked first.
both() {
	local name=$1 src=$2
	shift 2
	rm -f "$T/$name.local.o" "$T/$name.remote.o"
	: >"$T/$name.remote.err"
	gcc -O2 "$@" -c "$src" -o "$T/$name.local.o" 2>"$T/$name.local.err" || return 1
	"$NET" mark "$ICE"
	"$NET" run "$ICE" icecc gcc -O2 "$@" -c "$src" -o "$T/$name.remote.o" \
		2>"$T/$name.remote.err"
}

# remote_is_local NAME: NAME.remote.o has NAME.local.o's code
remote_is_local() { cmp -s <(text "$T/$1.remote.o") <(text "$T/$1.local.o"); }
# same NAME DESC: the remote object has the local object's code.
same() {
	check "$2: remote object = local object" remote_is_local "$1" ||
		diag "trace_pc calls: remote $(calls "$T/$1.remote.o"), local $(calls "$T/$1.local.o")" \
			"$(cat "$T/$1.remote.err")"
}

# Cluster sanity, and that the counters see a fallback: a remote compile
# that prints on stderr (the 2016 report) is redone locally, silently.
check "plain compile through icecc" both plain fs/y.c
is "$(counts)" "remote=1 remote_failed=0 local=0 probes=0 asm=0 forced=0" "plain compile: one remote job, no local compile"
both stderr fs/y.c -fplugin="$KPLUG" -fplugin-arg-kplug-enable=cyc_complexity
is "$(counts)" "remote=1 remote_failed=0 local=1 probes=0 asm=0 forced=1" \
	"control: report lines on stderr make icecc recompile locally (the counters see it)"

# Row: a profile's [path:] section, the profile shipped to the remote.
export ICECC_EXTRAFILES=$T/prof.ini
check "[path:drivers/net/*] profile (shipped): compiles" \
	both path-net drivers/net/x.c -fplugin="$KPLUG" -fplugin-arg-kplug-config="$T/prof.ini"
same path-net "[path:drivers/net/*] disable = sancov"
is "$(calls "$T/path-net.remote.o")/$(counts)" "0/remote=1 remote_failed=0 local=0 probes=0 asm=0 forced=0" \
	"... no trace_pc call in drivers/net/x.o, compiled remotely"
both path-fs fs/y.c -fplugin="$KPLUG" -fplugin-arg-kplug-config="$T/prof.ini"
same path-fs "same profile, fs/y.c"
ok $(($(calls "$T/path-fs.remote.o") > 0 ? 0 : 1)) \
	"... fs/y.o keeps its $(calls "$T/path-fs.remote.o") calls (the section matched by name, not by chance)"
unset ICECC_EXTRAFILES

# Row: inline sancov-ignore-src.
both ignore drivers/net/x.c -fplugin="$KPLUG" -fplugin-arg-kplug-enable=sancov \
	-fplugin-arg-kplug-sancov-ignore-src='drivers/net/*'
same ignore "sancov-ignore-src=drivers/net/*"
is "$(calls "$T/ignore.remote.o")/$(counts)" "0/remote=1 remote_failed=0 local=0 probes=0 asm=0 forced=0" \
	"... no trace_pc call, compiled remotely"

# Row: cyc_complexity-output=FILE.  A remote writes FILE inside its chroot
# (lost) or, when FILE's directory is not there, fails and is redone
# locally.  With embed=on the records travel in the object and are
# collected here.  "run" (pid and start time) differs between any two
# compiles, so it is left out of the comparison.
both output fs/y.c -fplugin="$KPLUG" -fplugin-arg-kplug-enable=cyc_complexity \
	-fplugin-arg-kplug-cyc_complexity-output="$T/report.txt"
diag "output=$T/report.txt: $(counts) ($(cat "$T/output.remote.err"))"
check "cyc_complexity-embed=on: compiles" both embed fs/y.c -fplugin="$KPLUG" \
	-fplugin-arg-kplug-enable=cyc_complexity -fplugin-arg-kplug-cyc_complexity-embed=on
is "$(counts)" "remote=1 remote_failed=0 local=0 probes=0 asm=0 forced=0" "... remotely, nothing on stderr"
records() { kplug_collect "$1" 2>&1 | sed -E 's/"run":"[^"]*",//'; }
local_rec=$(records "$T/embed.local.o")
remote_rec=$(records "$T/embed.remote.o")
ok $(($(grep -c '"function":"f"' <<<"$remote_rec") == 1 ? 0 : 1)) \
	"... kplug-report collect finds the record of f in the remote object"
is "$remote_rec" "$local_rec" "... the same record as in the local object"

# Row: nothing on stderr, so no fallback: every job above stayed remote.
is "$(cat "$T"/{path-net,path-fs,ignore,embed}.remote.err)" "" "no remote compile above printed anything"

# Row: the profile not shipped.  config=FILE names a file the remote does
# not have: its compile fails and icecc silently compiles locally (the
# object is right, the build is no longer distributed).  A profile
# embedded in kplug.so (make PROFILE=) travels with the plugin file.
both unshipped drivers/net/x.c -fplugin="$KPLUG" -fplugin-arg-kplug-config="$T/prof.ini"
same unshipped "config=FILE not shipped"
diag "config=FILE not shipped: $(counts) (a remote failure, then a silent local compile)"
check "kplug.so with the profile embedded (make PROFILE=)" \
	make -s -C "$TOP" PROFILE="$T/prof.ini" KPLUG_SO="$T/emb/kplug.so" plugin >"$T/make.log" 2>&1
both emb-net drivers/net/x.c -fplugin="$T/emb/kplug.so"
same emb-net "embedded profile, drivers/net/x.c"
is "$(calls "$T/emb-net.remote.o")/$(counts)" "0/remote=1 remote_failed=0 local=0 probes=0 asm=0 forced=0" \
	"... no trace_pc call, compiled remotely: the remote had the profile"
both emb-fs fs/y.c -fplugin="$T/emb/kplug.so"
same emb-fs "embedded profile, fs/y.c"
is "$(calls "$T/emb-fs.remote.o")" "$(calls "$T/path-fs.local.o")" "... fs/y.o instrumented as with config=FILE"

# A different profile can never reach the remote: it comes in another
# kplug.so, which is another compiler environment.
sed 's/drivers\/net/fs/' "$T/prof.ini" >"$T/prof2.ini"
make -s -C "$TOP" PROFILE="$T/prof2.ini" KPLUG_SO="$T/emb2/kplug.so" plugin >"$T/make.log" 2>&1
both emb2-net drivers/net/x.c -fplugin="$T/emb2/kplug.so"
same emb2-net "another embedded profile ([path:fs/*]), drivers/net/x.c"
is "$(calls "$T/emb2-net.remote.o")/$(counts)" "$(calls "$T/path-fs.local.o")/remote=1 remote_failed=0 local=0 probes=0 asm=0 forced=0" \
	"... now instrumented, compiled remotely"

cd "$TOP" || exit 1
done_testing
