// SPDX-License-Identifier: GPL-2.0
/*
 * The trace model's segments as a relation between probes; see
 * probeset-segs.h.  Line sets are bitsets of WORDS 64-bit words.
 *
 * Dropping probe p: every walk s -> t through p is a segment s -> p, then
 * p -> p any number of times, then p -> t.  So the pair (s, t) once p is
 * gone runs on some walk what it ran before (when s -> t was a pair
 * already), or s -> p, p, p -> t and p -> p ran on some walk; and on
 * every walk what every walk of s -> p, p and p -> t runs (the walks
 * without the loop run the fewest), intersected with what it ran on
 * every walk before.  Intersections distribute over the unions: what
 * every walk s -> p -> t runs is what every s -> p walk runs and what
 * every p -> t walk runs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "passes/probeset-segs.h"

struct seg_graph {
	int n, nv, words;
	int *succ_start, *succ_list;	/* with the virtual edges */
	int *pred_start, *pred_list;
	uint64_t *line_bits;		/* nv x words: each vertex's lines */
	/*
	 * nv x words: before, the lines L such that ENTRY reaches the vertex
	 * without a node of L (the vertex not one); after, those such that
	 * the vertex reaches EXIT so.
	 */
	uint64_t *before, *after;
	long work;
	/* scratch of segs_from() and segs_drop() */
	uint64_t *any, *all, *tmp;
	unsigned char *reached, *queued;
	int *queue, *touched;
	int *sources;			/* segs_add()'s */
};

struct seg_end {
	int node;	/* the pair's other end */
	int slot;	/* its two sets: seg_any() and seg_all() */
};

struct seg_list {
	struct seg_end *e;
	int n, size;
};

struct segs {
	struct seg_graph *g;
	struct seg_list *out, *in;	/* per vertex: the pairs from it, into it */
	uint64_t *sets;			/* per slot: any, then all */
	int nslots, slots_size;
	int *free_slots, nfree;
};

static void *segs_alloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		abort();
	return p;
}

/* ---- the graph ---- */

/* ADJ over N + 2 vertices, plus the virtual edges between ENTRY and EXIT. */
static void graph_adj(int n, struct seg_adj adj, int **start, int **list)
{
	int nv = n + 2, v, k = 0, i;

	*start = (int *)segs_alloc(nv + 1, sizeof(int));
	*list = (int *)segs_alloc(adj.start[nv] + 2, sizeof(int));
	for (v = 0; v < nv; v++) {
		(*start)[v] = k;
		for (i = adj.start[v]; i < adj.start[v + 1]; i++)
			(*list)[k++] = adj.list[i];
		if (v == n)		/* ENTRY -> EXIT, or ENTRY <- EXIT */
			(*list)[k++] = n + 1;
		else if (v == n + 1)
			(*list)[k++] = n;
	}
	(*start)[nv] = k;
}

/*
 * COND (before or after): from ROOT over START/LIST, the lines each
 * vertex is reached without, for every line at once.
 */
static void graph_cond(struct seg_graph *g, uint64_t *cond, const int *start,
		       const int *list, int root)
{
	int W = g->words, head = 0, tail = 0, count = 1, i, k;

	memset(cond + (long)root * W, 0xff, W * sizeof(uint64_t));
	g->queue[tail++] = root;
	g->queued[root] = 1;
	while (count) {
		int v = g->queue[head];

		head = (head + 1) % g->nv;
		count--;
		g->queued[v] = 0;
		for (i = start[v]; i < start[v + 1]; i++) {
			int u = list[i];
			uint64_t changed = 0;

			g->work += W;
			if (u == root)
				continue;
			for (k = 0; k < W; k++) {
				uint64_t x = cond[(long)v * W + k] & ~g->line_bits[(long)u * W + k];

				changed |= x & ~cond[(long)u * W + k];
				cond[(long)u * W + k] |= x;
			}
			if (changed && !g->queued[u]) {
				g->queued[u] = 1;
				g->queue[tail] = u;
				tail = (tail + 1) % g->nv;
				count++;
			}
		}
	}
}

