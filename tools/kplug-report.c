// SPDX-License-Identifier: GPL-2.0
/*
 * kplug-report: turn cyc_complexity reports into something a build robot
 * can act on.
 *
 *   kplug-report [options] top|dirs|macros|hist|sarif INPUT...
 *   kplug-report [options] diff BASE NEW
 *
 * INPUT is a JSON Lines report (format=jsonl), a text report (the 2016
 * "Cyclomatic Complexity M file:function" lines), "-" for stdin, or a
 * directory searched recursively for *.jsonl files.
 *
 * Records are read in order.  An incremental rebuild appends to the
 * report: the records of the last compile ("run") of a translation unit
 * replace those of earlier ones (records without a run: a later record of
 * the same translation unit, file and function replaces an earlier one).
 * Header inlines seen with the same file, function and M from several
 * translation units count once.
 *
 * Exit status: 0 fine, 1 a --threshold gate was breached, 2 tool error
 * (usage, unreadable or missing input, no record at all).  Bad lines are
 * reported as FILE:LINE and skipped; --strict makes them a tool error.
 *
 * Plain C, no dependencies: the JSON scanner below reads exactly what the
 * plugin writes and skips everything else it does not know.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TOOL		"kplug-report"
#define VERSION		"0.1.0"
#define MAX_SHOWN_BAD	10

enum { EXIT_OK = 0, EXIT_GATE = 1, EXIT_TOOL = 2 };
enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON, FMT_SARIF, FMT_CHECKSTYLE };
static const char *const fmt_names[] = { "text", "csv", "json", "sarif", "checkstyle" };

static struct {
	enum fmt fmt;
	long threshold;		/* display threshold */
	int gate;		/* --threshold given: gate on it */
	long top_n;		/* -n; 0: all */
	int depth;		/* dirs: path components kept; 0: full dirname */
	int strict;
	const char *svg;
	const char *root;	/* stripped from paths */
	size_t root_len;
} opt = { FMT_TEXT, 30, 0, 10, 0, 0, NULL, NULL, 0 };

static int tool_error;		/* something went wrong: exit 2 */

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, TOOL ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_TOOL);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

/* ---- string interning ------------------------------------------------- */

/* Interned strings: id 0 is the empty string (an absent field). */
static struct {
	char *arena;
	size_t len, size;
	uint32_t *off;		/* id -> offset in arena */
	uint32_t n, cap;
	uint64_t *slot;		/* hash slots, see SLOT() */
	uint32_t nslot;
} strs;

/* A multiplicative hash, eight bytes at a time; stable across runs. */
static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 0x9E3779B97F4A7C15ULL ^ n, w;

	while (n >= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
		h ^= h >> 32;
		s += 8;
		n -= 8;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xC4CEB9FE1A85EC53ULL;
	return h ^ (h >> 29);
}

static const char *str_of(uint32_t id)
{
	return strs.arena + strs.off[id];
}

/*
 * A slot: the upper 32 bits of the hash (the tag, which also places the
 * slot: a rehash needs no string) and the id + 1 (0: empty).
 */
#define SLOT(h, id)	((((h) >> 32) << 32) | ((uint64_t)(id) + 1))
#define SLOT_ID(v)	((uint32_t)(v) - 1)
#define SLOT_TAG(v)	((v) >> 32)

static size_t str_len(uint32_t id)
{
	size_t end = id + 1 < strs.n ? strs.off[id + 1] : strs.len;

	return end - strs.off[id] - 1;
}

static void str_rehash(void)
{
	uint32_t i, j, n = strs.nslot ? strs.nslot * 2 : 1024;
	uint64_t *old = strs.slot, *slot = calloc(n, sizeof(*slot));

	if (!slot)
		die("out of memory");
	for (i = 0; i < strs.nslot; i++) {
		uint64_t v = old[i];

		if (!v)
			continue;
		j = (uint32_t)SLOT_TAG(v) & (n - 1);
		while (slot[j])
			j = (j + 1) & (n - 1);
		slot[j] = v;
	}
	free(old);
	strs.slot = slot;
	strs.nslot = n;
}

/*
 * The id of the N bytes at S, added if new.  Slots keep the hash tag, so a
 * probe touches the string arena only when the tags match.
 */
static uint32_t intern(const char *s, size_t n)
{
	uint64_t h, v;
	uint32_t i;

	if ((strs.n + 1) * 2 > strs.nslot)
		str_rehash();
	h = hash_bytes(s, n);
	i = (uint32_t)(h >> 32) & (strs.nslot - 1);
	while ((v = strs.slot[i])) {
		if (SLOT_TAG(v) == h >> 32 && str_len(SLOT_ID(v)) == n &&
		    !memcmp(str_of(SLOT_ID(v)), s, n))
			return SLOT_ID(v);
		i = (i + 1) & (strs.nslot - 1);
	}
	if (strs.len + n + 1 > UINT32_MAX || strs.n == UINT32_MAX - 1)
		die("too many strings in the input");
	if (strs.len + n + 1 > strs.size) {
		strs.size = (strs.len + n + 1) * 2;
		strs.arena = xrealloc(strs.arena, strs.size);
	}
	if (strs.n == strs.cap) {
		strs.cap = strs.cap ? strs.cap * 2 : 1024;
		strs.off = xrealloc(strs.off, strs.cap * sizeof(*strs.off));
	}
	memcpy(strs.arena + strs.len, s, n);
	strs.arena[strs.len + n] = '\0';
	strs.off[strs.n] = (uint32_t)strs.len;
	strs.len += n + 1;
	strs.slot[i] = SLOT(h, strs.n);
	return strs.n++;
}

/* ---- records ------------------------------------------------------------ */

struct rec {
	uint32_t file, func, tu, run;
	int32_t line, m;
	int32_t own, macro, san, noret;
	uint32_t mac_off;	/* into macs[] */
	uint16_t nmac;
	uint8_t header;		/* inline_header */
	uint8_t has_parts;
	uint8_t dead;		/* superseded or a duplicate header inline */
	uint32_t tus;		/* translation units that reported it */
};

struct mac {
	uint32_t name;
	int32_t count;
};

struct recset {
	struct rec *r;
	size_t n, cap;
	size_t live;
	size_t lines, bad;	/* lines read, bad lines */
};

static struct {
	struct mac *v;
	size_t n, cap;
} macs;

static int want_macros;

static struct rec *rec_new(struct recset *rs)
{
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 4096;
		rs->r = xrealloc(rs->r, rs->cap * sizeof(*rs->r));
	}
	memset(&rs->r[rs->n], 0, sizeof(rs->r[0]));
	return &rs->r[rs->n++];
}

static void mac_add(uint32_t name, int32_t count)
{
	if (macs.n == macs.cap) {
		macs.cap = macs.cap ? macs.cap * 2 : 4096;
		macs.v = xrealloc(macs.v, macs.cap * sizeof(*macs.v));
	}
	macs.v[macs.n].name = name;
	macs.v[macs.n++].count = count;
}

/* ---- the JSON scanner --------------------------------------------------- */

/*
 * The scanner of one line.  *end is always readable and is '\n', '\r' or
 * '\0' (read_fd() ends a last line without newline with one): scanning
 * loops stop there without a bounds check.
 */
struct scan {
	const char *p, *end;
	const char *err;	/* first error */
	const char *str;	/* the last string read */
	size_t slen;
	char *buf;		/* a string with escapes, decoded */
	size_t blen, bsize;
};

static int fail(struct scan *s, const char *why)
{
	if (!s->err)
		s->err = why;
	return -1;
}

static void ws(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r'))
		s->p++;
}

static inline int expect(struct scan *s, char c)
{
	if (s->p < s->end && *s->p == c) {
		s->p++;
		return 0;
	}
	ws(s);
	if (s->p >= s->end)
		return fail(s, "truncated record");
	if (*s->p != c)
		return fail(s, c == ':' ? "expected ':'" : c == '"' ?
			    "expected a string" : "unexpected character");
	s->p++;
	return 0;
}

