// SPDX-License-Identifier: GPL-2.0
/*
 * sancov-prune: the probes of a function (see sancov-prune.h).  The block
 * graph goes to passes/probeset.c cut after every call that may not
 * return or may start or end an observation (a kcov session): the piece
 * after such a call can be reached from outside the function and the
 * piece that ends with it can leave it.  Clang's rule is evaluated on
 * GCC's own CFG and dominance information (LLVM SanitizerCoverage.cpp,
 * shouldInstrumentBlock).
 */
#include "kplug.h"
#include "passes/probeset.h"
#include "passes/sancov-map.h"
#include "passes/sancov-prune.h"

static struct sancov_prune_cfg prune;

/* Functions of the unit known to return, by DECL_UID: calls to them never
 * cut (functions are compiled callees first). */
typedef hash_set<int_hash<int, -1, -2> > uid_set;
static uid_set *prune_returning;

void sancov_prune_setup(const struct sancov_prune_cfg *cfg)
{
	prune = *cfg;
	delete prune_returning;
	prune_returning = new uid_set;
}

/*
 * Whether a run can end inside STMT (a call that may exit, longjmp or loop
 * forever), or, with sancov-prune-session=kcov, a session end or start
 * there (a call that may reach kcov's ioctl).  As gcov's fake
 * edges (tree-cfg.cc, need_fake_edge_p), without the asm rule: an asm
 * statement is taken to fall through (asm goto's targets are edges).
 */
static bool prune_cut_after(gimple *stmt)
{
	gcall *call = dyn_cast<gcall *>(stmt);
	tree decl;
	int flags;

	if (!call || gimple_call_internal_p(call) || prune.cuts == SANCOV_CUTS_NONE)
		return false;
	flags = gimple_call_flags(call);
	decl = gimple_call_fndecl(call);
	if (prune.cuts == SANCOV_CUTS_INDIRECT)
		return !decl;
	if (decl && fndecl_built_in_p(decl) && (flags & ECF_NOTHROW) &&
	    !(flags & ECF_RETURNS_TWICE))
		return false;
	if (decl && prune_returning->contains(DECL_UID(decl)))
		return false;
	return !((flags & (ECF_CONST | ECF_PURE)) &&
		 !(flags & ECF_LOOPING_CONST_OR_PURE));
}

/* The first real statement of BB, or NULL. */
static gimple *prune_first_stmt(basic_block bb)
{
	gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb(bb);

	return gsi_end_p(gsi) ? NULL : gsi_stmt(gsi);
}

static bool prune_starts_unreachable(basic_block bb)
{
	gimple *stmt = prune_first_stmt(bb);

	return stmt && gimple_call_builtin_p(stmt, BUILT_IN_UNREACHABLE);
}

/*
 * Note FN as returning whenever it is called, if it does as it stands: no
 * call in it cuts, no block ends the run (a noreturn call; a block that
 * starts with __builtin_unreachable never runs) and no abnormal edge
 * (setjmp) enters it.  A loop that never ends does not count: no run
 * ends inside it, and no session.
 */
