// SPDX-License-Identifier: GPL-2.0
/*
 * probeset: the probes a function needs; see probeset.h.  Dominators are
 * computed as in Cooper, Harvey and Kennedy, "A Simple, Fast Dominance
 * Algorithm" (2001); super blocks as in Agrawal, "Dominators, super blocks,
 * and program coverage" (POPL 1994): the strongly connected components of
 * the "implies" graph (a node implies its immediate dominator and its
 * immediate post-dominator).  A leaf super block (one nothing else
 * implies) needs a probe of its own; then every node whose coverage some
 * ENTRY -> EXIT path could hide from every probe on that path gets one.
 * min then searches for a smallest set exactly (an implicit hitting set,
 * below), within a bound on its work.
 */
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "passes/probeset.h"
#include "passes/probeset-segs.h"

static void *ps_alloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		abort();
	return p;
}

struct probeset *probeset_new(int n)
{
	struct probeset *ps = (struct probeset *)ps_alloc(1, sizeof(*ps));

	ps->n = n;
	ps->flags = (unsigned char *)ps_alloc(n, 1);
	ps->idom = (int *)ps_alloc(n, sizeof(int));
	ps->ipdom = (int *)ps_alloc(n, sizeof(int));
	return ps;
}

void probeset_free(struct probeset *ps)
{
	if (!ps)
		return;
	free(ps->flags);
	free(ps->idom);
	free(ps->ipdom);
	free(ps->from);
	free(ps->to);
	free(ps->link_node);
	free(ps->link_line);
	free(ps);
}

/* Append (A, B) to the pair of arrays *XS, *YS of *N elements, room *SIZE. */
static void pair_push(int **xs, int **ys, int *n, int *size, int a, int b)
{
	if (*n == *size) {
		*size = *size ? 2 * *size : 64;
		*xs = (int *)realloc(*xs, *size * sizeof(int));
		*ys = (int *)realloc(*ys, *size * sizeof(int));
		if (!*xs || !*ys)
			abort();
	}
	(*xs)[*n] = a;
	(*ys)[*n] = b;
	(*n)++;
}

void probeset_edge(struct probeset *ps, int from, int to)
{
	pair_push(&ps->from, &ps->to, &ps->nedges, &ps->edges_size,
		  from == PS_ENTRY ? ps->n : from, to == PS_EXIT ? ps->n + 1 : to);
}

void probeset_line(struct probeset *ps, int v, int line)
{
	pair_push(&ps->link_node, &ps->link_line, &ps->nlinks, &ps->links_size, v, line);
}

/* ---- adjacency: N = n + 2 vertices, ENTRY = n, EXIT = n + 1 ---- */

struct adj {
	int *start;	/* N + 1 */
	int *list;
};

static void adj_build(struct adj *a, int nv, int ne, const int *src, const int *dst)
{
	int i, *fill = (int *)ps_alloc(nv, sizeof(int));

	a->start = (int *)ps_alloc(nv + 1, sizeof(int));
	a->list = (int *)ps_alloc(ne, sizeof(int));
	for (i = 0; i < ne; i++)
		a->start[src[i] + 1]++;
	for (i = 0; i < nv; i++)
		a->start[i + 1] += a->start[i];
	for (i = 0; i < ne; i++)
		a->list[a->start[src[i]] + fill[src[i]]++] = dst[i];
	free(fill);
}

static void adj_free(struct adj *a)
{
	free(a->start);
	free(a->list);
}

struct work {
	int n, nv;
	struct adj succ, pred;
	struct adj impl, implied_by;	/* the "implies" relation */
	unsigned char *live;	/* reachable from ENTRY */
	int *stamp, mark;	/* visited marks without clearing */
	int *queue;
	/* source lines: node -> lines, line -> nodes (nlines ids) */
	int nlines;
	struct adj node_lines, line_nodes;
	int *lstamp, lmark;	/* lines seen, without clearing */
	unsigned char *fw;	/* per node: reached from ENTRY (hidden()) */
	struct witness *wit;	/* the exact search's, or NULL */
	int trace;		/* hidden() asks the trace model */
	int trace_each;		/* ... by one search per source (the tests' reference) */
	struct trace_work *tw;	/* its scratch, made on first use */
};

/*
 * The trace model's scratch.  A state of its searches is 2 * node + c, c
 * 1 once the walk ran the line asked about.
 */
struct trace_work {
	unsigned char *has_line;	/* nv: the node has the line */
	unsigned char *before;		/* nv: ENTRY reaches it without the line */
	unsigned char *after;		/* nv: it reaches EXIT without the line */
	/*
	 * before and after of every line, made on first use: they depend on
	 * the graph alone, not on the probes (NULL when too large: then
	 * before and after are made again for each check).
	 */
	unsigned char *line_reach;	/* nlines x 2 nv */
	unsigned char *line_ready;	/* nlines */
	const unsigned char *cur_before, *cur_after;	/* the line asked about */
	unsigned char *ends;		/* nv: bit c: a segment ends here in state c */
	int *end_from;			/* 2 nv: the state each end came from */
	int *seen, mark;		/* 2 nv */
	int *parent;			/* 2 nv */
	int *queue;			/* 2 nv */
	long work;			/* edges looked at */
	/*
	 * trace_fixpoint(): the segment sources (ENTRY, then the probes that
	 * ENTRY reaches without the line, last node first: the order the
	 * per-source search tries them in), WORDS 64-bit words of them per
	 * state and per end.
	 */
	int nsrc, words;
	int *src;			/* nv: source index -> node */
	uint64_t *from;			/* 2 nv x words: the sources reaching a state */
	uint64_t *end_by;		/* 2 nv x words: per end and state c, the sources */
	unsigned char *queued;		/* 2 nv */
};

/*
 * What hidden() gives the exact search: the nodes on the path it found that
 * could carry a probe implying the line; some probe must go on one of them.
 */
struct witness {
	int *fwd, *bwd;		/* nv each: parents in the two searches */
	unsigned char *imp;	/* nv: implies a node of the line */
	int *set, nset;		/* out */
};

/*
 * Mark (stamp = mark) what ROOT reaches over A, not entering BLOCKED; with
 * PARENT, the vertex each was reached from.
 */
static void reach_from(struct work *w, const struct adj *a, int root,
		       const unsigned char *blocked, int *parent)
{
	int head = 0, tail = 0, i, v;

	w->mark++;
	w->stamp[root] = w->mark;
	w->queue[tail++] = root;
	while (head < tail) {
		v = w->queue[head++];
		for (i = a->start[v]; i < a->start[v + 1]; i++) {
			int u = a->list[i];

			if (w->stamp[u] == w->mark || (blocked && blocked[u]))
				continue;
			w->stamp[u] = w->mark;
			if (parent)
				parent[u] = v;
			w->queue[tail++] = u;
		}
	}
}

static void reach(struct work *w, const struct adj *a, int root,
		  const unsigned char *blocked)
{
	reach_from(w, a, root, blocked, NULL);
}

/* ---- dominators (Cooper, Harvey, Kennedy) ---- */

/* Postorder numbers from ROOT over OUT; -1 for vertices not reached. */
static int postorder(const struct work *w, const struct adj *out, int root,
		     int *po, int *order)
{
	int *stack = (int *)ps_alloc(w->nv, sizeof(int));
	int *next = (int *)ps_alloc(w->nv, sizeof(int));
	int sp = 0, count = 0, v;

	for (v = 0; v < w->nv; v++)
		po[v] = -1;
	po[root] = -2;	/* on the stack */
	stack[sp++] = root;
	next[root] = out->start[root];
	while (sp) {
		v = stack[sp - 1];
		if (next[v] < out->start[v + 1]) {
			int u = out->list[next[v]++];

			if (po[u] == -1) {
				po[u] = -2;
				next[u] = out->start[u];
				stack[sp++] = u;
			}
			continue;
		}
		sp--;
		order[count] = v;
		po[v] = count++;
	}
	free(stack);
	free(next);
	return count;
}

static int intersect(const int *dom, const int *po, int a, int b)
{
	while (a != b) {
		while (po[a] < po[b])
			a = dom[a];
		while (po[b] < po[a])
			b = dom[b];
	}
	return a;
}

/* DOM[v]: immediate dominator of v from ROOT (edges OUT, preds IN); -1. */
static void dominators(const struct work *w, const struct adj *out,
		       const struct adj *in, int root, int *dom)
{
	int *po = (int *)ps_alloc(w->nv, sizeof(int));
	int *order = (int *)ps_alloc(w->nv, sizeof(int));
	int count = postorder(w, out, root, po, order), changed = 1, k, i, v;

	for (v = 0; v < w->nv; v++)
		dom[v] = -1;
	dom[root] = root;
	while (changed) {
		changed = 0;
		for (k = count - 2; k >= 0; k--) {	/* reverse postorder */
			int nd = -1;

			v = order[k];
			for (i = in->start[v]; i < in->start[v + 1]; i++) {
				int p = in->list[i];

				if (po[p] < 0 || dom[p] < 0)
					continue;
				nd = nd < 0 ? p : intersect(dom, po, p, nd);
			}
			if (dom[v] != nd) {
				dom[v] = nd;
				changed = 1;
			}
		}
	}
	free(po);
	free(order);
}

