/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The code of Clang's coverage points, given late.  GCC's optimisers see
 * each point of pc-guard, inline-8bit-counters and inline-bool-flag as a
 * call without arguments to a placeholder: the very code of trace-pc.  An
 * RTL pass then gives each call its real code: for pc-guard, after
 * register allocation and scheduling (before it where the address needs
 * a temporary), a load of &guard[i] into the first argument register
 * right before the call, which becomes a call of
 * __sanitizer_cov_trace_pc_guard; for the inline modes, just before
 * register allocation, the increment or store that replaces the call.
 * Used by passes/sancov-abi.c; docs/sancov.md says why and what it saves.
 */
#ifndef KPLUG_SANCOV_LATE_H
#define KPLUG_SANCOV_LATE_H

enum sancov_late_kind {
	SANCOV_LATE_GUARD,	/* __sanitizer_cov_trace_pc_guard(&guard[i]) */
	SANCOV_LATE_COUNTER,	/* ++counter[i] */
	SANCOV_LATE_FLAG,	/* flag[i] = 1 */
};

/*
 * GGC roots of sancov's table: the placeholder function (per translation
 * unit) and the array of the function whose points get their code late.
 */
extern tree sancov_late_placeholder;
extern tree sancov_late_array;

/* The unit starts: forget the previous unit's placeholder. */
void sancov_late_start_unit(void);

/*
 * Whether FN's points get their code late: always for the inline modes;
 * for pc-guard when the target passes CALLBACK's pointer in a register.
 * ARRAY is FN's guard, counter or flag array: the late code gives it one
 * element per call site of the final code (a point the optimizers copied
 * has several, one they deleted none), tells the map each element's
 * point, and with PC_TABLE makes FN's PC table, one entry per element.
 */
bool sancov_late_begin(function *fn, enum sancov_late_kind kind, tree callback,
		       tree array, bool pc_table);

/*
 * The placeholder call of point I of the function begun, and in *LOC the
 * location it must have (unique to the point: it names the point in the
 * RTL).
 */
gimple *sancov_late_point(unsigned int i, location_t *loc);

/* Whether DECL is the placeholder (never to be tail-called). */
bool sancov_late_is_placeholder(tree decl);

/*
 * The RTL pass that gives the points their code before register
 * allocation (POST_RA false: the inline modes, and pc-guard where the
 * guard's address needs a temporary or a PIC register) or after it
 * (pc-guard elsewhere), and the pass it goes before.  pc-guard needs both.
 */
opt_pass *sancov_late_make_pass(bool post_ra);
const char *sancov_late_pass_before(bool post_ra);

#endif
