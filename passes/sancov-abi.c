// SPDX-License-Identifier: GPL-2.0
/*
 * sancov's Clang SanitizerCoverage ABI (LLVM's SanitizerCoverage.cpp):
 *
 *  pc-guard              __sanitizer_cov_trace_pc_guard(&guard[i]) at each
 *                        point, uint32_t guards in section __sancov_guards;
 *  inline-8bit-counters  ++counter[i] inline, uint8_t in __sancov_cntrs;
 *  inline-bool-flag      flag[i] = 1 inline, bool in __sancov_bools;
 *  pc-table              (PC, flags) pointer-sized pairs in __sancov_pcs, in
 *                        the order of the guards/counters, flags 1 on the
 *                        function's entry (whose PC is the function's address);
 *
 * one array per function and kind, in the function's COMDAT group where it
 * has one, aligned to its element only (so that the arrays of a section are
 * contiguous), and a module constructor of priority 2 that hands the
 * section bounds (__start_SECTION, __stop_SECTION: hidden, weak) to
 * __sanitizer_cov_trace_pc_guard_init, __sanitizer_cov_8bit_counters_init
 * or __sanitizer_cov_bool_flag_init, then __sanitizer_cov_pcs_init.
 *
 * The coverage points are those of trace-pc (passes/sancov.c): every block
 * with a real statement, after its labels and leading debug statements.
 * The entry block's point comes first in each function's arrays.
 */
#include "kplug.h"
#include "passes/sancov-abi.h"
#include "passes/sancov-late.h"
#include "passes/sancov-map.h"
#include "passes/sancov-prune.h"

#define SANCOV_CTOR_PRIORITY	2	/* as Clang's module constructor */
#define PCS_SECTION		"__sancov_pcs"
#define PC_FLAG_ENTRY		1

/* Per mode: section, runtime init function, the kind of its late code. */
struct sancov_abi_kind {
	const char *section;
	const char *init;
	enum sancov_late_kind late;
};

static const struct sancov_abi_kind sancov_abi_kinds[] = {
	[SANCOV_ABI_NONE] = {
		.section = NULL,
		.init = NULL,
		.late = SANCOV_LATE_GUARD,
	},
	[SANCOV_ABI_GUARD] = {
		.section = "__sancov_guards",
		.init = "__sanitizer_cov_trace_pc_guard_init",
		.late = SANCOV_LATE_GUARD,
	},
	[SANCOV_ABI_8BIT] = {
		.section = "__sancov_cntrs",
		.init = "__sanitizer_cov_8bit_counters_init",
		.late = SANCOV_LATE_COUNTER,
	},
	[SANCOV_ABI_BOOL] = {
		.section = "__sancov_bools",
		.init = "__sanitizer_cov_bool_flag_init",
		.late = SANCOV_LATE_FLAG,
	},
};

tree sancov_abi_guard_fn;

static struct sancov_abi_cfg abi;
static unsigned int sancov_abi_arrays;	/* names .LSANCOVn */

/* ---- declarations ---- */

/* The function NAME of TYPE: the unit's own declaration if it has one. */
static tree sancov_abi_fn_decl(const char *name, tree type)
{
	tree id = get_identifier(name);
	symtab_node *node = symtab_node::get_for_asmname(id);
	tree decl;

	if (node && TREE_CODE(node->decl) == FUNCTION_DECL)
		return node->decl;
	decl = build_fn_decl(name, type);
	/* as GCC's sanitizer builtins: nothrow, leaf */
	TREE_NOTHROW(decl) = 1;
	DECL_ATTRIBUTES(decl) = tree_cons(get_identifier("leaf"), NULL_TREE,
					  DECL_ATTRIBUTES(decl));
	return decl;
}

static tree sancov_abi_elt_type(void)
{
	switch (abi.mode) {
	case SANCOV_ABI_GUARD:
		return uint32_type_node;
	case SANCOV_ABI_8BIT:
		return unsigned_char_type_node;
	default:
		return boolean_type_node;
	}
}

enum sancov_late_kind sancov_abi_late_kind(void)
{
	return sancov_abi_kinds[abi.mode].late;
}

