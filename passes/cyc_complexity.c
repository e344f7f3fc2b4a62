// SPDX-License-Identifier: GPL-2.0
/*
 * cyc_complexity: the cyclomatic complexity M = E - N + 2 of each
 * function's CFG, measured right after the first "ssa" pass, exactly as
 * the 2016 kernel plugin did.  Lines are "Cyclomatic Complexity M FILE:FN".
 *
 * For build robots the same M can be written as one JSON object per line
 * (format=jsonl) together with its decomposition.  Walking every block but
 * the exit block,
 *
 *	M = 1 + sum over blocks b != EXIT of (succs(b) - 1)
 *
 * (the entry block has one successor and adds 0).  A block with two or more
 * successors is a decision point and adds succs - 1; a block with no
 * successor (a noreturn call) adds -1.  Each decision point is charged to
 * one of: "own" (written in the function), "macro" (its control statement
 * comes from a macro definition; the outermost macro is named) or
 * "sanitizer" (one of its successors calls a sanitizer handler).  A noreturn block
 * that calls a sanitizer handler is charged to "sanitizer" too, so that
 * M without "sanitizer" is the M of the uninstrumented function.
 */
#include <fcntl.h>
#include "kplug.h"
#include "compat/embed.h"
#include "config/cyc-record-format.h"
#include "config/kplug-json.h"

static const struct kplug_opt cyc_opts[] = {
	{ "output", KPLUG_OPT_STR, NULL, NULL, 0, 0,
	  "append the report to FILE (one write per line) instead of stderr" },
	{ "min", KPLUG_OPT_INT, "0", NULL, 0, INT_MAX,
	  "report only functions with M >= N" },
	{ "format", KPLUG_OPT_ENUM, "text", "text,jsonl", 0, 0,
	  "text: the 2016 line; jsonl: one JSON object per function" },
	{ "warn", KPLUG_OPT_INT, "0", NULL, 0, INT_MAX,
	  "diagnose functions with M >= N at their location (0: off); "
	  "without output= the report itself is then not printed" },
	{ "severity", KPLUG_OPT_ENUM, "note", "note,warning,error", 0, 0,
	  "kind of the warn= diagnostic: note never fails a -Werror build" },
	{ "exclude-instrumentation", KPLUG_OPT_BOOL, "off", NULL, 0, 0,
	  "leave sanitizer-added branches out of M" },
	{ "embed", KPLUG_OPT_BOOL, "off", NULL, 0, 0,
	  "also write the JSON records into the object (section .kplug.cyc, "
	  "dropped by the final link; kplug-report collect reads them); "
	  "without output= the report itself is then not printed" },
	{ NULL, KPLUG_OPT_STR, NULL, NULL, 0, 0, NULL }
};

enum cyc_format { CYC_TEXT, CYC_JSONL };
enum cyc_severity { CYC_NOTE, CYC_WARNING, CYC_ERROR };

static struct {
	int fd;			/* -1: no report (warn only, or a write failed) */
	const char *path;	/* output= and where it was set, for errors */
	const char *origin;
	int write_errno;	/* the first failed write, reported at unit end */
	long min;
	long warn;
	int format;
	int severity;
	bool exclude_instr;
	bool embed;
	char run[48];		/* this compilation: pid and start time */
} cyc;

/* The parts of M; M = 1 + own + macro + sanitizer + noreturn. */
struct cyc_parts {
	int own;
	int macro;
	int sanitizer;
	int noreturn;
};

#define CYC_MAX_MACROS	32

/* Decision points charged to each (outermost) macro. */
struct cyc_macros {
	int n;
	const char *name[CYC_MAX_MACROS];
	int count[CYC_MAX_MACROS];
	int other;		/* beyond CYC_MAX_MACROS distinct names */
};

/* A growing line buffer. */
struct cyc_buf {
	char *s;
	size_t len, size;
};

