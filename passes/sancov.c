// SPDX-License-Identifier: GPL-2.0
/*
 * sancov: the instrumentation of GCC's -fsanitize-coverage=trace-pc and
 * trace-cmp (gcc/sancov.cc) at every optimisation level, plus what native
 * GCC lacks: callbacks are never tail-called (GCC PR 90746), functions in
 * .noinstr.text are skipped, and Clang-format allow/ignore lists select
 * what is instrumented.  See docs/sancov.md.
 *
 * Parity with native: the pass runs right after GCC's own "sancov" (every
 * instance) and "sancov_O0", and the rest of the compiler must see what it
 * sees under -fsanitize-coverage: the C front end declares the callback
 * builtins, fold-const.cc and ifcombine keep && and || short-circuit, and
 * (GCC 12) the inliner keeps no_sanitize_coverage functions apart.  All of
 * that tests only "flag_sanitize_coverage != 0", so we set a bit that no
 * GCC trace mode uses: GCC's own sancov pass then finds neither trace-pc
 * nor trace-cmp requested and adds nothing, and every callback is ours.
 */
#include "kplug.h"
#include "config/speclist.h"
#include "passes/sancov-abi.h"
#include "passes/sancov-late.h"
#include "passes/sancov-map.h"
#include "passes/sancov-prune.h"

#define SANCOV_PC	(1L << 0)	/* bits of the "trace" SET */
#define SANCOV_CMP	(1L << 1)
#define SANCOV_GUARD	(1L << 2)	/* Clang's modes: passes/sancov-abi.c */
#define SANCOV_8BIT	(1L << 3)
#define SANCOV_BOOL	(1L << 4)
#define SANCOV_EDGES	(SANCOV_PC | SANCOV_GUARD | SANCOV_8BIT | SANCOV_BOOL)
#define NOINSTR_SECTION	".noinstr.text"

/* The bit we set in flag_sanitize_coverage; see the comment on top. */
#define SANCOV_MARKER	(1 << 30)
static_assert(!(SANCOV_MARKER & (SANITIZE_COV_TRACE_PC | SANITIZE_COV_TRACE_CMP)),
	      "the marker must not request a native trace mode");

/* sancov-map's choices, in the order of SANCOV_MAP_CHOICES. */
#define SANCOV_MAP_CHOICES	"auto,on,off"
enum sancov_map_choice {
	SANCOV_MAP_AUTO,	/* with sancov-prune */
	SANCOV_MAP_ON,
	SANCOV_MAP_OFF,
};