static inline void buf_put(struct scan *s, const char *c, size_t n)
{
	if (s->blen + n + 1 > s->bsize) {
		s->bsize = (s->blen + n + 1) * 2;
		s->buf = xrealloc(s->buf, s->bsize);
	}
	memcpy(s->buf + s->blen, c, n);
	s->blen += n;
}

static int hex4(struct scan *s, unsigned *v)
{
	int i;

	*v = 0;
	if (s->end - s->p < 4)
		return fail(s, "truncated \\u escape");
	for (i = 0; i < 4; i++) {
		char c = *s->p++;

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*v |= (c | 0x20) - 'a' + 10;
		else
			return fail(s, "bad \\u escape");
	}
	return 0;
}

static void put_utf8(struct scan *s, unsigned cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | cp >> 18);
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	buf_put(s, u, n);
}

static int escape(struct scan *s)
{
	unsigned cp, lo;
	char c;

	if (s->p >= s->end)
		return fail(s, "truncated string");
	c = *s->p++;
	switch (c) {
	case '"': case '\\': case '/':
		buf_put(s, &c, 1);
		return 0;
	case 'b': buf_put(s, "\b", 1); return 0;
	case 'f': buf_put(s, "\f", 1); return 0;
	case 'n': buf_put(s, "\n", 1); return 0;
	case 'r': buf_put(s, "\r", 1); return 0;
	case 't': buf_put(s, "\t", 1); return 0;
	case 'u':
		if (hex4(s, &cp))
			return -1;
		if (cp >= 0xd800 && cp < 0xdc00) {
			if (s->end - s->p < 6 || s->p[0] != '\\' || s->p[1] != 'u')
				return fail(s, "lone surrogate in \\u escape");
			s->p += 2;
			if (hex4(s, &lo))
				return -1;
			if (lo < 0xdc00 || lo > 0xdfff)
				return fail(s, "bad surrogate pair");
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		} else if (cp >= 0xdc00 && cp < 0xe000) {
			return fail(s, "lone surrogate in \\u escape");
		}
		if (!cp)
			return fail(s, "NUL in string");
		put_utf8(s, cp);
		return 0;
	default:
		return fail(s, "bad escape in string");
	}
}

/* Bytes that end the fast path of a string: '"', '\\' and control characters. */
static unsigned char str_stop[256];

static void init_tables(void)
{
	int c;

	for (c = 0; c < 0x20; c++)
		str_stop[c] = 1;
	str_stop['"'] = 1;
	str_stop['\\'] = 1;
}

/*
 * The first '"', '\\' or control character at or after P.  The line ends
 * with one ('\n' or '\0') and read_fd() leaves SCAN_SLACK readable bytes
 * after the data, so 16-byte loads need no bounds check.
 */
#define SCAN_SLACK	16
#ifdef __SSE2__
#include <emmintrin.h>

static inline const char *scan_string(const char *p)
{
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
	const __m128i ctl = _mm_set1_epi8(0x1f);

	for (;; p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)p);
		__m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote),
							_mm_cmpeq_epi8(v, bslash)),
					   _mm_cmpeq_epi8(_mm_max_epu8(v, ctl), ctl));
		unsigned mask = (unsigned)_mm_movemask_epi8(hit);

		if (mask)
			return p + __builtin_ctz(mask);
	}
}
#else
static inline const char *scan_string(const char *p)
{
	while (!str_stop[(unsigned char)*p])
		p++;
	return p;
}
#endif

/*
 * A string: s->str, s->slen.  Without escapes (the usual case) it points
 * into the input; with escapes it is decoded into s->buf.
 */
static int string(struct scan *s)
{
	const char *q;

	if (expect(s, '"'))
		return -1;
	q = scan_string(s->p);
	if (*q == '"') {
		s->str = s->p;
		s->slen = q - s->p;
		s->p = q + 1;
		return 0;
	}
	s->blen = 0;
	for (;;) {
		buf_put(s, s->p, q - s->p);
		s->p = q;
		if (q >= s->end)
			return fail(s, "truncated string");
		if (*q == '"') {
			s->p++;
			s->str = s->buf;
			s->slen = s->blen;
			return 0;
		}
		if (*q != '\\')
			return fail(s, "control character in string");
		s->p++;
		if (escape(s))
			return -1;
		q = s->p;
		while (q < s->end && !str_stop[(unsigned char)*q])
			q++;
	}
}

/* Is the string just read KEY? */
#define KEY_IS(s, key) ((s)->slen == sizeof(key) - 1 && !memcmp((s)->str, key, sizeof(key) - 1))

/* A JSON number; *v gets it when it is an integer in int32 range. */
static int number(struct scan *s, long *v, int *is_int)
{
	const char *q = s->p;
	long n = 0;
	int neg = 0, digits = 0;

	*is_int = 1;
	if (q < s->end && *q == '-') {
		neg = 1;
		q++;
	}
	if (q < s->end && *q == '0' && q + 1 < s->end && q[1] >= '0' && q[1] <= '9')
		return fail(s, "leading zero in number");
	while (*q >= '0' && *q <= '9') {	/* *s->end is no digit */
		if (n < 1000000000L)
			n = n * 10 + (*q - '0');
		else
			*is_int = 0;
		q++;
		digits++;
	}
	if (!digits)
		return fail(s, "bad value");
	if (q < s->end && *q == '.') {
		*is_int = 0;
		q++;
		if (q >= s->end || *q < '0' || *q > '9')
			return fail(s, "bad number");
		while (q < s->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < s->end && (*q == 'e' || *q == 'E')) {
		*is_int = 0;
		q++;
		if (q < s->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= s->end || *q < '0' || *q > '9')
			return fail(s, "bad number");
		while (q < s->end && *q >= '0' && *q <= '9')
			q++;
	}
	s->p = q;
	*v = neg ? -n : n;
	return 0;
}

static int literal(struct scan *s, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n))
		return fail(s, s->end - s->p < (long)n ? "truncated record" : "bad value");
	s->p += n;
	return 0;
}

static int skip_value(struct scan *s, int depth);

static int skip_members(struct scan *s, char close, int depth)
{
	ws(s);
	if (s->p < s->end && *s->p == close) {
		s->p++;
		return 0;
	}
	for (;;) {
		if (close == '}' && (string(s) || expect(s, ':')))
			return -1;
		if (skip_value(s, depth + 1))
			return -1;
		ws(s);
		if (s->p >= s->end)
			return fail(s, "truncated record");
		if (*s->p == close) {
			s->p++;
			return 0;
		}
		if (expect(s, ','))
			return -1;
	}
}

static int skip_value(struct scan *s, int depth)
{
	long v;
	int is_int;

	if (depth > 64)
		return fail(s, "nested too deeply");
	ws(s);
	if (s->p >= s->end)
		return fail(s, "truncated record");
	switch (*s->p) {
	case '"':
		return string(s);
	case '{':
		s->p++;
		return skip_members(s, '}', depth);
	case '[':
		s->p++;
		return skip_members(s, ']', depth);
	case 't':
		return literal(s, "true");
	case 'f':
		return literal(s, "false");
	case 'n':
		return literal(s, "null");
	default:
		return number(s, &v, &is_int);
	}
}

static int int_value(struct scan *s, int32_t *out)
{
	long v;
	int is_int;

	ws(s);
	if (s->p < s->end && *s->p == '"')
		return fail(s, "expected an integer, got a string");
	if (number(s, &v, &is_int))
		return -1;
	if (!is_int)
		return fail(s, "expected an integer");
	*out = (int32_t)v;
	return 0;
}

static int bool_value(struct scan *s, uint8_t *out)
{
	ws(s);
	if (s->p < s->end && *s->p == 't') {
		*out = 1;
		return literal(s, "true");
	}
	*out = 0;
	if (s->p < s->end && *s->p == 'f')
		return literal(s, "false");
	return fail(s, "expected true or false");
}

/*
 * Parsing and interning run in two threads: a worker parses a batch of
 * lines into raw records whose strings point into the batch, while the
 * main thread interns the previous batch into the record set.
 */
struct sref {
	const char *p;
	uint32_t n;
};

