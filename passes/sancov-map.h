/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sancov's coverage map: per instrumented function, the inference graph
 * of passes/probeset.c (immediate dominator and post-dominator of every
 * node), the source lines of every block and which node each probe is on,
 * written into the non-allocated section .debug_kplug_sancov (kept by ld,
 * not loaded).  The ".debug" prefix makes it debug information to the
 * linkers: a record of a function in a section the link discards (arm
 * discards .exit.text) gets address 0, not a "defined in discarded
 * section" error, and modpost does not warn about it.  A probe is found
 * by the address its callback call returns to (pc, pc-guard: what kcov
 * records) or by its element of the guard, counter or flag array.
 * kplug-report cover reads it; docs/sancov.md has the format.
 */
#ifndef KPLUG_SANCOV_MAP_H
#define KPLUG_SANCOV_MAP_H

#include "config/sancov-map-format.h"

struct probeset;

/* Whether the unit writes a map (set up by sancov_map_setup). */
extern bool sancov_map_on;

void sancov_map_setup(const char *plugin_name);

/* The RTL pass that labels the callback calls; insert it before "final". */
opt_pass *sancov_map_make_pass(void);

/* A source line of a block. */
struct sancov_line {
	const char *file;
	int line;
};

/*
 * The distinct source lines of BB's statements, in statement order: what
 * the map records for a block and what sancov-prune must keep exact.
 */
void sancov_block_lines(basic_block bb, vec<struct sancov_line> *lines);

/* Start FN's record from PS (nodes 0..n-1, blocks BB_NODE[bb->index]). */
void sancov_map_function(function *fn, const struct probeset *ps,
			 const int *bb_node);

/*
 * Probe number I (in order, from 0) is on BB.  Returns the location its
 * code gets: that of the block's first statement, made unique in the
 * function when the map is on (it identifies the call in the RTL).
 */
location_t sancov_map_probe(basic_block bb, location_t loc);

/*
 * LOC made unique among a function's probes, N being the probe's number,
 * without changing what it names: the same line, column and scope, with a
 * source range of its own (ranges serve diagnostics only; no diagnostic is
 * ever given on a probe).  Every copy the optimizers make of a statement
 * keeps it, so it identifies the probe's code in the RTL.
 */
location_t sancov_unique_loc(location_t loc, tree fndecl, unsigned int n);

/* The guard/counter/flag array of the current record (ABI modes). */
void sancov_map_array(tree var);

/*
 * The array's elements: element k is PROBES[k]'s (one per call site or
 * counter of the final code, sancov-late; or one per probe, in order).
 */
void sancov_map_elements(const vec<int> &probes);

/* The callback FN's probes call, for finding them in the RTL (pc-guard). */
void sancov_map_set_callback(tree fn);

#endif
