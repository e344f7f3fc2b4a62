// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of passes/probeset.c (no GCC header): hand-made graphs with
 * known answers, then random graphs where random ENTRY -> EXIT walks check
 * that inference from the probes on a walk gives exactly the nodes walked
 * (exact per block) or exactly their source lines (exact per line).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/probeset.h"

static int tests, failed;

static void ok(int cond, const char *what)
{
	tests++;
	if (!cond)
		failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tests, what);
}

static struct probeset *graph(int n, const int (*e)[2], int ne)
{
	struct probeset *ps = probeset_new(n);
	int i;

	for (i = 0; i < n; i++)
		ps->flags[i] = PS_LINES | PS_PROBEABLE;
	for (i = 0; i < ne; i++)
		probeset_edge(ps, e[i][0], e[i][1]);
	return ps;
}

static int probed(const struct probeset *ps, int v)
{
	return !!(ps->flags[v] & PS_PROBE);
}

/* A -> B, C -> D -> exit: B and C suffice; D is implied by either. */
static void test_diamond(void)
{
	static const int e[][2] = { { PS_ENTRY, 0 }, { 0, 1 }, { 0, 2 }, { 1, 3 },
				    { 2, 3 }, { 3, PS_EXIT } };
	struct probeset *ps = graph(4, e, 6);
	unsigned char hit[4] = { 0, 1, 0, 0 }, cov[4];

	ok(probeset_place(ps, PS_OFF, 1) == 4, "diamond: off probes every node");
	ok(probeset_place(ps, PS_MIN, 1) == 2 && probed(ps, 1) && probed(ps, 2),
	   "diamond: min probes the two arms only");
	ok(ps->idom[3] == 0 && ps->ipdom[0] == 3 && ps->ipdom[1] == 3,
	   "diamond: dominators");
	probeset_infer(ps, hit, cov);
	ok(cov[0] && cov[1] && !cov[2] && cov[3], "diamond: a hit arm implies A and D");
	/* pc-table's entry: kept by min, the exact search and the given set */
	ps->flags[0] |= PS_KEEP;
	ok(probeset_place(ps, PS_MIN, 1) == 3 && probed(ps, 0) && probed(ps, 1) &&
	   probed(ps, 2) && ps->bound == 3, "diamond: min keeps a kept A, the arms too");
	ok(probeset_place(ps, PS_EXACT, 1) == 3 && probed(ps, 0) && ps->bound == 3,
	   "diamond: so does the exact search");
	ps->flags[1] |= PS_PROBE;
	ps->flags[2] &= ~PS_PROBE;
	ps->flags[0] &= ~PS_PROBE;
	ok(probeset_place(ps, PS_GIVEN, 1) == 3 && probed(ps, 0),
	   "diamond: and a given set");
	probeset_free(ps);
}

/* The same with a call in A that may not return: A alone is a run. */
static void test_exit_in_a(void)
{
	static const int e[][2] = { { PS_ENTRY, 0 }, { 0, 1 }, { 0, 2 }, { 1, 3 },
				    { 2, 3 }, { 3, PS_EXIT }, { 0, PS_EXIT } };
	struct probeset *ps = graph(4, e, 7);

	ok(probeset_place(ps, PS_MIN, 0) == 2 && !probed(ps, 0),
	   "exit in A: the leaves alone leave A to nothing");
	ok(probeset_place(ps, PS_MIN, 1) == 3 && probed(ps, 0),
	   "exit in A: the check keeps a probe in A");
	probeset_free(ps);
}

/* A loop: 0 -> 1 -> 2 -> 1, 2 -> 3 -> exit */
static void test_loop(void)
{
	static const int e[][2] = { { PS_ENTRY, 0 }, { 0, 1 }, { 1, 2 }, { 2, 1 },
				    { 2, 3 }, { 3, PS_EXIT } };
	struct probeset *ps = graph(4, e, 6);

	ok(probeset_place(ps, PS_MIN, 1) == 1, "straight loop: one probe");
	probeset_free(ps);
}

/*
 * void g(int i) { if (i != 1) abort(); exit(0); }: 0 -> 1, 0 -> 2, both
 * arms noreturn calls (no successor).  Every run ends in an arm: the two
 * arms tell all; no run ends in 0.
 */