struct raw {
	struct sref file, func, tu, run;
	int32_t line, m, own, macro, san, noret;
	uint32_t mac_first;	/* into batch->mac */
	uint16_t nmac;
	uint8_t header, has_parts;
};

struct rawmac {
	struct sref name;
	int32_t count;
};

struct rawbad {
	size_t lineno;
	const char *why;
};

struct batch {
	const char *data;	/* complete lines; data[len] is '\n' or '\0' */
	size_t len;
	size_t first_line;	/* number of the first line */
	size_t lines;
	struct raw *r;
	size_t n, cap;
	struct rawmac *mac;
	size_t nmac, maccap;
	struct rawbad *bad;
	size_t nbad, badcap;
	char *esc;		/* decoded strings with escapes: at most len bytes */
	size_t esclen, escsize;
	struct scan s;
};

/* Fields seen in the record being parsed. */
enum { F_FILE = 1, F_LINE = 2, F_FUNC = 4, F_M = 8 };

struct pstate {
	struct batch *b;
	unsigned seen;
};

/* Iterate over the members of an object: FN(key) parses each value. */
static int object(struct scan *s, int (*fn)(struct scan *, struct raw *, struct pstate *),
		  struct raw *r, struct pstate *ps)
{
	if (expect(s, '{'))
		return -1;
	ws(s);
	if (s->p < s->end && *s->p == '}') {
		s->p++;
		return 0;
	}
	for (;;) {
		if (string(s) || expect(s, ':') || fn(s, r, ps))
			return -1;
		ws(s);
		if (s->p >= s->end)
			return fail(s, "truncated record");
		if (*s->p == '}') {
			s->p++;
			return 0;
		}
		if (expect(s, ','))
			return -1;
	}
}

static int parts_member(struct scan *s, struct raw *r, struct pstate *ps)
{
	int32_t base;

	(void)ps;
	if (KEY_IS(s, "own"))
		return int_value(s, &r->own);
	if (KEY_IS(s, "macro"))
		return int_value(s, &r->macro);
	if (KEY_IS(s, "sanitizer"))
		return int_value(s, &r->san);
	if (KEY_IS(s, "noreturn"))
		return int_value(s, &r->noret);
	if (KEY_IS(s, "base")) {
		if (int_value(s, &base))
			return -1;
		return base == 1 ? 0 : fail(s, "parts.base is not 1");
	}
	return skip_value(s, 1);
}

/* The string just read, kept: in place, or copied when it was decoded. */
static struct sref keep_str(struct scan *s, struct batch *b)
{
	struct sref r = { s->str, (uint32_t)s->slen };

	if (s->str == s->buf) {
		/* a decoded string is never longer than its source in the batch */
		memcpy(b->esc + b->esclen, s->str, s->slen);
		r.p = b->esc + b->esclen;
		b->esclen += s->slen;
	}
	return r;
}

static int macros_member(struct scan *s, struct raw *r, struct pstate *ps)
{
	struct batch *b = ps->b;
	struct sref name;
	int32_t n;

	if (!want_macros)
		return skip_value(s, 1);
	name = keep_str(s, b);
	if (int_value(s, &n))
		return -1;
	if (!r->nmac)
		r->mac_first = (uint32_t)b->nmac;
	if (r->nmac == UINT16_MAX)
		return 0;
	if (b->nmac == b->maccap) {
		b->maccap = b->maccap ? b->maccap * 2 : 1024;
		b->mac = xrealloc(b->mac, b->maccap * sizeof(*b->mac));
	}
	b->mac[b->nmac].name = name;
	b->mac[b->nmac++].count = n;
	r->nmac++;
	return 0;
}

static int str_member(struct scan *s, struct sref *out, struct batch *b)
{
	if (string(s))
		return -1;
	*out = keep_str(s, b);
	return 0;
}

static int rec_member(struct scan *s, struct raw *r, struct pstate *ps)
{
	if (KEY_IS(s, "M")) {
		ps->seen |= F_M;
		return int_value(s, &r->m);
	}
	if (KEY_IS(s, "file")) {
		ps->seen |= F_FILE;
		return str_member(s, &r->file, ps->b);
	}
	if (KEY_IS(s, "function")) {
		ps->seen |= F_FUNC;
		return str_member(s, &r->func, ps->b);
	}
	if (KEY_IS(s, "line")) {
		ps->seen |= F_LINE;
		return int_value(s, &r->line);
	}
	if (KEY_IS(s, "tu"))
		return str_member(s, &r->tu, ps->b);
	if (KEY_IS(s, "run"))
		return str_member(s, &r->run, ps->b);
	if (KEY_IS(s, "inline_header"))
		return bool_value(s, &r->header);
	if (KEY_IS(s, "parts")) {
		r->has_parts = 1;
		ws(s);
		if (s->p < s->end && *s->p != '{')
			return fail(s, "parts is not an object");
		return object(s, parts_member, r, ps);
	}
	if (KEY_IS(s, "macros")) {
		ws(s);
		if (s->p < s->end && *s->p != '{')
			return fail(s, "macros is not an object");
		return object(s, macros_member, r, ps);
	}
	return skip_value(s, 1);
}

static int check_record(struct scan *s, const struct raw *r, unsigned seen)
{
	if (!(seen & F_FILE) || !r->file.n)
		return fail(s, "no \"file\"");
	if (!(seen & F_FUNC) || !r->func.n)
		return fail(s, "no \"function\"");
	if (!(seen & F_M))
		return fail(s, "no \"M\"");
	if (!(seen & F_LINE) || r->line < 0)
		return fail(s, "no \"line\"");
	if (r->has_parts && 1 + r->own + r->macro + r->san + r->noret != r->m)
		return fail(s, "parts do not sum to M");
	return 0;
}

static int parse_json_line(struct scan *s, struct raw *r, struct batch *b)
{
	struct pstate ps = { b, 0 };
	size_t nmac = b->nmac, esclen = b->esclen;

	if (object(s, rec_member, r, &ps) || check_record(s, r, ps.seen))
		goto bad;
	ws(s);
	if (s->p != s->end) {
		fail(s, "garbage after the record");
		goto bad;
	}
	return 0;
bad:
	b->nmac = nmac;
	b->esclen = esclen;
	return -1;
}

/* "Cyclomatic Complexity M file:function", the 2016 text line. */
static int parse_text_line(struct scan *s, struct raw *r)
{
	static const char head[] = "Cyclomatic Complexity ";
	const char *p = s->p + sizeof(head) - 1, *colon, *sp;
	long m = 0;
	int digits = 0;

	while (p < s->end && *p >= '0' && *p <= '9' && digits < 10) {
		m = m * 10 + (*p++ - '0');
		digits++;
	}
	if (!digits || p >= s->end || *p != ' ')
		return fail(s, "bad text record");
	sp = ++p;
	colon = NULL;
	for (; p < s->end; p++)
		if (*p == ':')
			colon = p;
	if (!colon || colon == sp || colon + 1 == s->end)
		return fail(s, "bad text record");
	r->m = (int32_t)m;
	r->file.p = sp;
	r->file.n = (uint32_t)(colon - sp);
	r->func.p = colon + 1;
	r->func.n = (uint32_t)(s->end - colon - 1);
	r->header = (colon - sp > 2 && colon[-2] == '.' && colon[-1] == 'h');
	return 0;
}

