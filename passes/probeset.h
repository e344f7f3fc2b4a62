/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probeset: which coverage probes a function needs so that the coverage
 * of every block can be inferred from the probes hit (sancov-prune).  No
 * GCC header here: the graph comes from passes/sancov-prune.c, and the
 * unit test (tests/unit/test_probeset.c) builds graphs by hand.
 *
 * The graph is the "observation graph" of a function: its nodes are pieces
 * of blocks, cut after every call that may not return; ENTRY and EXIT are
 * virtual.  Such a call gets an edge to EXIT (it may exit, longjmp, or the
 * kcov session may end inside it) and the piece after it an edge from
 * ENTRY (the session may start inside the call).  An observed run is then
 * a path ENTRY -> ... -> EXIT, and:
 *   a node ran => its immediate dominator ran (always true),
 *   a node ran => its immediate post-dominator ran (true on such paths).
 * A block is inferred covered when a hit probe implies it through those
 * two relations.  probeset_place() keeps a probe wherever some path could
 * otherwise run a block that no probe on it implies.  With source lines
 * given (probeset_line), exactness is per line, the unit the report
 * prints: a line is inferred when a hit probe implies any block that has
 * it, and a probe is kept wherever some path could run a line that no
 * probe on it implies through some block of that line.  See docs/sancov.md.
 */
#ifndef KPLUG_PROBESET_H
#define KPLUG_PROBESET_H

#define PS_ENTRY	(-1)	/* as an edge's source */
#define PS_EXIT		(-2)	/* as an edge's target */
#define PS_NONE		(-1)	/* no immediate (post-)dominator among the nodes */

enum probeset_mode {
	PS_OFF,		/* a probe on every probe-able node */
	PS_GIVEN,	/* the caller's set (Clang's rule), plus what inference needs */
	PS_MIN,		/* the fewest: an exact search, else the best of three heuristics */
	PS_EXACT,	/* the exact search alone, from a probe on every node (tests) */
};

/*
 * What a run shows of the probes it hit.  A KCOV trace-mode buffer (and
 * sancov's trace-pc callback) gives the order, with repeats; a unique or
 * counting session only which ones.  A set exact for SET is exact for
 * TRACE; TRACE may need fewer probes: between two hits, a branch whose
 * probe did not fire is the one that ran.
 */
enum probeset_observe {
	PS_OBSERVE_SET,		/* which probes were hit (the default) */
	PS_OBSERVE_TRACE,	/* the ordered hits, repeats included */
};

/* node flags */
#define PS_LINES	1	/* has source lines: its coverage matters */
#define PS_PROBEABLE	2	/* the start of a block: a probe can go here */
#define PS_PROBE	4	/* in/out: carries a probe */
#define PS_KEEP		8	/* in: must carry a probe, in every mode (pc-table's entry) */

struct probeset {
	int n;			/* nodes 0 .. n-1 */
	enum probeset_observe observe;	/* in: what exactness is asked of */
	unsigned char *flags;	/* PS_* per node */
	int *idom, *ipdom;	/* out: node or PS_NONE */
	/* edges, as added */
	int nedges, edges_size;
	int *from, *to;
	/* (node, source line id) pairs, as added; none: a line per node */
	int nlinks, links_size;
	int *link_node, *link_line;
	/*
	 * out (PS_MIN, PS_EXACT): no set that leaves nothing hidden has fewer
	 * probes; equal to the count when the exact search proved the set a
	 * smallest one, 0 when it did not run (a function too large).
	 */
	int bound;
};

struct probeset *probeset_new(int n);
void probeset_free(struct probeset *ps);
/* An edge FROM -> TO; FROM may be PS_ENTRY, TO may be PS_EXIT. */
void probeset_edge(struct probeset *ps, int from, int to);
/*
 * Node V (PS_LINES | PS_PROBEABLE) has source line LINE, a small id
 * (0, 1, ...) the caller gives each distinct line.  Without any, every
 * node with PS_LINES counts as a line of its own (exact per block).
 */
void probeset_line(struct probeset *ps, int v, int line);
/*
 * Compute the relations and decide the probes (PS_PROBE in flags).  With
 * CHECK false, no probe is added for inference (to test the test).
 * Returns the number of probes.
 */
int probeset_place(struct probeset *ps, enum probeset_mode mode, int check);
/*
 * How many lines (nodes, without lines given) the probes in flags leave
 * hidden: some run could execute them with no hit probe implying them.
 * 0 for every set probeset_place() returns with CHECK.
 */
int probeset_hidden(struct probeset *ps);
/*
 * probeset_hidden() with the trace model's first check, one search per
 * segment source instead of one fixpoint for all: the unit tests'
 * reference for the fixpoint.
 */
int probeset_hidden_each(struct probeset *ps);
/*
 * probeset_hidden() of the trace model from the segment relation the
 * search drops probes on (probeset-segs.c): the unit tests compare.
 */
int probeset_hidden_segs(struct probeset *ps);
/*
 * Infer: HIT[i] != 0 for nodes whose probe was hit; COVERED (n bytes) gets
 * 1 for every node a hit implies.  Uses idom/ipdom only, as the report does.
 */
void probeset_infer(const struct probeset *ps, const unsigned char *hit,
		    unsigned char *covered);
/*
 * Infer from an ordered trace: SEQ holds the probed nodes hit, in order,
 * LEN of them, over one or more calls of the function (a run may also
 * start or end inside it, along the graph's ENTRY and EXIT edges).
 * LINES (probeset_nlines() bytes) gets 1 for every line some node of it
 * ran on every path that hits exactly SEQ: the lines of the probes, and
 * of the nodes every probe-free path between two consecutive hits
 * passes.  Returns 0, or -1 when no path of the graph hits SEQ (a
 * truncated trace, or the wrong function).
 */
int probeset_infer_trace(struct probeset *ps, const int *seq, int len,
			 unsigned char *lines);
/* The number of line ids: those given to probeset_line, else n. */
int probeset_nlines(const struct probeset *ps);

#endif
