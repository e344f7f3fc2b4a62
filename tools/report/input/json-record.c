// SPDX-License-Identifier: GPL-2.0
/*
 * kplug-report: the JSON Lines reader.  It reads exactly what the plugin
 * writes and skips every member it does not know; integers are exact
 * (int32 range, else the line is bad).
 */
#include <stdint.h>
#include <string.h>

#include "tools/report/report.h"
#include "tools/report/input/batch.h"

int scan_fail(struct scan *s, const char *why)
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
		return scan_fail(s, "truncated record");
	if (*s->p != c)
		return scan_fail(s, c == ':' ? "expected ':'" : c == '"' ?
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
		return scan_fail(s, "truncated \\u escape");
	for (i = 0; i < 4; i++) {
		char c = *s->p++;

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*v |= (c | 0x20) - 'a' + 10;
		else
			return scan_fail(s, "bad \\u escape");
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
		return scan_fail(s, "truncated string");
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
				return scan_fail(s, "lone surrogate in \\u escape");
			s->p += 2;
			if (hex4(s, &lo))
				return -1;
			if (lo < 0xdc00 || lo > 0xdfff)
				return scan_fail(s, "bad surrogate pair");
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		} else if (cp >= 0xdc00 && cp < 0xe000) {
			return scan_fail(s, "lone surrogate in \\u escape");
		}
		if (!cp)
			return scan_fail(s, "NUL in string");
		put_utf8(s, cp);
		return 0;
	default:
		return scan_fail(s, "bad escape in string");
	}
}

/* Bytes that end the fast path of a string: '"', '\\' and control characters. */
static unsigned char str_stop[256];

void json_init(void)
{
	int c;

	for (c = 0; c < 0x20; c++)
		str_stop[c] = 1;
	str_stop['"'] = 1;
	str_stop['\\'] = 1;
}

/*
 * The first '"', '\\' or control character at or after P.  The line ends
 * with one ('\n' or '\0') and SCAN_SLACK readable bytes follow the data,
 * so 16-byte loads need no bounds check.
 */
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
			return scan_fail(s, "truncated string");
		if (*q == '"') {
			s->p++;
			s->str = s->buf;
			s->slen = s->blen;
			return 0;
		}
		if (*q != '\\')
			return scan_fail(s, "control character in string");
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

/* A JSON number as the scanner saw it. */
struct num {
	int64_t v;		/* the value when it is an integer that fits */
	int is_int;		/* no fraction, no exponent */
	int big;		/* an integer beyond int64 */
};

/* Digits after a '.' or an exponent mark. */
static int digits(struct scan *s, const char **q)
{
	if (*q >= s->end || **q < '0' || **q > '9')
		return scan_fail(s, "bad number");
	while (*q < s->end && **q >= '0' && **q <= '9')
		(*q)++;
	return 0;
}

static int number(struct scan *s, struct num *num)
{
	const char *q = s->p;
	uint64_t n = 0;
	int neg = 0, ndigits = 0;

	num->is_int = 1;
	num->big = 0;
	if (q < s->end && *q == '-') {
		neg = 1;
		q++;
	}
	if (q < s->end && *q == '0' && q + 1 < s->end && q[1] >= '0' && q[1] <= '9')
		return scan_fail(s, "leading zero in number");
	while (*q >= '0' && *q <= '9') {	/* *s->end is no digit */
		if (n <= (UINT64_C(1) << 62) / 10)
			n = n * 10 + (uint64_t)(*q - '0');
		else
			num->big = 1;
		q++;
		ndigits++;
	}
	if (!ndigits)
		return scan_fail(s, "bad value");
	if (q < s->end && *q == '.') {
		num->is_int = 0;
		q++;
		if (digits(s, &q))
			return -1;
	}
	if (q < s->end && (*q == 'e' || *q == 'E')) {
		num->is_int = 0;
		q++;
		if (q < s->end && (*q == '+' || *q == '-'))
			q++;
		if (digits(s, &q))
			return -1;
	}
	s->p = q;
	num->v = neg ? -(int64_t)n : (int64_t)n;
	return 0;
}

static int literal(struct scan *s, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n))
		return scan_fail(s, s->end - s->p < (long)n ? "truncated record" : "bad value");
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
			return scan_fail(s, "truncated record");
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
	struct num num;

	if (depth > 64)
		return scan_fail(s, "nested too deeply");
	ws(s);
	if (s->p >= s->end)
		return scan_fail(s, "truncated record");
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
		return number(s, &num);
	}
}

/* An integer member: exact, in int32 range (M, line, parts, macro counts). */
static int int_value(struct scan *s, int32_t *out)
{
	struct num num;

	ws(s);
	if (s->p < s->end && *s->p == '"')
		return scan_fail(s, "expected an integer, got a string");
	if (number(s, &num))
		return -1;
	if (!num.is_int)
		return scan_fail(s, "expected an integer");
	if (num.big || num.v < INT32_MIN || num.v > INT32_MAX)
		return scan_fail(s, "integer out of range");
	*out = (int32_t)num.v;
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
	return scan_fail(s, "expected true or false");
}

/* Fields seen in the record being parsed. */
enum { F_FILE = 1, F_LINE = 2, F_FUNC = 4, F_M = 8, F_TU = 16, F_RUN = 32,
       F_HEADER = 64, F_PARTS = 128, F_MACROS = 256 };

struct pstate {
	struct batch *b;
	unsigned seen;		/* record members seen */
	unsigned pseen;		/* parts seen */
};

