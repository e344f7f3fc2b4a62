/* SPDX-License-Identifier: GPL-2.0 */
/*
 * covtrace: the lines of one run from the order of its hits (cover
 * --trace): each function's hits, in the order covmap_hit() appended them
 * (covmap.trace), inferred on the graph of its map record with
 * passes/probeset.c's trace model, segment by segment.
 */
#ifndef KPLUG_REPORT_INPUT_COVTRACE_H
#define KPLUG_REPORT_INPUT_COVTRACE_H

#include <stddef.h>

#include "tools/report/input/covmap.h"

/*
 * Append to *OUT (*N strings, room *SIZE) the "file:line" of every line
 * the run whose hits M holds covered, then forget the hits' order for
 * the next run.  0, or -1 with *BAD the function whose hits no path of
 * its graph gives (a truncated trace, a map of another build).
 */
int covtrace_lines(struct covmap *m, char ***out, size_t *n, size_t *size,
		   const struct covfn **bad);

#endif