/* ---- reading inputs ----------------------------------------------------- */

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
		b->cap = b->cap ? b->cap * 2 : 4096;
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
	} else if (!strncmp(s->p, "Cyclomatic Complexity ", 22) &&
		   (size_t)(s->end - s->p) > 22) {
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
static void *parse_batch(void *arg)
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

static void batch_free(struct batch *b)
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

/*
 * Read FD in chunks of complete lines (the report is never held whole:
 * peak memory is the records).  While the worker parses chunk i, the main
 * thread reads chunk i + 1 and merges chunk i - 1.
 */
static void read_fd(struct recset *rs, const char *path, int fd)
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
				fprintf(stderr, TOOL ": %s: %s\n", path, strerror(errno));
				tool_error = 1;
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

static void read_file(struct recset *rs, const char *path)
{
	int fd;

	if (!strcmp(path, "-")) {
		read_fd(rs, "<stdin>", STDIN_FILENO);
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, TOOL ": %s: %s\n", path, strerror(errno));
		tool_error = 1;
		return;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	read_fd(rs, path, fd);
	close(fd);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_jsonl(const char *name)
{
	size_t n = strlen(name);

	return n > 6 && !strcmp(name + n - 6, ".jsonl");
}

static void read_path(struct recset *rs, const char *path);

/* Every *.jsonl below DIR, in name order. */
static void read_dir(struct recset *rs, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, i;

	if (!d) {
		fprintf(stderr, TOOL ": %s: %s\n", dir, strerror(errno));
		tool_error = 1;
		return;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		if (asprintf(&names[n], "%s/%s", dir, e->d_name) < 0)
			die("out of memory");
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		struct stat st;

		if (!stat(names[i], &st) && (S_ISDIR(st.st_mode) ||
					     (S_ISREG(st.st_mode) && is_jsonl(names[i]))))
			read_path(rs, names[i]);
		free(names[i]);
	}
	free(names);
}

static void read_path(struct recset *rs, const char *path)
{
	struct stat st;

	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode))
		read_dir(rs, path);
	else
		read_file(rs, path);
}

/* ---- de-duplication ------------------------------------------------------ */

struct key3 {
	uint32_t a, b, c;
};

/* Open-addressing map from three ids to a record index. */
struct map3 {
	struct key3 *k;
	uint32_t *v;		/* index + 1; 0 = empty */
	size_t size;
};

static void map3_init(struct map3 *m, size_t n)
{
	m->size = 1024;
	while (m->size < n * 2)
		m->size *= 2;
	m->k = calloc(m->size, sizeof(*m->k));
	m->v = calloc(m->size, sizeof(*m->v));
	if (!m->k || !m->v)
		die("out of memory");
}

static void map3_free(struct map3 *m)
{
	free(m->k);
	free(m->v);
}

/* The slot for KEY: *found says whether it holds KEY already. */
static size_t map3_slot(struct map3 *m, struct key3 key, int *found)
{
	uint64_t h = (key.a * 0x9E3779B97F4A7C15ULL) ^ (key.b * 0xC2B2AE3D27D4EB4FULL) ^
		     (key.c * 0x165667B19E3779F9ULL);
	size_t i = (size_t)(h ^ (h >> 29)) & (m->size - 1);

	while (m->v[i]) {
		struct key3 *k = &m->k[i];

		if (k->a == key.a && k->b == key.b && k->c == key.c) {
			*found = 1;
			return i;
		}
		i = (i + 1) & (m->size - 1);
	}
	*found = 0;
	m->k[i] = key;
	return i;
}

/*
 * Later records of the same translation unit, file and function replace
 * earlier ones; header inlines with the same file, function and M from
 * several translation units are kept once.
 */
static void dedup(struct recset *rs)
{
	struct map3 m;
	size_t i, slot;
	int found;

	/* the last compile ("run") of each translation unit wins */
	map3_init(&m, rs->n);
	for (i = 0; i < rs->n; i++) {
		struct rec *r = &rs->r[i];
		struct key3 k = { r->tu, 0, 0 };

		if (!r->tu || !r->run)
			continue;
		slot = map3_slot(&m, k, &found);
		m.v[slot] = r->run + 1;
	}
	for (i = 0; i < rs->n; i++) {
		struct rec *r = &rs->r[i];
		struct key3 k = { r->tu, 0, 0 };

		if (!r->tu || !r->run)
			continue;
		slot = map3_slot(&m, k, &found);
		r->dead = m.v[slot] != r->run + 1;
	}
	map3_free(&m);
	/* without a run: a later record of the same TU, file and function wins */
	map3_init(&m, rs->n);
	for (i = 0; i < rs->n; i++) {
		struct rec *r = &rs->r[i];
		struct key3 k = { r->tu, r->file, r->func };

		if (!r->tu || r->dead)
			continue;
		slot = map3_slot(&m, k, &found);
		if (found)
			rs->r[m.v[slot] - 1].dead = 1;
		m.v[slot] = (uint32_t)i + 1;
	}
	map3_free(&m);
	map3_init(&m, rs->n);
	rs->live = 0;
	for (i = 0; i < rs->n; i++) {
		struct rec *r = &rs->r[i];
		struct key3 k = { r->file, r->func, (uint32_t)r->m };

		if (r->dead)
			continue;
		if (r->header) {
			slot = map3_slot(&m, k, &found);
			if (found) {
				r->dead = 1;
				rs->r[m.v[slot] - 1].tus++;
				continue;
			}
			m.v[slot] = (uint32_t)i + 1;
		}
		rs->live++;
	}
	map3_free(&m);
}

static void load(struct recset *rs, char **paths, int n)
{
	int i;

	memset(rs, 0, sizeof(*rs));
	for (i = 0; i < n; i++)
		read_path(rs, paths[i]);
	if (rs->bad > MAX_SHOWN_BAD)
		fprintf(stderr, TOOL ": %zu bad lines in total (first %d shown)\n",
			rs->bad, MAX_SHOWN_BAD);
	if (rs->bad && opt.strict)
		tool_error = 1;
	dedup(rs);
	if (!rs->live) {
		fprintf(stderr, TOOL ": no records in %s%s\n", n ? paths[0] : "the input",
			n > 1 ? " and the other inputs" : "");
		tool_error = 1;
	}
}

/* ---- output helpers ------------------------------------------------------ */

static const char *path_of(uint32_t file)
{
	const char *p = str_of(file);

	if (opt.root && !strncmp(p, opt.root, opt.root_len) && p[opt.root_len] == '/')
		return p + opt.root_len + 1;
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	return p;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void xml_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, f);
		}
	}
}

static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/*
 * The fingerprint of a function that survives line shifts: 64-bit FNV-1a
 * of "FILE:FUNCTION" (FILE as printed, after --root), the same everywhere.
 */
static uint64_t fingerprint(const struct rec *r)
{
	uint64_t h = 1469598103934665603ULL;
	const char *parts[3] = { path_of(r->file), ":", str_of(r->func) };
	const char *p;
	int i;

	for (i = 0; i < 3; i++) {
		for (p = parts[i]; *p; p++) {
			h ^= (unsigned char)*p;
			h *= 1099511628211ULL;
		}
	}
	return h;
}

/* ---- SARIF and checkstyle ---------------------------------------------- */

struct finding {
	const struct rec *r;
	int rule;		/* index into rules[] */
	int base_m;		/* diff: M in the baseline, -1 when new */
};

static const struct {
	const char *id, *name, *text;
} rules[] = {
	{ "KPLUG-CC1", "cyclomatic-complexity",
	  "Cyclomatic complexity (M = E - N + 2 of the GCC CFG after the ssa pass) "
	  "at or above the threshold" },
	{ "KPLUG-CC2", "cyclomatic-complexity-growth",
	  "Cyclomatic complexity grew against the baseline and is at or above the threshold" },
};

static void finding_message(char *buf, size_t len, const struct finding *fd)
{
	const struct rec *r = fd->r;

	if (fd->rule == 1)
		snprintf(buf, len, "function '%s' grew from cyclomatic complexity %d to %d "
			 "(threshold %ld)", str_of(r->func), fd->base_m, r->m, opt.threshold);
	else
		snprintf(buf, len, "function '%s' has cyclomatic complexity %d (threshold %ld)",
			 str_of(r->func), r->m, opt.threshold);
}