struct seg_graph *seg_graph_new(int n, struct seg_adj succ, struct seg_adj pred,
				int nlines, struct seg_adj lines)
{
	struct seg_graph *g = (struct seg_graph *)segs_alloc(1, sizeof(*g));
	int W = nlines > 0 ? (nlines + 63) / 64 : 1, nv = n + 2, v, i;

	g->n = n;
	g->nv = nv;
	g->words = W;
	graph_adj(n, succ, &g->succ_start, &g->succ_list);
	graph_adj(n, pred, &g->pred_start, &g->pred_list);
	g->line_bits = (uint64_t *)segs_alloc((long)nv * W, sizeof(uint64_t));
	for (v = 0; v < n; v++)
		for (i = lines.start[v]; i < lines.start[v + 1]; i++) {
			int l = lines.list[i];

			g->line_bits[(long)v * W + l / 64] |= (uint64_t)1 << (l % 64);
		}
	g->before = (uint64_t *)segs_alloc((long)nv * W, sizeof(uint64_t));
	g->after = (uint64_t *)segs_alloc((long)nv * W, sizeof(uint64_t));
	g->any = (uint64_t *)segs_alloc((long)nv * W, sizeof(uint64_t));
	g->all = (uint64_t *)segs_alloc((long)nv * W, sizeof(uint64_t));
	g->tmp = (uint64_t *)segs_alloc(2 * W, sizeof(uint64_t));
	g->reached = (unsigned char *)segs_alloc(nv, 1);
	g->queued = (unsigned char *)segs_alloc(nv, 1);
	g->queue = (int *)segs_alloc(nv, sizeof(int));
	g->touched = (int *)segs_alloc(nv, sizeof(int));
	g->sources = (int *)segs_alloc(nv, sizeof(int));
	graph_cond(g, g->before, g->succ_start, g->succ_list, n);
	graph_cond(g, g->after, g->pred_start, g->pred_list, n + 1);
	return g;
}

void seg_graph_free(struct seg_graph *g)
{
	if (!g)
		return;
	free(g->succ_start);
	free(g->succ_list);
	free(g->pred_start);
	free(g->pred_list);
	free(g->line_bits);
	free(g->before);
	free(g->after);
	free(g->any);
	free(g->all);
	free(g->tmp);
	free(g->reached);
	free(g->queued);
	free(g->queue);
	free(g->touched);
	free(g->sources);
	free(g);
}

long seg_graph_work(const struct seg_graph *g)
{
	return g->work;
}

/* ---- pairs ---- */

static uint64_t *seg_any(const struct segs *sg, int slot)
{
	return sg->sets + 2L * slot * sg->g->words;
}

static uint64_t *seg_all(const struct segs *sg, int slot)
{
	return seg_any(sg, slot) + sg->g->words;
}

static void list_push(struct seg_list *l, int node, int slot)
{
	if (l->n == l->size) {
		l->size = l->size ? 2 * l->size : 4;
		l->e = (struct seg_end *)realloc(l->e, l->size * sizeof(*l->e));
		if (!l->e)
			abort();
	}
	l->e[l->n].node = node;
	l->e[l->n++].slot = slot;
}

static void list_remove(struct seg_list *l, int node)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (l->e[i].node == node) {
			l->e[i] = l->e[--l->n];
			return;
		}
}

static void list_copy(struct seg_list *to, const struct seg_list *from)
{
	to->n = from->n;
	to->size = from->n;
	to->e = NULL;
	if (from->n) {
		to->e = (struct seg_end *)segs_alloc(from->n, sizeof(*to->e));
		memcpy(to->e, from->e, from->n * sizeof(*to->e));
	}
}

/* The slot of pair (S, T), or -1. */
static int pair_find(struct segs *sg, int s, int t)
{
	const struct seg_list *l = sg->out[s].n <= sg->in[t].n ? &sg->out[s] : &sg->in[t];
	int other = l == &sg->out[s] ? t : s, i;

	sg->g->work += l->n;
	for (i = 0; i < l->n; i++)
		if (l->e[i].node == other)
			return l->e[i].slot;
	return -1;
}

