/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pc-guard's late argument.  GCC's optimisers and register allocator see
 * each guard call as a call without arguments to a placeholder (the very
 * code of trace-pc); after them, an RTL pass loads &guard[i] into the
 * first argument register right before the call and turns it into
 * __sanitizer_cov_trace_pc_guard's.  Used by passes/sancov-abi.c;
 * docs/sancov.md.
 */
#ifndef KPLUG_SANCOV_GUARD_H
#define KPLUG_SANCOV_GUARD_H

/* The placeholder and the current function's guard array (GGC roots). */
#define SANCOV_GUARD_NR_TREES	2
extern tree sancov_guard_trees[SANCOV_GUARD_NR_TREES];

/* The unit starts: forget the previous unit's placeholder. */
void sancov_guard_start_unit(void);

/*
 * Whether FN's guard calls take their argument late: the target passes
 * CALLBACK's pointer in a register.  Then ARRAY is FN's guard array, and
 * its points call sancov_guard_point_fn().
 */
bool sancov_guard_late(function *fn, tree callback, tree array);

/* The placeholder the points of a late function call. */
tree sancov_guard_point_fn(void);

/* Point I of the late function gets LOC: the location its call must have. */
location_t sancov_guard_point(location_t loc, unsigned int i);

/* Whether DECL is the placeholder (never to be tail-called). */
bool sancov_guard_is_point_fn(tree decl);

/* The RTL pass that gives the calls their argument; insert it before "alignments". */
opt_pass *sancov_guard_make_pass(void);

#endif