static void test_noreturn_arms(void)
{
	static const int e[][2] = { { PS_ENTRY, 0 }, { 0, 1 }, { 0, 2 } };
	struct probeset *ps = graph(3, e, 3);

	ok(probeset_place(ps, PS_MIN, 1) == 2 && probed(ps, 1) && probed(ps, 2) &&
	   ps->bound == 2, "noreturn arms: min probes the two arms, proven");
	ok(probeset_place(ps, PS_EXACT, 1) == 2, "noreturn arms: so does the exact search");
	probeset_free(ps);
}

/*
 * for (;;) { if (x) abort(); work(); }: 0 -> 1, 1 -> 2 (abort, no
 * successor), 1 -> 3 -> 1.  Runs end in 2 only (the loop leaves through
 * the abort): a probe in 2 implies 1 and 0, one in 3 the loop's body.
 */
static void test_noreturn_in_loop(void)
{
	static const int e[][2] = { { PS_ENTRY, 0 }, { 0, 1 }, { 1, 2 }, { 1, 3 },
				    { 3, 1 } };
	struct probeset *ps = graph(4, e, 5);

	ok(probeset_place(ps, PS_MIN, 1) == 2 && probed(ps, 2) && probed(ps, 3) &&
	   ps->bound == 2, "noreturn call in a loop: min probes the call and the body, proven");
	probeset_free(ps);
}

/*
 * if without else where the test and the body share a line (0 -> 1 -> 2,
 * 0 -> 2; nodes 0 and 1 have line 0, node 2 line 1): per block the body
 * needs a probe of its own, per line one probe in 0 or 2 tells both lines.
 */
static void test_shared_line(void)
{
	static const int e[][2] = { { PS_ENTRY, 0 }, { 0, 1 }, { 0, 2 }, { 1, 2 },
				    { 2, PS_EXIT } };
	struct probeset *ps = graph(3, e, 5);
	unsigned char hit[3] = { 0 }, cov[3];
	int p;

	ok(probeset_place(ps, PS_MIN, 1) == 2 && probed(ps, 1),
	   "shared line, per block: the body keeps its probe (2 probes)");
	probeset_line(ps, 0, 0);
	probeset_line(ps, 1, 0);
	probeset_line(ps, 2, 1);
	ok(probeset_place(ps, PS_MIN, 1) == 1 && !probed(ps, 1),
	   "shared line, per line: one probe, none in the body");
	p = probed(ps, 0) ? 0 : 2;
	hit[p] = 1;
	probeset_infer(ps, hit, cov);
	ok(cov[0] && cov[2] && !cov[1], "shared line: the probe implies the nodes of lines 0 and 1");
	probeset_free(ps);
}

/* ---- random graphs, random walks ---- */

#define MAXN	14	/* nodes per random graph */
static int line_of[MAXN][2], nline_of[MAXN];	/* per line: the node's lines */

static unsigned int seed = 12345;

static int rnd(int n)
{
	seed = seed * 1103515245u + 12345u;
	return (int)((seed >> 8) % (unsigned int)n);
}

/* Lines of the nodes in SET (n bytes) as a bit mask. */
static unsigned int lines_of(int n, const unsigned char *set)
{
	unsigned int m = 0;
	int i, k;

	for (i = 0; i < n; i++)
		for (k = 0; set[i] && k < nline_of[i]; k++)
			m |= 1u << line_of[i][k];
	return m;
}

static int walk_check(struct probeset *ps, int by_lines, int *bad_sound,
		      int *bad_complete)
{
	int n = ps->n, v, steps, i;
	unsigned char *hit = calloc(n, 1), *cov = calloc(n, 1), *seen = calloc(n, 1);
	int *succ = malloc(sizeof(int) * (ps->nedges + 1)), ns;

	/* start: a random ENTRY edge */
	ns = 0;
	for (i = 0; i < ps->nedges; i++)
		if (ps->from[i] == n)
			succ[ns++] = ps->to[i];
	v = succ[rnd(ns)];
	for (steps = 0; v != n + 1 && steps < 200; steps++) {
		seen[v] = 1;
		if (ps->flags[v] & PS_PROBE)
			hit[v] = 1;
		ns = 0;
		for (i = 0; i < ps->nedges; i++)
			if (ps->from[i] == v)
				succ[ns++] = ps->to[i];
		v = succ[rnd(ns)];
	}
	if (v == n + 1 && by_lines) {
		unsigned int seen_l = lines_of(n, seen), cov_l;

		probeset_infer(ps, hit, cov);
		cov_l = lines_of(n, cov);
		*bad_sound += !!(cov_l & ~seen_l);
		*bad_complete += !!(seen_l & ~cov_l);
	} else if (v == n + 1) {
		probeset_infer(ps, hit, cov);
		for (i = 0; i < n; i++) {
			if (cov[i] && !seen[i])
				(*bad_sound)++;
			if (seen[i] && !cov[i] && (ps->flags[i] & PS_LINES))
				(*bad_complete)++;
		}
	}
	free(hit);
	free(cov);
	free(seen);
	free(succ);
	return v == n + 1;
}