/* ---- the graph ---- */

/*
 * The lines of the nodes: the caller's (only on nodes that can carry a
 * probe and have lines), or one per node with PS_LINES.
 */
static void lines_init(struct work *w, const struct probeset *ps)
{
	int *node = (int *)ps_alloc(ps->nlinks + w->n, sizeof(int));
	int *line = (int *)ps_alloc(ps->nlinks + w->n, sizeof(int));
	const unsigned char want = PS_LINES | PS_PROBEABLE;
	int i, k = 0;

	w->nlines = 0;
	for (i = 0; i < ps->nlinks; i++) {
		int v = ps->link_node[i], l = ps->link_line[i];

		if (v < 0 || v >= w->n || l < 0 || (ps->flags[v] & want) != want)
			continue;
		node[k] = v;
		line[k++] = l;
		if (l >= w->nlines)
			w->nlines = l + 1;
	}
	if (!ps->nlinks) {
		for (i = 0; i < w->n; i++)
			if ((ps->flags[i] & want) == want) {
				node[k] = i;
				line[k++] = i;
			}
		w->nlines = w->n;
	}
	adj_build(&w->node_lines, w->n, k, node, line);
	adj_build(&w->line_nodes, w->nlines, k, line, node);
	w->lstamp = (int *)ps_alloc(w->nlines, sizeof(int));
	w->fw = (unsigned char *)ps_alloc(w->n, 1);
	free(node);
	free(line);
}

/* The successor and predecessor lists of W from PS's edges, as they are now. */
static void work_rebuild(struct work *w, const struct probeset *ps)
{
	adj_free(&w->succ);
	adj_free(&w->pred);
	adj_build(&w->succ, w->nv, ps->nedges, ps->from, ps->to);
	adj_build(&w->pred, w->nv, ps->nedges, ps->to, ps->from);
}

static void work_init(struct work *w, struct probeset *ps)
{
	int i;

	w->n = ps->n;
	w->nv = ps->n + 2;
	w->stamp = (int *)ps_alloc(w->nv, sizeof(int));
	w->queue = (int *)ps_alloc(w->nv, sizeof(int));
	w->live = (unsigned char *)ps_alloc(w->nv, 1);
	adj_build(&w->succ, w->nv, ps->nedges, ps->from, ps->to);
	reach(w, &w->succ, w->n, NULL);
	for (i = 0; i < w->nv; i++)
		w->live[i] = w->stamp[i] == w->mark;
	/* a run ends at a live node without successor (a noreturn call, a trap) */
	for (i = 0; i < w->n; i++)
		if (w->live[i] && w->succ.start[i] == w->succ.start[i + 1])
			probeset_edge(ps, i, PS_EXIT);
	work_rebuild(w, ps);
	/*
	 * Then a live node that still cannot reach EXIT is in an endless
	 * loop, where a run may stop anywhere.  This must come after the
	 * edges to EXIT above: else every node whose paths all end in a
	 * noreturn call would count as in an endless loop too, and runs that
	 * cannot happen (stopping there) would cost probes.
	 */
	reach(w, &w->pred, w->n + 1, NULL);
	for (i = 0; i < w->n; i++)
		if (w->live[i] && w->stamp[i] != w->mark)
			probeset_edge(ps, i, PS_EXIT);
	work_rebuild(w, ps);
	lines_init(w, ps);
}

static void trace_free(struct trace_work *tw)
{
	if (!tw)
		return;
	free(tw->has_line);
	free(tw->before);
	free(tw->after);
	free(tw->line_reach);
	free(tw->line_ready);
	free(tw->ends);
	free(tw->end_from);
	free(tw->seen);
	free(tw->parent);
	free(tw->queue);
	free(tw->src);
	free(tw->from);
	free(tw->end_by);
	free(tw->queued);
	free(tw);
}

static void work_free(struct work *w)
{
	trace_free(w->tw);
	adj_free(&w->succ);
	adj_free(&w->pred);
	adj_free(&w->impl);
	adj_free(&w->implied_by);
	adj_free(&w->node_lines);
	adj_free(&w->line_nodes);
	free(w->lstamp);
	free(w->fw);
	free(w->live);
	free(w->stamp);
	free(w->queue);
}

static void relations(struct work *w, struct probeset *ps)
{
	int *dom = (int *)ps_alloc(w->nv, sizeof(int));
	int *pdom = (int *)ps_alloc(w->nv, sizeof(int));
	int *src = (int *)ps_alloc(2 * w->n, sizeof(int));
	int *dst = (int *)ps_alloc(2 * w->n, sizeof(int));
	int v, ne = 0;

	dominators(w, &w->succ, &w->pred, w->n, dom);
	dominators(w, &w->pred, &w->succ, w->n + 1, pdom);
	for (v = 0; v < w->n; v++) {
		ps->idom[v] = w->live[v] && dom[v] >= 0 && dom[v] < w->n ? dom[v] : PS_NONE;
		ps->ipdom[v] = w->live[v] && pdom[v] >= 0 && pdom[v] < w->n ? pdom[v] : PS_NONE;
		if (ps->idom[v] != PS_NONE) {
			src[ne] = v;
			dst[ne++] = ps->idom[v];
		}
		if (ps->ipdom[v] != PS_NONE) {
			src[ne] = v;
			dst[ne++] = ps->ipdom[v];
		}
	}
	adj_build(&w->impl, w->nv, ne, src, dst);
	adj_build(&w->implied_by, w->nv, ne, dst, src);
	free(dom);
	free(pdom);
	free(src);
	free(dst);
}

/* ---- super blocks: strongly connected components of "implies" ---- */

struct tarjan {
	int *index, *low, *comp, *stack, sp, next, ncomp;
	unsigned char *on;
};

static void tarjan_visit(const struct work *w, struct tarjan *t, int root)
{
	int *cs = (int *)ps_alloc(w->nv, sizeof(int));	/* call stack */
	int *it = (int *)ps_alloc(w->nv, sizeof(int));
	int csp = 0;

	cs[csp++] = root;
	t->index[root] = t->low[root] = t->next++;
	t->stack[t->sp++] = root;
	t->on[root] = 1;
	it[root] = w->impl.start[root];
	while (csp) {
		int v = cs[csp - 1];

		if (it[v] < w->impl.start[v + 1]) {
			int u = w->impl.list[it[v]++];

			if (t->index[u] < 0) {
				t->index[u] = t->low[u] = t->next++;
				t->stack[t->sp++] = u;
				t->on[u] = 1;
				it[u] = w->impl.start[u];
				cs[csp++] = u;
			} else if (t->on[u] && t->index[u] < t->low[v]) {
				t->low[v] = t->index[u];
			}
			continue;
		}
		csp--;
		if (csp && t->low[v] < t->low[cs[csp - 1]])
			t->low[cs[csp - 1]] = t->low[v];
		if (t->low[v] == t->index[v]) {
			int u;

			do {
				u = t->stack[--t->sp];
				t->on[u] = 0;
				t->comp[u] = t->ncomp;
			} while (u != v);
			t->ncomp++;
		}
	}
	free(cs);
	free(it);
}

/* One probe per leaf super block (one no node outside it implies). */
static void place_leaves(struct work *w, struct probeset *ps)
{
	struct tarjan t = { 0 };
	unsigned char *has_in, *done;
	int v, i;

	t.index = (int *)ps_alloc(w->nv, sizeof(int));
	t.low = (int *)ps_alloc(w->nv, sizeof(int));
	t.comp = (int *)ps_alloc(w->nv, sizeof(int));
	t.stack = (int *)ps_alloc(w->nv, sizeof(int));
	t.on = (unsigned char *)ps_alloc(w->nv, 1);
	for (v = 0; v < w->nv; v++)
		t.index[v] = -1;
	for (v = 0; v < w->n; v++)
		if (w->live[v] && t.index[v] < 0)
			tarjan_visit(w, &t, v);
	has_in = (unsigned char *)ps_alloc(t.ncomp, 1);
	done = (unsigned char *)ps_alloc(t.ncomp, 1);
	for (v = 0; v < w->n; v++)
		for (i = w->impl.start[v]; w->live[v] && i < w->impl.start[v + 1]; i++)
			if (t.comp[w->impl.list[i]] != t.comp[v])
				has_in[t.comp[w->impl.list[i]]] = 1;
	/* prefer a node with lines, then any probe-able one */
	for (i = 0; i < 2; i++)
		for (v = 0; v < w->n; v++) {
			int c = t.comp[v];
			unsigned char want = i ? PS_PROBEABLE : PS_PROBEABLE | PS_LINES;

			if (!w->live[v] || has_in[c] || done[c] ||
			    (ps->flags[v] & want) != want)
				continue;
			done[c] = 1;
			ps->flags[v] |= PS_PROBE;
		}
	free(has_in);
	free(done);
	free(t.index);
	free(t.low);
	free(t.comp);
	free(t.stack);
	free(t.on);
}

