// SPDX-License-Identifier: GPL-2.0
/* covmap: see covmap.h.  Nothing in the input can crash the reader. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/report/input/covmap.h"
#include "tools/report/report.h"
#include "config/sancov-map-format.h"


struct rd {
	const unsigned char *p, *end;
	int big;
	const char *err;
};

static uint64_t rd_uint(struct rd *r, int n)
{
	uint64_t v = 0;
	int i;

	if (r->err || r->end - r->p < n) {
		r->err = r->err ? r->err : "truncated map record";
		return 0;
	}
	for (i = 0; i < n; i++)
		v |= (uint64_t)r->p[r->big ? n - 1 - i : i] << (8 * i);
	r->p += n;
	return v;
}

static const unsigned char *rd_skip(struct rd *r, uint64_t count, uint64_t size)
{
	const unsigned char *at = r->p;

	if (r->err || (size && count > (uint64_t)(r->end - r->p) / size)) {
		r->err = r->err ? r->err : "map record counts out of bounds";
		return NULL;
	}
	r->p += count * size;
	return at;
}

static const char *rd_string(struct rd *r)
{
	const unsigned char *nul;

	if (r->err)
		return NULL;
	nul = memchr(r->p, 0, r->end - r->p);
	if (!nul) {
		r->err = "unterminated string in map record";
		return NULL;
	}
	const char *s = (const char *)r->p;
	r->p = nul + 1;
	return s;
}

static uint32_t get32(const struct covmap *m, const unsigned char *p)
{
	return m->big ? (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3] :
			(uint32_t)p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0];
}

static uint64_t getptr(const struct covmap *m, const unsigned char *p)
{
	struct rd r = { p, p + m->ptr, m->big, NULL };

	return rd_uint(&r, m->ptr);
}

/* Check the indices of a record so that inference never leaves it. */
static const char *check_fn(const struct covmap *m, const struct covfn *f)
{
	uint32_t i;

	for (i = 0; i < f->nnodes; i++) {
		const unsigned char *n = f->nodes + i * SANCOV_MAP_NODE_SIZE;
		int32_t idom = (int32_t)get32(m, n), ipdom = (int32_t)get32(m, n + 4);
		uint64_t first = get32(m, n + 8), cnt = get32(m, n + 12);

		if (idom < -1 || idom >= (int64_t)f->nnodes ||
		    ipdom < -1 || ipdom >= (int64_t)f->nnodes ||
		    first + cnt > f->nlines)
			return "map node out of range";
	}
	for (i = 0; i < f->nedges; i++) {
		int32_t from = (int32_t)get32(m, f->edges + i * SANCOV_MAP_EDGE_SIZE);
		int32_t to = (int32_t)get32(m, f->edges + i * SANCOV_MAP_EDGE_SIZE + 4);

		if ((from != SANCOV_MAP_ENTRY && (from < 0 || from >= (int64_t)f->nnodes)) ||
		    (to != SANCOV_MAP_EXIT && (to < 0 || to >= (int64_t)f->nnodes)))
			return "map edge out of range";
	}
	if (f->observe != SANCOV_MAP_OBSERVE_SET && f->observe != SANCOV_MAP_OBSERVE_TRACE)
		return "map record of an unknown observation model";
	for (i = 0; i < f->nprobes; i++)
		if (get32(m, f->probes + 4 * i) >= f->nnodes)
			return "map probe out of range";
	for (i = 0; i < f->nlines; i++)
		if (get32(m, f->lines + i * SANCOV_MAP_LINE_SIZE) >= f->nfiles)
			return "map line names no file";
	for (i = 0; i < f->npcs; i++)
		if (get32(m, f->pcs + i * (4 + m->ptr)) >= f->nprobes)
			return "map pc names no probe";
	for (i = 0; i < f->nelts; i++)
		if (get32(m, f->elts + i * SANCOV_MAP_ELT_SIZE) >= f->nprobes)
			return "map array element names no probe";
	return NULL;
}

