#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The patches benchmarks apply to a copy of the tree still apply:
# bench/prune-bound.sh's lower bounds come from bench/prune-bound.patch on
# passes/, and a patch that no longer applies stops that benchmark.
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d "$OUT/bench-patches.XXXXXX")
trap 'rm -rf "$T"' EXIT

# applies PATCH: the patch applies to a copy of the tracked sources, with
# no fuzz (a hunk placed by fuzz may patch the wrong function); what patch
# says is in $T/patch.out
applies() {
	rm -rf "$T/src" && mkdir "$T/src" &&
	(cd "$TOP" && git ls-files -z -- passes compat config kplug.c) |
		(cd "$TOP" && xargs -0 cp --parents -t "$T/src") &&
	(cd "$T/src" && patch -s -p1 -F0 --dry-run <"$1" >"$T/patch.out" 2>&1)
}
check "bench/prune-bound.patch applies to passes/ without fuzz" applies "$TOP/bench/prune-bound.patch" ||
	diag_in <"$T/patch.out"
# the check can fail: a copy of the patch with one context line changed
sed '0,/^  \* Whether some ENTRY/s//  * Whether any ENTRY/' "$TOP/bench/prune-bound.patch" >"$T/broken.patch"
check_exit 1 "... and a patch whose context is gone does not" applies "$T/broken.patch"
done_testing