static void sarif_result(FILE *f, const struct finding *fd, int first)
{
	const struct rec *r = fd->r;
	char msg[512];

	finding_message(msg, sizeof(msg), fd);
	fprintf(f, "%s\n    {\"ruleId\": \"%s\", \"ruleIndex\": %d, \"level\": \"warning\",\n"
		"     \"message\": {\"text\": ", first ? "" : ",", rules[fd->rule].id, fd->rule);
	json_str(f, msg);
	fprintf(f, "},\n     \"locations\": [{\"physicalLocation\": {\"artifactLocation\": "
		"{\"uri\": ");
	json_str(f, path_of(r->file));
	fprintf(f, ", \"uriBaseId\": \"SRCROOT\"}, \"region\": {\"startLine\": %d}}, "
		"\"logicalLocations\": [{\"name\": ", r->line > 0 ? r->line : 1);
	json_str(f, str_of(r->func));
	fprintf(f, ", \"kind\": \"function\"}]}],\n"
		"     \"partialFingerprints\": {\"kplugFunction/v1\": \"%016llx\"},\n"
		"     \"properties\": {\"M\": %d", (unsigned long long)fingerprint(r), r->m);
	if (r->has_parts)
		fprintf(f, ", \"own\": %d, \"macro\": %d, \"sanitizer\": %d, \"noreturn\": %d",
			r->own, r->macro, r->san, r->noret);
	if (fd->base_m >= 0)
		fprintf(f, ", \"baselineM\": %d", fd->base_m);
	fprintf(f, "}}");
}

static void sarif(FILE *f, const struct finding *fds, size_t n)
{
	size_t i;

	fprintf(f, "{\n  \"$schema\": \"https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json\",\n"
		"  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
		"   \"tool\": {\"driver\": {\"name\": \"kplug-report\", \"version\": \"%s\",\n"
		"    \"rules\": [",
		VERSION);
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		fprintf(f, "%s\n     {\"id\": \"%s\", \"name\": \"%s\", \"shortDescription\": "
			"{\"text\": \"%s\"},\n      \"defaultConfiguration\": {\"level\": "
			"\"warning\"}, \"properties\": {\"threshold\": %ld}}", i ? "," : "",
			rules[i].id, rules[i].name, rules[i].text, opt.threshold);
	}
	fprintf(f, "]}},\n   \"originalUriBaseIds\": {\"SRCROOT\": {\"description\": "
		"{\"text\": \"the source tree the report paths are relative to\"}}},\n"
		"   \"columnKind\": \"utf16CodeUnits\",\n   \"results\": [");
	for (i = 0; i < n; i++)
		sarif_result(f, &fds[i], !i);
	fprintf(f, "]\n  }]\n}\n");
}

static int cmp_finding_file(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;
	int c = strcmp(path_of(x->r->file), path_of(y->r->file));

	return c ? c : x->r->line - y->r->line;
}

static void checkstyle(FILE *f, struct finding *fds, size_t n)
{
	const char *cur = NULL;
	char msg[512];
	size_t i;

	qsort(fds, n, sizeof(*fds), cmp_finding_file);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n");
	for (i = 0; i < n; i++) {
		const char *path = path_of(fds[i].r->file);

		if (!cur || strcmp(cur, path)) {
			if (cur)
				fprintf(f, "  </file>\n");
			fprintf(f, "  <file name=\"");
			xml_str(f, path);
			fprintf(f, "\">\n");
			cur = path;
		}
		finding_message(msg, sizeof(msg), &fds[i]);
		fprintf(f, "    <error line=\"%d\" severity=\"warning\" message=\"",
			fds[i].r->line);
		xml_str(f, msg);
		fprintf(f, "\" source=\"kplug.%s\"/>\n", rules[fds[i].rule].name);
	}
	if (cur)
		fprintf(f, "  </file>\n");
	fprintf(f, "</checkstyle>\n");
}

/* ---- top ---------------------------------------------------------------- */

/* Higher M first; ties by file, line, function: the output is stable. */
static int rec_before(const struct rec *a, const struct rec *b)
{
	int c;

	if (a->m != b->m)
		return a->m > b->m;
	c = strcmp(str_of(a->file), str_of(b->file));
	if (c)
		return c < 0;
	if (a->line != b->line)
		return a->line < b->line;
	return strcmp(str_of(a->func), str_of(b->func)) < 0;
}

static int cmp_rec_ptr(const void *a, const void *b)
{
	const struct rec *x = *(const struct rec *const *)a;
	const struct rec *y = *(const struct rec *const *)b;

	return rec_before(x, y) ? -1 : rec_before(y, x) ? 1 : 0;
}

static void heap_down(const struct rec **h, size_t n, size_t i)
{
	const struct rec *t;

	for (;;) {
		size_t l = 2 * i + 1, w = i;

		/* a min-heap of "worst kept first": the root is the last in order */
		if (l < n && rec_before(h[w], h[l]))
			w = l;
		if (l + 1 < n && rec_before(h[w], h[l + 1]))
			w = l + 1;
		if (w == i)
			return;
		t = h[i];
		h[i] = h[w];
		h[w] = t;
		i = w;
	}
}

/* The first N records in rec_before order (all with N == 0), sorted. */
static const struct rec **select_top(const struct recset *rs, size_t n, size_t *out)
{
	const struct rec **h;
	size_t i, k = 0;

	if (!n || n > rs->live)
		n = rs->live;
	h = xrealloc(NULL, (n + 1) * sizeof(*h));
	for (i = 0; i < rs->n && n; i++) {
		const struct rec *r = &rs->r[i];

		if (r->dead)
			continue;
		if (k < n) {
			h[k++] = r;
			if (k == n) {
				size_t j = n / 2 + 1;

				while (j--)
					heap_down(h, n, j);
			}
		} else if (rec_before(r, h[0])) {
			h[0] = r;
			heap_down(h, n, 0);
		}
	}
	qsort(h, k, sizeof(*h), cmp_rec_ptr);
	*out = k;
	return h;
}

static void macro_list(FILE *f, const struct rec *r, const char *sep)
{
	uint16_t i;

	for (i = 0; i < r->nmac; i++)
		fprintf(f, "%s%s %d", i ? sep : "", str_of(macs.v[r->mac_off + i].name),
			macs.v[r->mac_off + i].count);
}

static void top_text(FILE *f, const struct rec **v, size_t n)
{
	size_t i;

	fprintf(f, "%5s %5s %5s %5s %5s  %-40s %s\n", "M", "own", "macro", "san",
		"noret", "location", "function");
	for (i = 0; i < n; i++) {
		const struct rec *r = v[i];
		char loc[4096];

		snprintf(loc, sizeof(loc), "%s:%d", path_of(r->file), r->line);
		if (r->has_parts)
			fprintf(f, "%5d %5d %5d %5d %5d  %-40s %s", r->m, r->own,
				r->macro, r->san, r->noret, loc, str_of(r->func));
		else
			fprintf(f, "%5d %5s %5s %5s %5s  %-40s %s", r->m, "-", "-", "-",
				"-", loc, str_of(r->func));
		if (r->header)
			fprintf(f, " [header, %u TUs]", r->tus);
		if (r->nmac) {
			fprintf(f, " (macros: ");
			macro_list(f, r, ", ");
			fputc(')', f);
		}
		fputc('\n', f);
	}
}

static void rec_json(FILE *f, const struct rec *r)
{
	uint16_t i;

	fprintf(f, "{\"file\":");
	json_str(f, path_of(r->file));
	fprintf(f, ",\"line\":%d,\"function\":", r->line);
	json_str(f, str_of(r->func));
	fprintf(f, ",\"M\":%d", r->m);
	if (r->has_parts)
		fprintf(f, ",\"own\":%d,\"macro\":%d,\"sanitizer\":%d,\"noreturn\":%d",
			r->own, r->macro, r->san, r->noret);
	fprintf(f, ",\"inline_header\":%s,\"tus\":%u", r->header ? "true" : "false", r->tus);
	if (r->nmac) {
		fprintf(f, ",\"macros\":{");
		for (i = 0; i < r->nmac; i++) {
			fprintf(f, "%s", i ? "," : "");
			json_str(f, str_of(macs.v[r->mac_off + i].name));
			fprintf(f, ":%d", macs.v[r->mac_off + i].count);
		}
		fputc('}', f);
	}
	fputc('}', f);
}