/*
 * The witness of hidden line: the nodes on the path ENTRY -> V -> EXIT
 * hidden() found that imply the line and could carry a probe (V is one).
 */
static void witness_set(struct work *w, const struct probeset *ps, int v)
{
	struct witness *wit = w->wit;
	int x, half;

	wit->nset = 0;
	for (half = 0; half < 2; half++) {
		x = half ? wit->bwd[v] : v;
		while (x < w->n) {
			if (wit->imp[x] && (ps->flags[x] & PS_PROBEABLE)) {
				wit->set[wit->nset++] = x;
				wit->imp[x] = 0;	/* once */
			}
			x = half ? wit->bwd[x] : wit->fwd[x];
		}
	}
}

/* ---- the trace model ---- */

/*
 * A run seen as a trace is a walk ENTRY -> ... -> EXIT over the graph and
 * two virtual edges: EXIT -> ENTRY (the next call: nothing in a trace
 * marks where a call ends) and ENTRY -> EXIT (a stretch of the trace with
 * no call).  Between two consecutive hits it takes some probe-free walk
 * (a segment).  A line L is hidden when two runs hit the same sequence
 * and only one runs L.  Taking the same walks but in one segment, that
 * is: a segment s -> t with a probe-free walk that runs L and one that
 * does not, s reached from ENTRY and t reaching EXIT without L (s and t
 * hits, or ENTRY and EXIT for where the trace starts and ends).  Then any
 * set exact for the trace model puts a probe inside one of the two walks;
 * and with no such segment, the lines of a run are those of its hits and
 * those every walk of each of its segments runs (probeset_infer_trace).
 */

/* The most bytes of per-line reach trace_scratch() keeps (two per line and vertex). */
#define PS_TRACE_CACHE	(1L << 22)

/* The virtual edge out of (or into) V: EXIT <-> ENTRY; -1 for the others. */
static int trace_extra(const struct work *w, int v)
{
	return v == w->n + 1 ? w->n : v == w->n ? w->n + 1 : -1;
}

static struct trace_work *trace_scratch(struct work *w)
{
	struct trace_work *tw = w->tw;

	if (tw)
		return tw;
	tw = (struct trace_work *)ps_alloc(1, sizeof(*tw));
	tw->has_line = (unsigned char *)ps_alloc(w->nv, 1);
	tw->before = (unsigned char *)ps_alloc(w->nv, 1);
	tw->after = (unsigned char *)ps_alloc(w->nv, 1);
	if ((long)w->nlines * w->nv <= PS_TRACE_CACHE) {
		tw->line_reach = (unsigned char *)ps_alloc(2 * w->nlines * w->nv, 1);
		tw->line_ready = (unsigned char *)ps_alloc(w->nlines, 1);
	}
	tw->ends = (unsigned char *)ps_alloc(w->nv, 1);
	tw->end_from = (int *)ps_alloc(2 * w->nv, sizeof(int));
	tw->seen = (int *)ps_alloc(2 * w->nv, sizeof(int));
	tw->parent = (int *)ps_alloc(2 * w->nv, sizeof(int));
	tw->queue = (int *)ps_alloc(2 * w->nv, sizeof(int));
	tw->src = (int *)ps_alloc(w->nv, sizeof(int));
	tw->words = (w->nv + 63) / 64;
	tw->from = (uint64_t *)ps_alloc(2 * w->nv * tw->words, sizeof(uint64_t));
	tw->end_by = (uint64_t *)ps_alloc(2 * w->nv * tw->words, sizeof(uint64_t));
	tw->queued = (unsigned char *)ps_alloc(2 * w->nv, 1);
	w->tw = tw;
	return tw;
}

/* OUT[v] = 1 for what ROOT reaches over A and the virtual edges, not entering BLOCKED. */
static void trace_reach(struct work *w, const struct adj *a, int root,
			const unsigned char *blocked, unsigned char *out)
{
	int head = 0, tail = 0, i, v;

	memset(out, 0, w->nv);
	out[root] = 1;
	w->queue[tail++] = root;
	while (head < tail) {
		v = w->queue[head++];
		for (i = a->start[v]; i <= a->start[v + 1]; i++) {
			int u = i < a->start[v + 1] ? a->list[i] : trace_extra(w, v);

			w->tw->work++;
			if (u < 0 || out[u] || blocked[u])
				continue;
			out[u] = 1;
			w->queue[tail++] = u;
		}
	}
}

/* Whether V ends a segment: a probe, or EXIT (where the trace may end). */
static int trace_ends(const struct work *w, const struct probeset *ps, int v)
{
	return v == w->n + 1 || (v < w->n && (ps->flags[v] & PS_PROBE));
}

/* Whether V starts a segment: a probe, or ENTRY (where the trace may start). */
static int trace_starts(const struct work *w, const struct probeset *ps, int v)
{
	return v == w->n || (v < w->n && (ps->flags[v] & PS_PROBE));
}

/*
 * The segments from SRC (a probe, or ENTRY): every probe-free walk, in
 * state c = whether it ran the line.  tw->ends gets, per end, the states
 * it was reached in; tw->end_from the state before.
 */
static void trace_walks(struct work *w, const struct probeset *ps, int src)
{
	struct trace_work *tw = w->tw;
	int head = 0, tail = 0, i;

	tw->mark++;
	memset(tw->ends, 0, w->nv);
	tw->seen[2 * src] = tw->mark;
	tw->parent[2 * src] = -1;
	tw->queue[tail++] = 2 * src;
	while (head < tail) {
		int st = tw->queue[head++], u = st >> 1, c = st & 1;

		for (i = w->succ.start[u]; i <= w->succ.start[u + 1]; i++) {
			int x = i < w->succ.start[u + 1] ? w->succ.list[i] : trace_extra(w, u);
			int next;

			tw->work++;
			if (x < 0)
				continue;
			if (trace_ends(w, ps, x) && !(tw->ends[x] & (1 << c))) {
				tw->ends[x] |= 1 << c;
				tw->end_from[2 * x + c] = st;
			}
			if (x < w->n && (ps->flags[x] & PS_PROBE))
				continue;	/* EXIT goes on: the next call */
			next = 2 * x + (c | (x < w->n && tw->has_line[x]));
			if (tw->seen[next] == tw->mark)
				continue;
			tw->seen[next] = tw->mark;
			tw->parent[next] = st;
			tw->queue[tail++] = next;
		}
	}
}

/*
 * The two walks to END (in state 1 and 0): the node where the first ran
 * the line (returned), and in the witness every node of either that could
 * carry a probe.
 */
static int trace_witness(struct work *w, const struct probeset *ps, int end)
{
	struct trace_work *tw = w->tw;
	int c, st, ran = -1;

	if (w->wit)
		w->wit->nset = 0;
	for (c = 1; c >= 0; c--) {
		for (st = tw->end_from[2 * end + c]; st >= 0; st = tw->parent[st]) {
			int x = st >> 1, from = tw->parent[st];

			if ((st & 1) && (from < 0 || !(from & 1)) && ran < 0)
				ran = x;
			if (!w->wit || x >= w->n || w->wit->imp[x] ||
			    (ps->flags[x] & (PS_PROBE | PS_PROBEABLE)) != PS_PROBEABLE)
				continue;
			w->wit->imp[x] = 1;	/* once */
			w->wit->set[w->wit->nset++] = x;
		}
	}
	if (w->wit)
		memset(w->wit->imp, 0, w->nv);
	return ran;
}

/* tw->cur_before and cur_after of line L (tw->has_line). */
static void trace_line_reach(struct work *w, int l)
{
	struct trace_work *tw = w->tw;
	unsigned char *before = tw->before, *after = tw->after;

	if (tw->line_reach) {
		before = tw->line_reach + 2L * l * w->nv;
		after = before + w->nv;
	}
	if (!tw->line_reach || !tw->line_ready[l]) {
		trace_reach(w, &w->succ, w->n, tw->has_line, before);
		trace_reach(w, &w->pred, w->n + 1, tw->has_line, after);
	}
	if (tw->line_reach)
		tw->line_ready[l] = 1;
	tw->cur_before = before;
	tw->cur_after = after;
}