/* A new pair (S, T): nothing run on some walk, everything on every walk (none yet). */
static int pair_add(struct segs *sg, int s, int t)
{
	int W = sg->g->words, slot;

	if (sg->nfree) {
		slot = sg->free_slots[--sg->nfree];
	} else {
		if (sg->nslots == sg->slots_size) {
			sg->slots_size = sg->slots_size ? 2 * sg->slots_size : 64;
			sg->sets = (uint64_t *)realloc(sg->sets, 2L * sg->slots_size * W *
						       sizeof(uint64_t));
			sg->free_slots = (int *)realloc(sg->free_slots,
							sg->slots_size * sizeof(int));
			if (!sg->sets || !sg->free_slots)
				abort();
		}
		slot = sg->nslots++;
	}
	memset(seg_any(sg, slot), 0, W * sizeof(uint64_t));
	memset(seg_all(sg, slot), 0xff, W * sizeof(uint64_t));
	list_push(&sg->out[s], t, slot);
	list_push(&sg->in[t], s, slot);
	return slot;
}

/* Whether pair (S, T) with these two sets hides a line; OUT gets the lines (or NULL). */
static int pair_hides(const struct segs *sg, int s, int t, const uint64_t *any,
		      const uint64_t *all, uint64_t *out)
{
	const struct seg_graph *g = sg->g;
	uint64_t hid = 0;
	int k;

	for (k = 0; k < g->words; k++) {
		uint64_t x = any[k] & ~all[k] & g->before[(long)s * g->words + k] &
			     g->after[(long)t * g->words + k];

		if (out)
			out[k] |= x;
		hid |= x;
	}
	return hid != 0;
}

/*
 * Merge into pair (S, T) the walks that reach T after sets ANY and ALL
 * (when LV, plus the lines LV of the last node).
 */
static void pair_merge(struct segs *sg, int s, int t, const uint64_t *any,
		       const uint64_t *all, const uint64_t *lv)
{
	int slot = pair_find(sg, s, t), k;
	uint64_t *a, *u;

	if (slot < 0)
		slot = pair_add(sg, s, t);
	a = seg_any(sg, slot);
	u = seg_all(sg, slot);
	for (k = 0; k < sg->g->words; k++) {
		a[k] |= any[k] | (lv ? lv[k] : 0);
		u[k] &= all[k] | (lv ? lv[k] : 0);
	}
}

/*
 * The pairs from source S (a probe, or ENTRY): a forward analysis over
 * the probe-free walks from S, "some walk" a union and "every walk" an
 * intersection (from every line down).  ENTRY, a source, may be walked
 * through again after EXIT; a probe source is then an end.
 */
static void segs_from(struct segs *sg, const unsigned char *probe, int s)
{
	struct seg_graph *g = sg->g;
	int W = g->words, head = 0, tail = 0, count = 1, ntouched = 0, i, k;

	memset(g->tmp, 0, 2 * W * sizeof(uint64_t));	/* the source's state */
	g->queue[tail++] = s;
	g->queued[s] = 1;
	while (count) {
		int v = g->queue[head], first = v == s && !g->reached[s];
		const uint64_t *av = first ? g->tmp : g->any + (long)v * W;
		const uint64_t *uv = first ? g->tmp + W : g->all + (long)v * W;
		const uint64_t *lv = first ? NULL : g->line_bits + (long)v * W;

		head = (head + 1) % g->nv;
		count--;
		g->queued[v] = 0;
		for (i = g->succ_start[v]; i < g->succ_start[v + 1]; i++) {
			int u = g->succ_list[i];
			uint64_t changed = 0;

			g->work += W;
			if (u == g->n + 1 || (u < g->n && probe[u]))
				pair_merge(sg, s, u, av, uv, lv);
			if (u < g->n && probe[u])
				continue;	/* EXIT goes on: the next call */
			if (!g->reached[u]) {
				g->reached[u] = 1;
				g->touched[ntouched++] = u;
				memset(g->any + (long)u * W, 0, W * sizeof(uint64_t));
				memset(g->all + (long)u * W, 0xff, W * sizeof(uint64_t));
				changed = 1;
			}
			for (k = 0; k < W; k++) {
				uint64_t a = av[k] | (lv ? lv[k] : 0);
				uint64_t e = uv[k] | (lv ? lv[k] : 0);
				uint64_t *au = g->any + (long)u * W + k;
				uint64_t *eu = g->all + (long)u * W + k;

				changed |= (a & ~*au) | (*eu & ~e);
				*au |= a;
				*eu &= e;
			}
			if (changed && !g->queued[u]) {
				g->queued[u] = 1;
				g->queue[tail] = u;
				tail = (tail + 1) % g->nv;
				count++;
			}
		}
	}
	for (i = 0; i < ntouched; i++)
		g->reached[g->touched[i]] = 0;
}