static void prune_note_returning(function *fn)
{
	basic_block bb;
	edge e;
	edge_iterator ei;

	if (prune.cuts != SANCOV_CUTS_CALLS)
		return;
	FOR_EACH_BB_FN(bb, fn) {
		gimple_stmt_iterator gsi;

		if (EDGE_COUNT(bb->succs) == 0 && !prune_starts_unreachable(bb))
			return;
		FOR_EACH_EDGE(e, ei, bb->preds)
			if (e->flags & EDGE_ABNORMAL)
				return;
		for (gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
			if (prune_cut_after(gsi_stmt(gsi)))
				return;
	}
	prune_returning->add(DECL_UID(fn->decl));
}

static int prune_count_pieces(basic_block bb)
{
	gimple_stmt_iterator gsi;
	int n = 1;

	for (gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
		n += prune_cut_after(gsi_stmt(gsi));
	return n;
}

/* A source line of a block, for numbering the lines of a function. */
struct prune_line {
	const char *file;
	int line, node;
};

static int prune_line_cmp(const void *a, const void *b)
{
	const struct prune_line *x = (const struct prune_line *)a;
	const struct prune_line *y = (const struct prune_line *)b;
	int c = x->file == y->file ? 0 : strcmp(x->file, y->file);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->node - y->node;
}

/*
 * Give PS the source lines of each block (those sancov-map records: the
 * locations of its statements), numbered per function, for exactness per
 * line.
 */
static void prune_lines(function *fn, struct probeset *ps, const int *bb_node)
{
	auto_vec<struct prune_line> lines;
	auto_vec<struct sancov_line> bl;
	unsigned int i, k;
	basic_block bb;
	int id = -1;

	FOR_EACH_BB_FN(bb, fn) {
		int node = bb_node[bb->index];

		if (!(ps->flags[node] & PS_LINES))
			continue;
		sancov_block_lines(bb, &bl);
		for (k = 0; k < bl.length(); k++) {
			struct prune_line pl = { bl[k].file, bl[k].line, node };

			lines.safe_push(pl);
		}
	}
	lines.qsort(prune_line_cmp);
	for (i = 0; i < lines.length(); i++) {
		const struct prune_line *pl = &lines[i], *prev = i ? &lines[i - 1] : NULL;
		bool same_line = prev && prev->line == pl->line &&
				 (prev->file == pl->file || !strcmp(prev->file, pl->file));

		if (!same_line)
			id++;
		probeset_line(ps, pl->node, id);
	}
}

/* Nodes and edges of FN's graph; BB_NODE[i]: the first piece of block i. */
static struct probeset *prune_graph(function *fn, int *bb_node)
{
	int *bb_last = XNEWVEC(int, last_basic_block_for_fn(fn));
	basic_block bb;
	struct probeset *ps;
	int n = 0, k;
	edge e;
	edge_iterator ei;

	FOR_EACH_BB_FN(bb, fn) {
		bb_node[bb->index] = n;
		n += prune_count_pieces(bb);
		bb_last[bb->index] = n - 1;
	}
	ps = probeset_new(n);
	/* unpruned, every block has a probe: any reader can tell its lines */
	ps->observe = prune.observe == SANCOV_OBSERVE_TRACE && prune.mode != SANCOV_PRUNE_OFF ?
		      PS_OBSERVE_TRACE : PS_OBSERVE_SET;
	probeset_edge(ps, PS_ENTRY, bb_node[single_succ(ENTRY_BLOCK_PTR_FOR_FN(fn))->index]);
	FOR_EACH_BB_FN(bb, fn) {
		int first = bb_node[bb->index], last = bb_last[bb->index];
		bool real = prune_first_stmt(bb) != NULL;

		if (real && (prune.mode == SANCOV_PRUNE_OFF || !prune_starts_unreachable(bb)))
			ps->flags[first] |= PS_PROBEABLE;
		if (real && !prune_starts_unreachable(bb))
			ps->flags[first] |= PS_LINES;
		/*
		 * After a cut call: a session may start there (kcov), and a
		 * trace goes on there after the calls the call made of this
		 * function (recursion), as after a call that ended at EXIT.
		 */
		for (k = first; k < last; k++) {
			probeset_edge(ps, k, k + 1);
			probeset_edge(ps, k, PS_EXIT);
			if (prune.kcov || ps->observe == PS_OBSERVE_TRACE)
				probeset_edge(ps, PS_ENTRY, k + 1);
		}
		FOR_EACH_EDGE(e, ei, bb->succs) {
			if (e->flags & EDGE_FAKE)
				continue;
			probeset_edge(ps, last, e->dest == EXIT_BLOCK_PTR_FOR_FN(fn) ?
				      PS_EXIT : bb_node[e->dest->index]);
		}
	}
	free(bb_last);
	if (prune.by_lines && prune.mode != SANCOV_PRUNE_OFF)
		prune_lines(fn, ps, bb_node);
	return ps;
}

/* LLVM's isFullDominator: has successors (returns have none there) and
 * dominates all of them. */
static bool prune_full_dominator(basic_block bb)
{
	bool any = false;
	edge e;
	edge_iterator ei;

	FOR_EACH_EDGE(e, ei, bb->succs) {
		if (e->dest == EXIT_BLOCK_PTR_FOR_FN(cfun) || (e->flags & EDGE_FAKE))
			continue;
		if (!dominated_by_p(CDI_DOMINATORS, e->dest, bb))
			return false;
		any = true;
	}
	return any;
}

/* LLVM's isFullPostDominator, for blocks with more than one predecessor. */
static bool prune_full_post_dominator(basic_block bb)
{
	edge e;
	edge_iterator ei;

	if (EDGE_COUNT(bb->preds) < 2)
		return false;
	FOR_EACH_EDGE(e, ei, bb->preds)
		if (e->src == ENTRY_BLOCK_PTR_FOR_FN(cfun) ||
		    !dominated_by_p(CDI_POST_DOMINATORS, e->src, bb))
			return false;
	return true;
}

/* Clang's shouldInstrumentBlock, on the probe-able blocks. */
static void prune_clang_rule(function *fn, struct probeset *ps, const int *bb_node)
{
	basic_block entry = single_succ(ENTRY_BLOCK_PTR_FOR_FN(fn)), bb;
	bool had_dom = dom_info_available_p(CDI_DOMINATORS);

	calculate_dominance_info(CDI_DOMINATORS);
	calculate_dominance_info(CDI_POST_DOMINATORS);
	FOR_EACH_BB_FN(bb, fn) {
		int node = bb_node[bb->index];

		if (!(ps->flags[node] & PS_PROBEABLE))
			continue;
		if (bb == entry || !(prune_full_dominator(bb) ||
				     prune_full_post_dominator(bb)))
			ps->flags[node] |= PS_PROBE;
	}
	free_dominance_info(CDI_POST_DOMINATORS);
	if (!had_dom)
		free_dominance_info(CDI_DOMINATORS);
}

static int prune_run(function *fn, struct probeset *ps, const int *bb_node,
		     enum sancov_prune mode)
{
	basic_block entry = single_succ(ENTRY_BLOCK_PTR_FOR_FN(fn));
	int node = bb_node[entry->index], v;

	for (v = 0; v < ps->n; v++)
		ps->flags[v] &= ~PS_PROBE;
	if (mode == SANCOV_PRUNE_CLANG)
		prune_clang_rule(fn, ps, bb_node);
	if (prune.keep_entry && mode != SANCOV_PRUNE_OFF)
		ps->flags[node] |= PS_KEEP;
	return probeset_place(ps, mode == SANCOV_PRUNE_OFF ? PS_OFF :
			      mode == SANCOV_PRUNE_CLANG ? PS_GIVEN : PS_MIN,
			      prune.check);
}

/*
 * min: Agrawal's leaves plus what inference needs, or Clang's rule plus
 * what inference needs where that happens to be fewer.
 */
static void prune_place(function *fn, struct probeset *ps, const int *bb_node)
{
	unsigned char *clang_set;
	int v, n_clang;

	if (prune.mode != SANCOV_PRUNE_MIN) {
		prune_run(fn, ps, bb_node, prune.mode);
		return;
	}
	n_clang = prune_run(fn, ps, bb_node, SANCOV_PRUNE_CLANG);
	clang_set = XNEWVEC(unsigned char, ps->n);
	memcpy(clang_set, ps->flags, ps->n);
	/* the relations do not depend on the mode: only the flags differ */
	if (n_clang < prune_run(fn, ps, bb_node, SANCOV_PRUNE_MIN))
		for (v = 0; v < ps->n; v++)
			ps->flags[v] = clang_set[v];
	free(clang_set);
}

/* -fdump-tree-kplug_sancov1: how many probes, and whether min's are proven the fewest. */
static void prune_dump(const struct probeset *ps)
{
	static const char *const mode[] = { "off", "clang", "min" };
	int v, probes = 0, blocks = 0;

	for (v = 0; v < ps->n; v++) {
		probes += !!(ps->flags[v] & PS_PROBE);
		blocks += !!(ps->flags[v] & PS_PROBEABLE);
	}
	fprintf(dump_file, ";; kplug sancov-prune=%s%s: %d probes, %d blocks with a statement",
		mode[prune.mode], ps->observe == PS_OBSERVE_TRACE ? " (trace)" : "",
		probes, blocks);
	if (prune.mode != SANCOV_PRUNE_MIN || !prune.check)
		fprintf(dump_file, "\n");
	else if (ps->bound == probes)
		fprintf(dump_file, ", proven the fewest\n");
	else
		fprintf(dump_file, ", not proven the fewest: at least %d\n", ps->bound);
}

/* Native GCC's points, the entry block first; no graph, map or pruning. */
static void prune_all_points(function *fn, auto_vec<basic_block> *points)
{
	basic_block entry = single_succ(ENTRY_BLOCK_PTR_FOR_FN(fn)), bb;

	if (prune_first_stmt(entry))
		points->safe_push(entry);
	FOR_EACH_BB_FN(bb, fn)
		if (bb != entry && prune_first_stmt(bb))
			points->safe_push(bb);
}

void sancov_prune_points(function *fn, auto_vec<basic_block> *points)
{
	basic_block entry = single_succ(ENTRY_BLOCK_PTR_FOR_FN(fn)), bb;
	int *bb_node;
	struct probeset *ps;

	if (prune.mode == SANCOV_PRUNE_OFF && !sancov_map_on) {
		prune_all_points(fn, points);
		return;
	}
	bb_node = XCNEWVEC(int, last_basic_block_for_fn(fn));
	ps = prune_graph(fn, bb_node);
	prune_place(fn, ps, bb_node);
	if (dump_file)
		prune_dump(ps);
	if (ps->flags[bb_node[entry->index]] & PS_PROBE)
		points->safe_push(entry);
	FOR_EACH_BB_FN(bb, fn)
		if (bb != entry && (ps->flags[bb_node[bb->index]] & PS_PROBE))
			points->safe_push(bb);
	sancov_map_function(fn, ps, bb_node);
	prune_note_returning(fn);
	probeset_free(ps);
	free(bb_node);
}