/*
 * The sources of the segments of line L (tw->has_line): ENTRY, then the
 * probes ENTRY reaches without L, last node first.  How many.
 */
static int trace_sources(struct work *w, const struct probeset *ps)
{
	struct trace_work *tw = w->tw;
	int s;

	tw->nsrc = 0;
	for (s = w->n; s >= 0; s--)
		if (trace_starts(w, ps, s) && (s == w->n || tw->cur_before[s]))
			tw->src[tw->nsrc++] = s;
	return tw->nsrc;
}

/* OR the WORDS words of B into A; whether A changed. */
static int bits_or(uint64_t *a, const uint64_t *b, int words)
{
	uint64_t changed = 0;
	int i;

	for (i = 0; i < words; i++) {
		changed |= b[i] & ~a[i];
		a[i] |= b[i];
	}
	return changed != 0;
}

/*
 * trace_walks() from every source at once: tw->from[state] gets the
 * sources (bit i: tw->src[i]) with a probe-free walk to that state, and
 * tw->end_by[2 * end + c] those with one that ends a segment at END in
 * state c, by a worklist until nothing changes (each state's sources only
 * grow).  The index of the first source, in tw->src's order, with a
 * segment to an end that EXIT reaches without the line (tw->cur_after) in both
 * states; -1 when there is none.
 */
static int trace_fixpoint(struct work *w, const struct probeset *ps)
{
	struct trace_work *tw = w->tw;
	int words = tw->words, nst = 2 * w->nv, head = 0, tail = 0, count = 0, i, t;
	uint64_t *from = tw->from, *end_by = tw->end_by;

	memset(from, 0, nst * words * sizeof(uint64_t));
	memset(end_by, 0, nst * words * sizeof(uint64_t));
	memset(tw->queued, 0, nst);
	for (i = 0; i < tw->nsrc; i++) {
		int st = 2 * tw->src[i];

		from[st * words + i / 64] |= (uint64_t)1 << (i % 64);
		tw->queued[st] = 1;
		tw->queue[tail++] = st;
		count++;
	}
	/* the queue is circular: a state is in it at most once */
	while (count) {
		int st = tw->queue[head], u = st >> 1, c = st & 1;

		head = (head + 1) % nst;
		count--;
		tw->queued[st] = 0;
		for (i = w->succ.start[u]; i <= w->succ.start[u + 1]; i++) {
			int x = i < w->succ.start[u + 1] ? w->succ.list[i] : trace_extra(w, u);
			int next;

			tw->work += words;
			if (x < 0)
				continue;
			if (trace_ends(w, ps, x))
				bits_or(end_by + (2 * x + c) * words, from + st * words, words);
			if (x < w->n && (ps->flags[x] & PS_PROBE))
				continue;	/* EXIT goes on: the next call */
			next = 2 * x + (c | (x < w->n && tw->has_line[x]));
			if (bits_or(from + next * words, from + st * words, words) &&
			    !tw->queued[next]) {
				tw->queued[next] = 1;
				tw->queue[tail] = next;
				tail = (tail + 1) % nst;
				count++;
			}
		}
	}
	for (i = 0; i < tw->nsrc; i++) {
		uint64_t bit = (uint64_t)1 << (i % 64);

		for (t = 0; t < w->nv; t++) {
			const uint64_t *e = end_by + 2 * t * words + i / 64;

			if (tw->cur_after[t] && (e[0] & bit) && (e[words] & bit))
				return i;
		}
	}
	return -1;
}

/*
 * The segment of trace_walks(SRC) that shows line L (tw->has_line)
 * hidden, as the witness: the first end, in node order, reached in both
 * states that reaches EXIT without L; -1 when there is none.
 */
static int trace_hidden_from(struct work *w, const struct probeset *ps, int src)
{
	struct trace_work *tw = w->tw;
	int t;

	trace_walks(w, ps, src);
	for (t = 0; t < w->nv; t++)
		if (tw->ends[t] == 3 && tw->cur_after[t])
			return trace_witness(w, ps, t);
	return -1;
}

/*
 * hidden() of the trace model: a node of L on a segment that may or may
 * not run L.  trace_fixpoint() finds the first source of such a segment;
 * trace_walks() from it alone gives the witness, the one the search from
 * each source in turn (w->trace_each) gives.
 */
static int hidden_trace(struct work *w, const struct probeset *ps, int l)
{
	const struct adj *ln = &w->line_nodes;
	struct trace_work *tw = trace_scratch(w);
	int i, first;

	memset(tw->has_line, 0, w->nv);
	for (i = ln->start[l]; i < ln->start[l + 1]; i++)
		tw->has_line[ln->list[i]] = 1;
	trace_line_reach(w, l);
	trace_sources(w, ps);
	if (w->trace_each) {
		for (i = 0; i < tw->nsrc; i++) {
			int ran = trace_hidden_from(w, ps, tw->src[i]);

			if (ran >= 0)
				return ran;
		}
		return -1;
	}
	first = trace_fixpoint(w, ps);
	return first < 0 ? -1 : trace_hidden_from(w, ps, tw->src[first]);
}

/*
 * Whether some ENTRY -> V -> EXIT path, V a node with line L, avoids every
 * probe that implies a node with L: then a run could execute L and
 * inference could not tell.  Returns the last such V, or -1.  (The trace
 * model: hidden_trace().)
 */
static int hidden(struct work *w, const struct probeset *ps, int l,
		  unsigned char *blocked)
{
	const struct adj *ln = &w->line_nodes;
	int i, head = 0, tail = 0, ret = -1, any = 0;

	if (w->trace)
		return hidden_trace(w, ps, l);
	/* the nodes that imply a node with L, and of them those with a probe */
	w->mark++;
	for (i = ln->start[l]; i < ln->start[l + 1]; i++) {
		int v = ln->list[i];

		if (w->stamp[v] != w->mark) {
			w->stamp[v] = w->mark;
			w->queue[tail++] = v;
		}
	}
	while (head < tail) {
		int x = w->queue[head++];

		for (i = w->implied_by.start[x]; i < w->implied_by.start[x + 1]; i++) {
			int u = w->implied_by.list[i];

			if (w->stamp[u] == w->mark)
				continue;
			w->stamp[u] = w->mark;
			w->queue[tail++] = u;
		}
	}
	for (i = 0; i < tail; i++) {
		blocked[w->queue[i]] = !!(ps->flags[w->queue[i]] & PS_PROBE);
		if (w->wit)
			w->wit->imp[w->queue[i]] = 1;
	}
	reach_from(w, &w->succ, w->n, blocked, w->wit ? w->wit->fwd : NULL);
	for (i = ln->start[l]; i < ln->start[l + 1]; i++) {
		int v = ln->list[i];

		w->fw[v] = w->stamp[v] == w->mark && !blocked[v];
		any |= w->fw[v];
	}
	if (any) {
		reach_from(w, &w->pred, w->n + 1, blocked, w->wit ? w->wit->bwd : NULL);
		for (i = ln->start[l]; i < ln->start[l + 1]; i++) {
			int v = ln->list[i];

			if (w->fw[v] && w->stamp[v] == w->mark && v > ret)
				ret = v;
		}
	}
	if (w->wit && ret >= 0)
		witness_set(w, ps, ret);
	/* the queue was reused by reach(): clear by scanning all */
	memset(blocked, 0, w->nv);
	if (w->wit)
		memset(w->wit->imp, 0, w->nv);
	return ret;
}

/* Probe hidden nodes of line L until none is left. */
static void place_line(struct work *w, struct probeset *ps, int l,
		       unsigned char *blocked)
{
	int h;

	while ((h = hidden(w, ps, l, blocked)) >= 0)
		ps->flags[h] |= PS_PROBE;
}

static void place_needed(struct work *w, struct probeset *ps)
{
	unsigned char *blocked = (unsigned char *)ps_alloc(w->nv, 1);
	int k, i;

	/* last node first: a probe low in a function tends to imply more */
	for (k = 0; k < w->n; k++) {
		int v = w->n - 1 - k;

		if (!w->live[v] || (ps->flags[v] & PS_PROBE))
			continue;
		for (i = w->node_lines.start[v]; i < w->node_lines.start[v + 1]; i++)
			place_line(w, ps, w->node_lines.list[i], blocked);
	}
	free(blocked);
}

/*
 * Whether a line of node V not yet asked since w->lmark was last raised
 * is hidden; each line is asked once per mark.
 */
static int node_lines_hidden(struct work *w, const struct probeset *ps, int v,
			     unsigned char *blocked)
{
	int i;

	for (i = w->node_lines.start[v]; i < w->node_lines.start[v + 1]; i++) {
		int l = w->node_lines.list[i];

		if (w->lstamp[l] == w->lmark)
			continue;
		w->lstamp[l] = w->lmark;
		if (hidden(w, ps, l, blocked) >= 0)
			return 1;
	}
	return 0;
}

