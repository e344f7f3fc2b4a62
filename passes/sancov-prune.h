/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sancov-prune: which blocks get a coverage probe.  off: every block with
 * a real statement (native GCC's points); clang: Clang's rule; min: the
 * fewest from which every line's coverage can be inferred (proven by an
 * exact search where it finishes: -fdump-tree-all's kplug_sancov1 dump
 * says so per function).  Pruned modes
 * keep a probe wherever inference would otherwise fail: per source line
 * (the report's unit) or, with sancov-prune-exact=blocks, per block.
 * docs/sancov.md.
 */
#ifndef KPLUG_SANCOV_PRUNE_H
#define KPLUG_SANCOV_PRUNE_H

/*
 * The values of the ENUM options sancov-prune, -prune-cuts, -prune-session
 * and -prune-exact: each enum lists its choices in the order of the
 * choice string defined beside it (kplug_int() gives that index).
 */

/* Which calls may end a run or a session inside them (sancov-prune-cuts). */
#define SANCOV_CUTS_CHOICES	"calls,indirect,none"
enum sancov_cuts {
	SANCOV_CUTS_CALLS,	/* any that may not return (gcov's rule) */
	SANCOV_CUTS_INDIRECT,	/* indirect calls only (kcov's ioctl is one) */
	SANCOV_CUTS_NONE,	/* none: Clang's assumption */
};

#define SANCOV_PRUNE_CHOICES	"off,clang,min"
enum sancov_prune {
	SANCOV_PRUNE_OFF,
	SANCOV_PRUNE_CLANG,
	SANCOV_PRUNE_MIN,
};

/* What a coverage session spans (sancov-prune-session). */
#define SANCOV_SESSION_CHOICES	"run,kcov"
enum sancov_session {
	SANCOV_SESSION_RUN,	/* whole runs: libFuzzer, .sancov files */
	SANCOV_SESSION_KCOV,	/* starts and ends inside calls: the kernel */
};

/* What inference must give exactly (sancov-prune-exact). */
#define SANCOV_EXACT_CHOICES	"lines,blocks"
enum sancov_exact {
	SANCOV_EXACT_LINES,
	SANCOV_EXACT_BLOCKS,
};

/* What a run shows of its hits (sancov-prune-observe): probeset.h. */
#define SANCOV_OBSERVE_CHOICES	"set,trace"
enum sancov_observe {
	SANCOV_OBSERVE_SET,	/* which probes fired: kcov's unique mode, counters */
	SANCOV_OBSERVE_TRACE,	/* their order too: kcov's trace mode, trace-pc */
};

struct sancov_prune_cfg {
	enum sancov_prune mode;
	bool check;		/* keep the probes inference needs */
	bool keep_entry;	/* the entry block always gets one (pc-table) */
	bool kcov;		/* sessions start and end inside calls (kcov) */
	enum sancov_cuts cuts;
	bool by_lines;		/* exact per source line (else per block) */
	enum sancov_observe observe;
};

void sancov_prune_setup(const struct sancov_prune_cfg *cfg);

/*
 * The blocks of FN that get a probe, the entry block first when it has
 * one; with the map on, FN's map record is started too.
 */
void sancov_prune_points(function *fn, auto_vec<basic_block> *points);

#endif