static void top_csv(FILE *f, const struct rec **v, size_t n)
{
	size_t i;

	fprintf(f, "M,own,macro,sanitizer,noreturn,file,line,function,inline_header,tus\n");
	for (i = 0; i < n; i++) {
		const struct rec *r = v[i];

		if (r->has_parts)
			fprintf(f, "%d,%d,%d,%d,%d,", r->m, r->own, r->macro, r->san, r->noret);
		else
			fprintf(f, "%d,,,,,", r->m);
		csv_str(f, path_of(r->file));
		fprintf(f, ",%d,", r->line);
		csv_str(f, str_of(r->func));
		fprintf(f, ",%d,%u\n", r->header, r->tus);
	}
}

/* SARIF and checkstyle list findings: the functions at or above the threshold. */
static void findings_out(FILE *f, const struct rec **v, size_t n)
{
	struct finding *fds = xrealloc(NULL, (n + 1) * sizeof(*fds));
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (v[i]->m < opt.threshold)
			continue;
		fds[k].r = v[i];
		fds[k].rule = 0;
		fds[k++].base_m = -1;
	}
	if (opt.fmt == FMT_SARIF)
		sarif(f, fds, k);
	else
		checkstyle(f, fds, k);
	free(fds);
}

static void recs_out(FILE *f, const struct rec **v, size_t n)
{
	size_t i;

	switch (opt.fmt) {
	case FMT_TEXT:
		top_text(f, v, n);
		break;
	case FMT_CSV:
		top_csv(f, v, n);
		break;
	case FMT_JSON:
		fputc('[', f);
		for (i = 0; i < n; i++) {
			fputs(i ? ",\n " : "", f);
			rec_json(f, v[i]);
		}
		fputs("]\n", f);
		break;
	default:
		findings_out(f, v, n);
	}
}

static int over_threshold(const struct recset *rs)
{
	size_t i, n = 0;

	for (i = 0; i < rs->n; i++)
		n += !rs->r[i].dead && rs->r[i].m >= opt.threshold;
	return (int)n;
}

static void summary(const struct recset *rs)
{
	fprintf(stderr, TOOL ": %zu records read, %zu bad lines, %zu functions after "
		"de-duplication, %d at or above %ld\n", rs->n, rs->bad, rs->live,
		over_threshold(rs), opt.threshold);
}

static int cmd_top(struct recset *rs)
{
	size_t n;
	const struct rec **v = select_top(rs, opt.top_n, &n);

	recs_out(stdout, v, n);
	free(v);
	return 0;
}

/* Every function at or above the threshold, as findings. */
static int cmd_sarif(struct recset *rs)
{
	size_t n, k;
	const struct rec **v = select_top(rs, 0, &n);

	for (k = 0; k < n && v[k]->m >= opt.threshold; k++)
		;
	if (opt.fmt != FMT_CHECKSTYLE)
		opt.fmt = FMT_SARIF;
	recs_out(stdout, v, k);
	free(v);
	return 0;
}

/* ---- dirs --------------------------------------------------------------- */

struct dirstat {
	uint32_t dir;
	size_t count, over;
	int max, p95;
	double mean;
};

static uint32_t dir_of(const struct rec *r)
{
	const char *p = path_of(r->file), *slash = NULL, *q;
	int depth = 0;

	for (q = p; *q; q++) {
		if (*q != '/')
			continue;
		if (opt.depth && depth == opt.depth)
			break;
		slash = q;
		depth++;
	}
	if (!slash)
		return intern(".", 1);
	return intern(p, slash - p);
}

struct dm {
	uint32_t dir;
	int32_t m;
};

static int cmp_dm(const void *a, const void *b)
{
	const struct dm *x = a, *y = b;
	int c = x->dir == y->dir ? 0 : strcmp(str_of(x->dir), str_of(y->dir));

	if (c)
		return c;
	return (x->m > y->m) - (x->m < y->m);
}

static int cmp_dirstat(const void *a, const void *b)
{
	const struct dirstat *x = a, *y = b;

	if (x->max != y->max)
		return y->max - x->max;
	if (x->p95 != y->p95)
		return y->p95 - x->p95;
	return strcmp(str_of(x->dir), str_of(y->dir));
}

static int cmd_dirs(struct recset *rs)
{
	struct dm *v = xrealloc(NULL, (rs->live + 1) * sizeof(*v));
	struct dirstat *d = xrealloc(NULL, (rs->live + 1) * sizeof(*d));
	size_t i, j, k = 0, nd = 0;

	for (i = 0; i < rs->n; i++) {
		if (rs->r[i].dead)
			continue;
		v[k].dir = dir_of(&rs->r[i]);
		v[k++].m = rs->r[i].m;
	}
	qsort(v, k, sizeof(*v), cmp_dm);
	for (i = 0; i < k; i = j) {
		double sum = 0;
		size_t n, over = 0;

		for (j = i; j < k && v[j].dir == v[i].dir; j++) {
			sum += v[j].m;
			over += v[j].m >= opt.threshold;
		}
		n = j - i;
		d[nd].dir = v[i].dir;
		d[nd].count = n;
		d[nd].over = over;
		d[nd].max = v[j - 1].m;
		/* nearest rank: the smallest M with at least 95% at or below it */
		d[nd].p95 = v[i + (size_t)ceil(0.95 * n) - 1].m;
		d[nd++].mean = sum / n;
	}
	qsort(d, nd, sizeof(*d), cmp_dirstat);
	if (opt.top_n && (size_t)opt.top_n < nd)
		nd = opt.top_n;
	if (opt.fmt == FMT_TEXT)
		printf("%-40s %8s %6s %6s %8s %8s\n", "directory", "count", "max", "p95",
		       "mean", "over");
	else if (opt.fmt == FMT_CSV)
		printf("directory,count,max,p95,mean,over_%ld\n", opt.threshold);
	else
		printf("[");
	for (i = 0; i < nd; i++) {
		const char *name = str_of(d[i].dir);

		if (opt.fmt == FMT_TEXT) {
			printf("%-40s %8zu %6d %6d %8.2f %8zu\n", name, d[i].count,
			       d[i].max, d[i].p95, d[i].mean, d[i].over);
		} else if (opt.fmt == FMT_CSV) {
			csv_str(stdout, name);
			printf(",%zu,%d,%d,%.2f,%zu\n", d[i].count, d[i].max, d[i].p95,
			       d[i].mean, d[i].over);
		} else {
			printf("%s{\"directory\":", i ? ",\n " : "");
			json_str(stdout, name);
			printf(",\"count\":%zu,\"max\":%d,\"p95\":%d,\"mean\":%.2f,"
			       "\"over\":%zu,\"threshold\":%ld}", d[i].count, d[i].max,
			       d[i].p95, d[i].mean, d[i].over, opt.threshold);
		}
	}
	if (opt.fmt == FMT_JSON)
		printf("]\n");
	free(v);
	free(d);
	return 0;
}

/* ---- macros ------------------------------------------------------------- */

struct macstat {
	uint32_t name;
	long decisions;
	size_t functions;
	int max;
	const struct rec *worst;
};

static int cmp_macstat(const void *a, const void *b)
{
	const struct macstat *x = a, *y = b;

	if (x->decisions != y->decisions)
		return x->decisions < y->decisions ? 1 : -1;
	return strcmp(str_of(x->name), str_of(y->name));
}