struct segs *segs_new(struct seg_graph *g, const unsigned char *probe)
{
	struct segs *sg = (struct segs *)segs_alloc(1, sizeof(*sg));
	int v;

	sg->g = g;
	sg->out = (struct seg_list *)segs_alloc(g->nv, sizeof(struct seg_list));
	sg->in = (struct seg_list *)segs_alloc(g->nv, sizeof(struct seg_list));
	segs_from(sg, probe, g->n);
	for (v = 0; v < g->n; v++)
		if (probe[v])
			segs_from(sg, probe, v);
	return sg;
}

struct segs *segs_copy(const struct segs *sg)
{
	struct segs *c = (struct segs *)segs_alloc(1, sizeof(*c));
	long W = sg->g->words;
	int v;

	*c = *sg;
	c->out = (struct seg_list *)segs_alloc(sg->g->nv, sizeof(struct seg_list));
	c->in = (struct seg_list *)segs_alloc(sg->g->nv, sizeof(struct seg_list));
	for (v = 0; v < sg->g->nv; v++) {
		list_copy(&c->out[v], &sg->out[v]);
		list_copy(&c->in[v], &sg->in[v]);
	}
	c->sets = (uint64_t *)segs_alloc(2L * sg->slots_size * W, sizeof(uint64_t));
	memcpy(c->sets, sg->sets, 2L * sg->nslots * W * sizeof(uint64_t));
	c->free_slots = (int *)segs_alloc(sg->slots_size, sizeof(int));
	memcpy(c->free_slots, sg->free_slots, sg->nfree * sizeof(int));
	sg->g->work += 2L * sg->nslots * W;
	return c;
}

/* Remove every pair from S. */
static void pairs_from_clear(struct segs *sg, int s)
{
	struct seg_list *out = &sg->out[s];
	int i;

	for (i = 0; i < out->n; i++) {
		sg->free_slots[sg->nfree++] = out->e[i].slot;
		list_remove(&sg->in[out->e[i].node], s);
	}
	out->n = 0;
}

void segs_add(struct segs *sg, const unsigned char *probe, int x)
{
	struct seg_graph *g = sg->g;
	int head = 0, tail = 0, i, *src = g->sources, nsrc = 0;

	/* the sources with a walk through X: back from X to the probes and ENTRY */
	g->queue[tail++] = x;
	g->reached[x] = 1;
	while (head < tail) {
		int v = g->queue[head++];

		for (i = g->pred_start[v]; i < g->pred_start[v + 1]; i++) {
			int u = g->pred_list[i];

			g->work++;
			if (g->reached[u])
				continue;
			g->reached[u] = 1;
			if (u == g->n || (u < g->n && probe[u]))
				src[nsrc++] = u;
			if (u < g->n && probe[u])
				continue;	/* a probe starts the walks; ENTRY and EXIT pass */
			g->queue[tail++] = u;
		}
	}
	for (i = 0; i < tail; i++)
		g->reached[g->queue[i]] = 0;
	for (i = 0; i < nsrc; i++)
		g->reached[src[i]] = 0;
	for (i = 0; i < nsrc; i++) {
		pairs_from_clear(sg, src[i]);
		segs_from(sg, probe, src[i]);
	}
	segs_from(sg, probe, x);
}

int segs_neighbours(const struct segs *sg, int p, int *out)
{
	int i, k = 0;

	for (i = 0; i < sg->in[p].n; i++)
		if (sg->in[p].e[i].node < sg->g->n)
			out[k++] = sg->in[p].e[i].node;
	for (i = 0; i < sg->out[p].n; i++)
		if (sg->out[p].e[i].node < sg->g->n)
			out[k++] = sg->out[p].e[i].node;
	return k;
}

