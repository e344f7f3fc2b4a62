/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace model's segments as a relation between probes (probeset.c's
 * trace model; docs/sancov.md).  No GCC header, no probeset internals:
 * the graph comes as adjacency lists.
 *
 * A segment is a probe-free walk from a probe (or ENTRY, where a trace
 * starts) to the next probe (or EXIT, where it may end), over the graph
 * and two virtual edges, EXIT -> ENTRY (the next call) and ENTRY -> EXIT.
 * The relation keeps every pair (s, t) joined by a segment with two sets
 * of lines over its walks: those some walk runs and those every walk
 * runs, the ends' own lines in neither.  The probes hide a line exactly
 * when some pair runs it on some walk and not on every one, with s
 * reached from ENTRY and t reaching EXIT without the line: what
 * probeset.c's hidden_trace() asks walk by walk.  A drop is then decided
 * on the pairs at the probe alone (segs_drop()).
 */
#ifndef KPLUG_PROBESET_SEGS_H
#define KPLUG_PROBESET_SEGS_H

/*
 * The graph: nodes 0 .. n-1, ENTRY = n, EXIT = n + 1.  SUCC and PRED are
 * adjacency lists over the n + 2 vertices (START[v] .. START[v + 1] - 1
 * in LIST), without the virtual edges; LINES lists each node's line ids
 * (0 .. nlines - 1) the same way over the n nodes.
 */
struct seg_adj {
	const int *start, *list;
};

struct seg_graph;
struct segs;

/* The graph and what depends on it alone; the arrays are copied. */
struct seg_graph *seg_graph_new(int n, struct seg_adj succ, struct seg_adj pred,
				int nlines, struct seg_adj lines);
void seg_graph_free(struct seg_graph *g);
/* Work done so far by every relation of G (set elements looked at). */
long seg_graph_work(const struct seg_graph *g);

/* The relation of the probes PROBE[v] != 0 (v < n). */
struct segs *segs_new(struct seg_graph *g, const unsigned char *probe);
struct segs *segs_copy(const struct segs *sg);
void segs_free(struct segs *sg);
/* X, not a probe before, is one in PROBE now: split the segments through it. */
void segs_add(struct segs *sg, const unsigned char *probe, int x);
/* The probes paired with probe P, into OUT (room for 2 x n); how many (repeats possible). */
int segs_neighbours(const struct segs *sg, int p, int *out);
/*
 * Drop probe P when that hides no line (then the pairs through P replace
 * those at P); whether it did.
 */
int segs_drop(struct segs *sg, int p);
/* The number of lines some pair hides. */
int segs_hidden(const struct segs *sg);

#endif