static int load_fn(struct covmap *m, struct rd *r, struct covfn *f)
{
	const unsigned char *start = r->p;
	uint64_t magic = rd_uint(r, 4), size = rd_uint(r, 4), sizes = rd_uint(r, 4);
	uint32_t i;

	if (!r->err && (magic & SANCOV_MAP_MAGIC_MASK) == (SANCOV_MAP_MAGIC & SANCOV_MAP_MAGIC_MASK) &&
	    magic != SANCOV_MAP_MAGIC) {
		r->err = "map record of another format version (written by another kplug "
			 "than this kplug-report's: use the kplug-report of the kplug that built it)";
		return -1;
	}
	if (!r->err && magic != SANCOV_MAP_MAGIC) {
		r->err = "bad map record magic";
		return -1;
	}
	if (!r->err && (size > (uint64_t)(r->end - start) || size < 4 * SANCOV_MAP_HEADER_WORDS)) {
		r->err = "map record size out of bounds";
		return -1;
	}
	r->end = start + size;
	if (!r->err && (sizes & 0xff) != 4 && (sizes & 0xff) != 8) {
		r->err = "bad pointer size in map record";
		return -1;
	}
	/* one pointer size per map: every record is read with m->ptr */
	if (!r->err && m->ptr && (uint64_t)m->ptr != (sizes & 0xff)) {
		r->err = "map records of different pointer sizes (4 and 8)";
		return -1;
	}
	m->ptr = sizes & 0xff;
	f->elt_size = sizes >> 8 & 0xff;
	f->nnodes = rd_uint(r, 4);
	f->nprobes = rd_uint(r, 4);
	f->nlines = rd_uint(r, 4);
	f->npcs = rd_uint(r, 4);
	f->nfiles = rd_uint(r, 4);
	f->nelts = rd_uint(r, 4);
	f->nedges = rd_uint(r, 4);
	f->observe = rd_uint(r, 4);
	f->array = rd_uint(r, m->ptr);
	f->nodes = rd_skip(r, f->nnodes, SANCOV_MAP_NODE_SIZE);
	f->edges = rd_skip(r, f->nedges, SANCOV_MAP_EDGE_SIZE);
	f->probes = rd_skip(r, f->nprobes, 4);
	f->lines = rd_skip(r, f->nlines, SANCOV_MAP_LINE_SIZE);
	f->pcs = rd_skip(r, f->npcs, 4 + m->ptr);
	f->elts = rd_skip(r, f->nelts, SANCOV_MAP_ELT_SIZE);
	f->name = rd_string(r);
	if (r->err)
		return -1;
	if (f->nfiles > (uint64_t)(r->end - r->p)) {
		r->err = "map file count out of bounds";
		return -1;
	}
	f->files = xrealloc(NULL, (f->nfiles + 1) * sizeof(*f->files));
	for (i = 0; i < f->nfiles; i++)
		f->files[i] = rd_string(r);
	f->hit = xrealloc(NULL, f->nprobes + 1);
	memset(f->hit, 0, f->nprobes + 1);
	if (!r->err)
		r->err = check_fn(m, f);
	return r->err ? -1 : 0;
}

static int cmp_pc(const void *a, const void *b)
{
	const struct covpc *x = a, *y = b;

	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static const struct covmap *sort_map;

static int cmp_array(const void *a, const void *b)
{
	uint64_t x = sort_map->fns[*(const size_t *)a].array;
	uint64_t y = sort_map->fns[*(const size_t *)b].array;

	return x < y ? -1 : x > y;
}

static int cmp_name(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_map->fns[x].name, sort_map->fns[y].name);

	return c ? c : x < y ? -1 : x > y;
}

/*
 * Whether B is a copy of A's code: the same function compiled in two
 * units (a COMDAT function, an inline function of C++), of which the
 * link kept one and resolved the other's map addresses to it.  Both then
 * name the same array, or the same call addresses probe for probe.
 */
static int same_code(const struct covmap *m, const struct covfn *a,
		     const struct covfn *b)
{
	if (a->nprobes != b->nprobes)
		return 0;
	if (a->array && a->array == b->array)
		return 1;
	return a->npcs && a->npcs == b->npcs && getptr(m, a->pcs + 4) &&
	       !memcmp(a->pcs, b->pcs, (size_t)a->npcs * (4 + m->ptr));
}

/* Mark every record that is a copy of an earlier one (same name, same code). */
static void mark_copies(struct covmap *m)
{
	size_t *order = xrealloc(NULL, (m->nfns + 1) * sizeof(*order));
	size_t i, j, start;

	for (i = 0; i < m->nfns; i++)
		order[i] = i;
	sort_map = m;
	qsort(order, m->nfns, sizeof(*order), cmp_name);
	for (start = 0; start < m->nfns; start = i) {
		for (i = start + 1; i < m->nfns &&
		     !strcmp(m->fns[order[i]].name, m->fns[order[start]].name); i++) {
			struct covfn *f = &m->fns[order[i]];

			for (j = start; j < i && !f->copy; j++)
				if (!m->fns[order[j]].copy &&
				    same_code(m, &m->fns[order[j]], f))
					f->copy = 1;
			m->copies += f->copy;
		}
	}
	free(order);
}