bool sancov_abi_is_callback(tree decl)
{
	return (sancov_abi_guard_fn && decl == sancov_abi_guard_fn) ||
	       sancov_late_is_placeholder(decl);
}

/* Functions GCC creates once the unit's variables are out (ASan's module
 * constructor) cannot get arrays any more: leave them alone. */
bool sancov_abi_too_late(void)
{
	return symtab->state == FINISHED;
}

/* ---- the per-function arrays ---- */

/*
 * Clang puts a COMDAT function's arrays in its group, under the same
 * section name (".section __sancov_guards,"awG",@progbits,GROUP,comdat").
 * GCC keys its sections by name alone, so such an array gets the section
 * "__sancov_guards GROUP" (one section object per group) and the hook that
 * prints section directives drops the group part of the name again.
 */
#define GROUP_SEP	' '

static void (*sancov_abi_orig_named_section)(const char *, unsigned int, tree);

/*
 * With sancov-bss=on the mode's zero arrays (not the PC table) go into a
 * @nobits section, so that a linker script can merge them into .bss
 * without turning it into PROGBITS (the kernel's KPLUG_KCOV_UNIQUE).
 */
static bool sancov_abi_nobits(const char *name, size_t len)
{
	const char *zero = sancov_abi_kinds[abi.mode].section;

	return abi.bss && zero && strlen(zero) == len && !strncmp(name, zero, len);
}

static void sancov_abi_named_section(const char *name, unsigned int flags, tree decl)
{
	const char *sep = strchr(name, GROUP_SEP);
	char *base;

	if (sancov_abi_nobits(name, sep ? (size_t)(sep - name) : strlen(name)))
		flags = (flags | SECTION_BSS) & ~SECTION_NOTYPE;
	if (!sep || strncmp(name, "__sancov_", 9)) {
		sancov_abi_orig_named_section(name, flags, decl);
		return;
	}
	base = xstrndup(name, sep - name);
	sancov_abi_orig_named_section(base, flags, decl);
	free(base);
}

static void sancov_abi_section(tree var, const char *section, tree group)
{
	char *name;

	if (!group) {
		set_decl_section_name(var, section);
		return;
	}
	name = concat(section, " ", IDENTIFIER_POINTER(group), NULL);
	set_decl_section_name(var, name);
	free(name);
}

/*
 * A static array of N elements of ELT_TYPE in SECTION, aligned to its
 * element only, in FNDECL's COMDAT group if it has one, kept even though
 * nothing in the unit reads it.
 */
static tree sancov_abi_array(tree fndecl, const char *section, tree elt_type,
			     unsigned int n, tree init)
{
	tree type = build_array_type_nelts(elt_type, n);
	cgraph_node *fnode = cgraph_node::get(fndecl);
	varpool_node *vnode;
	char name[32];
	tree var, group;
	int saved_reorder;

	ASM_GENERATE_INTERNAL_LABEL(name, "LSANCOV", sancov_abi_arrays++);
	var = build_decl(DECL_SOURCE_LOCATION(fndecl), VAR_DECL,
			 get_identifier(name), type);
	TREE_STATIC(var) = 1;
	TREE_PUBLIC(var) = 0;
	TREE_USED(var) = 1;
	TREE_ADDRESSABLE(var) = 1;
	DECL_ARTIFICIAL(var) = 1;
	DECL_IGNORED_P(var) = 1;
	DECL_PRESERVE_P(var) = 1;
	SET_DECL_ALIGN(var, TYPE_ALIGN(elt_type));
	DECL_USER_ALIGN(var) = 1;	/* no DATA_ALIGNMENT padding */
	DECL_INITIAL(var) = init ? init : build_constructor(type, NULL);
	vnode = varpool_node::get_create(var);
	group = fnode ? fnode->get_comdat_group() : NULL_TREE;
	if (group) {
		vnode->set_comdat_group(group);
		vnode->add_to_same_comdat_group(fnode);
	}
	sancov_abi_section(var, section, group);
	/*
	 * Output at the end of the unit even with -fno-toplevel-reorder
	 * (which would assemble it now): sancov-late sizes it in the RTL.
	 */
	saved_reorder = flag_toplevel_reorder;
	flag_toplevel_reorder = 1;
	varpool_node::finalize_decl(var);
	flag_toplevel_reorder = saved_reorder;
	vnode->force_output = 1;
	vnode->no_reorder = 0;
	return var;
}