/* Mark member BIT of SEEN as read: a key given twice is a bad record. */
static int once(struct scan *s, unsigned *seen, unsigned bit)
{
	if (*seen & bit)
		return scan_fail(s, "duplicate key");
	*seen |= bit;
	return 0;
}

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
			return scan_fail(s, "truncated record");
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
	static const char *const names[] = { "base", "own", "macro", "sanitizer", "noreturn" };
	int32_t *dst[] = { NULL, &r->own, &r->macro, &r->san, &r->noret };
	int32_t base;
	unsigned i;

	for (i = 0; i < 5; i++)
		if (s->slen == strlen(names[i]) && !memcmp(s->str, names[i], s->slen))
			break;
	if (i == 5)
		return skip_value(s, 1);
	if (once(s, &ps->pseen, 1u << i))
		return -1;
	if (dst[i])
		return int_value(s, dst[i]);
	if (int_value(s, &base))
		return -1;
	return base == 1 ? 0 : scan_fail(s, "parts.base is not 1");
}

/* The string just read, kept: in place, or copied when it was decoded. */
static int keep_str(struct scan *s, struct batch *b, struct sref *out)
{
	if (s->slen > UINT32_MAX)
		return scan_fail(s, "string too long");
	out->p = s->str;
	out->n = (uint32_t)s->slen;
	if (s->str == s->buf) {
		/* a decoded string is never longer than its source in the batch */
		memcpy(b->esc + b->esclen, s->str, s->slen);
		out->p = b->esc + b->esclen;
		b->esclen += s->slen;
	}
	return 0;
}

static int macros_member(struct scan *s, struct raw *r, struct pstate *ps)
{
	struct batch *b = ps->b;
	struct sref name;
	int32_t n;

	uint32_t i;

	if (!want_macros)
		return skip_value(s, 1);
	if (keep_str(s, b, &name))
		return -1;
	for (i = 0; i < r->nmac; i++)
		if (b->mac[r->mac_first + i].name.n == name.n &&
		    !memcmp(b->mac[r->mac_first + i].name.p, name.p, name.n))
			return scan_fail(s, "duplicate key");
	if (int_value(s, &n))
		return -1;
	if (r->nmac == UINT32_MAX)
		return scan_fail(s, "too many macros");
	if (!r->nmac)
		r->mac_first = (uint32_t)b->nmac;
	if (b->nmac == b->maccap) {
		b->maccap = b->maccap ? b->maccap * 2 : 64;
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
	return keep_str(s, b, out);
}

static int rec_member(struct scan *s, struct raw *r, struct pstate *ps)
{
	if (KEY_IS(s, "M"))
		return once(s, &ps->seen, F_M) ?: int_value(s, &r->m);
	if (KEY_IS(s, "file"))
		return once(s, &ps->seen, F_FILE) ?: str_member(s, &r->file, ps->b);
	if (KEY_IS(s, "function"))
		return once(s, &ps->seen, F_FUNC) ?: str_member(s, &r->func, ps->b);
	if (KEY_IS(s, "line"))
		return once(s, &ps->seen, F_LINE) ?: int_value(s, &r->line);
	if (KEY_IS(s, "tu"))
		return once(s, &ps->seen, F_TU) ?: str_member(s, &r->tu, ps->b);
	if (KEY_IS(s, "run"))
		return once(s, &ps->seen, F_RUN) ?: str_member(s, &r->run, ps->b);
	if (KEY_IS(s, "inline_header"))
		return once(s, &ps->seen, F_HEADER) ?: bool_value(s, &r->header);
	if (KEY_IS(s, "parts")) {
		if (once(s, &ps->seen, F_PARTS))
			return -1;
		r->has_parts = 1;
		ws(s);
		if (s->p < s->end && *s->p != '{')
			return scan_fail(s, "parts is not an object");
		return object(s, parts_member, r, ps);
	}
	if (KEY_IS(s, "macros")) {
		if (once(s, &ps->seen, F_MACROS))
			return -1;
		ws(s);
		if (s->p < s->end && *s->p != '{')
			return scan_fail(s, "macros is not an object");
		return object(s, macros_member, r, ps);
	}
	return skip_value(s, 1);
}

static int check_record(struct scan *s, const struct raw *r, unsigned seen)
{
	if (!(seen & F_FILE) || !r->file.n)
		return scan_fail(s, "no \"file\"");
	if (!(seen & F_FUNC) || !r->func.n)
		return scan_fail(s, "no \"function\"");
	if (!(seen & F_M))
		return scan_fail(s, "no \"M\"");
	if (r->m < 0)
		return scan_fail(s, "negative M");
	if (!(seen & F_LINE) || r->line < 0)
		return scan_fail(s, "no \"line\"");
	if (r->has_parts && (int64_t)1 + r->own + r->macro + r->san + r->noret != r->m)
		return scan_fail(s, "parts do not sum to M");
	return 0;
}

int parse_json_line(struct scan *s, struct raw *r, struct batch *b)
{
	struct pstate ps = { b, 0, 0 };
	size_t nmac = b->nmac, esclen = b->esclen;

	if (object(s, rec_member, r, &ps) || check_record(s, r, ps.seen))
		goto bad;
	ws(s);
	if (s->p != s->end) {
		scan_fail(s, "garbage after the record");
		goto bad;
	}
	return 0;
bad:
	b->nmac = nmac;
	b->esclen = esclen;
	return -1;
}

