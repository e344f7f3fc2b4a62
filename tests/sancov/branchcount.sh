#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: branchcount.sh OBJ...
# Prints "JUMPS CALLS": branches to a __sanitizer_cov_* callback that are
# jumps (tail calls: j*, including conditional ones) and that are calls.
objdump -dr --no-show-raw-insn "$@" | awk '
	/^ +[0-9a-f]+:\t/ { insn = $2 }
	/R_[A-Z0-9_]+\t__sanitizer_cov_/ {
		if (insn ~ /^j/) j++
		else if (insn ~ /^call/) c++
	}
	END { print j + 0, c + 0 }'
