# SPDX-License-Identifier: GPL-2.0
# The driver parity.sh and abicount.sh share; source it after defining
# one() and call "batch_main NAME JOBS CHUNK "$@"".  The script's
# arguments are "CC KPLUG_SO OPT WORKDIR FILE...": one() runs on every FILE,
# in batches of CHUNK files, JOBS batches at a time, each batch a child
# "SCRIPT --batch CC KPLUG_SO OPT WORKDIR FILE...".  Back in the parent,
# cc, so (absolute), opt and work are set for the summary that follows.
batch_main() {
	local name=$1 jobs=$2 chunk=$3 f
	local -a args
	shift 3
	if [ "${1:-}" = "--batch" ]; then
		shift
		args=("$1" "$2" "$3" "$4")
		shift 4
		for f; do
			one "${args[@]}" "$f"
		done
		exit 0
	fi
	[ $# -ge 5 ] || { echo "usage: $name CC KPLUG_SO OPT WORKDIR FILE..." >&2; exit 2; }
	cc=$1 so=$2 opt=$3 work=$4
	shift 4
	case $so in /*) ;; *) so=$PWD/$so ;; esac
	rm -rf "$work"
	mkdir -p "$work"
	printf '%s\n' "$@" | xargs -d '\n' -P "$jobs" -n "$chunk" \
		nice bash "$0" --batch "$cc" "$so" "$opt" "$work"
}
