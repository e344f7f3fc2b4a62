// SPDX-License-Identifier: GPL-2.0
/*
 * The trace model's segments (passes/probeset-segs.c), which
 * passes/probeset.c searches with: one of kplug-report's own units, as
 * input/probeset.c is.
 */
#include "passes/probeset-segs.c"
