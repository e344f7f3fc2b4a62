// SPDX-License-Identifier: GPL-2.0
/*
 * kplug-report: reading one input.  The input is read in chunks of
 * complete lines (the report is never held whole: peak memory is the
 * records); a worker thread parses chunk i (json-record.c, text-record.c) while the main
 * thread reads chunk i + 1 and interns chunk i - 1 into the record set.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/report/report.h"
#include "tools/report/input/batch.h"

/* pthread_create() needs the thread-safe libc: link with -pthread. */
#ifndef _REENTRANT
#error "build kplug-report with -pthread (make tools/kplug-report)"
#endif

static void batch_bad(struct batch *b, size_t lineno, const char *why)
{
	if (b->nbad == b->badcap) {
		b->badcap = b->badcap ? b->badcap * 2 : 16;
		b->bad = xrealloc(b->bad, b->badcap * sizeof(*b->bad));
	}
	b->bad[b->nbad].lineno = lineno;
	b->bad[b->nbad++].why = why;
}

/* One line, *eol is '\n' or '\0'. */
static void parse_line(struct batch *b, size_t lineno, const char *p, const char *eol)
{
	struct scan *s = &b->s;
	struct raw *r;

	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;	/* batches are reused: it grows once */
		b->r = xrealloc(b->r, b->cap * sizeof(*b->r));
	}
	r = &b->r[b->n];
	memset(r, 0, sizeof(*r));
	s->p = p;
	s->end = eol;
	s->err = NULL;
	if (s->end > s->p && s->end[-1] == '\r')
		s->end--;
	if (s->p == s->end) {
		batch_bad(b, lineno, "empty line");
	} else if (*s->p == '{') {
		if (!parse_json_line(s, r, b)) {
			b->n++;
			return;
		}
		batch_bad(b, lineno, s->err);
	} else if ((size_t)(s->end - s->p) > sizeof(TEXT_HEAD) - 1 &&
		   !memcmp(s->p, TEXT_HEAD, sizeof(TEXT_HEAD) - 1)) {
		if (!parse_text_line(s, r)) {
			b->n++;
			return;
		}
		batch_bad(b, lineno, s->err);
	} else {
		batch_bad(b, lineno, "not a JSON object");
	}
}

/* The worker: every line of the batch. */
void *parse_batch(void *arg)
{
	struct batch *b = arg;
	const char *p = b->data, *end = b->data + b->len, *nl;
	size_t lineno = b->first_line;

	b->n = b->nmac = b->nbad = b->esclen = 0;
	if (b->escsize < b->len + 1) {
		b->escsize = b->len + 1;
		b->esc = xrealloc(b->esc, b->escsize);
	}
	while (p < end) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;	/* the last line, ended by '\0' */
		parse_line(b, lineno++, p, nl);
		p = nl + 1;
	}
	b->lines = lineno - b->first_line;
	return NULL;
}

/* The last string interned for one field: consecutive records share tu and run. */
struct last_str {
	uint32_t id;
	struct sref s;
	int valid;
};

static uint32_t intern_ref(struct sref r, struct last_str *last)
{
	if (last->valid && last->s.n == r.n && !memcmp(last->s.p, r.p, r.n))
		return last->id;
	last->id = intern(r.p, r.n);
	last->s = r;		/* in the batch: valid until it is merged */
	last->valid = 1;
	return last->id;
}

/* Main thread: the raw records of a parsed batch into the record set. */
static void merge_batch(struct recset *rs, const char *path, struct batch *b)
{
	static struct last_str lfile, lfunc, ltu, lrun, lmac;
	size_t i, j;

	for (i = 0; i < b->n; i++) {
		const struct raw *w = &b->r[i];
		struct rec *r = rec_new(rs);

		r->file = intern_ref(w->file, &lfile);
		r->func = intern_ref(w->func, &lfunc);
		r->tu = w->tu.n ? intern_ref(w->tu, &ltu) : 0;
		r->run = w->run.n ? intern_ref(w->run, &lrun) : 0;
		r->line = w->line;
		r->m = w->m;
		r->own = w->own;
		r->macro = w->macro;
		r->san = w->san;
		r->noret = w->noret;
		r->header = w->header;
		r->has_parts = w->has_parts;
		r->tus = 1;
		r->nmac = w->nmac;
		r->mac_off = (uint32_t)macs.n;
		for (j = 0; j < w->nmac; j++) {
			const struct rawmac *m = &b->mac[w->mac_first + j];

			mac_add(intern_ref(m->name, &lmac), m->count);
		}
	}
	/* the caches point into this batch */
	lfile.valid = lfunc.valid = ltu.valid = lrun.valid = lmac.valid = 0;
	rs->lines += b->lines;
	for (i = 0; i < b->nbad; i++) {
		rs->bad++;
		if (rs->bad <= MAX_SHOWN_BAD)
			fprintf(stderr, TOOL ": %s:%zu: bad record: %s\n", path,
				b->bad[i].lineno, b->bad[i].why);
	}
}