static const struct kplug_opt sancov_opts[] = {
	{ "trace", KPLUG_OPT_SET, "pc",
	  "pc,cmp,pc-guard,inline-8bit-counters,inline-bool-flag", 0, 0,
	  "what to trace: pc (every basic block), cmp (comparisons and switches); "
	  "or, instead of pc, Clang's pc-guard, inline-8bit-counters or inline-bool-flag" },
	{ "pc-table", KPLUG_OPT_BOOL, "off", NULL, 0, 0,
	  "emit Clang's PC table (__sancov_pcs) for pc-guard and the inline modes" },
	{ "ctors", KPLUG_OPT_BOOL, "on", NULL, 0, 0,
	  "emit the module constructor of pc-guard and the inline modes" },
	{ "bss", KPLUG_OPT_BOOL, "off", NULL, 0, 0,
	  "put the zero arrays of pc-guard and the inline modes in @nobits sections "
	  "(the kernel merges __sancov_guards into .bss)" },
	{ "prune", KPLUG_OPT_ENUM, "off", SANCOV_PRUNE_CHOICES, 0, 0,
	  "which blocks get a probe: off (every block, as native GCC), clang "
	  "(Clang's rule) or min (the fewest that imply every line's coverage)" },
	{ "map", KPLUG_OPT_ENUM, "auto", SANCOV_MAP_CHOICES, 0, 0,
	  "write the coverage map (.debug_kplug_sancov) kplug-report cover reads; "
	  "auto: with sancov-prune" },
	{ "prune-session", KPLUG_OPT_ENUM, "run", SANCOV_SESSION_CHOICES, 0, 0,
	  "what a coverage session spans: run (whole runs: libFuzzer, .sancov "
	  "files) or kcov (it starts and ends inside calls: the kernel)" },
	{ "prune-cuts", KPLUG_OPT_ENUM, "calls", SANCOV_CUTS_CHOICES, 0, 0,
	  "calls where a run or session may stop or start: calls (any that may "
	  "not return), indirect (kcov's ioctl is reached by one), none (Clang)" },
	{ "prune-exact", KPLUG_OPT_ENUM, "lines", SANCOV_EXACT_CHOICES, 0, 0,
	  "what inference must give exactly: lines (every source line the "
	  "report prints) or blocks (every basic block, which needs more probes)" },
	{ "prune-observe", KPLUG_OPT_ENUM, "set", SANCOV_OBSERVE_CHOICES, 0, 0,
	  "what a run shows of the probes it hit: set (which ones: kcov's unique "
	  "mode, counters) or trace (their order, repeats included: kcov's trace "
	  "mode, pc and pc-guard callbacks), which may need fewer probes; "
	  "kplug-report cover --trace reads such runs" },
	{ "prune-check", KPLUG_OPT_BOOL, "on", NULL, 0, 0,
	  "keep the probes coverage inference needs (off only to test the tests)" },
	{ "float", KPLUG_OPT_BOOL, "off", NULL, 0, 0,
	  "trace float/double comparisons too (cmpf/cmpd: the kernel has no such callbacks)" },
	{ "tailcall", KPLUG_OPT_BOOL, "off", NULL, 0, 0,
	  "let GCC tail-call the callbacks as native GCC < 14 does (wrong PCs)" },
	{ "allow", KPLUG_OPT_STR, NULL, NULL, 0, 0,
	  "instrument only what FILE allows (Clang format: src:GLOB, fun:GLOB)" },
	{ "ignore", KPLUG_OPT_STR, NULL, NULL, 0, 0,
	  "do not instrument what FILE lists (Clang format)" },
	{ "ignore-fun", KPLUG_OPT_LIST, NULL, NULL, 0, 0,
	  "do not instrument functions matching these globs" },
	{ "ignore-src", KPLUG_OPT_LIST, NULL, NULL, 0, 0,
	  "do not instrument source files matching these globs" },
	{ NULL, KPLUG_OPT_STR, NULL, NULL, 0, 0, NULL }
};

enum sancov_fn {
	FN_PC,
	FN_CMP1, FN_CMP2, FN_CMP4, FN_CMP8,
	FN_CONST_CMP1, FN_CONST_CMP2, FN_CONST_CMP4, FN_CONST_CMP8,
	FN_CMPF, FN_CMPD,
	FN_SWITCH,
	NR_SANCOV_FNS
};

static const enum built_in_function sancov_codes[NR_SANCOV_FNS] = {
	BUILT_IN_SANITIZER_COV_TRACE_PC,
	BUILT_IN_SANITIZER_COV_TRACE_CMP1, BUILT_IN_SANITIZER_COV_TRACE_CMP2,
	BUILT_IN_SANITIZER_COV_TRACE_CMP4, BUILT_IN_SANITIZER_COV_TRACE_CMP8,
	BUILT_IN_SANITIZER_COV_TRACE_CONST_CMP1,
	BUILT_IN_SANITIZER_COV_TRACE_CONST_CMP2,
	BUILT_IN_SANITIZER_COV_TRACE_CONST_CMP4,
	BUILT_IN_SANITIZER_COV_TRACE_CONST_CMP8,
	BUILT_IN_SANITIZER_COV_TRACE_CMPF, BUILT_IN_SANITIZER_COV_TRACE_CMPD,
	BUILT_IN_SANITIZER_COV_TRACE_SWITCH,
};

/* Fetched once per translation unit; kplug's GGC root table holds them. */
static tree sancov_decls[NR_SANCOV_FNS];

