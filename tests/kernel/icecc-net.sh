#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A private icecream cluster on one machine, with every compile forced
# down icecream's remote path (the compiler environment unpacked in a
# chroot, the preprocessed source on stdin), the way icecream's own
# tests/test.sh does it.
#
#   icecc-net.sh start DIR     scheduler + two daemons in a new network
#                              namespace that has only "lo"
#   icecc-net.sh run DIR CMD…  run CMD there as an icecc client whose every
#                              job goes to the remote daemon
#   icecc-net.sh mark DIR      count from here on
#   icecc-net.sh count DIR     remote=N remote_failed=N local=N probes=N
#                              asm=N forced=N since the mark (local: C
#                              compiles that ran on this machine; probes:
#                              kbuild's option probes; asm: .S files)
#   icecc-net.sh stop DIR      stop the daemons, delete the namespace
#
# The namespace: "iceccd -i lo" exits for a daemon that accepts jobs, so
# the cluster gets a network of its own with loopback only; nothing is
# reachable from outside and it sees no other scheduler.  The daemons
# switch to uid icecc: DIR/envs-* and DIR/log belong to it.  Needs root
# (ip netns, chroot).
#
# The logs, in DIR/log: scheduler.log, local.log (the --no-remote daemon
# the client talks to), remote.log (the daemon that compiles), icecc.log
# (every client, ICECC_DEBUG=debug).  The markers are icecream's own,
# checked by its tests/test.sh: the client logs "<building_local>" for
# every job it compiles on this machine, whatever the reason, and "local
# build forced by remote exception" when a remote job came back unusable
# (remote stderr under the caret workaround, "file not found", ...); the
# remote daemon logs "Remote compilation completed with exit code 0" per
# job it compiled and "exited with exit code N" / "aborted" otherwise.
set -u

NET_PORTS=8767:8769
REMOTE_PORT=10246

die() { echo "icecc-net.sh: $*" >&2; exit 1; }

netns_of() { echo "kplug-icecc-$(printf %s "$1" | sha1sum | cut -c1-8)"; }

# wait_log FILE PATTERN: up to 30 s for PATTERN to appear in FILE.
wait_log() {
	local i
	for ((i = 0; i < 60; i++)); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		sleep 0.5
	done
	return 1
}

# start_bg DIR NAME CMD…: CMD in the namespace, in the background.
start_bg() {
	local dir=$1 name=$2
	shift 2
	# the daemon holds no descriptor of the test's (the harness reads
	# the test's output until every copy of it is closed)
	(
		for fd in /proc/$BASHPID/fd/*; do
			fd=${fd##*/}
			[ "$fd" -gt 2 ] && eval "exec $fd>&-"
		done
		exec ip netns exec "$NS" env ICECC_TESTS=1 ICECC_TEST_SCHEDULER_PORTS=$NET_PORTS "$@"
	) </dev/null >>"$dir/log/$name.out" 2>&1 &
	echo $! >"$dir/$name.pid"
}