/* Whether a line of some node P implies (P itself included) has become hidden. */
static int breaks(struct work *w, const struct probeset *ps, int p,
		  unsigned char *blocked)
{
	int *todo = (int *)ps_alloc(w->nv, sizeof(int)), n = 0, i, j, ret = 0;
	unsigned char *seen = (unsigned char *)ps_alloc(w->nv, 1);

	todo[n++] = p;
	seen[p] = 1;
	for (i = 0; i < n; i++)
		for (j = w->impl.start[todo[i]]; j < w->impl.start[todo[i] + 1]; j++)
			if (!seen[w->impl.list[j]]) {
				seen[w->impl.list[j]] = 1;
				todo[n++] = w->impl.list[j];
			}
	w->lmark++;
	for (i = 0; i < n && !ret; i++) {
		int v = todo[i];

		if (v < w->n)
			ret = node_lines_hidden(w, ps, v, blocked);
	}
	free(todo);
	free(seen);
	return ret;
}

/*
 * Drop the probes the others make unnecessary: one by one, keep a probe
 * out when no node it implies becomes hidden.  Skipped in functions of
 * more than PS_DROP_MAX_NODES nodes (it costs a search per implied node
 * and probe).
 */
#define PS_DROP_MAX_NODES	2000

static void drop_redundant(struct work *w, struct probeset *ps, int last_first)
{
	unsigned char *blocked = (unsigned char *)ps_alloc(w->nv, 1);
	int k, v;

	if (w->n > PS_DROP_MAX_NODES)
		goto out;
	for (k = 0; k < w->n; k++) {
		v = last_first ? w->n - 1 - k : k;
		if (!(ps->flags[v] & PS_PROBE) || (ps->flags[v] & PS_KEEP))
			continue;
		ps->flags[v] &= ~PS_PROBE;
		if (breaks(w, ps, v, blocked))
			ps->flags[v] |= PS_PROBE;
	}
out:
	free(blocked);
}

/*
 * The other way round: a probe on every node that can carry one, then
 * drop what the others make unnecessary, last node first.  Kept when it
 * needs fewer than COUNT probes (the leaves' way).
 */
static int try_from_all(struct work *w, struct probeset *ps, int count)
{
	unsigned char *keep = (unsigned char *)ps_alloc(w->n, 1);
	int v, n = 0;

	for (v = 0; v < w->n; v++) {
		keep[v] = ps->flags[v];
		if (w->live[v] && (ps->flags[v] & PS_PROBEABLE))
			ps->flags[v] |= PS_PROBE;
	}
	drop_redundant(w, ps, 1);
	for (v = 0; v < w->n; v++)
		n += !!(ps->flags[v] & PS_PROBE);
	if (n >= count) {
		memcpy(ps->flags, keep, w->n);
		n = count;
	}
	free(keep);
	return n;
}

/* ---- the fewest probes, exactly: an implicit hitting set ---- */

/*
 * Each hidden line of a candidate set gives a constraint: one of the nodes
 * of its witness must carry a probe, in any set that leaves nothing hidden.
 * The smallest set meeting every constraint so far (branch and bound) is
 * the next candidate, the empty set the first.  When a candidate leaves
 * nothing hidden, no set has fewer probes; when no set meets the
 * constraints with fewer probes than the heuristics' set, that one is a
 * smallest.  The search gives up after PS_EXACT_WORK units of work
 * (constraint elements looked at, nodes and edges of each search for a
 * hidden line); the heuristics' set stays then, and what the constraints
 * gathered prove is a lower bound.
 */
#define PS_EXACT_MAX_NODES	400
#define PS_EXACT_WORK		8000000L
/*
 * The trace model's exact search checks a candidate line by line
 * (hidden_trace()): it runs in small functions only (PS_TRACE_MAX_NODES),
 * within this much work.
 */
#define PS_TRACE_EXACT_WORK	100000L

struct cover {
	int n, size;		/* constraints, room */
	int *start;		/* size + 1 offsets into el */
	int nel, el_size;
	int *el;
	int *order;		/* constraints, the smallest first (the bound) */
	/* the search */
	unsigned char *in;	/* node carries a probe */
	unsigned char *out;	/* node excluded on this branch */
	int *undo, nundo;	/* the nodes excluded, to put back */
	unsigned char *mark;	/* scratch for the bound */
	int *cur, ncur;
	int *best, nbest;	/* look for fewer than nbest */
	long work;		/* elements looked at */
	long limit;		/* the work it may do */
	int lower;		/* cover_parts(): what it proved no set can go below */
};

static void cover_add(struct cover *c, const int *set, int n)
{
	int i;

	if (c->n + 1 >= c->size) {
		c->size = c->size ? 2 * c->size : 64;
		c->start = (int *)realloc(c->start, (c->size + 1) * sizeof(int));
		if (!c->start)
			abort();
	}
	while (c->nel + n > c->el_size) {
		c->el_size = c->el_size ? 2 * c->el_size : 256;
		c->el = (int *)realloc(c->el, c->el_size * sizeof(int));
		if (!c->el)
			abort();
	}
	c->start[c->n] = c->nel;
	for (i = 0; i < n; i++)
		c->el[c->nel++] = set[i];
	c->start[++c->n] = c->nel;
}

/* Open elements of unmet constraint K (not excluded); -1 when K is met. */
static int cover_open(struct cover *c, int k)
{
	int i, open = 0;

	c->work += c->start[k + 1] - c->start[k];
	for (i = c->start[k]; i < c->start[k + 1]; i++) {
		if (c->in[c->el[i]])
			return -1;
		open += !c->out[c->el[i]];
	}
	return open;
}

static const struct cover *cover_sorting;	/* for qsort's comparison */

static int cover_size_cmp(const void *a, const void *b)
{
	const struct cover *c = cover_sorting;
	int x = *(const int *)a, y = *(const int *)b;
	int sx = c->start[x + 1] - c->start[x], sy = c->start[y + 1] - c->start[y];

	return sx != sy ? sx - sy : x - y;
}

/* Order the constraints for cover_bound(): small ones first pack more. */
static void cover_order(struct cover *c)
{
	int k;

	c->order = (int *)realloc(c->order, (c->n ? c->n : 1) * sizeof(int));
	if (!c->order)
		abort();
	for (k = 0; k < c->n; k++)
		c->order[k] = k;
	cover_sorting = c;
	qsort(c->order, c->n, sizeof(int), cover_size_cmp);
}

/*
 * A lower bound on the probes still needed: unmet constraints with no
 * element in common, picked greedily, the smallest first.
 */
static int cover_bound(struct cover *c, int nv)
{
	int j, i, lb = 0;

	memset(c->mark, 0, nv);
	for (j = 0; j < c->n; j++) {
		int k = c->order[j], free_ = 1;

		if (cover_open(c, k) < 0)
			continue;
		for (i = c->start[k]; i < c->start[k + 1] && free_; i++)
			free_ = !c->mark[c->el[i]];
		if (!free_)
			continue;
		lb++;
		for (i = c->start[k]; i < c->start[k + 1]; i++)
			c->mark[c->el[i]] = 1;
	}
	return lb;
}

/* Branch on the unmet constraint with the fewest open elements. */
static void cover_search(struct cover *c, int nv)
{
	int k, i, pick = -1, fewest = 0, top;

	if (c->work > c->limit)
		return;
	for (k = 0; k < c->n; k++) {
		int open = cover_open(c, k);

		if (open < 0)
			continue;
		if (!open)
			return;		/* cannot be met on this branch */
		if (pick < 0 || open < fewest) {
			pick = k;
			fewest = open;
		}
	}
	if (pick < 0) {
		memcpy(c->best, c->cur, c->ncur * sizeof(int));
		c->nbest = c->ncur;
		return;
	}
	if (c->ncur + cover_bound(c, nv) >= c->nbest)
		return;
	top = c->nundo;
	for (i = c->start[pick]; i < c->start[pick + 1] && c->work <= c->limit; i++) {
		int v = c->el[i];

		if (c->out[v])
			continue;
		c->in[v] = 1;
		c->cur[c->ncur++] = v;
		cover_search(c, nv);
		c->ncur--;
		c->in[v] = 0;
		c->out[v] = 1;	/* the later branches go without V */
		c->undo[c->nundo++] = v;
	}
	while (c->nundo > top)
		c->out[c->undo[--c->nundo]] = 0;
}