static void index_map(struct covmap *m)
{
	size_t i, n = 0;
	uint32_t k;

	mark_copies(m);
	for (i = 0; i < m->nfns; i++)
		n += m->fns[i].npcs;
	m->pcs = xrealloc(NULL, (n + 1) * sizeof(*m->pcs));
	m->by_array = xrealloc(NULL, (m->nfns + 1) * sizeof(*m->by_array));
	for (i = 0; i < m->nfns; i++) {
		struct covfn *f = &m->fns[i];
		unsigned char *has;

		if (f->copy)
			continue;	/* its probes are those of the kept copy */
		has = xrealloc(NULL, f->nprobes + 1);

		memset(has, 0, f->nprobes + 1);
		for (k = 0; k < f->npcs; k++) {
			const unsigned char *p = f->pcs + k * (4 + m->ptr);
			struct covpc *c = &m->pcs[m->npcs];

			c->fn = i;
			c->probe = get32(m, p);
			c->pc = getptr(m, p + 4);
			/* 0: ld's value for a label in a discarded section */
			if (c->pc) {
				has[c->probe] = 1;
				m->npcs++;
			}
		}
		/* addresses 0 (call labels, else the array): the link dropped it */
		f->dead = f->npcs ? memchr(has, 1, f->nprobes) == NULL :
			  f->elt_size && !f->array;
		m->dead += f->dead;
		for (k = 0; f->npcs && !f->dead && k < f->nprobes; k++)
			m->shared_pcs += !has[k];
		free(has);
		if (f->array && f->elt_size)
			m->by_array[m->narrays++] = i;
	}
	qsort(m->pcs, m->npcs, sizeof(*m->pcs), cmp_pc);
	sort_map = m;
	qsort(m->by_array, m->narrays, sizeof(*m->by_array), cmp_array);
}

int covmap_load(struct covmap *m, const unsigned char *buf, size_t len,
		const char **err)
{
	struct rd r = { buf, buf + len, 0, NULL };
	size_t size = 0;

	while (r.p < r.end) {
		struct rd one = r;

		/* one byte order per map: every record is read with m->big */
		one.big = r.end - r.p >= 4 &&
			  (get32(&(struct covmap){ .big = 1 }, r.p) & SANCOV_MAP_MAGIC_MASK) ==
			  (SANCOV_MAP_MAGIC & SANCOV_MAP_MAGIC_MASK);
		if (m->nfns && one.big != m->big) {
			*err = "map records of different byte orders";
			return -1;
		}
		m->big = one.big;
		if (m->nfns == size) {
			size = size ? 2 * size : 64;
			m->fns = xrealloc(m->fns, size * sizeof(*m->fns));
		}
		memset(&m->fns[m->nfns], 0, sizeof(m->fns[0]));
		if (load_fn(m, &one, &m->fns[m->nfns])) {
			*err = one.err;
			m->nfns++;
			return -1;
		}
		m->nfns++;
		r.p = one.end;
	}
	index_map(m);
	return 0;
}

/* Mark probe K of F hit; with m->trace, append it to F's sequence too. */
static void hit_probe(struct covmap *m, struct covfn *f, uint32_t k)
{
	f->hit[k] = 1;
	if (!m->trace)
		return;
	if (f->nseq == f->seq_size) {
		f->seq_size = f->seq_size ? 2 * f->seq_size : 16;
		f->seq = xrealloc(f->seq, f->seq_size * sizeof(*f->seq));
	}
	f->seq[f->nseq++] = k;
}