static const struct ggc_root_tab sancov_roots[] = {
	{ &sancov_decls[0], NR_SANCOV_FNS, sizeof(sancov_decls[0]),
	  &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
	{ &sancov_abi_guard_fn, 1, sizeof(tree),
	  &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
	{ &sancov_late_placeholder, 1, sizeof(tree),
	  &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
	{ &sancov_late_array, 1, sizeof(tree),
	  &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
	LAST_GGC_ROOT_TAB
};

static struct {
	long trace;		/* SANCOV_PC | SANCOV_CMP */
	bool trace_float;
	struct kplug_speclist *allow;	/* NULL: no allow list */
	struct kplug_speclist *ignore;	/* the ignore file plus inline globs */
	unsigned int case_arrays;
} sancov;

/* ---- what to instrument ---- */

/*
 * Clang matches fun: against the function's name.  GCC's clones are
 * "foo.isra.0", "foo.part.1"...: C names have no dot, so also try "foo".
 */
static bool sancov_fun_match(const struct kplug_speclist *sl, tree decl)
{
	const char *name, *dot;
	char *base;
	bool hit;

	if (!DECL_NAME(decl))
		return false;
	name = IDENTIFIER_POINTER(DECL_NAME(decl));
	if (kplug_speclist_match(sl, KPLUG_SPEC_FUN, name))
		return true;
	dot = strchr(name, '.');
	if (!dot || dot == name)
		return false;
	base = xstrndup(name, dot - name);
	hit = kplug_speclist_match(sl, KPLUG_SPEC_FUN, base);
	free(base);
	return hit;
}

/* Whether DECL's body gets coverage callbacks. */
static bool sancov_wanted(tree decl)
{
	const char *section;

	if (kplug_fn_no_sanitize_coverage(decl))
		return false;
	section = DECL_SECTION_NAME(decl);
	if (section && !strcmp(section, NOINSTR_SECTION))
		return false;
	/* Clang: with an allow list, a function must match one of its fun: */
	if (sancov.allow && !sancov_fun_match(sancov.allow, decl))
		return false;
	return !sancov_fun_match(sancov.ignore, decl);
}

/* src: is matched to the source file as named and to its path below "root". */
static bool sancov_src_match(const struct kplug_speclist *sl, const char *source,
			     const char *match_path)
{
	return kplug_speclist_match(sl, KPLUG_SPEC_SRC, source) ||
	       (match_path &&
		kplug_speclist_match(sl, KPLUG_SPEC_SRC, match_path));
}

/* 1: instrument this unit, 0: not, -1: src: entries cannot be matched. */
static int sancov_unit_wanted(const struct kplug_ctx *ctx)
{
	const char *source = kplug_unit_source();
	const char *match_path = kplug_config_match_path(ctx->cfg);

	if (!source) {
		if (!sancov.allow && !kplug_speclist_count(sancov.ignore, KPLUG_SPEC_SRC))
			return 1;
		kplug_error("sancov: src: entries of %s need the name of the source "
			    "file, but '%s' starts with no line marker naming it "
			    "(preprocessed with -P?)", sancov.allow ?
			    kplug_origin(ctx, "allow") : "the ignore lists",
			    kplug_unit_name());
		return -1;
	}
	if (sancov.allow && !sancov_src_match(sancov.allow, source, match_path))
		return 0;
	return !sancov_src_match(sancov.ignore, source, match_path);
}

/* ---- instrumentation: the rules of gcc/sancov.cc ---- */

/* The cmp callback for operands of TYPE, and the type it takes. */
static enum sancov_fn sancov_cmp_fn(tree type, bool with_const, tree *to_type)
{
	static const enum sancov_fn by_size[2][4] = {
		{ FN_CMP1, FN_CMP2, FN_CMP4, FN_CMP8 },
		{ FN_CONST_CMP1, FN_CONST_CMP2, FN_CONST_CMP4, FN_CONST_CMP8 },
	};
	int i;

	if (INTEGRAL_TYPE_P(type)) {
		switch (int_size_in_bytes(type)) {
		case 1:
			i = 0;
			*to_type = unsigned_char_type_node;
			break;
		case 2:
			i = 1;
			*to_type = uint16_type_node;
			break;
		case 4:
			i = 2;
			*to_type = uint32_type_node;
			break;
		default:	/* 8, and wider types too */
			i = 3;
			*to_type = uint64_type_node;
			break;
		}
		return by_size[with_const][i];
	}
	if (!sancov.trace_float || !SCALAR_FLOAT_TYPE_P(type))
		return NR_SANCOV_FNS;
	if (TYPE_MODE(type) == TYPE_MODE(float_type_node)) {
		*to_type = float_type_node;
		return FN_CMPF;
	}
	if (TYPE_MODE(type) == TYPE_MODE(double_type_node)) {
		*to_type = double_type_node;
		return FN_CMPD;
	}
	return NR_SANCOV_FNS;	/* long double, _Float128... */
}

/* OP converted to TYPE; a conversion statement goes to SEQ if needed. */
static tree sancov_convert(gimple_seq *seq, tree type, tree op)
{
	if (TREE_CODE(op) == INTEGER_CST)
		return fold_convert(type, op);
	gimple_seq_add_stmt(seq, build_type_cast(type, op));
	return gimple_assign_lhs(gimple_seq_last_stmt(*seq));
}

/* Trace the comparison of LHS and RHS before the statement at GSI. */
static void sancov_comparison(gimple_stmt_iterator *gsi, tree lhs, tree rhs)
{
	tree type = TREE_TYPE(lhs), to_type = NULL_TREE;
	/* only integers have const variants; floats keep operand order */
	bool with_const = INTEGRAL_TYPE_P(type) &&
			  (is_gimple_min_invariant(lhs) ^
			   is_gimple_min_invariant(rhs));
	enum sancov_fn fn = sancov_cmp_fn(type, with_const, &to_type);
	gimple_seq seq = NULL;

	if (fn == NR_SANCOV_FNS)
		return;
	if (!useless_type_conversion_p(to_type, type)) {
		lhs = sancov_convert(&seq, to_type, lhs);
		rhs = sancov_convert(&seq, to_type, rhs);
	}
	/* the kcov ABI: the constant operand comes first */
	if (with_const && !is_gimple_min_invariant(lhs))
		std::swap(lhs, rhs);
	gimple_seq_add_stmt(&seq, gimple_build_call(sancov_decls[fn], 2, lhs, rhs));
	gimple_seq_set_location(seq, gimple_location(gsi_stmt(*gsi)));
	gsi_insert_seq_before(gsi, seq, GSI_SAME_STMT);
}

static unsigned int sancov_case_count(gswitch *sw)
{
	unsigned int i, n = gimple_switch_num_labels(sw), num = 0;

	for (i = 1; i < n; i++) {	/* label 0 is the default */
		tree label = gimple_switch_label(sw, i);

		num += (CASE_LOW(label) != NULL_TREE) +
		       (CASE_HIGH(label) != NULL_TREE);
	}
	return num;
}

static tree sancov_case_ctor(gswitch *sw, tree type, unsigned int num,
			     HOST_WIDE_INT size)
{
	unsigned int i, n = gimple_switch_num_labels(sw);
	vec<constructor_elt, va_gc> *v = NULL;
	tree ctor;

	vec_alloc(v, num + 2);
	CONSTRUCTOR_APPEND_ELT(v, NULL_TREE, build_int_cst(uint64_type_node, num));
	CONSTRUCTOR_APPEND_ELT(v, NULL_TREE,
			       build_int_cst(uint64_type_node, size * BITS_PER_UNIT));
	for (i = 1; i < n; i++) {
		tree label = gimple_switch_label(sw, i);

		if (CASE_LOW(label))
			CONSTRUCTOR_APPEND_ELT(v, NULL_TREE,
					       fold_convert(uint64_type_node, CASE_LOW(label)));
		if (CASE_HIGH(label))
			CONSTRUCTOR_APPEND_ELT(v, NULL_TREE,
					       fold_convert(uint64_type_node, CASE_HIGH(label)));
	}
	ctor = build_constructor(type, v);
	TREE_STATIC(ctor) = 1;
	TREE_PUBLIC(ctor) = 0;
	TREE_CONSTANT(ctor) = 1;
	TREE_READONLY(ctor) = 1;
	return ctor;
}

/* The local read-only table {count, bits, case values...} of a switch. */
static tree sancov_case_array(gswitch *sw, location_t loc, function *fn,
			      HOST_WIDE_INT size)
{
	unsigned int num = sancov_case_count(sw);
	tree type, var;
	char name[64];

	type = build_array_type(build_type_variant(uint64_type_node, 1, 0),
				build_index_type(size_int(num + 2 - 1)));
	ASM_GENERATE_INTERNAL_LABEL(name, "LCASEARRAY", sancov.case_arrays++);
	var = build_decl(loc, VAR_DECL, get_identifier(name), type);
	TREE_STATIC(var) = 1;
	TREE_PUBLIC(var) = 0;
	TREE_CONSTANT(var) = 1;
	TREE_READONLY(var) = 1;
	DECL_EXTERNAL(var) = 0;
	DECL_ARTIFICIAL(var) = 1;
	DECL_IGNORED_P(var) = 1;
	DECL_INITIAL(var) = sancov_case_ctor(sw, type, num, size);
	varpool_node::finalize_decl(var);
	add_local_decl(fn, var);
	return var;
}

static void sancov_switch(gimple_stmt_iterator *gsi, gswitch *sw, function *fn)
{
	tree index = gimple_switch_index(sw);
	HOST_WIDE_INT size = int_size_in_bytes(TREE_TYPE(index));
	location_t loc = gimple_location(sw);
	gimple_seq seq = NULL;
	tree table;

	if (size == -1 || size > 8)
		return;
	table = sancov_case_array(sw, loc, fn, size);
	if (!useless_type_conversion_p(uint64_type_node, TREE_TYPE(index)))
		index = sancov_convert(&seq, uint64_type_node, index);
	gimple_seq_add_stmt(&seq, gimple_build_call(sancov_decls[FN_SWITCH], 2,
						    index, build_fold_addr_expr(table)));
	gimple_seq_set_location(seq, loc);
	gsi_insert_seq_before(gsi, seq, GSI_SAME_STMT);
}

/*
 * The blocks sancov-prune picks (by default every block with a real
 * statement), after their labels and leading debug statements (so -g
 * changes nothing), with the location of the first real statement.
 */
static void sancov_trace_pc(function *fn)
{
	auto_vec<basic_block> points;
	unsigned int i;

	sancov_prune_points(fn, &points);
	for (i = 0; i < points.length(); i++) {
		gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb(points[i]);
		gimple *call = gimple_build_call(sancov_decls[FN_PC], 0);

		gimple_set_location(call, sancov_map_probe(points[i], gsi_end_p(gsi) ?
						UNKNOWN_LOCATION : gimple_location(gsi_stmt(gsi))));
		gsi_insert_before(&gsi, call, GSI_SAME_STMT);
	}
}

/* Conditions, comparisons assigned or inside a COND_EXPR, switches. */
static void sancov_trace_stmt(gimple_stmt_iterator *gsi, function *fn)
{
	gimple *stmt = gsi_stmt(*gsi);
	enum tree_code code;
	tree rhs1;

	switch (gimple_code(stmt)) {
	case GIMPLE_ASSIGN:
		code = gimple_assign_rhs_code(stmt);
		rhs1 = gimple_assign_rhs1(stmt);
		if (TREE_CODE_CLASS(code) == tcc_comparison)
			sancov_comparison(gsi, rhs1, gimple_assign_rhs2(stmt));
		else if (code == COND_EXPR && COMPARISON_CLASS_P(rhs1))
			sancov_comparison(gsi, TREE_OPERAND(rhs1, 0),
					  TREE_OPERAND(rhs1, 1));
		break;
	case GIMPLE_COND:
		sancov_comparison(gsi, gimple_cond_lhs(stmt), gimple_cond_rhs(stmt));
		break;
	case GIMPLE_SWITCH:
		sancov_switch(gsi, as_a<gswitch *>(stmt), fn);
		break;
	default:
		break;
	}
}

static void sancov_trace_cmp(function *fn)
{
	basic_block bb;

	FOR_EACH_BB_FN(bb, fn) {
		gimple_stmt_iterator gsi;

		for (gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
			sancov_trace_stmt(&gsi, fn);
	}
}

static unsigned int sancov_execute(function *fn)
{
	if (sancov.trace & SANCOV_PC)
		sancov_trace_pc(fn);
	else if (sancov.trace & SANCOV_EDGES)
		sancov_abi_function(fn);
	if (sancov.trace & SANCOV_CMP)
		sancov_trace_cmp(fn);
	return 0;
}

/* ---- never tail-called ---- */

static bool sancov_is_callback(gcall *call)
{
	tree decl = gimple_call_fndecl(call);
	int i;

	if (sancov_abi_is_callback(decl))
		return true;
	if (!decl || !fndecl_built_in_p(decl, BUILT_IN_NORMAL))
		return false;
	for (i = 0; i < NR_SANCOV_FNS; i++)
		if (DECL_FUNCTION_CODE(decl) == sancov_codes[i])
			return true;
	return false;
}

/*
 * "tailc" marks calls in tail position and expand turns each marked call
 * into a jump, so the callback would record the caller's caller as PC.
 * Right after tailc, take the mark off our callbacks; if no other call
 * keeps one, the function has no tail call left at all.
 */
static unsigned int sancov_untail_execute(function *fn)
{
	bool marked = false;
	basic_block bb;

	FOR_EACH_BB_FN(bb, fn) {
		gimple_stmt_iterator gsi;

		for (gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));

			if (!call || !gimple_call_tail_p(call))
				continue;
			if (sancov_is_callback(call))
				gimple_call_set_tail(call, false);
			else
				marked = true;
		}
	}
	fn->tail_call_marked = marked;
	return 0;
}

/* ---- passes ---- */

namespace {

const pass_data sancov_pass_data = KPLUG_GIMPLE_PASS_DATA("kplug_sancov", TODO_update_ssa);

/* After each "sancov" instance (-O1 and up, -Og) or "sancov_O0" (-O0). */
class sancov_pass : public gimple_opt_pass {
public:
	sancov_pass(gcc::context *ctxt, bool o0)
		: gimple_opt_pass(sancov_pass_data, ctxt), o0(o0) {}
	opt_pass *clone() final override
	{
		return new sancov_pass(m_ctxt, o0);
	}
	bool gate(function *fn) final override
	{
		return (!o0 || !optimize) && sancov_wanted(fn->decl) &&
		       !((sancov.trace & SANCOV_EDGES & ~SANCOV_PC) &&
			 sancov_abi_too_late());
	}
	unsigned int execute(function *fn) final override
	{
		return sancov_execute(fn);
	}
private:
	bool o0;
};

const pass_data untail_pass_data = KPLUG_GIMPLE_PASS_DATA("kplug_sancov_untail", 0);

class untail_pass : public gimple_opt_pass {
public:
	untail_pass(gcc::context *ctxt) : gimple_opt_pass(untail_pass_data, ctxt) {}
	opt_pass *clone() final override
	{
		return new untail_pass(m_ctxt);
	}
	bool gate(function *fn) final override
	{
		return fn->tail_call_marked;
	}
	unsigned int execute(function *fn) final override
	{
		return sancov_untail_execute(fn);
	}
};

} /* namespace */

/* ---- setup ---- */

/*
 * The front end declared its builtins before the unit's settings were
 * known, so without the sanitizer ones: create them here, at
 * PLUGIN_START_UNIT, where the setup runs.  initialize_sanitizer_builtins()
 * must not first be called from a GIMPLE pass: cc1 crashes there.
 */
static void sancov_start_unit(void)
{
	int i;

	initialize_sanitizer_builtins();
	for (i = 0; i < NR_SANCOV_FNS; i++)
		sancov_decls[i] = builtin_decl_implicit(sancov_codes[i]);
}

static int sancov_list_error(struct kplug_speclist *sl)
{
	const char *msg = kplug_speclist_error(sl);

	if (!strncmp(msg, "kplug: ", 7))
		msg += 7;
	kplug_error("%s", msg);
	return -1;
}

struct sancov_inline {
	struct kplug_speclist *sl;
	enum kplug_spec_kind kind;
	const char *origin;
};

static int sancov_add_inline(const char *item, void *arg)
{
	struct sancov_inline *in = (struct sancov_inline *)arg;

	return kplug_speclist_add(in->sl, in->kind, item, in->origin);
}

static int sancov_load_lists(const struct kplug_ctx *ctx)
{
	static const char *const keys[] = { "ignore-src", "ignore-fun" };
	const char *allow = kplug_str(ctx, "allow");
	const char *ignore = kplug_str(ctx, "ignore");
	int k;

	sancov.ignore = kplug_speclist_new();
	if (allow) {
		sancov.allow = kplug_speclist_new();
		if (kplug_speclist_load(sancov.allow, allow))
			return sancov_list_error(sancov.allow);
	}
	if (ignore && kplug_speclist_load(sancov.ignore, ignore))
		return sancov_list_error(sancov.ignore);
	for (k = 0; k < 2; k++) {
		struct sancov_inline in = {
			.sl = sancov.ignore,
			.kind = k ? KPLUG_SPEC_FUN : KPLUG_SPEC_SRC,
			.origin = kplug_origin(ctx, keys[k]),
		};
		const char *globs = kplug_str(ctx, keys[k]);

		if (globs && kplug_list_foreach(globs, sancov_add_inline, &in))
			return sancov_list_error(sancov.ignore);
	}
	return 0;
}

/* pc, pc-guard, inline-8bit-counters and inline-bool-flag: one at most. */
static int sancov_abi_options(const struct kplug_ctx *ctx,
			      struct sancov_abi_cfg *abi)
{
	long edges = sancov.trace & SANCOV_EDGES;
	struct sancov_abi_cfg cfg = {
		.mode = SANCOV_ABI_NONE,
		.pc_table = (bool)kplug_int(ctx, "pc-table"),
		.ctors = (bool)kplug_int(ctx, "ctors"),
		.bss = (bool)kplug_int(ctx, "bss"),
		.wanted = sancov_wanted,
	};

	if (edges & (edges - 1)) {
		kplug_error("%s: sancov-trace: pc, pc-guard, inline-8bit-counters and "
			    "inline-bool-flag exclude each other; pick one",
			    kplug_origin(ctx, "trace"));
		return -1;
	}
	if (edges == SANCOV_GUARD)
		cfg.mode = SANCOV_ABI_GUARD;
	else if (edges == SANCOV_8BIT)
		cfg.mode = SANCOV_ABI_8BIT;
	else if (edges == SANCOV_BOOL)
		cfg.mode = SANCOV_ABI_BOOL;
	if (cfg.mode == SANCOV_ABI_NONE && cfg.pc_table) {
		kplug_error("%s: sancov-pc-table needs sancov-trace=pc-guard, "
			    "inline-8bit-counters or inline-bool-flag",
			    kplug_origin(ctx, "pc-table"));
		return -1;
	}
	if (cfg.mode == SANCOV_ABI_NONE && !cfg.ctors) {
		kplug_error("%s: sancov-ctors=off needs sancov-trace=pc-guard, "
			    "inline-8bit-counters or inline-bool-flag",
			    kplug_origin(ctx, "ctors"));
		return -1;
	}
	if (cfg.mode == SANCOV_ABI_NONE && cfg.bss) {
		kplug_error("%s: sancov-bss=on needs sancov-trace=pc-guard, "
			    "inline-8bit-counters or inline-bool-flag",
			    kplug_origin(ctx, "bss"));
		return -1;
	}
	*abi = cfg;
	return 0;
}

/* sancov-prune, sancov-map and sancov-prune-check. */
static int sancov_prune_options(const struct kplug_ctx *ctx,
				const struct sancov_abi_cfg *abi, bool *map)
{
	struct sancov_prune_cfg cfg = {
		.mode = (enum sancov_prune)kplug_int(ctx, "prune"),
		.check = (bool)kplug_int(ctx, "prune-check"),
		.keep_entry = abi->pc_table,
		.kcov = kplug_int(ctx, "prune-session") == SANCOV_SESSION_KCOV,
		.cuts = (enum sancov_cuts)kplug_int(ctx, "prune-cuts"),
		.by_lines = kplug_int(ctx, "prune-exact") == SANCOV_EXACT_LINES,
		.observe = (enum sancov_observe)kplug_int(ctx, "prune-observe"),
	};
	long map_opt = kplug_int(ctx, "map");

	/* an array element counts or flags: it keeps no order */
	if (cfg.observe == SANCOV_OBSERVE_TRACE &&
	    (abi->mode == SANCOV_ABI_8BIT || abi->mode == SANCOV_ABI_BOOL)) {
		kplug_error("%s: sancov-prune-observe=trace needs the hits in order: "
			    "sancov-trace=pc or pc-guard (the inline modes keep none)",
			    kplug_origin(ctx, "prune-observe"));
		return -1;
	}
	/*
	 * A call that recurses into the function puts a whole call's hits
	 * between two of the caller's: only a cut at every call that may not
	 * return models that, and a trace read without it can be misread.
	 */
	if (cfg.observe == SANCOV_OBSERVE_TRACE && cfg.mode != SANCOV_PRUNE_OFF &&
	    cfg.cuts != SANCOV_CUTS_CALLS) {
		kplug_error("%s: sancov-prune-observe=trace needs sancov-prune-cuts=calls: "
			    "a call that recurses into a function interleaves its hits "
			    "with the caller's",
			    kplug_origin(ctx, "prune-cuts"));
		return -1;
	}

	*map = map_opt == SANCOV_MAP_ON ||
	       (map_opt == SANCOV_MAP_AUTO && cfg.mode != SANCOV_PRUNE_OFF);
	if (!(sancov.trace & SANCOV_EDGES) && (cfg.mode != SANCOV_PRUNE_OFF || *map)) {
		kplug_error("%s: sancov-%s needs a trace mode with a probe per block "
			    "(pc, pc-guard, inline-8bit-counters or inline-bool-flag)",
			    kplug_origin(ctx, cfg.mode != SANCOV_PRUNE_OFF ? "prune" : "map"),
			    cfg.mode != SANCOV_PRUNE_OFF ? "prune" : "map");
		return -1;
	}
	sancov_prune_setup(&cfg);
	return 0;
}

static int sancov_setup(const struct kplug_ctx *ctx)
{
	struct sancov_abi_cfg abi;
	bool map;
	int wanted;

	if (flag_sanitize_coverage) {
		kplug_error("sancov: -fsanitize-coverage is given too; use either "
			    "native coverage or kplug's sancov, not both");
		return -1;
	}
	if (kplug_unit_is_lto()) {
		kplug_error("sancov: cannot instrument a unit compiled with -flto "
			    "(its code is generated at the LTO link, where kplug does "
			    "not run): compile it with -fno-lto");
		return -1;
	}
	sancov.trace = kplug_int(ctx, "trace");
	sancov.trace_float = kplug_int(ctx, "float");
	if (sancov_abi_options(ctx, &abi))
		return -1;
	if (sancov_prune_options(ctx, &abi, &map))
		return -1;
	if (sancov_load_lists(ctx))
		return -1;
	wanted = sancov_unit_wanted(ctx);
	if (wanted <= 0)
		return wanted;	/* 0: as if the flag were not given */

	/* before the front end parses: it folds && and || differently then */
	flag_sanitize_coverage = SANCOV_MARKER;
	sancov_start_unit();
	sancov_abi_setup(ctx->plugin_name, &abi);
	sancov_map_on = false;
	if (map) {
		sancov_map_setup(ctx->plugin_name);
		kplug_register_pass(ctx, sancov_map_make_pass(), "final", 1,
				    PASS_POS_INSERT_BEFORE);
	}
	kplug_register_pass(ctx, new sancov_pass(g, false), "sancov", 0,
			    PASS_POS_INSERT_AFTER);
	kplug_register_pass(ctx, new sancov_pass(g, true), "sancov_O0", 1,
			    PASS_POS_INSERT_AFTER);
	if (abi.mode != SANCOV_ABI_NONE)
		kplug_register_pass(ctx, sancov_late_make_pass(false),
				    sancov_late_pass_before(false), 1, PASS_POS_INSERT_BEFORE);
	if (abi.mode == SANCOV_ABI_GUARD)
		kplug_register_pass(ctx, sancov_late_make_pass(true),
				    sancov_late_pass_before(true), 1, PASS_POS_INSERT_BEFORE);
	if (!kplug_int(ctx, "tailcall"))
		kplug_register_pass(ctx, new untail_pass(g), "tailc", 0,
				    PASS_POS_INSERT_AFTER);
	return 0;
}

const struct kplug_pass kplug_sancov = {
	.info = {
		.name = "sancov",
		.help = "coverage callbacks like -fsanitize-coverage=trace-pc,trace-cmp, "
			"never tail-called, with allow/ignore lists",
		.opts = sancov_opts,
	},
	.ggc_roots = sancov_roots,
	.setup = sancov_setup,
};