cmd_start() {
	local dir=$1 p

	[ "$(id -u)" = 0 ] || die "needs root (network namespace, chroot)"
	for p in icecc icecc-scheduler iceccd ip; do
		command -v "$p" >/dev/null || die "$p not found: apt-get install icecc iproute2"
	done
	getent passwd icecc >/dev/null || die "no user icecc (the daemons switch to it)"
	[ -e "$dir/scheduler.pid" ] && die "$dir: a cluster is already running there (stop it first)"
	NS=$(netns_of "$dir")
	rm -rf "$dir" && mkdir -p "$dir/envs-local" "$dir/envs-remote" "$dir/log" ||
		die "$dir: cannot create"
	chown -R icecc: "$dir" || die "$dir: cannot give it to user icecc"
	su -s /bin/sh icecc -c 'test -w "$1/log"' sh "$dir" ||
		die "$dir: user icecc cannot reach it (a parent folder is not searchable by others)"
	ip netns add "$NS" && ip -n "$NS" link set lo up || die "cannot create network namespace $NS"
	start_bg "$dir" scheduler icecc-scheduler -p "${NET_PORTS%%:*}" -n kplug \
		-l "$dir/log/scheduler.log" -vvv
	wait_log "$dir/log/scheduler.log" "scheduler ready" || { cmd_stop "$dir"; die "scheduler did not start"; }
	start_bg "$dir" local env ICECC_TEST_SOCKET="$dir/socket-local" \
		ICECC_SCHEDULER=:"${NET_PORTS%%:*}" \
		iceccd --no-remote -m 2 -n kplug -N localice -b "$dir/envs-local" \
		-l "$dir/log/local.log" -vvv
	# The remote daemon reads a frozen copy of /proc/stat (bound over it in
	# a mount namespace of its own): to it the machine looks idle.  Its
	# scheduler gives no job to a host whose load reaches 1000 ("No
	# suitable host found, delaying"), and on a machine other jobs keep
	# busy that would stall the tests; the load is scheduling policy, not
	# what they check.
	cp /proc/stat "$dir/stat.idle" || die "cannot copy /proc/stat"
	start_bg "$dir" remote unshare -m sh -c 'mount --bind "$0" /proc/stat && exec "$@"' \
		"$dir/stat.idle" env ICECC_TEST_SOCKET="$dir/socket-remote" \
		ICECC_SCHEDULER=:"${NET_PORTS%%:*}" \
		iceccd -p "$REMOTE_PORT" -m 2 -n kplug -N remoteice -b "$dir/envs-remote" \
		-l "$dir/log/remote.log" -vvv
	wait_log "$dir/log/remote.log" "Connected to scheduler" &&
		wait_log "$dir/log/local.log" "scheduler is on" ||
		{ tail -n 5 "$dir"/log/*.log >&2; cmd_stop "$dir"; die "daemons did not reach the scheduler"; }
	if grep -q "Cannot use chroot" "$dir/log/remote.log"; then
		cmd_stop "$dir"
		die "the remote daemon cannot chroot: it would accept no job"
	fi
}

cmd_run() {
	local dir=$1
	shift
	[ -e "$dir/scheduler.pid" ] || die "$dir: no cluster running (start it first)"
	NS=$(netns_of "$dir")
	ip netns exec "$NS" env -u ICECC -u ICECC_VERSION -u ICECC_REPEAT_RATE \
		ICECC_TEST_SOCKET="$dir/socket-local" ICECC_TEST_REMOTEBUILD=1 \
		ICECC_PREFERRED_HOST=remoteice ICECC_ENV_COMPRESSION=none \
		ICECC_DEBUG=debug ICECC_LOGFILE="$dir/log/icecc.log" "$@"
}

# since DIR LOG: the lines of DIR/log/LOG written after the last mark.
since() {
	local n
	n=$(sed -n "s/^$2 //p" "$1/mark" 2>/dev/null)
	tail -n +"$((${n:-0} + 1))" "$1/log/$2" 2>/dev/null
}

# count DIR LOG PATTERN: lines since the mark that match PATTERN.
count() { since "$1" "$2" | grep -cE "$3"; }

cmd_mark() {
	local dir=$1 log
	for log in remote.log icecc.log; do
		echo "$log $(cat "$dir/log/$log" 2>/dev/null | wc -l)"
	done >"$dir/mark"
}

# Compiles (commands with -c) a client ran on this machine: the
# "invoking:" line that follows "<building_local>" in the same client
# (lines start with ICECC[PID]; parallel clients interleave).  Prints
# "local=N probes=M": M of them read stdin or /dev/null or wrote to
# /dev/null, the way kbuild's option probes do (a probe of an option GCC
# lacks fails in icecc's
# local preprocessing, and icecc then compiles it here to get the error:
# nothing of kplug's).  Commands without -c (gcc -print-file-name=plugin)
# are local by nature and not counted, and neither are assembler sources
# (icecc builds every .S here: "source file X.S, building locally"),
# counted as asm=N.
local_compiles() {
	awk '{ pid = $1 }
	     / <building_local>$/ { local_job[pid] = 1; next }
	     / invoking: / && local_job[pid] {
		delete local_job[pid]
		if (!/ -c /)
			next
		if (/ \/dev\/null( |$)/ || / - /)
			probes++
		else if (/\.[sS]( |$)/)
			asm++
		else
			n++
	     }
	     END { printf "local=%d probes=%d asm=%d\n", n, probes, asm }'
}

cmd_count() {
	local dir=$1
	echo "remote=$(count "$dir" remote.log 'Remote compilation completed with exit code 0')" \
	     "remote_failed=$(count "$dir" remote.log 'Remote compilation (aborted|exited) with exit code')" \
	     "$(since "$dir" icecc.log | local_compiles)" \
	     "forced=$(count "$dir" icecc.log 'local build forced by remote exception')"
}

cmd_stop() {
	local dir=$1 name pid
	NS=$(netns_of "$dir")
	for name in local remote scheduler; do
		pid=$(cat "$dir/$name.pid" 2>/dev/null) || continue
		kill "$pid" 2>/dev/null
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.5
		done
		kill -9 "$pid" 2>/dev/null
		rm -f "$dir/$name.pid"
	done
	ip netns del "$NS" 2>/dev/null
	return 0
}

[ $# -ge 2 ] || die "usage: icecc-net.sh start|run|mark|count|stop DIR [CMD...]"
case $1 in
start)	cmd_start "$2" ;;
run)	shift; cmd_run "$@" ;;
mark)	cmd_mark "$2" ;;
count)	cmd_count "$2" ;;
stop)	cmd_stop "$2" ;;
*)	die "unknown command '$1' (start, run, mark, count, stop)" ;;
esac
