// SPDX-License-Identifier: GPL-2.0
/*
 * sancov: the instrumentation of GCC's -fsanitize-coverage=trace-pc and
 * trace-cmp (gcc/sancov.cc), at every optimisation level, plus what native
 * GCC lacks: callbacks are never tail-called (GCC PR 90746), functions in
 * .noinstr.text are skipped, and Clang-format allow/ignore lists select
 * what is instrumented.  See docs/sancov.md.
 */
#include "kplug.h"
#include "config/speclist.h"

#define SANCOV_PC	(1L << 0)	/* bits of the "trace" SET */
#define SANCOV_CMP	(1L << 1)
#define NOINSTR_SECTION	".noinstr.text"

static const struct kplug_opt sancov_opts[] = {
	{ "trace", KPLUG_OPT_SET, "pc", "pc,cmp", 0, 0,
	  "what to trace: pc (every basic block), cmp (comparisons and switches)" },
	{ "float", KPLUG_OPT_BOOL, "off", NULL, 0, 0,
	  "trace float/double comparisons too (cmpf/cmpd: the kernel has no such callbacks)" },
	{ "tailcall", KPLUG_OPT_BOOL, "off", NULL, 0, 0,
	  "let GCC tail-call the callbacks like native GCC < 14 does (wrong PCs)" },
	{ "allow", KPLUG_OPT_STR, NULL, NULL, 0, 0,
	  "instrument only what FILE (Clang format: src:GLOB, fun:GLOB) allows" },
	{ "ignore", KPLUG_OPT_STR, NULL, NULL, 0, 0,
	  "do not instrument what FILE (Clang format) lists" },
	{ "ignore-fun", KPLUG_OPT_LIST, NULL, NULL, 0, 0,
	  "do not instrument functions matching these globs" },
	{ "ignore-src", KPLUG_OPT_LIST, NULL, NULL, 0, 0,
	  "do not instrument translation units whose source matches these globs" },
	{ NULL, KPLUG_OPT_STR, NULL, NULL, 0, 0, NULL }
};

/* The callbacks, in the order of built_in_function codes used below. */
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

/* Built once per translation unit; a GGC root keeps them alive. */
static GTY(()) tree sancov_decls[NR_SANCOV_FNS];