static int cmd_macros(struct recset *rs)
{
	/* indexed by interned name id */
	struct macstat *by = calloc(strs.n + 1, sizeof(*by));
	struct macstat *v = xrealloc(NULL, (strs.n + 1) * sizeof(*v));
	size_t i, n = 0, nparts = 0;
	long total = 0;

	if (!by)
		die("out of memory");
	for (i = 0; i < rs->n; i++) {
		const struct rec *r = &rs->r[i];
		uint16_t j;

		if (r->dead)
			continue;
		nparts += r->has_parts;
		total += r->macro;
		for (j = 0; j < r->nmac; j++) {
			const struct mac *m = &macs.v[r->mac_off + j];
			struct macstat *s = &by[m->name];

			s->name = m->name;
			s->decisions += m->count;
			s->functions++;
			if (m->count > s->max) {
				s->max = m->count;
				s->worst = r;
			}
		}
	}
	if (!nparts) {
		fprintf(stderr, TOOL ": macros needs JSON Lines records (format=jsonl)\n");
		free(by);
		free(v);
		return -1;
	}
	for (i = 0; i < strs.n; i++)
		if (by[i].functions)
			v[n++] = by[i];
	qsort(v, n, sizeof(*v), cmp_macstat);
	if (opt.top_n && (size_t)opt.top_n < n)
		n = opt.top_n;
	if (opt.fmt == FMT_TEXT)
		printf("%-32s %10s %9s %5s  %s\n", "macro", "decisions", "functions", "max",
		       "worst function");
	else if (opt.fmt == FMT_CSV)
		printf("macro,decisions,functions,max,worst_file,worst_function\n");
	else
		printf("[");
	for (i = 0; i < n; i++) {
		const struct macstat *s = &v[i];

		if (opt.fmt == FMT_TEXT) {
			printf("%-32s %10ld %9zu %5d  %s:%s\n", str_of(s->name), s->decisions,
			       s->functions, s->max, path_of(s->worst->file),
			       str_of(s->worst->func));
		} else if (opt.fmt == FMT_CSV) {
			csv_str(stdout, str_of(s->name));
			printf(",%ld,%zu,%d,", s->decisions, s->functions, s->max);
			csv_str(stdout, path_of(s->worst->file));
			putchar(',');
			csv_str(stdout, str_of(s->worst->func));
			putchar('\n');
		} else {
			printf("%s{\"macro\":", i ? ",\n " : "");
			json_str(stdout, str_of(s->name));
			printf(",\"decisions\":%ld,\"functions\":%zu,\"max\":%d,\"worst\":",
			       s->decisions, s->functions, s->max);
			rec_json(stdout, s->worst);
			putchar('}');
		}
	}
	if (opt.fmt == FMT_JSON)
		printf("]\n");
	else if (opt.fmt == FMT_TEXT)
		printf("# %ld decision points come from macros in %zu functions\n", total,
		       rs->live);
	free(by);
	free(v);
	return 0;
}

/* ---- hist --------------------------------------------------------------- */

#define NBUCKET	16

/* Buckets 1, 2, 3-4, 5-8, 9-16, ...; M <= 0 goes to the first. */
static int bucket_of(int m)
{
	int b = 0;

	while (b < NBUCKET - 1 && m > (1 << b))
		b++;
	return b;
}

static void bucket_label(char *buf, size_t len, int b)
{
	int lo = b ? (1 << (b - 1)) + 1 : 1, hi = 1 << b;

	if (b == NBUCKET - 1)
		snprintf(buf, len, "%d+", lo);
	else if (lo == hi)
		snprintf(buf, len, "%d", lo);
	else
		snprintf(buf, len, "%d-%d", lo, hi);
}