static void random_graph_runs(enum probeset_mode mode, int check, int by_lines,
			      int *sound, int *complete, int *walks, long *probes,
			      long *nodes)
{
	int g;

	for (g = 0; g < 300; g++) {
		int n = 2 + rnd(MAXN - 2), i, k;
		struct probeset *ps = probeset_new(n);

		for (i = 0; i < n; i++) {
			ps->flags[i] = PS_PROBEABLE | (rnd(5) ? PS_LINES : 0);
			if (mode == PS_GIVEN && rnd(2))
				ps->flags[i] |= PS_PROBE;
			/* by line: 1 or 2 lines of n / 2, so that nodes share them */
			nline_of[i] = 0;
			for (k = 0; by_lines && (ps->flags[i] & PS_LINES) && k < 1 + rnd(2); k++) {
				line_of[i][nline_of[i]++] = rnd(n / 2 + 1);
				probeset_line(ps, i, line_of[i][k]);
			}
			if (!by_lines && (ps->flags[i] & PS_LINES)) {
				nline_of[i] = 1;
				line_of[i][0] = i;
			}
		}
		probeset_edge(ps, PS_ENTRY, 0);
		if (!rnd(3))	/* a piece after a call */
			probeset_edge(ps, PS_ENTRY, rnd(n));
		for (i = 0; i < n; i++) {
			int out = 1 + rnd(2);

			for (k = 0; k < out; k++)
				probeset_edge(ps, i, rnd(4) ? rnd(n) : PS_EXIT);
		}
		*probes += probeset_place(ps, mode, check);
		*nodes += n;
		for (k = 0; k < 40; k++)
			*walks += walk_check(ps, by_lines, sound, complete);
		probeset_free(ps);
	}
}

static void test_random(void)
{
	static const struct { enum probeset_mode mode; const char *name; } m[] = {
		{ PS_OFF, "off" }, { PS_GIVEN, "given" }, { PS_MIN, "min" },
	};
	static const char *const unit[] = { "per block", "per line" };
	char what[200];
	int i, by_lines;

	for (by_lines = 0; by_lines < 2; by_lines++) {
		for (i = 0; i < 3; i++) {
			int sound = 0, complete = 0, walks = 0;
			long probes = 0, nodes = 0;

			random_graph_runs(m[i].mode, 1, by_lines, &sound, &complete, &walks,
					  &probes, &nodes);
			snprintf(what, sizeof(what), "random graphs, %s, exact %s: %d complete "
				 "walks, inference exact (%ld probes / %ld nodes)", m[i].name,
				 unit[by_lines], walks, probes, nodes);
			ok(walks > 1000 && !sound && !complete, what);
		}
		/* the same without the check must miss some: the test can fail */
		{
			int sound = 0, complete = 0, walks = 0;
			long probes = 0, nodes = 0;

			random_graph_runs(PS_MIN, 0, by_lines, &sound, &complete, &walks,
					  &probes, &nodes);
			snprintf(what, sizeof(what), "random graphs, min without the check, %s: "
				 "%d walks miss some, none is wrongly covered", unit[by_lines],
				 complete);
			ok(complete > 0 && !sound, what);
		}
	}
}

/*
 * min against brute force on small random graphs: the smallest set that
 * leaves nothing hidden, found by trying every subset by size, has as many
 * probes as min's, and min says its set is proven a smallest one.  The
 * heuristics alone are mostly right on such graphs, so the exact search
 * alone (PS_EXACT: from a probe on every node) must be right too.
 */