static const struct ggc_root_tab sancov_roots[] = {
	{ &sancov_decls[0], NR_SANCOV_FNS, sizeof(sancov_decls[0]),
	  &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
	LAST_GGC_ROOT_TAB
};

static struct {
	long trace;		/* SANCOV_PC | SANCOV_CMP */
	bool trace_float;
	bool tailcall;
	bool unit_wanted;	/* the source file is allowed and not ignored */
	struct kplug_speclist *allow;	/* NULL: everything allowed */
	struct kplug_speclist *ignore;
	unsigned int case_arrays;
} sancov;

/* ---- what to instrument ---- */

/* "foo" for foo, foo.isra.0, foo.part.1...: C names contain no dot. */
static bool sancov_fun_match(const struct kplug_speclist *sl, tree decl)
{
	const char *name, *dot;
	char *base;
	bool hit;

	if (!DECL_NAME(decl))
		return false;
	name = IDENTIFIER_POINTER(DECL_NAME(decl));
	dot = strchr(name, '.');
	if (!dot)
		return kplug_speclist_match(sl, KPLUG_SPEC_FUN, name);
	base = xstrndup(name, dot - name);
	hit = kplug_speclist_match(sl, KPLUG_SPEC_FUN, base) ||
	      kplug_speclist_match(sl, KPLUG_SPEC_FUN, name);
	free(base);
	return hit;
}

/* Whether DECL's body gets coverage callbacks. */
static bool sancov_wanted(tree decl)
{
	const char *section;

	if (!sancov.unit_wanted || kplug_fn_no_sanitize_coverage(decl))
		return false;
	section = DECL_SECTION_NAME(decl);
	if (section && !strcmp(section, NOINSTR_SECTION))
		return false;
	if (sancov.allow && kplug_speclist_count(sancov.allow, KPLUG_SPEC_FUN) &&
	    !sancov_fun_match(sancov.allow, decl))
		return false;
	return !sancov_fun_match(sancov.ignore, decl);
}

static bool sancov_src_match(const struct kplug_speclist *sl,
			     const char *match_path)
{
	return kplug_speclist_match(sl, KPLUG_SPEC_SRC, main_input_filename) ||
	       (match_path &&
		kplug_speclist_match(sl, KPLUG_SPEC_SRC, match_path));
}

static bool sancov_unit_wanted(const char *match_path)
{
	if (sancov.allow && kplug_speclist_count(sancov.allow, KPLUG_SPEC_SRC) &&
	    !sancov_src_match(sancov.allow, match_path))
		return false;
	return !sancov_src_match(sancov.ignore, match_path);
}

/* ---- instrumentation, as gcc/sancov.cc does it ---- */

static enum sancov_fn sancov_cmp_fn(tree type, bool with_const, tree *to_type)
{
	static const enum sancov_fn by_size[2][4] = {
		{ FN_CMP1, FN_CMP2, FN_CMP4, FN_CMP8 },
		{ FN_CONST_CMP1, FN_CONST_CMP2, FN_CONST_CMP4, FN_CONST_CMP8 },
	};
	static tree *const types[4] = {
		&unsigned_char_type_node, &uint16_type_node,
		&uint32_type_node, &uint64_type_node,
	};
	int i;

	if (INTEGRAL_TYPE_P(type)) {
		switch (int_size_in_bytes(type)) {
		case 1: i = 0; break;
		case 2: i = 1; break;
		case 4: i = 2; break;
		default: i = 3; break;
		}
		*to_type = *types[i];
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
	return NR_SANCOV_FNS;
}

/* OP converted to TYPE, with the conversion appended to SEQ if needed. */
static tree sancov_convert(gimple_seq *seq, tree type, tree op)
{
	if (TREE_CODE(op) == INTEGER_CST)
		return fold_convert(type, op);
	gimple_seq_add_stmt(seq, build_type_cast(type, op));
	return gimple_assign_lhs(gimple_seq_last_stmt(*seq));
}

/* Call the cmp callback for LHS <=> RHS before the statement at GSI. */
static void sancov_comparison(gimple_stmt_iterator *gsi, tree lhs, tree rhs)
{
	tree type = TREE_TYPE(lhs), to_type = NULL_TREE;
	bool with_const = is_gimple_min_invariant(lhs) ^
			  is_gimple_min_invariant(rhs);
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

/* The read-only {count, bits, values...} table of a switch. */
static tree sancov_case_array(gswitch *sw, location_t loc, function *fn,
			      HOST_WIDE_INT size)
{
	unsigned int i, n = gimple_switch_num_labels(sw), num = 0;
	vec<constructor_elt, va_gc> *v = NULL;
	tree type, var, ctor;
	char name[64];

	for (i = 1; i < n; i++) {
		tree label = gimple_switch_label(sw, i);

		num += (CASE_LOW(label) != NULL_TREE) + (CASE_HIGH(label) != NULL_TREE);
	}
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
	DECL_INITIAL(var) = ctor;
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
	gimple_seq_add_stmt(&seq, gimple_build_call(sancov_decls[FN_SWITCH], 2, index,
						    build_fold_addr_expr(table)));
	gimple_seq_set_location(seq, loc);
	gsi_insert_seq_before(gsi, seq, GSI_SAME_STMT);
}

/* After the labels and leading debug statements of every block. */
static void sancov_trace_pc(function *fn)
{
	basic_block bb;

	FOR_EACH_BB_FN(bb, fn) {
		gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb(bb);
		gimple *call;

		if (gsi_end_p(gsi))
			continue;
		call = gimple_build_call(sancov_decls[FN_PC], 0);
		gimple_set_location(call, gimple_location(gsi_stmt(gsi)));
		gsi_insert_before(&gsi, call, GSI_SAME_STMT);
	}
}

static void sancov_trace_stmt(gimple_stmt_iterator *gsi, function *fn)
{
	gimple *stmt = gsi_stmt(*gsi);
	enum tree_code code;
	tree cond;

	switch (gimple_code(stmt)) {
	case GIMPLE_ASSIGN:
		code = gimple_assign_rhs_code(stmt);
		cond = gimple_assign_rhs1(stmt);
		if (TREE_CODE_CLASS(code) == tcc_comparison)
			sancov_comparison(gsi, cond, gimple_assign_rhs2(stmt));
		else if (code == COND_EXPR && COMPARISON_CLASS_P(cond))
			sancov_comparison(gsi, TREE_OPERAND(cond, 0),
					  TREE_OPERAND(cond, 1));
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
	if (sancov.trace & SANCOV_CMP)
		sancov_trace_cmp(fn);
	return 0;
}

/* ---- never tail-called ---- */

static bool sancov_is_callback(const gimple *stmt)
{
	tree decl = gimple_call_fndecl(stmt);
	int i;

	for (i = 0; decl && i < NR_SANCOV_FNS; i++)
		if (decl == sancov_decls[i])
			return true;
	return false;
}

/*
 * "tailc" marks calls in tail position and expand turns them into jumps.
 * Running after it (after "optimized", which follows tailc at every level),
 * clear the mark on our callbacks so each stays a call with its own PC.
 */
static unsigned int sancov_untail_execute(function *fn)
{
	basic_block bb;

	FOR_EACH_BB_FN(bb, fn) {
		gimple_stmt_iterator gsi;

		for (gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gimple *stmt = gsi_stmt(gsi);

			if (is_gimple_call(stmt) && gimple_call_tail_p(as_a<gcall *>(stmt)) &&
			    sancov_is_callback(stmt))
				gimple_call_set_tail(as_a<gcall *>(stmt), false);
		}
	}
	return 0;
}

/* ---- passes ---- */

namespace {

const pass_data sancov_pass_data = {
	GIMPLE_PASS,		/* type */
	"kplug_sancov",		/* name */
	OPTGROUP_NONE,		/* optinfo_flags */
	TV_NONE,		/* tv_id */
	PROP_cfg,		/* properties_required */
	0,			/* properties_provided */
	0,			/* properties_destroyed */
	0,			/* todo_flags_start */
	TODO_update_ssa,	/* todo_flags_finish */
};

/* Native's pass_sancov<O0>: O0 runs only when not optimizing. */
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
		return (!o0 || !optimize) && sancov_wanted(fn->decl);
	}
	unsigned int execute(function *fn) final override
	{
		return sancov_execute(fn);
	}
private:
	bool o0;
};

const pass_data untail_pass_data = {
	GIMPLE_PASS,		/* type */
	"kplug_sancov_untail",	/* name */
	OPTGROUP_NONE,		/* optinfo_flags */
	TV_NONE,		/* tv_id */
	PROP_cfg,		/* properties_required */
	0,			/* properties_provided */
	0,			/* properties_destroyed */
	0,			/* todo_flags_start */
	0,			/* todo_flags_finish */
};

class untail_pass : public gimple_opt_pass {
public:
	untail_pass(gcc::context *ctxt) : gimple_opt_pass(untail_pass_data, ctxt) {}
	opt_pass *clone() final override
	{
		return new untail_pass(m_ctxt);
	}
	bool gate(function *fn) final override
	{
		return sancov_wanted(fn->decl);
	}
	unsigned int execute(function *fn) final override
	{
		return sancov_untail_execute(fn);
	}
};

} /* namespace */

/* ---- callbacks ---- */

/* The builtins exist only once the unit starts; create and cache them. */
static void sancov_start_unit(void *gcc_data, void *user_data)
{
	int i;

	initialize_sanitizer_builtins();
	for (i = 0; i < NR_SANCOV_FNS; i++)
		sancov_decls[i] = builtin_decl_implicit(sancov_codes[i]);
}

/*
 * Like ipa-inline.cc's sanitize_attrs_match_for_inline_p() under the
 * native flag: no inlining between instrumented and excluded functions,
 * except of always_inline callees.
 */
static void sancov_forbid_edge(cgraph_edge *e)
{
	cgraph_node *callee = e->callee;

	if (!callee || !e->inline_failed)
		return;
	callee = callee->ultimate_alias_target();
	if (lookup_attribute("always_inline", DECL_ATTRIBUTES(callee->decl)) ||
	    sancov_wanted(e->caller->decl) == sancov_wanted(callee->decl))
		return;
	e->inline_failed = CIF_SANITIZE_ATTRIBUTE_MISMATCH;
	e->call_stmt_cannot_inline_p = 1;
}

static void sancov_forbid_node(cgraph_node *node)
{
	cgraph_edge *e;

	for (e = node->callees; e; e = e->next_callee)
		sancov_forbid_edge(e);
}

/* Before each inliner: "einline" per function, "inline" for the unit. */
static void sancov_pass_execution(void *gcc_data, void *user_data)
{
	opt_pass *pass = (opt_pass *)gcc_data;
	cgraph_node *node;

	if (!strcmp(pass->name, "einline")) {
		node = cfun ? cgraph_node::get(cfun->decl) : NULL;
		if (node)
			sancov_forbid_node(node);
	} else if (!strcmp(pass->name, "inline")) {
		FOR_EACH_FUNCTION_WITH_GIMPLE_BODY(node)
			sancov_forbid_node(node);
	}
}

/* ---- setup ---- */

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
			sancov.ignore, k ? KPLUG_SPEC_FUN : KPLUG_SPEC_SRC,
			kplug_origin(ctx, keys[k]),
		};
		const char *globs = kplug_str(ctx, keys[k]);

		if (globs && kplug_list_foreach(globs, sancov_add_inline, &in))
			return sancov_list_error(sancov.ignore);
	}
	return 0;
}