static int write_svg(const char *path, const size_t *count, int nb, size_t max)
{
	FILE *f = fopen(path, "w");
	const int w = 40, gap = 8, height = 240, left = 60, top = 30;
	char label[32];
	int b;

	if (!f) {
		fprintf(stderr, TOOL ": %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n", left + nb * (w + gap) + 20,
		height + top + 60);
	fprintf(f, "<text x=\"%d\" y=\"18\" font-size=\"14\">Cyclomatic complexity per "
		"function (log scale of counts)</text>\n", left);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
		left - 4, top + height, left + nb * (w + gap), top + height);
	for (b = 0; b < nb; b++) {
		double frac = count[b] ? log10((double)count[b] + 1) / log10((double)max + 1) : 0;
		int h = (int)(frac * height + 0.5), x = left + b * (w + gap);

		bucket_label(label, sizeof(label), b);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\">"
			"<title>M %s: %zu functions</title></rect>\n", x, top + height - h, w, h,
			(1L << b) > opt.threshold ? "#c0392b" : "#2e86c1", label, count[b]);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%zu</text>\n",
			x + w / 2, top + height - h - 4, count[b]);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			x + w / 2, top + height + 16, label);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\">M (red: buckets reaching the threshold %ld)"
		"</text>\n</svg>\n", left, top + height + 40, opt.threshold);
	if (fclose(f)) {
		fprintf(stderr, TOOL ": %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int cmd_hist(struct recset *rs)
{
	size_t count[NBUCKET] = { 0 }, max = 0, i;
	int nb = 1, b;
	char label[32];

	for (i = 0; i < rs->n; i++) {
		if (rs->r[i].dead)
			continue;
		b = bucket_of(rs->r[i].m);
		count[b]++;
		if (b + 1 > nb)
			nb = b + 1;
	}
	for (b = 0; b < nb; b++)
		if (count[b] > max)
			max = count[b];
	if (opt.fmt == FMT_CSV)
		printf("bucket,low,high,functions\n");
	else if (opt.fmt == FMT_JSON)
		printf("[");
	for (b = 0; b < nb; b++) {
		int lo = b ? (1 << (b - 1)) + 1 : 1;
		long hi = b == NBUCKET - 1 ? -1 : 1L << b;

		bucket_label(label, sizeof(label), b);
		if (opt.fmt == FMT_TEXT) {
			int bar = max ? (int)((count[b] * 50 + max - 1) / max) : 0;

			printf("%8s %8zu ", label, count[b]);
			while (bar--)
				putchar('#');
			putchar('\n');
		} else if (opt.fmt == FMT_CSV) {
			printf("%s,%d,%ld,%zu\n", label, lo, hi, count[b]);
		} else {
			printf("%s{\"bucket\":\"%s\",\"low\":%d,\"high\":%ld,\"functions\":%zu}",
			       b ? ",\n " : "", label, lo, hi, count[b]);
		}
	}
	if (opt.fmt == FMT_JSON)
		printf("]\n");
	if (opt.svg && write_svg(opt.svg, count, nb, max))
		return -1;
	return 0;
}

/* ---- diff --------------------------------------------------------------- */

/* file+function -> the record with the largest M among the live ones. */
static void index_functions(const struct recset *rs, struct map3 *m)
{
	size_t i, slot;
	int found;

	map3_init(m, rs->n);
	for (i = 0; i < rs->n; i++) {
		const struct rec *r = &rs->r[i];
		struct key3 k = { r->file, r->func, 0 };

		if (r->dead)
			continue;
		slot = map3_slot(m, k, &found);
		if (!found || rs->r[m->v[slot] - 1].m < r->m)
			m->v[slot] = (uint32_t)i + 1;
	}
}

static void diff_text(const struct finding *fds, size_t n, size_t nnew, size_t ngrown,
		      size_t nshrunk, size_t nremoved)
{
	size_t i;

	printf("%-7s %5s %5s %6s  %-40s %s\n", "change", "base", "M", "delta", "location",
	       "function");
	for (i = 0; i < n; i++) {
		const struct rec *r = fds[i].r;
		char loc[4096];

		snprintf(loc, sizeof(loc), "%s:%d", path_of(r->file), r->line);
		if (fds[i].base_m < 0)
			printf("%-7s %5s %5d %6s  %-40s %s\n", "new", "-", r->m, "", loc,
			       str_of(r->func));
		else
			printf("%-7s %5d %5d %+6d  %-40s %s\n", "grown", fds[i].base_m, r->m,
			       r->m - fds[i].base_m, loc, str_of(r->func));
	}
	printf("# %zu new at or above %ld, %zu grown, %zu shrunk, %zu removed\n", nnew,
	       opt.threshold, ngrown, nshrunk, nremoved);
}

static int cmp_finding(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;
	int dx = x->r->m - (x->base_m < 0 ? 0 : x->base_m);
	int dy = y->r->m - (y->base_m < 0 ? 0 : y->base_m);

	if ((x->base_m < 0) != (y->base_m < 0))
		return x->base_m < 0 ? -1 : 1;
	if (dx != dy)
		return dy - dx;
	return cmp_rec_ptr(&x->r, &y->r);
}

static int cmd_diff(struct recset *base, struct recset *cur)
{
	struct map3 bi, ci;
	struct finding *fds = xrealloc(NULL, (cur->live + 1) * sizeof(*fds));
	size_t i, n = 0, nnew = 0, ngrown = 0, nshrunk = 0, nremoved = 0, slot;
	int found, breach = 0;

	index_functions(base, &bi);
	index_functions(cur, &ci);
	for (i = 0; i < ci.size; i++) {
		const struct rec *r;
		struct key3 k;

		if (!ci.v[i])
			continue;
		r = &cur->r[ci.v[i] - 1];
		k = ci.k[i];
		slot = map3_slot(&bi, k, &found);
		if (!found) {
			bi.v[slot] = 0;		/* keep the baseline map unchanged */
			if (r->m < opt.threshold)
				continue;
			fds[n].base_m = -1;
			fds[n].rule = 0;
			nnew++;
			breach = 1;
		} else {
			int bm = base->r[bi.v[slot] - 1].m;

			nshrunk += r->m < bm;
			if (r->m <= bm)
				continue;
			fds[n].base_m = bm;
			fds[n].rule = 1;
			ngrown++;
			breach |= r->m >= opt.threshold;
		}
		fds[n++].r = r;
	}
	for (i = 0; i < bi.size; i++) {
		if (!bi.v[i])
			continue;
		map3_slot(&ci, bi.k[i], &found);
		nremoved += !found;
	}
	qsort(fds, n, sizeof(*fds), cmp_finding);
	switch (opt.fmt) {
	case FMT_TEXT:
		diff_text(fds, n, nnew, ngrown, nshrunk, nremoved);
		break;
	case FMT_SARIF:
		sarif(stdout, fds, n);
		break;
	case FMT_CHECKSTYLE:
		checkstyle(stdout, fds, n);
		break;
	case FMT_CSV:
		printf("change,base_M,M,file,line,function\n");
		for (i = 0; i < n; i++) {
			printf("%s,", fds[i].base_m < 0 ? "new" : "grown");
			if (fds[i].base_m >= 0)
				printf("%d", fds[i].base_m);
			printf(",%d,", fds[i].r->m);
			csv_str(stdout, path_of(fds[i].r->file));
			printf(",%d,", fds[i].r->line);
			csv_str(stdout, str_of(fds[i].r->func));
			putchar('\n');
		}
		break;
	case FMT_JSON:
		printf("{\"threshold\":%ld,\"new\":%zu,\"grown\":%zu,\"shrunk\":%zu,"
		       "\"removed\":%zu,\"changes\":[", opt.threshold, nnew, ngrown, nshrunk,
		       nremoved);
		for (i = 0; i < n; i++) {
			printf("%s{\"change\":\"%s\",\"base_M\":%d,\"record\":", i ? ",\n " : "",
			       fds[i].base_m < 0 ? "new" : "grown", fds[i].base_m);
			rec_json(stdout, fds[i].r);
			putchar('}');
		}
		printf("]}\n");
		break;
	}
	map3_free(&bi);
	map3_free(&ci);
	free(fds);
	return breach;
}

/* ---- main --------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " TOOL " [options] top|dirs|macros|hist|sarif INPUT...\n"
		"       " TOOL " [options] diff BASE NEW\n"
		"INPUT: a JSON Lines or text cyc_complexity report, '-' for stdin, or a\n"
		"directory searched for *.jsonl.\n"
		"  top       the N most complex functions (-n, default 10; 0: all)\n"
		"  dirs      per directory: count, max, p95, mean, count at or above threshold\n"
		"  macros    the macros charged with the most decision points\n"
		"  hist      histogram of M (text; --svg FILE writes a chart)\n"
		"  sarif     every function at or above the threshold, as SARIF 2.1.0\n"
		"  diff      new functions at or above the threshold and grown ones\n"
		"options:\n"
		"  --format=text|csv|json|sarif|checkstyle  (sarif, checkstyle: top, sarif, diff)\n"
		"  --threshold=N  gate: exit 1 when a function (diff: a new or grown one)\n"
		"                 reaches N; without it N is 30 and only displayed\n"
		"  -n N, --top=N  rows for top, dirs and macros (0: all)\n"
		"  --depth=D      dirs: group by the first D path components\n"
		"  --root=DIR     strip DIR/ from the paths of the report\n"
		"  --svg=FILE     hist: also write an SVG bar chart\n"
		"  --strict       bad input lines are a tool error (exit 2)\n"
		"exit status: 0 fine, 1 gate breached, 2 tool error\n");
}

static long parse_long(const char *what, const char *s, long min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > INT_MAX)
		die("%s: bad value '%s' (an integer >= %ld)", what, s, min);
	return v;
}

static void parse_options(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "threshold", required_argument, NULL, 't' },
		{ "top", required_argument, NULL, 'n' },
		{ "depth", required_argument, NULL, 'd' },
		{ "root", required_argument, NULL, 'r' },
		{ "svg", required_argument, NULL, 's' },
		{ "strict", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c, i;

	while ((c = getopt_long(argc, argv, "n:h", lo, NULL)) != -1) {
		switch (c) {
		case 'f':
			for (i = 0; i < 5 && strcmp(optarg, fmt_names[i]); i++)
				;
			if (i == 5)
				die("--format: unknown format '%s' (text, csv, json, sarif, "
				    "checkstyle)", optarg);
			opt.fmt = (enum fmt)i;
			break;
		case 't':
			opt.threshold = parse_long("--threshold", optarg, 1);
			opt.gate = 1;
			break;
		case 'n':
			opt.top_n = parse_long("--top", optarg, 0);
			break;
		case 'd':
			opt.depth = (int)parse_long("--depth", optarg, 0);
			break;
		case 'r':
			opt.root = optarg;
			opt.root_len = strlen(optarg);
			while (opt.root_len > 1 && optarg[opt.root_len - 1] == '/')
				opt.root_len--;
			break;
		case 's':
			opt.svg = optarg;
			break;
		case 'S':
			opt.strict = 1;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_OK);
		case 'V':
			printf(TOOL " " VERSION "\n");
			exit(EXIT_OK);
		default:
			usage(stderr);
			exit(EXIT_TOOL);
		}
	}
}

int main(int argc, char **argv)
{
	static const char *const cmds[] = { "top", "dirs", "macros", "hist", "sarif", "diff" };
	struct recset rs, base;
	const char *cmd;
	int ci, ret = 0;

	parse_options(argc, argv);
	if (optind >= argc) {
		usage(stderr);
		return EXIT_TOOL;
	}
	cmd = argv[optind++];
	for (ci = 0; ci < 6 && strcmp(cmd, cmds[ci]); ci++)
		;
	if (ci == 6)
		die("unknown command '%s' (top, dirs, macros, hist, sarif, diff)", cmd);
	if (optind >= argc)
		die("%s: no input given", cmd);
	if ((opt.fmt == FMT_SARIF || opt.fmt == FMT_CHECKSTYLE) && (ci == 1 || ci == 2 || ci == 3))
		die("--format=%s does not apply to %s", fmt_names[opt.fmt], cmd);
	if (opt.svg && ci != 3)
		die("--svg applies to hist only");
	intern("", 0);
	init_tables();
	want_macros = ci == 0 || ci == 2 || ci == 5;
	if (ci == 5) {
		if (argc - optind != 2)
			die("diff needs exactly two inputs: BASE NEW");
		load(&base, &argv[optind], 1);
		load(&rs, &argv[optind + 1], 1);
		if (tool_error)
			return EXIT_TOOL;
		ret = cmd_diff(&base, &rs);
	} else {
		load(&rs, &argv[optind], argc - optind);
		if (tool_error && !rs.live)
			return EXIT_TOOL;
		switch (ci) {
		case 0: ret = cmd_top(&rs); break;
		case 1: ret = cmd_dirs(&rs); break;
		case 2: ret = cmd_macros(&rs); break;
		case 3: ret = cmd_hist(&rs); break;
		case 4: ret = cmd_sarif(&rs); break;
		}
		if (ret < 0)
			return EXIT_TOOL;
		summary(&rs);
		ret = over_threshold(&rs) > 0;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, TOOL ": cannot write the output: %s\n", strerror(errno));
		return EXIT_TOOL;
	}
	if (tool_error)
		return EXIT_TOOL;
	return opt.gate && ret ? EXIT_GATE : EXIT_OK;
}