static void buf_add(struct cyc_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->size) {
		b->size = (b->len + n + 1) * 2;
		b->s = (char *)xrealloc(b->s, b->size);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void buf_str(struct cyc_buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

static void buf_printf(struct cyc_buf *b, const char *fmt, ...) ATTRIBUTE_PRINTF_2;

static void buf_printf(struct cyc_buf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);	/* any length: never cut a field */
	va_end(ap);
	buf_str(b, s);
	free(s);
}

static void buf_put_json(void *ctx, const char *s, size_t n)
{
	buf_add((struct cyc_buf *)ctx, s, n);
}

/* A JSON string, escaped by config/kplug-json.c (shared with kplug-report). */
static void buf_json_str(struct cyc_buf *b, const char *s)
{
	kplug_json_str(buf_put_json, b, s);
}

/* Write the whole line at once: parallel compiles share one file. */
static void cyc_emit(const char *line, size_t len)
{
	while (len && cyc.fd >= 0) {
		ssize_t n = write(cyc.fd, line, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* stop writing; one error at the end of the unit */
			cyc.write_errno = n < 0 ? errno : EIO;
			cyc.fd = -1;
			return;
		}
		line += n;
		len -= n;
	}
}

static struct kplug_embed cyc_records = { .section = KPLUG_CYC_SECTION };

/* Outside any function, so the error is one line without a location. */
static void cyc_finish_unit(void *gcc_data, void *user_data)
{
	if (cyc.embed)
		kplug_embed_emit(&cyc_records);
	if (cyc.write_errno)
		kplug_error("%s: cannot write cyc_complexity output '%s': %s",
			    cyc.origin, cyc.path ? cyc.path : "stderr",
			    xstrerror(cyc.write_errno));
}

/* Is DECL a sanitizer runtime entry point (__ubsan_handle_*, ...)? */
static bool cyc_sanitizer_fn(tree decl)
{
	static const char *const prefixes[] = {
		"__ubsan_", "__asan_", "__sanitizer_", "__tsan_", "__hwasan_",
		"__kasan_", "__msan_",
	};
	const char *name;
	size_t i;

	if (!decl || !DECL_NAME(decl))
		return false;
	name = IDENTIFIER_POINTER(DECL_NAME(decl));
	if (!strncmp(name, "__builtin_", 10))
		name += 10;
	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/*
 * Does BB call a sanitizer handler?  WITH_UNREACHABLE: also count
 * __builtin___ubsan_handle_builtin_unreachable, which stands in for
 * __builtin_unreachable and so is no sanitizer noreturn of its own.
 */
static bool cyc_calls_sanitizer(basic_block bb, bool with_unreachable)
{
	gimple_stmt_iterator gsi;

	for (gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
		gimple *stmt = gsi_stmt(gsi);
		tree decl;

		if (!is_gimple_call(stmt))
			continue;
		decl = gimple_call_fndecl(stmt);
		if (cyc_sanitizer_fn(decl) && (with_unreachable ||
		    !strstr(IDENTIFIER_POINTER(DECL_NAME(decl)), "builtin_unreachable")))
			return true;
	}
	return false;
}

/*
 * A decision point is instrumentation when one of its own successors
 * calls a sanitizer handler.  Chains of conditions are not followed: the
 * front end gives a user's condition and the sanitizer's check the same
 * location (the statement's), so a condition further up may be the user's.
 */
static bool cyc_sanitizer_decision(basic_block bb)
{
	edge e;
	edge_iterator ei;

	FOR_EACH_EDGE(e, ei, bb->succs)
		if (e->dest != EXIT_BLOCK_PTR_FOR_FN(cfun) &&
		    cyc_calls_sanitizer(e->dest, true))
			return true;
	return false;
}

/* A noreturn block that is a sanitizer's: not __builtin_unreachable's stand-in. */
static bool cyc_sanitizer_noreturn(basic_block bb)
{
	return cyc_calls_sanitizer(bb, false);
}

/* The location of the statement that ends BB (its branch), or any location in it. */
static location_t cyc_block_location(basic_block bb)
{
	gimple_stmt_iterator gsi;

	for (gsi = gsi_last_bb(bb); !gsi_end_p(gsi); gsi_prev(&gsi)) {
		location_t loc = gimple_location(gsi_stmt(gsi));

		if (!is_gimple_debug(gsi_stmt(gsi)) && loc != UNKNOWN_LOCATION)
			return loc;
	}
	return UNKNOWN_LOCATION;
}

/*
 * The outermost macro whose expansion LOC belongs to, or NULL when LOC was
 * written in the function itself (macro arguments count as written there).
 */
static const char *cyc_macro_of(location_t loc)
{
	const char *name = NULL;
	const line_map *map;

	if (loc == UNKNOWN_LOCATION || !from_macro_definition_at(loc))
		return NULL;
	while (linemap_location_from_macro_expansion_p(line_table, loc)) {
		map = linemap_lookup(line_table, loc);
		if (!map || !linemap_macro_expansion_map_p(map))
			break;
		name = linemap_map_get_macro_name(linemap_check_macro(map));
		loc = linemap_unwind_toward_expansion(line_table, loc, &map);
	}
	return name;
}

static void cyc_count_macro(struct cyc_macros *m, const char *name, int n)
{
	int i;

	for (i = 0; i < m->n; i++) {
		if (!strcmp(m->name[i], name)) {
			m->count[i] += n;
			return;
		}
	}
	if (m->n == CYC_MAX_MACROS) {
		m->other += n;
		return;
	}
	m->name[m->n] = name;
	m->count[m->n++] = n;
}

static void cyc_classify(basic_block bb, struct cyc_parts *p,
			 struct cyc_macros *m)
{
	int n = (int)EDGE_COUNT(bb->succs) - 1;
	location_t loc;
	const char *macro;

	if (n < 0) {
		if (cyc_sanitizer_noreturn(bb))
			p->sanitizer += n;
		else
			p->noreturn += n;
		return;
	}
	if (!n)
		return;
	if (cyc_sanitizer_decision(bb)) {
		p->sanitizer += n;
		return;
	}
	loc = cyc_block_location(bb);
	macro = cyc_macro_of(loc);
	if (!macro) {
		p->own += n;
		return;
	}
	p->macro += n;
	cyc_count_macro(m, macro, n);
}

static void cyc_decompose(function *fn, struct cyc_parts *p,
			  struct cyc_macros *m)
{
	basic_block bb;

	memset(p, 0, sizeof(*p));
	memset(m, 0, sizeof(*m));
	FOR_ALL_BB_FN(bb, fn)
		if (bb != EXIT_BLOCK_PTR_FOR_FN(fn))
			cyc_classify(bb, p, m);
}

static bool cyc_inline_header(tree decl)
{
	const char *file = DECL_SOURCE_FILE(decl);
	size_t len = file ? strlen(file) : 0;

	if (len >= 2 && !strcmp(file + len - 2, ".h"))
		return true;
	return file && strcmp(file, kplug_unit_name());
}

static const char *cyc_opt_level(tree decl, char *buf, size_t len)
{
	if (opt_for_fn(decl, optimize_debug))
		return "Og";
	if (opt_for_fn(decl, optimize_fast))
		return "Ofast";
	if (opt_for_fn(decl, optimize_size))
		return "Os";
	snprintf(buf, len, "O%d", (int)opt_for_fn(decl, optimize));
	return buf;
}

static void cyc_json_macros(struct cyc_buf *b, const struct cyc_macros *m)
{
	int i;

	buf_str(b, ",\"macros\":{");
	for (i = 0; i < m->n; i++) {
		if (i)
			buf_add(b, ",", 1);
		buf_json_str(b, m->name[i]);
		buf_printf(b, ":%d", m->count[i]);
	}
	if (m->other)
		buf_printf(b, "%s\"(other)\":%d", m->n ? "," : "", m->other);
	buf_add(b, "}", 1);
}

static void cyc_json(struct cyc_buf *b, function *fn, int complexity,
		     const struct cyc_parts *p, const struct cyc_macros *m)
{
	expanded_location xloc = expand_location(DECL_SOURCE_LOCATION(fn->decl));
	int sanitizer = cyc.exclude_instr ? 0 : p->sanitizer;
	char opt[16];

	buf_str(b, "{\"file\":");
	buf_json_str(b, xloc.file);
	buf_printf(b, ",\"line\":%d,\"function\":", xloc.line);
	buf_json_str(b, IDENTIFIER_POINTER(DECL_NAME(fn->decl)));
	buf_printf(b, ",\"M\":%d,\"parts\":{\"base\":1,\"own\":%d,\"macro\":%d,"
		   "\"sanitizer\":%d,\"noreturn\":%d}", complexity, p->own,
		   p->macro, sanitizer, p->noreturn);
	if (cyc.exclude_instr)
		buf_printf(b, ",\"excluded_sanitizer\":%d", p->sanitizer);
	cyc_json_macros(b, m);
	buf_printf(b, ",\"inline_header\":%s,\"tu\":",
		   cyc_inline_header(fn->decl) ? "true" : "false");
	buf_json_str(b, kplug_unit_name());
	buf_printf(b, ",\"run\":\"%s\",\"gcc\":", cyc.run);
	buf_json_str(b, version_string);
	buf_str(b, ",\"opt\":");
	buf_json_str(b, cyc_opt_level(fn->decl, opt, sizeof(opt)));
	buf_str(b, "}\n");
}

static void cyc_warn(function *fn, int complexity)
{
	location_t loc = DECL_SOURCE_LOCATION(fn->decl);
	const char *name = IDENTIFIER_POINTER(DECL_NAME(fn->decl));
	const char *fmt = "kplug: function %qs has cyclomatic complexity %d (>= %ld)";

	switch (cyc.severity) {
	case CYC_ERROR:
		error_at(loc, fmt, name, complexity, cyc.warn);
		break;
	case CYC_WARNING:
		warning_at(loc, 0, fmt, name, complexity, cyc.warn);
		break;
	default:
		inform(loc, fmt, name, complexity, cyc.warn);
		break;
	}
}

static unsigned int cyc_execute(function *fn)
{
	int complexity = n_edges_for_fn(fn) - n_basic_blocks_for_fn(fn) + 2;
	struct cyc_parts parts;
	struct cyc_macros macros;
	struct cyc_buf line = { NULL, 0, 0 };
	bool jsonl = cyc.format == CYC_JSONL || cyc.embed;

	if (jsonl || cyc.exclude_instr)
		cyc_decompose(fn, &parts, &macros);
	if (cyc.exclude_instr)
		complexity -= parts.sanitizer;
	if (cyc.warn && complexity >= cyc.warn)
		cyc_warn(fn, complexity);
	if (complexity < cyc.min || (cyc.fd < 0 && !cyc.embed))
		return 0;
	if (jsonl)
		cyc_json(&line, fn, complexity, &parts, &macros);
	if (cyc.embed)
		kplug_embed_add(&cyc_records, line.s, line.len);
	if (cyc.fd < 0) {
		free(line.s);
		return 0;
	}
	if (cyc.format == CYC_TEXT) {
		expanded_location xloc = expand_location(DECL_SOURCE_LOCATION(fn->decl));

		free(line.s);
		line.s = xasprintf("Cyclomatic Complexity %d %s:%s\n", complexity,
				   xloc.file, IDENTIFIER_POINTER(DECL_NAME(fn->decl)));
		line.len = strlen(line.s);
	}
	cyc_emit(line.s, line.len);
	free(line.s);
	return 0;
}

namespace {

const pass_data cyc_pass_data = KPLUG_GIMPLE_PASS_DATA("kplug_cyc_complexity", 0);

class cyc_pass : public gimple_opt_pass {
public:
	cyc_pass(gcc::context *ctxt) : gimple_opt_pass(cyc_pass_data, ctxt) {}
	unsigned int execute(function *fn) final override
	{
		return cyc_execute(fn);
	}
};

} /* namespace */

static int cyc_open_output(const struct kplug_ctx *ctx)
{
	const char *path = kplug_str(ctx, "output");

	cyc.path = path;
	cyc.origin = kplug_origin(ctx, "output");
	if (!path) {
		/* warn= or embed= alone: they replace the stderr report */
		cyc.fd = cyc.warn || cyc.embed ? -1 : STDERR_FILENO;
		return 0;
	}
	cyc.fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (cyc.fd < 0) {
		kplug_error("%s: cannot open cyc_complexity output '%s': %s",
			    cyc.origin, path, xstrerror(errno));
		return -1;
	}
	return 0;
}

static int cyc_setup(const struct kplug_ctx *ctx)
{
	cyc.min = kplug_int(ctx, "min");
	cyc.warn = kplug_int(ctx, "warn");
	cyc.format = (int)kplug_config_enum(ctx->cfg, ctx->index, "format");
	cyc.severity = (int)kplug_config_enum(ctx->cfg, ctx->index, "severity");
	cyc.exclude_instr = kplug_config_bool(ctx->cfg, ctx->index,
					      "exclude-instrumentation");
	cyc.embed = kplug_config_bool(ctx->cfg, ctx->index, "embed");
	if (kplug_compare_debug_second()) {
		/* the first compilation reported this unit already */
		cyc.fd = -1;
		cyc.warn = 0;
		cyc.embed = false;
	} else if (cyc_open_output(ctx)) {
		return -1;
	}
	/* lets kplug-report drop the records of an earlier compile of this TU */
	snprintf(cyc.run, sizeof(cyc.run), "%lx-%lx", (unsigned long)getpid(),
		 (unsigned long)time(NULL));
	kplug_register_pass(ctx, new cyc_pass(g), "ssa", 1,
			    PASS_POS_INSERT_AFTER);
	register_callback(ctx->plugin_name, PLUGIN_FINISH_UNIT, cyc_finish_unit,
			  NULL);
	return 0;
}

const struct kplug_pass kplug_cyc_complexity = {
	.info = {
		.name = "cyc_complexity",
		.help = "cyclomatic complexity of every function",
		.opts = cyc_opts,
	},
	.ggc_roots = NULL,
	.setup = cyc_setup,
};