/* Add a constraint for every line the probes in PS leave hidden; how many. */
static int cover_gather(struct work *w, struct probeset *ps, struct cover *c,
			unsigned char *blocked)
{
	int l, added = 0;

	for (l = 0; l < w->nlines; l++) {
		long before = w->tw ? w->tw->work : 0;
		int h = hidden(w, ps, l, blocked);

		if (w->trace)
			c->work += w->tw->work - before;
		else
			c->work += w->nv + w->succ.start[w->nv];	/* two searches */
		if (h >= 0) {
			cover_add(c, w->wit->set, w->wit->nset);
			added++;
		}
	}
	return added;
}

static void cover_init(struct cover *c, struct witness *wit, int nv)
{
	wit->fwd = (int *)ps_alloc(nv, sizeof(int));
	wit->bwd = (int *)ps_alloc(nv, sizeof(int));
	wit->imp = (unsigned char *)ps_alloc(nv, 1);
	wit->set = (int *)ps_alloc(nv, sizeof(int));
	c->in = (unsigned char *)ps_alloc(nv, 1);
	c->out = (unsigned char *)ps_alloc(nv, 1);
	c->mark = (unsigned char *)ps_alloc(nv, 1);
	c->cur = (int *)ps_alloc(nv, sizeof(int));
	c->undo = (int *)ps_alloc(nv, sizeof(int));
	c->best = (int *)ps_alloc(nv, sizeof(int));
}

static void cover_free(struct cover *c, struct witness *wit)
{
	free(wit->fwd);
	free(wit->bwd);
	free(wit->imp);
	free(wit->set);
	free(c->start);
	free(c->el);
	free(c->order);
	free(c->in);
	free(c->out);
	free(c->mark);
	free(c->cur);
	free(c->undo);
	free(c->best);
}

/* ---- the constraints in independent parts ---- */

static int uf_find(int *parent, int x)
{
	while (parent[x] != x)
		x = parent[x] = parent[parent[x]];
	return x;
}

/* Constraint K of C into SUB. */
static void cover_copy_one(const struct cover *c, struct cover *sub, int k)
{
	cover_add(sub, c->el + c->start[k], c->start[k + 1] - c->start[k]);
}

/*
 * The constraints of a part as bitsets, for cover_reduce(): per
 * constraint its nodes, per node its constraints.
 */
struct reduce {
	int m, nn, cw, nw;	/* constraints, nodes; words per bitset of each */
	uint64_t *els;		/* m x nw */
	uint64_t *cons;		/* nv x cw */
	int *nodes;		/* the part's nodes */
	unsigned char *gone, *node_gone;
};

/*
 * Whether I goes for J, where J's set B is within I's set A (of two
 * equal sets, the later goes).
 */
static int goes_for(const uint64_t *a, const uint64_t *b, int words, int i, int j)
{
	int w, equal = 1;

	for (w = 0; w < words; w++) {
		if (b[w] & ~a[w])
			return 0;
		equal &= a[w] == b[w];
	}
	return !equal || i > j;
}

/* A constraint that holds every node of another goes: meeting that one meets it. */
static int reduce_constraints(struct reduce *r, long *work)
{
	int i, j, k, changed = 0;

	for (i = 0; i < r->m; i++)
		for (j = 0; j < r->m && !r->gone[i]; j++) {
			if (i == j || r->gone[j])
				continue;
			*work += r->nw;
			if (!goes_for(r->els + (long)i * r->nw, r->els + (long)j * r->nw, r->nw, i, j))
				continue;
			r->gone[i] = 1;
			changed = 1;
			for (k = 0; k < r->nn; k++)
				r->cons[(long)r->nodes[k] * r->cw + i / 64] &= ~((uint64_t)1 << (i % 64));
		}
	return changed;
}

/* A node whose constraints another node is in too goes: that one serves instead. */
static int reduce_nodes(struct reduce *r, long *work)
{
	int x, y, k, changed = 0;

	for (x = 0; x < r->nn; x++)
		for (y = 0; y < r->nn && !r->node_gone[r->nodes[x]]; y++) {
			int i = r->nodes[x], j = r->nodes[y];

			if (i == j || r->node_gone[j])
				continue;
			*work += r->cw;
			if (!goes_for(r->cons + (long)j * r->cw, r->cons + (long)i * r->cw, r->cw, i, j))
				continue;
			r->node_gone[i] = 1;
			changed = 1;
			for (k = 0; k < r->m; k++)
				r->els[(long)k * r->nw + i / 64] &= ~((uint64_t)1 << (i % 64));
		}
	return changed;
}

/*
 * Reduce SUB to a smaller problem with the same fewest nodes:
 * reduce_constraints() and reduce_nodes() until neither applies.
 */
static void cover_reduce(struct cover *sub, int nv)
{
	struct reduce r = {
		.m = sub->n,
		.cw = (sub->n + 63) / 64,
		.nw = (nv + 63) / 64,
	};
	struct cover out = { 0 };
	int *set = (int *)ps_alloc(nv, sizeof(int)), i, k;
	unsigned char *seen = (unsigned char *)ps_alloc(nv, 1);

	r.els = (uint64_t *)ps_alloc((long)r.m * r.nw, sizeof(uint64_t));
	r.cons = (uint64_t *)ps_alloc((long)nv * r.cw, sizeof(uint64_t));
	r.nodes = (int *)ps_alloc(nv, sizeof(int));
	r.gone = (unsigned char *)ps_alloc(r.m, 1);
	r.node_gone = (unsigned char *)ps_alloc(nv, 1);
	for (k = 0; k < r.m; k++)
		for (i = sub->start[k]; i < sub->start[k + 1]; i++) {
			int v = sub->el[i];

			if (!seen[v]) {
				seen[v] = 1;
				r.nodes[r.nn++] = v;
			}
			r.els[(long)k * r.nw + v / 64] |= (uint64_t)1 << (v % 64);
			r.cons[(long)v * r.cw + k / 64] |= (uint64_t)1 << (k % 64);
		}
	while (reduce_constraints(&r, &sub->work) | reduce_nodes(&r, &sub->work))
		;
	for (k = 0; k < r.m; k++) {
		int n = 0;

		if (r.gone[k])
			continue;
		for (i = sub->start[k]; i < sub->start[k + 1]; i++)
			if (!r.node_gone[sub->el[i]])
				set[n++] = sub->el[i];
		cover_add(&out, set, n);
	}
	free(sub->start);
	free(sub->el);
	sub->n = out.n;
	sub->size = out.size;
	sub->start = out.start;
	sub->nel = out.nel;
	sub->el_size = out.el_size;
	sub->el = out.el;
	free(r.els);
	free(r.cons);
	free(r.nodes);
	free(r.gone);
	free(r.node_gone);
	free(set);
	free(seen);
}

/*
 * cover_search() part by part: the unmet constraints split where they
 * share no node, and the smallest set meeting them all is the union of
 * each part's smallest.  c->best and c->nbest get that union with the
 * nodes already in (when it has fewer than COUNT; else nbest = COUNT);
 * c->lower what is proven: the parts searched to the end count their
 * smallest, the others cover_bound()'s.
 */
static void cover_parts(struct cover *c, int nv, int count)
{
	int *parent = (int *)ps_alloc(nv, sizeof(int));
	int *comp_of = (int *)ps_alloc(c->n ? c->n : 1, sizeof(int));
	unsigned char *done = (unsigned char *)ps_alloc(nv, 1);
	struct cover sub = { 0 };
	struct witness unused = { 0 };
	int k, i, v, total = c->ncur, lower = c->ncur;

	for (v = 0; v < nv; v++)
		parent[v] = v;
	for (k = 0; k < c->n; k++) {
		comp_of[k] = -1;
		if (cover_open(c, k) < 0)
			continue;	/* met by the nodes already in */
		comp_of[k] = uf_find(parent, c->el[c->start[k]]);
		for (i = c->start[k] + 1; i < c->start[k + 1]; i++) {
			int a = uf_find(parent, c->el[i]), b = uf_find(parent, comp_of[k]);

			if (a != b)
				parent[a] = b;
		}
	}
	cover_init(&sub, &unused, nv);
	memcpy(c->best, c->cur, c->ncur * sizeof(int));
	for (k = 0; k < c->n; k++) {
		int root, nel = 0, bound;

		if (comp_of[k] < 0 || done[root = uf_find(parent, comp_of[k])])
			continue;
		done[root] = 1;
		sub.n = sub.nel = 0;
		for (i = k; i < c->n; i++)
			if (comp_of[i] >= 0 && uf_find(parent, comp_of[i]) == root)
				cover_copy_one(c, &sub, i);
		for (i = 0; i < sub.nel; i++)
			if (!sub.mark[sub.el[i]]) {
				sub.mark[sub.el[i]] = 1;
				sub.best[nel++] = sub.el[i];	/* every node: a set that meets all */
			}
		memset(sub.mark, 0, nv);
		sub.nbest = nel;
		sub.work = c->work;
		sub.limit = c->limit;
		cover_reduce(&sub, nv);
		cover_order(&sub);
		bound = cover_bound(&sub, nv);
		sub.ncur = 0;
		if (bound < sub.nbest)
			cover_search(&sub, nv);
		c->work = sub.work;
		lower += bound >= sub.nbest || sub.work <= sub.limit ? sub.nbest : bound;
		memcpy(c->best + total, sub.best, sub.nbest * sizeof(int));
		total += sub.nbest;
	}
	c->nbest = total < count ? total : count;
	c->lower = lower;
	cover_free(&sub, &unused);
	free(parent);
	free(comp_of);
	free(done);
}

