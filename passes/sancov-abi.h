/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sancov's Clang SanitizerCoverage modes: trace-pc-guard, inline 8-bit
 * counters, inline bool flags, the PC table and the module constructor.
 * Used by passes/sancov.c only; see docs/sancov.md.
 */
#ifndef KPLUG_SANCOV_ABI_H
#define KPLUG_SANCOV_ABI_H

#include "passes/sancov-late.h"

/* The Clang coverage mode of a unit: at most one of these. */
enum sancov_abi_mode {
	SANCOV_ABI_NONE,
	SANCOV_ABI_GUARD,	/* __sanitizer_cov_trace_pc_guard(&guard) */
	SANCOV_ABI_8BIT,	/* ++counter, inline */
	SANCOV_ABI_BOOL,	/* flag = 1, inline */
};

struct sancov_abi_cfg {
	enum sancov_abi_mode mode;
	bool pc_table;		/* __sancov_pcs */
	bool ctors;		/* the module constructor */
	bool bss;		/* zero arrays in @nobits sections */
	bool (*wanted)(tree fndecl);	/* whether a function is instrumented */
};

/*
 * __sanitizer_cov_trace_pc_guard, declared once per translation unit
 * (NULL_TREE until pc-guard needs it; a GGC root of sancov's table).
 */
extern tree sancov_abi_guard_fn;

/* Register what the mode needs (called from sancov's setup). */
void sancov_abi_setup(const char *plugin_name, const struct sancov_abi_cfg *cfg);

/* Instrument FN's coverage points in the configured mode. */
void sancov_abi_function(function *fn);

/* The late code kind of the configured mode (not SANCOV_ABI_NONE). */
enum sancov_late_kind sancov_abi_late_kind(void);

/* Whether DECL is the guard callback or the placeholder (never to be tail-called). */
bool sancov_abi_is_callback(tree decl);

/*
 * FN's PC table: {PC, flags} per element, the address of LABELS[k] for
 * element k (whose point is POINTS[k]); the function's own address and
 * the entry flag for element 0 when it is the entry point's (point 0).
 */
void sancov_abi_pc_table(function *fn, const vec<int> &points, const vec<tree> &labels);

/* Whether FN is out of reach for the modes (created after output began). */
bool sancov_abi_too_late(void);

#endif
