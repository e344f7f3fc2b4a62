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
 * A command is one file (cmd-*.c) and one line in commands[] below.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tools/report/report.h"
#include "tools/report/input/batch.h"

const char *const fmt_names[NFMT] = { "text", "csv", "json", "sarif", "checkstyle" };
const struct options opt_defaults = {
	.fmt = FMT_TEXT,
	.threshold = 30,
	.top_n = 10,
};
struct options opt;
int want_macros;

static const struct command *const commands[] = {
	&cmd_top,
	&cmd_dirs,
	&cmd_macros,
	&cmd_hist,
	&cmd_sarif,
	&cmd_diff,
	&cmd_collect,
	&cmd_cover,
};
#define NCOMMANDS	(sizeof(commands) / sizeof(commands[0]))

/* The usage line: the commands that take the same arguments share one. */
static void usage_lines(FILE *f)
{
	const char *lead = "usage: ";
	size_t i, j;

	for (i = 0; i < NCOMMANDS; i++) {
		for (j = 0; j < i && strcmp(commands[j]->args, commands[i]->args); j++)
			;
		if (j < i)
			continue;	/* listed with an earlier one */
		fprintf(f, "%s" TOOL " [options] ", lead);
		for (j = i; j < NCOMMANDS; j++)
			if (!strcmp(commands[j]->args, commands[i]->args))
				fprintf(f, "%s%s", j > i ? "|" : "", commands[j]->name);
		fprintf(f, " %s\n", commands[i]->args);
		lead = "       ";
	}
}

static void usage(FILE *f)
{
	size_t i;

	usage_lines(f);
	fprintf(f,
		"INPUT: a JSON Lines or text cyc_complexity report, '-' for stdin, or a\n"
		"directory searched for *.jsonl.\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i]->name, commands[i]->help);
	fprintf(f,
		"options:\n"
		"  --format=text|csv|json|sarif|checkstyle  (sarif, checkstyle: top, sarif, diff)\n"
		"  --threshold=N  gate: exit 1 when a function (diff: a new or grown one)\n"
		"                 reaches N; without it N is 30 and only displayed\n"
		"  -n N, --top=N  rows for top, dirs and macros (0: all)\n"
		"  --depth=D      dirs: group by the first D path components\n"
		"  --root=DIR     strip DIR/ from the paths of the report\n"
		"  --svg=FILE     hist: also write an SVG bar chart\n"
		"  --strict       bad input lines are a tool error (exit 2)\n"
		"  --trace        cover: each HITS file is one run's PCs in the order hit\n"
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
		{ "trace", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c, i;

	optind = 0;		/* from the start, also when called again */
	while ((c = getopt_long(argc, argv, "n:h", lo, NULL)) != -1) {
		switch (c) {
		case 'f':
			for (i = 0; i < NFMT && strcmp(optarg, fmt_names[i]); i++)
				;
			if (i == NFMT)
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
		case 'T':
			opt.trace = 1;
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

static const struct command *find_command(const char *name)
{
	char list[256] = "";
	size_t i;

	for (i = 0; i < NCOMMANDS; i++) {
		if (!strcmp(name, commands[i]->name))
			return commands[i];
		if (strlen(list) + strlen(commands[i]->name) + 3 < sizeof(list))
			strcat(strcat(list, i ? ", " : ""), commands[i]->name);
	}
	die("unknown command '%s' (%s)", name, list);
}

static void summary(const struct recset *rs)
{
	fprintf(stderr, TOOL ": %zu records read, %zu bad lines, %zu functions after "
		"de-duplication, %zu at or above %ld\n", rs->n, rs->bad, rs->live,
		over_threshold(rs), opt.threshold);
}

/* Load every input, run the command, summarize: < 0 tool error, 1 breached. */
static int run_on_records(const struct command *c, char **inputs, int n)
{
	struct recset rs;
	int ret;

	load(&rs, inputs, n);
	if (tool_error && !rs.live) {
		recset_free(&rs);
		return -1;
	}
	ret = c->on_records(&rs);
	if (ret >= 0) {
		summary(&rs);
		ret = over_threshold(&rs) > 0;
	}
	recset_free(&rs);
	return ret;
}

static void reset(void)
{
	opt = opt_defaults;
	tool_error = 0;
	strtab_free();
	macs_free();
}

int report_main(int argc, char **argv)
{
	const struct command *c;
	int ret;

	reset();
	parse_options(argc, argv);
	if (optind >= argc) {
		usage(stderr);
		return EXIT_TOOL;
	}
	c = find_command(argv[optind++]);
	if (optind >= argc)
		die("%s: no input given", c->name);
	if ((opt.fmt == FMT_SARIF || opt.fmt == FMT_CHECKSTYLE) && !(c->flags & CMD_FINDINGS))
		die("--format=%s does not apply to %s", fmt_names[opt.fmt], c->name);
	if (opt.svg && !(c->flags & CMD_SVG))
		die("--svg applies to hist only");
	if (opt.trace && c != &cmd_cover)
		die("--trace applies to cover only");
	intern("", 0);
	json_init();
	want_macros = !!(c->flags & CMD_MACROS);
	if (c->on_inputs)
		ret = c->on_inputs(&argv[optind], argc - optind);
	else
		ret = run_on_records(c, &argv[optind], argc - optind);
	if (ret >= 0 && (fflush(stdout) || ferror(stdout))) {
		flag_error("cannot write the output: %s", strerror(errno));
		ret = -1;
	}
	if (ret < 0 || tool_error)
		ret = EXIT_TOOL;
	else
		ret = opt.gate && ret ? EXIT_GATE : EXIT_OK;
	reset();
	return ret;
}

#ifndef KPLUG_REPORT_NO_MAIN
int main(int argc, char **argv)
{
	return report_main(argc, argv);
}
#endif