int covmap_hit(struct covmap *m, uint64_t addr)
{
	struct covpc key = { addr, 0, 0 }, *c;
	size_t lo = 0, hi = m->narrays;

	c = bsearch(&key, m->pcs, m->npcs, sizeof(*m->pcs), cmp_pc);
	if (!c && m->thumb && (addr & 1)) {
		/* a return address in Thumb code; the map's labels are even */
		key.pc = addr & ~(uint64_t)1;
		c = bsearch(&key, m->pcs, m->npcs, sizeof(*m->pcs), cmp_pc);
		if (c)
			addr = key.pc;
	}
	if (c) {
		for (; c > m->pcs && c[-1].pc == addr; c--)
			;
		for (; c < m->pcs + m->npcs && c->pc == addr; c++)
			hit_probe(m, &m->fns[c->fn], c->probe);
		return 0;
	}
	while (lo < hi) {	/* the last array starting at or below ADDR */
		size_t mid = (lo + hi) / 2;

		if (m->fns[m->by_array[mid]].array <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo) {
		struct covfn *f = &m->fns[m->by_array[lo - 1]];
		uint64_t idx = (addr - f->array) / f->elt_size;

		if (idx < f->nelts && (addr - f->array) % f->elt_size == 0) {
			hit_probe(m, f, get32(m, f->elts + idx * SANCOV_MAP_ELT_SIZE));
			return 0;
		}
	}
	return -1;
}

/* Nodes a hit implies, then their lines. */
static void fn_lines(const struct covmap *m, const struct covfn *f,
		     char ***out, size_t *n, size_t *size)
{
	unsigned char *cov = xrealloc(NULL, f->nnodes + 1);
	uint32_t *stack = xrealloc(NULL, (f->nnodes + 1) * sizeof(*stack));
	uint32_t sp = 0, i, k;

	memset(cov, 0, f->nnodes + 1);
	for (i = 0; i < f->nprobes; i++) {
		uint32_t node = get32(m, f->probes + 4 * i);

		if (f->hit[i] && !cov[node]) {
			cov[node] = 1;
			stack[sp++] = node;
		}
	}
	while (sp) {
		const unsigned char *nd = f->nodes + stack[--sp] * SANCOV_MAP_NODE_SIZE;

		for (k = 0; k < 2; k++) {
			int32_t next = (int32_t)get32(m, nd + 4 * k);

			if (next >= 0 && !cov[next]) {
				cov[next] = 1;
				stack[sp++] = next;
			}
		}
	}
	for (i = 0; i < f->nnodes; i++) {
		const unsigned char *nd = f->nodes + i * SANCOV_MAP_NODE_SIZE;
		uint32_t first = get32(m, nd + 8), cnt = get32(m, nd + 12);

		for (k = 0; cov[i] && k < cnt; k++) {
			if (*n == *size) {
				*size = *size ? 2 * *size : 256;
				*out = xrealloc(*out, *size * sizeof(**out));
			}
			(*out)[(*n)++] = covmap_line_name(m, f, first + k);
		}
	}
	free(cov);
	free(stack);
}

/* "file:line" by file, then by line as a number (4 before 10). */
static int cmp_line(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	const char *cx = strrchr(x, ':'), *cy = strrchr(y, ':');
	size_t nx = cx ? (size_t)(cx - x) : strlen(x);
	size_t ny = cy ? (size_t)(cy - y) : strlen(y);
	unsigned long lx = cx ? strtoul(cx + 1, NULL, 10) : 0;
	unsigned long ly = cy ? strtoul(cy + 1, NULL, 10) : 0;
	int c = memcmp(x, y, nx < ny ? nx : ny);

	if (c)
		return c;
	if (nx != ny)
		return nx < ny ? -1 : 1;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x, y);
}

char *covmap_line_name(const struct covmap *m, const struct covfn *f, uint32_t i)
{
	const unsigned char *l = f->lines + i * SANCOV_MAP_LINE_SIZE;
	char *s;

	if (asprintf(&s, "%s:%u", f->files[get32(m, l)], get32(m, l + 4)) < 0)
		die("out of memory");
	return s;
}

uint32_t covmap_u32(const struct covmap *m, const unsigned char *p)
{
	return get32(m, p);
}

size_t covmap_sort_lines(char **out, size_t n)
{
	size_t i, j = 0;

	if (!n)
		return 0;
	qsort(out, n, sizeof(*out), cmp_line);
	for (i = 1; i < n; i++) {
		if (!strcmp(out[i], out[j]))
			free(out[i]);
		else
			out[++j] = out[i];
	}
	return j + 1;
}

char **covmap_lines(const struct covmap *m, size_t *n)
{
	char **out = NULL;
	size_t size = 0, i;

	*n = 0;
	for (i = 0; i < m->nfns; i++)
		fn_lines(m, &m->fns[i], &out, n, &size);
	*n = covmap_sort_lines(out, *n);
	return out;
}

const struct covfn *covmap_trace_only(const struct covmap *m)
{
	size_t i;

	for (i = 0; i < m->nfns; i++)
		if (m->fns[i].observe == SANCOV_MAP_OBSERVE_TRACE &&
		    memchr(m->fns[i].hit, 1, m->fns[i].nprobes))
			return &m->fns[i];
	return NULL;
}

void covmap_stats(const struct covmap *m, size_t *probes, size_t *hit)
{
	size_t i;
	uint32_t k;

	*probes = *hit = 0;
	for (i = 0; i < m->nfns; i++) {
		if (m->fns[i].dead || m->fns[i].copy)
			continue;
		*probes += m->fns[i].nprobes;
		for (k = 0; k < m->fns[i].nprobes; k++)
			*hit += m->fns[i].hit[k];
	}
}

void covmap_free(struct covmap *m)
{
	size_t i;

	for (i = 0; i < m->nfns; i++) {
		free(m->fns[i].files);
		free(m->fns[i].hit);
		free(m->fns[i].seq);
	}
	free(m->fns);
	free(m->pcs);
	free(m->by_array);
	free(m->data);
	memset(m, 0, sizeof(*m));
}