#define BRUTE_N	9

/*
 * ENTRY -> 0, sometimes ENTRY -> a piece after a call, and one or two
 * edges out of every node, to a node or EXIT.
 */
static void random_edges(struct probeset *ps)
{
	int i, k, n = ps->n;

	probeset_edge(ps, PS_ENTRY, 0);
	if (!rnd(3))
		probeset_edge(ps, PS_ENTRY, rnd(n));
	for (i = 0; i < n; i++)
		for (k = 0; k < 1 + rnd(2); k++)
			probeset_edge(ps, i, rnd(4) ? rnd(n) : PS_EXIT);
}

/* A small random graph for the brute-force comparisons. */
static struct probeset *brute_graph(int by_lines)
{
	int n = 3 + rnd(BRUTE_N - 2), i;
	struct probeset *ps = probeset_new(n);

	for (i = 0; i < n; i++) {
		ps->flags[i] = PS_PROBEABLE | (rnd(5) ? PS_LINES : 0);
		if (by_lines && (ps->flags[i] & PS_LINES))
			probeset_line(ps, i, rnd(n / 2 + 1));
	}
	random_edges(ps);
	return ps;
}

static int brute_min(struct probeset *ps)
{
	int size, mask, v;

	for (size = 0; size <= ps->n; size++)
		for (mask = 0; mask < 1 << ps->n; mask++) {
			if (__builtin_popcount(mask) != size)
				continue;
			for (v = 0; v < ps->n; v++)
				ps->flags[v] = (ps->flags[v] & ~PS_PROBE) |
					       (mask >> v & 1 ? PS_PROBE : 0);
			if (!probeset_hidden(ps))
				return size;
		}
	return -1;
}

static void test_brute_force(void)
{
	int by_lines, g;
	char what[200];

	for (by_lines = 0; by_lines < 2; by_lines++) {
		int graphs = 0, proven = 0, same = 0, exact_same = 0, exact_proven = 0;

		for (g = 0; g < 150; g++) {
			struct probeset *ps = brute_graph(by_lines);
			int m, b, e;

			e = probeset_place(ps, PS_EXACT, 1);
			exact_proven += ps->bound == e;
			m = probeset_place(ps, PS_MIN, 1);
			graphs++;
			proven += ps->bound == m;
			b = brute_min(ps);
			same += b == m;
			exact_same += b == e;
			probeset_free(ps);
		}
		snprintf(what, sizeof(what), "min against brute force, exact %s: %d of %d graphs "
			 "as few probes as the smallest set, %d proven", by_lines ? "per line" :
			 "per block", same, graphs, proven);
		ok(same == graphs && proven == graphs, what);
		snprintf(what, sizeof(what), "... the exact search alone, %s: %d of %d as few, "
			 "%d proven", by_lines ? "per line" : "per block", exact_same, graphs,
			 exact_proven);
		ok(exact_same == graphs && exact_proven == graphs, what);
	}
}

/* ---- the trace model ---- */

/*
 * K if/else diamonds in a row: with the order of the hits, the entry and
 * one arm each suffice (between two hits, an arm that did not fire means
 * the other ran); the set model needs both arms of each.
 */
static void trace_diamonds(int K)
{
	int N = 1 + 3 * K;
	struct probeset *ps = probeset_new(N);
	char what[160];
	int i, set, trace;

	for (i = 0; i < N; i++)
		ps->flags[i] = PS_LINES | PS_PROBEABLE;
	probeset_edge(ps, PS_ENTRY, 0);
	for (i = 0; i < K; i++) {	/* branch 3i, arms 3i+1 and 3i+2, join 3i+3 */
		probeset_edge(ps, 3 * i, 3 * i + 1);
		probeset_edge(ps, 3 * i, 3 * i + 2);
		probeset_edge(ps, 3 * i + 1, 3 * i + 3);
		probeset_edge(ps, 3 * i + 2, 3 * i + 3);
	}
	probeset_edge(ps, 3 * K, PS_EXIT);
	set = probeset_place(ps, PS_MIN, 1);
	ps->observe = PS_OBSERVE_TRACE;
	trace = probeset_place(ps, PS_MIN, 1);
	snprintf(what, sizeof(what), "%d diamonds: min keeps %d probes for a set, %d for a "
		 "trace (the entry and an arm each; proven at least %d), nothing hidden",
		 K, set, trace, ps->bound);
	ok(set == 2 * K && trace == K + 1 && ps->bound <= trace && !probeset_hidden(ps), what);
	probeset_free(ps);
}