void batch_free(struct batch *b)
{
	free(b->r);
	free(b->mac);
	free(b->bad);
	free(b->esc);
	free(b->s.buf);
}

#ifndef CHUNK
#define CHUNK	(4 << 20)	/* tests build with a tiny one */
#endif

struct reader {
	char *buf[2];
	size_t size[2];
	struct batch b[2];
	pthread_t worker;
	int busy;		/* the worker runs on b[cur ^ 1] */
};

/* Every record of FD (named PATH in messages) into RS. */
void read_fd(struct recset *rs, const char *path, int fd)
{
	struct reader rd;
	size_t len = 0, next_line = 1, keep;
	int cur = 0, eof = 0, prev_ready = 0;

	memset(&rd, 0, sizeof(rd));
	for (cur = 0; cur < 2; cur++) {
		rd.size[cur] = CHUNK;
		rd.buf[cur] = xrealloc(NULL, CHUNK + 1 + SCAN_SLACK);
	}
	cur = 0;
	while (!eof) {
		char *buf = rd.buf[cur], *end, *last_nl;
		ssize_t n;

		/* fill: at least one complete line, or the end of the input */
		for (;;) {
			if (len == rd.size[cur]) {
				rd.size[cur] *= 2;
				buf = rd.buf[cur] = xrealloc(buf, rd.size[cur] + 1 + SCAN_SLACK);
			}
			n = read(fd, buf + len, rd.size[cur] - len);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				flag_error("%s: %s", path, strerror(errno));
				n = 0;
			}
			len += n;
			if (!n) {
				eof = 1;
				break;
			}
			if (len == rd.size[cur] && memrchr(buf, '\n', len))
				break;
		}
		end = buf + len;
		memset(end, 0, 1 + SCAN_SLACK);	/* defined bytes for the 16-byte loads */
		last_nl = eof ? NULL : memrchr(buf, '\n', len);
		rd.b[cur].data = buf;
		rd.b[cur].len = last_nl ? (size_t)(last_nl - buf) + 1 : len;
		keep = len - rd.b[cur].len;
		if (rd.busy) {
			pthread_join(rd.worker, NULL);
			rd.busy = 0;
			next_line = rd.b[cur ^ 1].first_line + rd.b[cur ^ 1].lines;
			prev_ready = 1;
		}
		rd.b[cur].first_line = next_line;
		if (pthread_create(&rd.worker, NULL, parse_batch, &rd.b[cur]))
			parse_batch(&rd.b[cur]);
		else
			rd.busy = 1;
		if (prev_ready) {
			merge_batch(rs, path, &rd.b[cur ^ 1]);
			prev_ready = 0;
		}
		/* the partial last line starts the other buffer */
		if (keep > rd.size[cur ^ 1]) {
			rd.size[cur ^ 1] = keep * 2;
			rd.buf[cur ^ 1] = xrealloc(rd.buf[cur ^ 1], rd.size[cur ^ 1] + 1 + SCAN_SLACK);
		}
		memcpy(rd.buf[cur ^ 1], buf + rd.b[cur].len, keep);
		len = keep;
		if (!rd.busy) {		/* no thread: it was parsed in place */
			next_line = rd.b[cur].first_line + rd.b[cur].lines;
			merge_batch(rs, path, &rd.b[cur]);
		}
		cur ^= 1;
	}
	if (rd.busy) {
		pthread_join(rd.worker, NULL);
		merge_batch(rs, path, &rd.b[cur ^ 1]);
	}
	for (cur = 0; cur < 2; cur++) {
		free(rd.buf[cur]);
		batch_free(&rd.b[cur]);
	}
}