/*
 * Candidates, the smallest meeting the constraints first, until one leaves
 * nothing hidden (it is in flags then: returns 1), or until no set has
 * fewer than COUNT probes (returns 0) or the work is used up (-1).
 */
static int cover_solve(struct work *w, struct probeset *ps, struct cover *c,
		       int count)
{
	unsigned char *blocked = (unsigned char *)ps_alloc(w->nv, 1);
	int v, i, ret;

	for (;;) {
		if (!cover_gather(w, ps, c, blocked)) {
			ret = 1;
			break;
		}
		cover_parts(c, w->nv, count);
		if (c->work > c->limit || c->nbest >= count) {
			ret = c->work > c->limit ? -1 : 0;
			break;
		}
		for (v = 0; v < w->n; v++)
			ps->flags[v] &= ~PS_PROBE;
		for (i = 0; i < c->nbest; i++)
			ps->flags[c->best[i]] |= PS_PROBE;
	}
	free(blocked);
	return ret;
}

/*
 * Replace the set in PS (COUNT probes, leaving nothing hidden) by a smallest
 * one, or prove it is one, when the search finishes in time; ps->bound gets
 * what it proved.  Returns the probes kept.
 */
static int exact_min(struct work *w, struct probeset *ps, int count)
{
	struct witness wit = { 0 };
	struct cover c = { 0 };
	unsigned char *keep = (unsigned char *)ps_alloc(w->n, 1);
	int v, kept = 0, found;

	cover_init(&c, &wit, w->nv);
	c.limit = w->trace ? PS_TRACE_EXACT_WORK : PS_EXACT_WORK;
	memcpy(keep, ps->flags, w->n);
	for (v = 0; v < w->n; v++) {
		if (!(ps->flags[v] & PS_KEEP)) {
			ps->flags[v] &= ~PS_PROBE;
		} else if (ps->flags[v] & PS_PROBE) {
			c.in[v] = 1;	/* in every candidate */
			c.cur[kept++] = v;
		}
	}
	c.ncur = kept;
	w->wit = &wit;
	found = cover_solve(w, ps, &c, count);
	w->wit = NULL;
	if (found > 0) {
		count = 0;
		for (v = 0; v < w->n; v++)
			count += !!(ps->flags[v] & PS_PROBE);
	} else {
		memcpy(ps->flags, keep, w->n);
	}
	ps->bound = count;
	if (found < 0)		/* what the constraints so far prove */
		ps->bound = c.lower;
	cover_free(&c, &wit);
	free(keep);
	return count;
}

/* ---- the trace model's search: drops decided on the segments ---- */

/*
 * The search's work (seg_graph_work(): set elements looked at) per node
 * and 64-bit word of lines, after the first drops: cc1's work grows with
 * a function's size, and so may this (bench/prune.sh: cc1's work within
 * 1 % of an unpruned compile).  At most PS_TRACE_ROUNDS rounds.
 */
#define PS_TRACE_WORK_PER_NODE	1000L
#define PS_TRACE_ROUNDS		16
/* Probes a round adds before it drops again. */
#define PS_TRACE_KICK		3
/*
 * The exact search of the trace model checks a candidate line by line
 * (hidden_trace()): only in functions of at most PS_TRACE_MAX_NODES
 * nodes, within PS_TRACE_EXACT_WORK.
 */
#define PS_TRACE_MAX_NODES	12

/* A deterministic generator: the same function gets the same probes. */
static unsigned int trace_rand(uint64_t *state, unsigned int n)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (unsigned int)((*state >> 32) % n);
}

static struct seg_graph *trace_seg_graph(struct work *w)
{
	struct seg_adj succ = { w->succ.start, w->succ.list };
	struct seg_adj pred = { w->pred.start, w->pred.list };
	struct seg_adj lines = { w->node_lines.start, w->node_lines.list };

	return seg_graph_new(w->n, succ, pred, w->nlines, lines);
}

/* The search's state: a probe set and its segments. */
struct trace_set {
	unsigned char *probe;	/* n */
	struct segs *sg;
	int count;
};

/*
 * Drop from T, in ORDER (N nodes), every probe that can go: one the
 * segments show no line needs.
 */
static void trace_drops(const struct probeset *ps, struct trace_set *t, const int *order,
			int n)
{
	int k;

	for (k = 0; k < n; k++) {
		int v = order[k];

		if (t->probe[v] && !(ps->flags[v] & PS_KEEP) && segs_drop(t->sg, v)) {
			t->probe[v] = 0;
			t->count--;
		}
	}
}

static void trace_shuffle(int *order, int n, uint64_t *state)
{
	int k;

	for (k = n - 1; k > 0; k--) {
		int j = trace_rand(state, k + 1), x = order[k];

		order[k] = order[j];
		order[j] = x;
	}
}

/*
 * One round of the local search from BEST: a few more probes at random,
 * then drops, in a random order, of them and the probes they border (no
 * other probe can have become one to drop: more probes never hide a
 * line, fewer never show one).  Kept in BEST when it has no more probes.
 */
static void trace_round(struct work *w, const struct probeset *ps, struct trace_set *best,
			int *order, int *cand, unsigned char *mark, uint64_t *state)
{
	struct trace_set t = { 0 };
	int kicked[PS_TRACE_KICK], nkick = 0, nfree = 0, n = 0, k, i;

	for (k = 0; k < w->n; k++)
		if (w->live[k] && (ps->flags[k] & PS_PROBEABLE) && !best->probe[k])
			order[nfree++] = k;
	if (!nfree)
		return;
	t.probe = (unsigned char *)ps_alloc(w->n, 1);
	memcpy(t.probe, best->probe, w->n);
	t.sg = segs_copy(best->sg);
	t.count = best->count;
	while (nkick < PS_TRACE_KICK && nfree) {
		int j = trace_rand(state, nfree), x = order[j];

		order[j] = order[--nfree];
		t.probe[x] = 1;
		t.count++;
		segs_add(t.sg, t.probe, x);
		kicked[nkick++] = x;
	}
	for (k = 0; k < nkick; k++) {
		cand[n++] = kicked[k];
		n += segs_neighbours(t.sg, kicked[k], cand + n);
	}
	for (k = i = 0; k < n; k++)	/* once each */
		if (!mark[cand[k]]) {
			mark[cand[k]] = 1;
			cand[i++] = cand[k];
		}
	n = i;
	for (k = 0; k < n; k++)
		mark[cand[k]] = 0;
	trace_shuffle(cand, n, state);
	trace_drops(ps, &t, cand, n);
	if (t.count <= best->count) {	/* a tie moves on: another neighbourhood */
		segs_free(best->sg);
		free(best->probe);
		*best = t;
	} else {
		segs_free(t.sg);
		free(t.probe);
	}
}

/*
 * From a set exact for the trace model in flags: drops, last node first,
 * then rounds of trace_round() while the work allows.  Every set kept
 * leaves nothing hidden, each drop being checked.  Returns the probes.
 */
static int trace_search(struct work *w, struct probeset *ps, int rounds)
{
	struct seg_graph *g = trace_seg_graph(w);
	struct trace_set best = { 0 };
	int *order = (int *)ps_alloc(w->n, sizeof(int));
	int *cand = (int *)ps_alloc(PS_TRACE_KICK * (2 * w->nv + 1), sizeof(int));
	unsigned char *mark = (unsigned char *)ps_alloc(w->nv, 1);
	uint64_t state = 0x9e3779b97f4a7c15ULL;
	long limit;
	int k, r;

	best.probe = (unsigned char *)ps_alloc(w->n, 1);
	for (k = 0; k < w->n; k++) {
		best.probe[k] = !!(ps->flags[k] & PS_PROBE);
		best.count += best.probe[k];
		order[k] = w->n - 1 - k;
	}
	best.sg = segs_new(g, best.probe);
	trace_drops(ps, &best, order, w->n);
	limit = seg_graph_work(g) + PS_TRACE_WORK_PER_NODE * w->n * ((w->nlines + 63) / 64 + 1);
	for (r = 0; r < rounds && seg_graph_work(g) < limit; r++)
		trace_round(w, ps, &best, order, cand, mark, &state);
	for (k = 0; k < w->n; k++)
		ps->flags[k] = best.probe[k] ? ps->flags[k] | PS_PROBE : ps->flags[k] & ~PS_PROBE;
	segs_free(best.sg);
	free(best.probe);
	seg_graph_free(g);
	free(order);
	free(cand);
	free(mark);
	return best.count;
}

