/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kplug-report: what every file of the tool shares.  One concern per file,
 * one folder per part of the tool:
 *
 *	main.c		options and the command table (a new command: one
 *			cmd/NAME.c and one line there)
 *	cmd/NAME.c	the command NAME
 *	input/		what the tool reads: batch.c chunked reading with a
 *			parsing thread, json-record.c and text-record.c the
 *			line readers (batch.h), load.c files and directories
 *			into records; objects.c the records objects carry,
 *			elf.c their sections; covmap.c, covtrace.c and
 *			probeset.c coverage maps and the lines their hits imply
 *	output/NAME.c	the output format NAME; common.c what they share,
 *			findings.c the findings SARIF and checkstyle print
 *	core/		the shared containers and helpers: strtab.c string
 *			table, map3.c, dedup.c, rank.c, errors.c the error
 *			exits and allocation
 */
#ifndef KPLUG_REPORT_H
#define KPLUG_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TOOL		"kplug-report"
#define VERSION		"0.1.0"
#define MAX_SHOWN_BAD	10

enum { EXIT_OK = 0, EXIT_GATE = 1, EXIT_TOOL = 2 };
enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON, FMT_SARIF, FMT_CHECKSTYLE };
#define NFMT	5
extern const char *const fmt_names[NFMT];

struct options {
	enum fmt fmt;
	long threshold;		/* display threshold */
	int gate;		/* --threshold given: gate on it */
	long top_n;		/* -n; 0: all */
	int depth;		/* dirs: path components kept; 0: full dirname */
	int strict;
	const char *svg;
	const char *root;	/* stripped from paths */
	size_t root_len;
	int trace;		/* cover: each HITS file is one run's ordered trace */
};

extern struct options opt;
extern const struct options opt_defaults;
extern int want_macros;		/* keep the macro names of the records */

/* ---- core/errors.c: every error line is TOOL ": MESSAGE\n" on stderr ---- */

extern int tool_error;		/* set: the run exits EXIT_TOOL */
/* The error line, then exit(EXIT_TOOL) at once. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* The error line, and the run, which goes on, exits EXIT_TOOL (tool_error). */
void flag_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* realloc() that dies with "out of memory"; N = 0 allocates too. */
void *xrealloc(void *p, size_t n);
/* calloc(N, SIZE) that dies with "out of memory"; N = 0 allocates too. */
void *xcalloc(size_t n, size_t size);

/* ---- core/strtab.c: interned strings; id 0 is "" (an absent field) ---- */

struct strtab {
	char *arena;
	size_t len, size;
	uint32_t *off;		/* id -> offset in arena */
	uint32_t n, cap;
	uint64_t *slot;		/* hash slots */
	uint32_t nslot;
};

extern struct strtab strs;

uint32_t intern(const char *s, size_t n);
void strtab_free(void);

static inline const char *str_of(uint32_t id)
{
	return strs.arena + strs.off[id];
}

/* ---- records (input/load.c) ---- */

struct rec {
	uint32_t file, func, tu, run;
	int32_t line, m;
	int32_t own, macro, san, noret;
	uint32_t mac_off;	/* into macs.v[] */
	uint32_t nmac;
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

/* The macro counts of every record (rec.mac_off, rec.nmac) */
struct mactab {
	struct mac *v;
	size_t n, cap;
};

extern struct mactab macs;

struct rec *rec_new(struct recset *rs);
void mac_add(uint32_t name, int32_t count);
void load(struct recset *rs, char **paths, int n);
void recset_free(struct recset *rs);
void macs_free(void);

/* input/batch.c: the records of one file descriptor, appended to RS */
void read_fd(struct recset *rs, const char *path, int fd);

/* core/dedup.c */
void dedup(struct recset *rs);

/* core/map3.c: open-addressing map from three ids to a record index */
struct key3 {
	uint32_t a, b, c;
};

struct map3 {
	struct key3 *k;
	uint32_t *v;		/* index + 1; 0 = empty */
	size_t size;
};

void map3_init(struct map3 *m, size_t n);
void map3_free(struct map3 *m);
size_t map3_slot(struct map3 *m, struct key3 key, int *found);

/* ---- core/rank.c: ordering and selecting records ---- */

int rec_before(const struct rec *a, const struct rec *b);
int cmp_rec_ptr(const void *a, const void *b);
const struct rec **select_top(const struct recset *rs, size_t n, size_t *out);
size_t over_threshold(const struct recset *rs);
int cmp_int(long a, long b);

/* ---- output/: common.c and the format files ---- */

const char *path_of(uint32_t file);
void json_str(FILE *f, const char *s);
void xml_str(FILE *f, const char *s);
void csv_str(FILE *f, const char *s);
void put_location(FILE *f, const struct rec *r, int width);
void recs_out(FILE *f, const struct rec **v, size_t n);

void top_text(FILE *f, const struct rec **v, size_t n);	/* output/text.c */
void top_csv(FILE *f, const struct rec **v, size_t n);	/* output/csv.c */
void rec_json(FILE *f, const struct rec *r);		/* output/json.c */
void recs_json(FILE *f, const struct rec **v, size_t n);

/* output/findings.c: functions at or above the threshold, or grown (diff) */
struct finding {
	const struct rec *r;
	int rule;		/* index into rules[] */
	int has_base;		/* diff: found in the baseline */
	int32_t base_m;		/* diff: M in the baseline */
};

struct rule {
	const char *id, *name, *text;
};

extern const struct rule rules[];
extern const size_t nrules;

uint64_t fingerprint(const struct rec *r);
char *finding_message(const struct finding *fd);
void findings_out(FILE *f, const struct rec **v, size_t n);

void sarif(FILE *f, const struct finding *fds, size_t n);	/* output/sarif.c */
void checkstyle(FILE *f, struct finding *fds, size_t n);	/* output/checkstyle.c */

/* output/svg.c: a bar chart of the histogram */
#define NBUCKET	16
void bucket_label(char *buf, size_t len, int b);
int write_svg(const char *path, const size_t *count, int nb, size_t max);

/* ---- commands (cmd/NAME.c), listed in main.c ---- */

#define CMD_MACROS	1	/* reads the macro names of the records */
#define CMD_FINDINGS	2	/* --format=sarif and checkstyle apply */
#define CMD_SVG		4	/* --svg applies */

struct command {
	const char *name;
	const char *args;	/* for the usage line */
	const char *help;	/* one line of the usage text */
	unsigned flags;
	/* one of: */
	int (*on_records)(struct recset *rs);	/* on the de-duplicated records of
						   every input; < 0: tool error */
	int (*on_inputs)(char **inputs, int n);	/* on the inputs themselves;
						   < 0: tool error, 1: gate breached */
};

extern const struct command cmd_top, cmd_dirs, cmd_macros, cmd_hist, cmd_sarif, cmd_diff,
	cmd_collect, cmd_cover;

/* main.c: the whole tool (main() calls it; the fuzz harness too) */
int report_main(int argc, char **argv);

#endif