void segs_free(struct segs *sg)
{
	int v;

	if (!sg)
		return;
	for (v = 0; v < sg->g->nv; v++) {
		free(sg->out[v].e);
		free(sg->in[v].e);
	}
	free(sg->out);
	free(sg->in);
	free(sg->sets);
	free(sg->free_slots);
	free(sg);
}

/*
 * Into g->tmp, the two sets of (S, T) once P is gone: walks through P
 * (slots SP of (S, P), PT of (P, T), PP of (P, P) or -1) and those of
 * (S, T) as it is (slot ST, or -1).
 */
static void pair_join(struct segs *sg, int p, int sp, int pt, int pp, int st)
{
	struct seg_graph *g = sg->g;
	int W = g->words, k;
	const uint64_t *lp = g->line_bits + (long)p * W;
	uint64_t *any = g->tmp, *all = g->tmp + W;

	g->work += W;
	for (k = 0; k < W; k++) {
		any[k] = seg_any(sg, sp)[k] | lp[k] | seg_any(sg, pt)[k];
		all[k] = seg_all(sg, sp)[k] | lp[k] | seg_all(sg, pt)[k];
		if (pp >= 0)
			any[k] |= seg_any(sg, pp)[k];
		if (st >= 0) {
			any[k] |= seg_any(sg, st)[k];
			all[k] &= seg_all(sg, st)[k];
		}
	}
}

/* Whether some pair through P (P gone) would hide a line. */
static int drop_hides(struct segs *sg, int p, int pp)
{
	const struct seg_list *in = &sg->in[p], *out = &sg->out[p];
	int i, j, W = sg->g->words;

	for (i = 0; i < in->n; i++) {
		int s = in->e[i].node;

		for (j = 0; j < out->n && s != p; j++) {
			int t = out->e[j].node;

			if (t == p)
				continue;
			pair_join(sg, p, in->e[i].slot, out->e[j].slot, pp, pair_find(sg, s, t));
			if (pair_hides(sg, s, t, sg->g->tmp, sg->g->tmp + W, NULL))
				return 1;
		}
	}
	return 0;
}

int segs_drop(struct segs *sg, int p)
{
	struct seg_list *in = &sg->in[p], *out = &sg->out[p];
	int pp = pair_find(sg, p, p), W = sg->g->words, i, j;

	if (drop_hides(sg, p, pp))
		return 0;
	for (i = 0; i < in->n; i++) {
		int s = in->e[i].node;

		for (j = 0; j < out->n && s != p; j++) {
			int t = out->e[j].node, st;

			if (t == p)
				continue;
			st = pair_find(sg, s, t);
			pair_join(sg, p, in->e[i].slot, out->e[j].slot, pp, st);
			if (st < 0)	/* may move the sets: after pair_join() */
				st = pair_add(sg, s, t);
			memcpy(seg_any(sg, st), sg->g->tmp, 2 * W * sizeof(uint64_t));
		}
	}
	/* the pairs at P go: (P, P) once */
	for (i = 0; i < in->n; i++) {
		sg->free_slots[sg->nfree++] = in->e[i].slot;
		if (in->e[i].node != p)
			list_remove(&sg->out[in->e[i].node], p);
	}
	for (j = 0; j < out->n; j++)
		if (out->e[j].node != p) {
			sg->free_slots[sg->nfree++] = out->e[j].slot;
			list_remove(&sg->in[out->e[j].node], p);
		}
	in->n = 0;
	out->n = 0;
	return 1;
}

int segs_hidden(const struct segs *sg)
{
	int W = sg->g->words, s, i, k, n = 0;
	uint64_t *lines = (uint64_t *)segs_alloc(W, sizeof(uint64_t));

	for (s = 0; s < sg->g->nv; s++)
		for (i = 0; i < sg->out[s].n; i++) {
			int slot = sg->out[s].e[i].slot;

			pair_hides(sg, s, sg->out[s].e[i].node, seg_any(sg, slot),
				   seg_all(sg, slot), lines);
		}
	for (k = 0; k < W; k++)	/* no __builtin_popcount: cc1 exports no libgcc helper */
		for (; lines[k]; lines[k] &= lines[k] - 1)
			n++;
	free(lines);
	return n;
}