/*
 * A guard call with its argument in GIMPLE, __sanitizer_cov_trace_pc_guard
 * (&array[i]): for targets that pass the pointer on the stack (i386
 * without regparm), where the late code of passes/sancov-late.c has no
 * register to load.
 */
static gimple *sancov_abi_guard_call(tree array, unsigned int i)
{
	tree elt = build4(ARRAY_REF, uint32_type_node, array, size_int(i),
			  NULL_TREE, NULL_TREE);

	return gimple_build_call(sancov_abi_guard_fn, 1, build_fold_addr_expr(elt));
}

/* A label at the start of BB whose address goes into the PC table. */
static tree sancov_abi_block_label(basic_block bb, location_t loc)
{
	tree label = create_artificial_label(loc);
	gimple_stmt_iterator gsi = gsi_start_bb(bb);

	FORCED_LABEL(label) = 1;
	gsi_insert_before(&gsi, gimple_build_label(label), GSI_SAME_STMT);
	return label;
}

void sancov_abi_pc_table(function *fn, const vec<int> &points, const vec<tree> &labels)
{
	tree uptr = pointer_sized_int_node;
	vec<constructor_elt, va_gc> *v = NULL;
	unsigned int i;
	tree pc, ctor, type;

	vec_alloc(v, 2 * labels.length());
	for (i = 0; i < labels.length(); i++) {
		bool entry = i == 0 && points[0] == 0;

		if (entry)
			pc = build_fold_addr_expr(fn->decl);
		else
			pc = build1(ADDR_EXPR, ptr_type_node, labels[i]);
		CONSTRUCTOR_APPEND_ELT(v, NULL_TREE, fold_convert(uptr, pc));
		CONSTRUCTOR_APPEND_ELT(v, NULL_TREE,
				       build_int_cst(uptr, entry ? PC_FLAG_ENTRY : 0));
	}
	if (labels.length() > 1)
		fn->has_forced_label_in_static = 1;
	type = build_array_type_nelts(uptr, 2 * labels.length());
	ctor = build_constructor(type, v);
	TREE_CONSTANT(ctor) = 1;
	TREE_STATIC(ctor) = 1;
	sancov_abi_array(fn->decl, PCS_SECTION, uptr, 2 * labels.length(), ctor);
}

void sancov_abi_function(function *fn)
{
	auto_vec<basic_block> points;
	auto_vec<int> elements;
	auto_vec<tree> labels;
	unsigned int i;
	bool late;
	tree array;

	sancov_prune_points(fn, &points);
	if (points.is_empty())
		return;
	if (abi.mode == SANCOV_ABI_GUARD && !sancov_abi_guard_fn)
		sancov_abi_guard_fn = sancov_abi_fn_decl("__sanitizer_cov_trace_pc_guard",
			build_function_type_list(void_type_node,
						 build_pointer_type(uint32_type_node), NULL_TREE));
	if (abi.mode == SANCOV_ABI_GUARD)
		sancov_map_set_callback(sancov_abi_guard_fn);
	array = sancov_abi_array(fn->decl, sancov_abi_kinds[abi.mode].section,
				 sancov_abi_elt_type(), points.length(), NULL_TREE);
	sancov_map_array(array);
	late = sancov_late_begin(fn, sancov_abi_late_kind(), sancov_abi_guard_fn, array,
				 abi.pc_table);
	for (i = 0; i < points.length(); i++) {
		gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb(points[i]);
		location_t loc = sancov_map_probe(points[i], gsi_end_p(gsi) ?
						  UNKNOWN_LOCATION : gimple_location(gsi_stmt(gsi)));
		gimple *stmt = late ? sancov_late_point(i, &loc) :
				      sancov_abi_guard_call(array, i);

		gimple_set_location(stmt, loc);
		gsi_insert_before(&gsi, stmt, GSI_SAME_STMT);
		if (!late) {
			elements.safe_push(i);
			/* element 0 is the entry: the function's address */
			labels.safe_push(abi.pc_table && i ? sancov_abi_block_label(points[i], loc) :
							     NULL_TREE);
		}
	}
	if (late)
		return;	/* sancov-late numbers the sites, one element each */
	sancov_map_elements(elements);
	if (abi.pc_table)
		sancov_abi_pc_table(fn, elements, labels);
}