static void test_trace_diamonds(void)
{
	int k;

	for (k = 1; k <= 8; k++)
		trace_diamonds(k);
}

/*
 * A random run of the trace model: 1 to 3 calls, each from a random ENTRY
 * edge to EXIT.  SEQ gets the probes hit in order; returns how many, or -1
 * when a walk did not end.
 */
static int trace_run(struct probeset *ps, int *seq, int room, unsigned char *seen)
{
	int n = ps->n, calls = 1 + rnd(3), len = 0, c, i, v, ns, steps;
	int *succ = malloc(sizeof(int) * (ps->nedges + 1));

	memset(seen, 0, n);
	for (c = 0; c < calls; c++) {
		ns = 0;
		for (i = 0; i < ps->nedges; i++)
			if (ps->from[i] == n)
				succ[ns++] = ps->to[i];
		v = succ[rnd(ns)];
		for (steps = 0; v != n + 1 && steps < 60; steps++) {
			seen[v] = 1;
			if ((ps->flags[v] & PS_PROBE) && len < room)
				seq[len++] = v;
			ns = 0;
			for (i = 0; i < ps->nedges; i++)
				if (ps->from[i] == v)
					succ[ns++] = ps->to[i];
			v = succ[rnd(ns)];
		}
		if (v != n + 1 || len == room) {
			len = -1;
			break;
		}
	}
	free(succ);
	return len;
}

/*
 * The probes of PS (trace model) that could go with nothing hidden, by
 * the fixpoint check: the search's drops must have left none.
 */
static int trace_droppable(struct probeset *ps)
{
	int v, n = 0;

	for (v = 0; v < ps->n; v++) {
		if (!(ps->flags[v] & PS_PROBE) || (ps->flags[v] & PS_KEEP))
			continue;
		ps->flags[v] &= ~PS_PROBE;
		n += !probeset_hidden(ps);
		ps->flags[v] |= PS_PROBE;
	}
	return n;
}

static void trace_graph_runs(enum probeset_mode mode, int check, int *sound,
			     int *complete, int *runs, long *probes, long *set_probes,
			     int *droppable)
{
	int g;

	for (g = 0; g < 300; g++) {
		int n = 2 + rnd(MAXN - 2), i, k, seq[400], len;
		struct probeset *ps = probeset_new(n);
		unsigned char seen[MAXN], lines[MAXN];

		for (i = 0; i < n; i++) {
			ps->flags[i] = PS_PROBEABLE | (rnd(5) ? PS_LINES : 0);
			if (mode == PS_GIVEN && rnd(2))
				ps->flags[i] |= PS_PROBE;
			nline_of[i] = 0;
			for (k = 0; (ps->flags[i] & PS_LINES) && k < 1 + rnd(2); k++) {
				line_of[i][nline_of[i]++] = rnd(n / 2 + 1);
				probeset_line(ps, i, line_of[i][k]);
			}
		}
		random_edges(ps);
		if (mode == PS_MIN)
			*set_probes += probeset_place(ps, mode, check);
		ps->observe = PS_OBSERVE_TRACE;
		*probes += probeset_place(ps, mode, check);
		if (mode == PS_MIN && check)
			*droppable += trace_droppable(ps);
		for (k = 0; k < 40; k++) {
			unsigned int seen_l, cov_l = 0;

			len = trace_run(ps, seq, 400, seen);
			if (len < 0)
				continue;
			(*runs)++;
			seen_l = lines_of(n, seen);
			if (probeset_infer_trace(ps, seq, len, lines)) {
				(*sound)++;	/* a real run must fit */
				continue;
			}
			for (i = 0; i < probeset_nlines(ps); i++)
				cov_l |= (unsigned int)lines[i] << i;
			*sound += !!(cov_l & ~seen_l);
			*complete += !!(seen_l & ~cov_l);
		}
		probeset_free(ps);
	}
}