/*
 * From a set exact for the set model (so for the trace model too), with
 * COUNT probes: trace_search() (Clang's rule given: its drops alone),
 * then, min in small functions, the exact search for a smallest set of
 * the trace model; ps->bound gets what that proved, else 0 (what the set
 * model proved is no bound for traces).  PS_EXACT: the exact search
 * alone.  Returns the probes kept.
 */
static int trace_min(struct work *w, struct probeset *ps, enum probeset_mode mode,
		     int count)
{
	ps->bound = 0;
	if (mode != PS_EXACT && w->n > PS_DROP_MAX_NODES)
		return count;
	w->trace = 1;
	if (mode != PS_EXACT)
		count = trace_search(w, ps, mode == PS_MIN ? PS_TRACE_ROUNDS : 0);
	if ((mode == PS_MIN && w->n <= PS_TRACE_MAX_NODES) ||
	    (mode == PS_EXACT && w->n <= PS_EXACT_MAX_NODES))
		count = exact_min(w, ps, count);
	w->trace = 0;
	return count;
}

int probeset_place(struct probeset *ps, enum probeset_mode mode, int check)
{
	struct work w = { 0 };
	int v, count = 0, trace;

	ps->bound = 0;
	work_init(&w, ps);
	relations(&w, ps);
	for (v = 0; v < ps->n; v++) {
		if (mode != PS_GIVEN)
			ps->flags[v] &= ~PS_PROBE;
		if ((ps->flags[v] & (PS_KEEP | PS_PROBEABLE)) == (PS_KEEP | PS_PROBEABLE))
			ps->flags[v] |= PS_PROBE;
		if ((mode == PS_OFF || mode == PS_EXACT) && (ps->flags[v] & PS_PROBEABLE))
			ps->flags[v] |= PS_PROBE;
	}
	if (mode == PS_MIN)
		place_leaves(&w, ps);
	if (mode != PS_OFF && mode != PS_EXACT && check) {
		place_needed(&w, ps);
		drop_redundant(&w, ps, 0);
	}
	for (v = 0; v < ps->n; v++)
		count += !!(ps->flags[v] & PS_PROBE);
	/*
	 * The trace model's min searches from any set exact for sets: the
	 * set model's search for its own fewest would be spent for nothing.
	 */
	trace = ps->observe == PS_OBSERVE_TRACE && mode == PS_MIN;
	if (mode == PS_MIN && check && w.n <= PS_DROP_MAX_NODES && !trace)
		count = try_from_all(&w, ps, count);
	if ((mode == PS_MIN || mode == PS_EXACT) && check && w.n <= PS_EXACT_MAX_NODES && !trace)
		count = exact_min(&w, ps, count);
	if (ps->observe == PS_OBSERVE_TRACE && mode != PS_OFF && check)
		count = trace_min(&w, ps, mode, count);
	work_free(&w);
	return count;
}

static int hidden_lines(struct probeset *ps, int trace_each)
{
	struct work w = { 0 };
	unsigned char *blocked;
	int l, n = 0;

	work_init(&w, ps);
	relations(&w, ps);
	w.trace = ps->observe == PS_OBSERVE_TRACE;
	w.trace_each = trace_each;
	blocked = (unsigned char *)ps_alloc(w.nv, 1);
	for (l = 0; l < w.nlines; l++)
		n += hidden(&w, ps, l, blocked) >= 0;
	free(blocked);
	work_free(&w);
	return n;
}

int probeset_hidden(struct probeset *ps)
{
	return hidden_lines(ps, 0);
}

int probeset_hidden_each(struct probeset *ps)
{
	return hidden_lines(ps, 1);
}

int probeset_hidden_segs(struct probeset *ps)
{
	struct work w = { 0 };
	struct seg_graph *g;
	struct segs *sg;
	unsigned char *probe = (unsigned char *)ps_alloc(ps->n, 1);
	int v, n;

	work_init(&w, ps);
	for (v = 0; v < ps->n; v++)
		probe[v] = !!(ps->flags[v] & PS_PROBE);
	g = trace_seg_graph(&w);
	sg = segs_new(g, probe);
	n = segs_hidden(sg);
	segs_free(sg);
	seg_graph_free(g);
	free(probe);
	work_free(&w);
	return n;
}

void probeset_infer(const struct probeset *ps, const unsigned char *hit,
		    unsigned char *covered)
{
	int *stack = (int *)ps_alloc(ps->n, sizeof(int));
	int sp = 0, v;

	memset(covered, 0, ps->n);
	for (v = 0; v < ps->n; v++)
		if (hit[v] && !covered[v]) {
			covered[v] = 1;
			stack[sp++] = v;
		}
	while (sp) {
		int x = stack[--sp], next[2] = { ps->idom[x], ps->ipdom[x] }, k;

		for (k = 0; k < 2; k++)
			if (next[k] != PS_NONE && !covered[next[k]]) {
				covered[next[k]] = 1;
				stack[sp++] = next[k];
			}
	}
	free(stack);
}

int probeset_nlines(const struct probeset *ps)
{
	int i, n = 0;

	if (!ps->nlinks)
		return ps->n;
	for (i = 0; i < ps->nlinks; i++)
		if (ps->link_line[i] >= n)
			n = ps->link_line[i] + 1;
	return n;
}

static int pair_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/*
 * Whether a probe-free walk goes from S to T (a probe, or EXIT) without
 * entering BLOCKED.
 */
static int segment_walk(struct work *w, const struct probeset *ps, int s, int t,
			const unsigned char *blocked)
{
	unsigned char *seen = w->tw->before;
	int head = 0, tail = 0, i;

	memset(seen, 0, w->nv);
	seen[s] = 1;
	w->queue[tail++] = s;
	while (head < tail) {
		int u = w->queue[head++];

		for (i = w->succ.start[u]; i <= w->succ.start[u + 1]; i++) {
			int x = i < w->succ.start[u + 1] ? w->succ.list[i] : trace_extra(w, u);

			if (x < 0 || (blocked && blocked[x]))
				continue;
			if (x == t)
				return 1;
			if (seen[x] || (x < w->n && (ps->flags[x] & PS_PROBE)))
				continue;
			seen[x] = 1;
			w->queue[tail++] = x;
		}
	}
	return 0;
}

/* Mark in LINES the lines every probe-free walk S -> T runs; 0, or -1 for none. */
static int segment_lines(struct work *w, const struct probeset *ps, int s, int t,
			 unsigned char *lines)
{
	const struct adj *ln = &w->line_nodes;
	unsigned char *has_line = w->tw->has_line;
	int l, i;

	if (!segment_walk(w, ps, s, t, NULL))
		return -1;
	for (l = 0; l < w->nlines; l++) {
		if (lines[l])
			continue;
		memset(has_line, 0, w->nv);
		for (i = ln->start[l]; i < ln->start[l + 1]; i++)
			if (!(ps->flags[ln->list[i]] & PS_PROBE))
				has_line[ln->list[i]] = 1;
		if (ln->start[l] < ln->start[l + 1] && !segment_walk(w, ps, s, t, has_line))
			lines[l] = 1;
	}
	return 0;
}

int probeset_infer_trace(struct probeset *ps, const int *seq, int len,
			 unsigned char *lines)
{
	struct work w = { 0 };
	long *pairs = (long *)ps_alloc(len + 1, sizeof(long));
	int i, k, np = 0, ret = 0;

	work_init(&w, ps);
	trace_scratch(&w);
	memset(lines, 0, w.nlines);
	for (i = 0; i < len; i++) {
		int v = seq[i];

		if (v < 0 || v >= w.n || !(ps->flags[v] & PS_PROBE)) {
			ret = -1;
			goto out;
		}
		for (k = w.node_lines.start[v]; k < w.node_lines.start[v + 1]; k++)
			lines[w.node_lines.list[k]] = 1;
	}
	/* the segments: ENTRY -> seq[0], ..., seq[len - 1] -> EXIT, each once */
	for (i = 0; i <= len; i++)
		pairs[np++] = (long)(i ? seq[i - 1] : w.n) * w.nv + (i < len ? seq[i] : w.n + 1);
	qsort(pairs, np, sizeof(long), pair_cmp);
	for (i = 0; i < np && !ret; i++)
		if (!i || pairs[i] != pairs[i - 1])
			ret = segment_lines(&w, ps, (int)(pairs[i] / w.nv), (int)(pairs[i] % w.nv),
					    lines);
out:
	free(pairs);
	work_free(&w);
	return ret;
}
