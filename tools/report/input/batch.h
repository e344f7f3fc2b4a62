/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kplug-report: the line readers (json-record.c, text-record.c) and the
 * batches that batch.c hands them.  A worker thread parses a batch of
 * lines into raw records whose strings point into the batch; the main
 * thread interns them.
 */
#ifndef KPLUG_REPORT_INPUT_BATCH_H
#define KPLUG_REPORT_INPUT_BATCH_H

#include <stddef.h>
#include <stdint.h>

/*
 * Bytes readable after the data of a batch: the line ends with '\n' or
 * '\0' and SCAN_SLACK more bytes follow, so 16-byte loads need no bounds
 * check.
 */
#define SCAN_SLACK	16

/*
 * The scanner of one line.  *end is always readable and is '\n', '\r' or
 * '\0': scanning loops stop there without a bounds check.
 */
struct scan {
	const char *p, *end;
	const char *err;	/* first error */
	const char *str;	/* the last string read */
	size_t slen;
	char *buf;		/* a string with escapes, decoded */
	size_t blen, bsize;
};

struct sref {
	const char *p;
	uint32_t n;
};

struct raw {
	struct sref file, func, tu, run;
	int32_t line, m, own, macro, san, noret;
	uint32_t mac_first;	/* into batch->mac */
	uint32_t nmac;
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

int scan_fail(struct scan *s, const char *why);

/* json-record.c: one JSON Lines record; S spans the line without its newline */
void json_init(void);
int parse_json_line(struct scan *s, struct raw *r, struct batch *b);

/* text-record.c: "Cyclomatic Complexity M file:function" */
#define TEXT_HEAD	"Cyclomatic Complexity "
int parse_text_line(struct scan *s, struct raw *r);

/* batch.c: every line of B (the worker's job) */
void *parse_batch(void *arg);
void batch_free(struct batch *b);

#endif