static void test_trace_random(void)
{
	static const struct { enum probeset_mode mode; const char *name; } m[] = {
		{ PS_GIVEN, "given" }, { PS_MIN, "min" },
	};
	char what[240];
	int i;

	for (i = 0; i < 2; i++) {
		int sound = 0, complete = 0, runs = 0, droppable = 0;
		long probes = 0, set_probes = 0;

		trace_graph_runs(m[i].mode, 1, &sound, &complete, &runs, &probes, &set_probes,
				 &droppable);
		snprintf(what, sizeof(what), "random graphs, trace model, %s: %d runs of 1 to 3 "
			 "calls, the lines inferred from the order of the hits exact (%ld probes%s)",
			 m[i].name, runs, probes, m[i].mode == PS_MIN ? "" : ", Clang's rule given");
		if (m[i].mode == PS_MIN)
			snprintf(what + strlen(what), sizeof(what) - strlen(what),
				 "; the set model's min: %ld; probes that could still go: %d",
				 set_probes, droppable);
		ok(runs > 1000 && !sound && !complete &&
		   (m[i].mode != PS_MIN || (probes < set_probes && !droppable)), what);
	}
	{	/* without the check, some run must be misread: the test can fail */
		int sound = 0, complete = 0, runs = 0, droppable = 0;
		long probes = 0, set_probes = 0;

		trace_graph_runs(PS_MIN, 0, &sound, &complete, &runs, &probes, &set_probes,
				 &droppable);
		snprintf(what, sizeof(what), "random graphs, trace model, min without the "
			 "check: %d runs miss lines, none is wrongly covered", complete);
		ok(complete > 0 && !sound, what);
	}
}

/*
 * Edges of a long function: each node to one of the next three, or back,
 * or (near the end) to EXIT.
 */
static void local_edges(struct probeset *ps)
{
	int i, k, n = ps->n;

	probeset_edge(ps, PS_ENTRY, 0);
	for (i = 0; i < n; i++)
		for (k = 0; k < 1 + rnd(2); k++) {
			int to = rnd(8) ? i + 1 + rnd(3) : rnd(i + 1);

			probeset_edge(ps, i, to < n ? to : PS_EXIT);
		}
}

/*
 * The trace model's check (one fixpoint over the sources of every segment)
 * against its reference (one search per source) on random graphs with
 * random probes: the same lines hidden.  Long functions of 150 to 249
 * nodes, most probed and lines only in their first eighth, have segments
 * hiding a line only from sources past the first 64 (the fixpoint's
 * second and later words of bits: ENTRY, then the probes last node first).
 */
static void test_trace_fixpoint(void)
{
	int graphs = 0, same = 0, same_segs = 0, some_hidden = 0, wide = 0, g;
	char what[240];

	for (g = 0; g < 600; g++) {
		int large = g >= 400, n = large ? 150 + rnd(100) : 2 + rnd(MAXN - 2), i, k;
		int probes = 0, fast, each, segs;
		struct probeset *ps = probeset_new(n);

		for (i = 0; i < n; i++) {
			int lines = !large || i < n / 8;

			ps->flags[i] = PS_PROBEABLE | (lines && rnd(5) ? PS_LINES : 0);
			if (large ? rnd(4) : rnd(2)) {
				ps->flags[i] |= PS_PROBE;
				probes++;
			}
			for (k = 0; (ps->flags[i] & PS_LINES) && k < 1 + rnd(2); k++)
				probeset_line(ps, i, rnd(n / 2 + 1));
		}
		if (large)
			local_edges(ps);
		else
			random_edges(ps);
		ps->observe = PS_OBSERVE_TRACE;
		fast = probeset_hidden(ps);
		each = probeset_hidden_each(ps);
		segs = probeset_hidden_segs(ps);
		graphs++;
		same += fast == each;
		same_segs += fast == segs;
		some_hidden += fast > 0;
		wide += probes > 64;
		probeset_free(ps);
	}
	snprintf(what, sizeof(what), "trace model, the fixpoint check against one search per "
		 "source: %d of %d random graphs the same lines hidden (%d with some hidden, "
		 "%d with more than 64 probes)", same, graphs, some_hidden, wide);
	ok(same == graphs && some_hidden > graphs / 4 && wide > 100, what);
	snprintf(what, sizeof(what), "trace model, the segment relation the search drops on "
		 "against the fixpoint check: %d of %d random graphs the same lines hidden",
		 same_segs, graphs);
	ok(same_segs == graphs, what);
}