/* ---- the module constructor ---- */

/* &__start_SECTION or &__stop_SECTION: hidden, weak, of ELT_TYPE[]. */
static tree sancov_abi_bound(const char *which, const char *section, tree elt_type)
{
	char name[64];
	tree var;

	snprintf(name, sizeof(name), "__%s_%s", which, section);
	var = build_decl(UNKNOWN_LOCATION, VAR_DECL, get_identifier(name),
			 build_array_type(elt_type, NULL_TREE));
	TREE_PUBLIC(var) = 1;
	DECL_EXTERNAL(var) = 1;
	TREE_STATIC(var) = 0;
	DECL_ARTIFICIAL(var) = 1;
	DECL_IGNORED_P(var) = 1;
	declare_weak(var);
	DECL_VISIBILITY(var) = VISIBILITY_HIDDEN;
	DECL_VISIBILITY_SPECIFIED(var) = 1;
	return build_fold_addr_expr(var);
}

/* INIT(__start_SECTION, __stop_SECTION), appended to *BODY. */
static void sancov_abi_init_call(tree *body, const char *init,
				 const char *section, tree elt_type)
{
	tree ptr = build_pointer_type(elt_type);
	tree fn = sancov_abi_fn_decl(init, build_function_type_list(void_type_node,
								   ptr, ptr, NULL_TREE));

	append_to_statement_list(build_call_expr(fn, 2,
		fold_convert(ptr, sancov_abi_bound("start", section, elt_type)),
		fold_convert(ptr, sancov_abi_bound("stop", section, elt_type))), body);
}

/* Whether the unit defines a function that gets coverage points. */
static bool sancov_abi_unit_instrumented(void)
{
	cgraph_node *node;

	FOR_EACH_FUNCTION_WITH_GIMPLE_BODY(node)
		if (!node->inlined_to && !DECL_EXTERNAL(node->decl) &&
		    abi.wanted(node->decl))
			return true;
	return false;
}

/*
 * After the IPA passes, as GCC's own coverage_finish() does for gcov: the
 * constructor is a new function, kept away from sancov by the attribute.
 */
static void sancov_abi_build_ctor(void *gcc_data, void *user_data)
{
	const struct sancov_abi_kind *k = &sancov_abi_kinds[abi.mode];
	tree body = NULL_TREE, ctor;

	if (seen_error() || !sancov_abi_unit_instrumented())
		return;
	sancov_abi_init_call(&body, k->init, k->section, sancov_abi_elt_type());
	if (abi.pc_table)
		sancov_abi_init_call(&body, "__sanitizer_cov_pcs_init", PCS_SECTION,
				     pointer_sized_int_node);
	cgraph_build_static_cdtor('I', body, SANCOV_CTOR_PRIORITY);
	ctor = cgraph_new_nodes.last()->decl;
	DECL_ATTRIBUTES(ctor) = tree_cons(get_identifier("no_sanitize_coverage"),
					  NULL_TREE, DECL_ATTRIBUTES(ctor));
	set_cfun(NULL);
	current_function_decl = NULL_TREE;
	symtab->process_new_functions();
}

/* ---- setup ---- */

void sancov_abi_setup(const char *plugin_name, const struct sancov_abi_cfg *cfg)
{
	abi = *cfg;
	if (abi.mode == SANCOV_ABI_NONE)
		return;
	sancov_abi_orig_named_section = targetm.asm_out.named_section;
	targetm.asm_out.named_section = sancov_abi_named_section;
	/* kplug sets passes up at PLUGIN_START_UNIT: this is the unit's start */
	sancov_abi_guard_fn = NULL_TREE;
	sancov_late_start_unit();
	sancov_abi_arrays = 0;
	if (abi.ctors)
		register_callback(plugin_name, PLUGIN_ALL_IPA_PASSES_END,
				  sancov_abi_build_ctor, NULL);
}