static int sancov_setup(const struct kplug_ctx *ctx)
{
	if (flag_sanitize_coverage) {
		kplug_error("sancov: -fsanitize-coverage is given too; use either "
			    "native coverage or kplug's sancov, not both");
		return -1;
	}
	sancov.trace = kplug_int(ctx, "trace");
	sancov.trace_float = kplug_int(ctx, "float");
	sancov.tailcall = kplug_int(ctx, "tailcall");
	if (sancov_load_lists(ctx))
		return -1;
	sancov.unit_wanted = sancov_unit_wanted(kplug_config_match_path(ctx->cfg));
	if (!sancov.unit_wanted)
		return 0;

	/* What -fsanitize-coverage does to fold-const.cc and ifcombine. */
	param_logical_op_non_short_circuit = 0;

	register_callback(ctx->plugin_name, PLUGIN_START_UNIT, sancov_start_unit, NULL);
	register_callback(ctx->plugin_name, PLUGIN_PASS_EXECUTION,
			  sancov_pass_execution, NULL);
	kplug_register_pass(ctx, new sancov_pass(g, false), "sancov", 0,
			    PASS_POS_INSERT_AFTER);
	kplug_register_pass(ctx, new sancov_pass(g, true), "sancov_O0", 1,
			    PASS_POS_INSERT_AFTER);
	if (!sancov.tailcall)
		kplug_register_pass(ctx, new untail_pass(g), "optimized", 1,
				    PASS_POS_INSERT_AFTER);
	return 0;
}

const struct kplug_pass kplug_sancov = {
	{ "sancov", "coverage callbacks like -fsanitize-coverage=trace-pc,trace-cmp, "
		    "never tail-called, with allow/ignore lists", sancov_opts },
	sancov_roots,
	sancov_setup,
};