/*
 * The trace model's min on graphs too large for its exact search: what
 * the search keeps hides nothing, and no probe of it could go (by the
 * fixpoint check); fewer probes than the set model's min.
 */
static void test_trace_search(void)
{
	int graphs = 0, hidden = 0, droppable = 0, g;
	long probes = 0, set_probes = 0;
	char what[240];

	for (g = 0; g < 100; g++) {
		int n = 20 + rnd(40), i, k;
		struct probeset *ps = probeset_new(n);

		for (i = 0; i < n; i++) {
			ps->flags[i] = PS_PROBEABLE | (rnd(5) ? PS_LINES : 0);
			for (k = 0; (ps->flags[i] & PS_LINES) && k < 1 + rnd(2); k++)
				probeset_line(ps, i, rnd(n / 2 + 1));
		}
		if (g % 2)
			local_edges(ps);
		else
			random_edges(ps);
		set_probes += probeset_place(ps, PS_MIN, 1);
		ps->observe = PS_OBSERVE_TRACE;
		probes += probeset_place(ps, PS_MIN, 1);
		graphs++;
		hidden += probeset_hidden(ps) > 0;
		droppable += trace_droppable(ps);
		probeset_free(ps);
	}
	snprintf(what, sizeof(what), "trace model, min on %d random graphs of 20 to 59 nodes: "
		 "%ld probes (the set model's %ld), %d hide a line, %d probes could still go",
		 graphs, probes, set_probes, hidden, droppable);
	ok(!hidden && !droppable && probes < set_probes, what);
}

/*
 * What the exact search proves when it stops (its work used up: the trace
 * model's limit is small) must stay a lower bound: never above the
 * probes of a set that leaves nothing hidden, min's.
 */
static void test_trace_partial_bound(void)
{
	int graphs = 0, stopped = 0, above = 0, g;
	char what[240];

	for (g = 0; g < 60; g++) {
		int n = 30 + rnd(30), i, k, m, e;
		struct probeset *ps = probeset_new(n);

		for (i = 0; i < n; i++) {
			ps->flags[i] = PS_PROBEABLE | (rnd(5) ? PS_LINES : 0);
			for (k = 0; (ps->flags[i] & PS_LINES) && k < 1 + rnd(2); k++)
				probeset_line(ps, i, rnd(n / 2 + 1));
		}
		local_edges(ps);
		ps->observe = PS_OBSERVE_TRACE;
		m = probeset_place(ps, PS_MIN, 1);
		e = probeset_place(ps, PS_EXACT, 1);
		graphs++;
		stopped += ps->bound < e;
		above += ps->bound > m || ps->bound > e;
		probeset_free(ps);
	}
	snprintf(what, sizeof(what), "trace model, the exact search's bound on %d random graphs "
		 "of 30 to 59 nodes (%d where it stopped): above min's probes in %d",
		 graphs, stopped, above);
	ok(stopped > 10 && !above, what);
}

/* The trace model's min against brute force on small random graphs. */
static void test_trace_brute_force(void)
{
	int graphs = 0, same = 0, proven = 0, g;
	char what[200];

	for (g = 0; g < 150; g++) {
		struct probeset *ps = brute_graph(1);
		int m, b;

		ps->observe = PS_OBSERVE_TRACE;
		m = probeset_place(ps, PS_MIN, 1);
		graphs++;
		proven += ps->bound == m;
		b = brute_min(ps);
		same += b == m;
		probeset_free(ps);
	}
	snprintf(what, sizeof(what), "trace model, min against brute force: %d of %d graphs "
		 "as few probes as the smallest set, %d proven", same, graphs, proven);
	ok(same == graphs && proven == graphs, what);
}

int main(void)
{
	test_diamond();
	test_exit_in_a();
	test_loop();
	test_noreturn_arms();
	test_noreturn_in_loop();
	test_shared_line();
	test_random();
	test_brute_force();
	test_trace_diamonds();
	test_trace_fixpoint();
	test_trace_random();
	test_trace_search();
	test_trace_partial_bound();
	test_trace_brute_force();
	printf("1..%d\n", tests);
	return failed != 0;
}
