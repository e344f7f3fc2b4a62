// SPDX-License-Identifier: GPL-2.0
/* covtrace: see covtrace.h. */
#include <stdlib.h>
#include <string.h>

#include "tools/report/input/covtrace.h"
#include "tools/report/report.h"
#include "config/sancov-map-format.h"
#include "passes/probeset.h"

static const struct covmap *sort_m;
static const struct covfn *sort_f;

/* Line entries by file name, then number: equal entries are one line. */
static int cmp_entry(const void *a, const void *b)
{
	const unsigned char *la = sort_f->lines + *(const uint32_t *)a * SANCOV_MAP_LINE_SIZE;
	const unsigned char *lb = sort_f->lines + *(const uint32_t *)b * SANCOV_MAP_LINE_SIZE;
	int c = strcmp(sort_f->files[covmap_u32(sort_m, la)], sort_f->files[covmap_u32(sort_m, lb)]);
	uint32_t x = covmap_u32(sort_m, la + 4), y = covmap_u32(sort_m, lb + 4);

	return c ? c : x < y ? -1 : x > y;
}

/*
 * Each line entry of F's record gets the id of its (file, line): the
 * compiler placed the probes for distinct lines.  Returns the ids, *REP
 * the first entry of each id.
 */
static uint32_t *line_ids(const struct covmap *m, const struct covfn *f, uint32_t **rep)
{
	uint32_t *order = xrealloc(NULL, (f->nlines + 1) * sizeof(*order));
	uint32_t *id = xrealloc(NULL, (f->nlines + 1) * sizeof(*id));
	uint32_t i, next = 0;

	*rep = xrealloc(NULL, (f->nlines + 1) * sizeof(**rep));
	for (i = 0; i < f->nlines; i++)
		order[i] = i;
	sort_m = m;
	sort_f = f;
	qsort(order, f->nlines, sizeof(*order), cmp_entry);
	for (i = 0; i < f->nlines; i++) {
		if (i && cmp_entry(&order[i - 1], &order[i]))
			next++;
		id[order[i]] = next;
		(*rep)[next] = order[i];
	}
	free(order);
	return id;
}

/* F's graph as a probeset: its nodes, edges, probes and lines. */
static struct probeset *fn_graph(const struct covmap *m, const struct covfn *f,
				 const uint32_t *id)
{
	struct probeset *ps = probeset_new(f->nnodes);
	uint32_t i, k;

	ps->observe = PS_OBSERVE_TRACE;
	for (i = 0; i < f->nnodes; i++) {
		const unsigned char *nd = f->nodes + i * SANCOV_MAP_NODE_SIZE;
		uint32_t first = covmap_u32(m, nd + 8), cnt = covmap_u32(m, nd + 12);

		if (cnt)
			ps->flags[i] |= PS_LINES | PS_PROBEABLE;
		for (k = 0; k < cnt; k++)
			probeset_line(ps, i, id[first + k]);
	}
	for (i = 0; i < f->nprobes; i++)
		ps->flags[covmap_u32(m, f->probes + 4 * i)] |= PS_PROBE | PS_PROBEABLE;
	for (i = 0; i < f->nedges; i++) {
		const unsigned char *e = f->edges + i * SANCOV_MAP_EDGE_SIZE;
		int32_t from = (int32_t)covmap_u32(m, e), to = (int32_t)covmap_u32(m, e + 4);

		probeset_edge(ps, from == SANCOV_MAP_ENTRY ? PS_ENTRY : from,
			      to == SANCOV_MAP_EXIT ? PS_EXIT : to);
	}
	return ps;
}

static void push(char ***out, size_t *n, size_t *size, char *s)
{
	if (*n == *size) {
		*size = *size ? 2 * *size : 256;
		*out = xrealloc(*out, *size * sizeof(**out));
	}
	(*out)[(*n)++] = s;
}

/* The lines of F's run; -1 when no path gives its hits. */
static int fn_trace_lines(const struct covmap *m, struct covfn *f,
			  char ***out, size_t *n, size_t *size)
{
	uint32_t *rep, *id = line_ids(m, f, &rep), i;
	struct probeset *ps = fn_graph(m, f, id);
	int *seq = xrealloc(NULL, (f->nseq + 1) * sizeof(*seq)), nl, ret;
	unsigned char *lines;

	for (i = 0; i < f->nseq; i++)
		seq[i] = (int)covmap_u32(m, f->probes + 4 * f->seq[i]);
	nl = probeset_nlines(ps);
	lines = xrealloc(NULL, nl + 1);
	ret = probeset_infer_trace(ps, seq, (int)f->nseq, lines);
	for (i = 0; !ret && i < (uint32_t)nl; i++)
		if (lines[i])
			push(out, n, size, covmap_line_name(m, f, rep[i]));
	free(lines);
	free(seq);
	free(id);
	free(rep);
	probeset_free(ps);
	return ret;
}

int covtrace_lines(struct covmap *m, char ***out, size_t *n, size_t *size,
		   const struct covfn **bad)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < m->nfns; i++) {
		struct covfn *f = &m->fns[i];

		if (f->nseq && f->nlines && !ret && fn_trace_lines(m, f, out, n, size) < 0) {
			*bad = f;
			ret = -1;
		}
		f->nseq = 0;
	}
	return ret;
}
