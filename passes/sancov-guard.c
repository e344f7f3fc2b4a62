// SPDX-License-Identifier: GPL-2.0
/*
 * pc-guard's late argument (see sancov-guard.h).
 *
 * A guard call needs one more instruction than trace-pc's: the guard's
 * address into the first argument register.  Given in GIMPLE, that move
 * goes through every optimiser and the register allocator, which can only
 * keep it where it is or, worse, keep the address in a callee-saved
 * register across a loop; it cost GCC about 90,000 instructions per
 * point.  So sancov instruments a late function with calls without
 * arguments to a placeholder, each call with a location unique to its
 * point (kept by every copy the optimisers make of it), and this pass,
 * after register allocation, scheduling and block reordering, puts the
 * move right before each placeholder call and makes it a call of
 * __sanitizer_cov_trace_pc_guard(&guard[i]) that uses the register.  The
 * register is free there: the call clobbers it and passes nothing else.
 * The object is then trace-pc's, call for call, with one move before each
 * call, as Clang's code is.
 *
 * The move is made by the target's own move expander, which must give
 * recognised instructions without new pseudo registers (x86, arm64 and
 * arm do); a target where it does not is an error, never a call left
 * without its argument.  A placeholder call whose point is unknown is an
 * error too, and the placeholder is a symbol no library defines.
 */
#include "kplug.h"
#include "rtl-iter.h"
#include "calls.h"
#include "explow.h"
#include "expr.h"
#include "insn-config.h"
#include "recog.h"
#include "df.h"
#include "passes/sancov-guard.h"
#include "passes/sancov-map.h"

#define GUARD_PLACEHOLDER	"__kplug_sancov_guard_point"

tree sancov_guard_trees[SANCOV_GUARD_NR_TREES];
#define point_fn	sancov_guard_trees[0]
#define guard_array	sancov_guard_trees[1]

static tree guard_callback;	/* __sanitizer_cov_trace_pc_guard (a root of sancov-abi) */
static int guard_uid = -1;	/* DECL_UID of the late function, or -1 */
static hash_map<int_hash<unsigned int, 0, UINT_MAX>, unsigned int> *guard_of_loc;

void sancov_guard_start_unit(void)
{
	point_fn = NULL_TREE;
	guard_array = NULL_TREE;
	guard_callback = NULL_TREE;
	guard_uid = -1;
}

/* The register the callback's pointer argument goes in, or NULL. */
static rtx guard_arg_reg(tree callback)
{
	CUMULATIVE_ARGS cum_v;
	cumulative_args_t cum;
	tree type = build_pointer_type(uint32_type_node);

	INIT_CUMULATIVE_ARGS(cum_v, TREE_TYPE(callback), NULL_RTX, callback, 1);
	cum = pack_cumulative_args(&cum_v);
	function_arg_info arg(type, TYPE_MODE(type), true);
	return targetm.calls.function_arg(cum, arg);
}

static bool guard_in_reg(tree callback)
{
	rtx reg = guard_arg_reg(callback);

	return reg && REG_P(reg) && HARD_REGISTER_P(reg) && GET_MODE(reg) == Pmode;
}

tree sancov_guard_point_fn(void)
{
	if (!point_fn) {
		point_fn = build_fn_decl(GUARD_PLACEHOLDER,
					 build_function_type_list(void_type_node, NULL_TREE));
		TREE_NOTHROW(point_fn) = 1;
		DECL_ATTRIBUTES(point_fn) = tree_cons(get_identifier("leaf"), NULL_TREE,
						      DECL_ATTRIBUTES(point_fn));
	}
	return point_fn;
}

bool sancov_guard_is_point_fn(tree decl)
{
	return point_fn && decl == point_fn;
}

bool sancov_guard_late(function *fn, tree callback, tree array)
{
	guard_uid = -1;
	if (!guard_in_reg(callback))
		return false;
	guard_callback = callback;
	guard_array = array;
	guard_uid = DECL_UID(fn->decl);
	if (!guard_of_loc)
		guard_of_loc = new hash_map<int_hash<unsigned int, 0, UINT_MAX>, unsigned int>;
	guard_of_loc->empty();
	return true;
}

location_t sancov_guard_point(location_t loc, unsigned int i)
{
	if (!sancov_map_on)
		loc = sancov_unique_loc(loc, cfun->decl, i);
	gcc_assert(!guard_of_loc->get(loc));
	guard_of_loc->put(loc, i);
	return loc;
}

/* ---- the RTL pass ---- */

/* Whether INSN calls the placeholder. */
static bool guard_is_point_call(rtx_insn *insn)
{
	rtx call = get_call_rtx_from(insn), sym;

	if (!call || !MEM_P(XEXP(call, 0)))
		return false;
	sym = XEXP(XEXP(call, 0), 0);
	return GET_CODE(sym) == SYMBOL_REF && SYMBOL_REF_DECL(sym) == point_fn;
}

/* Every reference to the placeholder in *LOC made one to the callback. */
static void guard_retarget(rtx *loc, rtx callback)
{
	subrtx_ptr_iterator::array_type array;

	FOR_EACH_SUBRTX_PTR(iter, array, loc, ALL) {
		rtx *x = *iter;

		if (*x && GET_CODE(*x) == SYMBOL_REF && SYMBOL_REF_DECL(*x) == point_fn)
			*x = callback;
	}
}

/* Whether SEQ is made of instructions the target knows, on hard registers. */
static bool guard_seq_valid(rtx_insn *seq, int max_reg)
{
	rtx_insn *insn;

	if (!seq || max_reg_num() != max_reg)
		return false;
	for (insn = seq; insn; insn = NEXT_INSN(insn)) {
		if (!NONJUMP_INSN_P(insn) || recog_memoized(insn) < 0)
			return false;
		extract_insn(insn);
		if (!constrain_operands(1, get_preferred_alternatives(insn)))
			return false;
	}
	return true;
}

/* The point's move before CALL, and CALL made the callback's. */
static bool guard_rewrite(rtx_insn *call, unsigned int i, rtx reg, rtx callback)
{
	rtx base = XEXP(DECL_RTL(guard_array), 0);
	rtx addr = plus_constant(Pmode, base, i * 4);
	int max_reg = max_reg_num();
	rtx_insn *seq, *insn;

	start_sequence();
	emit_move_insn(reg, addr);
	seq = get_insns();
	end_sequence();
	if (!guard_seq_valid(seq, max_reg))
		return false;
	for (insn = seq; insn; insn = NEXT_INSN(insn))
		INSN_LOCATION(insn) = INSN_LOCATION(call);
	emit_insn_before(seq, call);
	PATTERN(call) = copy_rtx(PATTERN(call));
	guard_retarget(&PATTERN(call), callback);
	guard_retarget(&REG_NOTES(call), callback);
	use_reg(&CALL_INSN_FUNCTION_USAGE(call), reg);
	df_insn_rescan(call);
	return true;
}

static unsigned int guard_execute(function *fn)
{
	rtx reg = guard_arg_reg(guard_callback);
	rtx callback = XEXP(DECL_RTL(guard_callback), 0);
	rtx_insn *insn;

	for (insn = get_insns(); insn; insn = NEXT_INSN(insn)) {
		unsigned int *i;

		if (!CALL_P(insn) || !guard_is_point_call(insn))
			continue;
		i = guard_of_loc->get(INSN_LOCATION(insn));
		if (!i) {
			error_at(INSN_LOCATION(insn), "kplug: sancov: a pc-guard call "
				 "in %qD lost its coverage point (please report)",
				 fn->decl);
			continue;
		}
		if (!guard_rewrite(insn, *i, reg, callback)) {
			error_at(INSN_LOCATION(insn), "kplug: sancov: sancov-trace=pc-guard: "
				 "this target gives no plain move of the guard address "
				 "into %qs after register allocation",
				 reg_names[REGNO(reg)]);
			break;
		}
	}
	guard_uid = -1;
	return 0;
}

namespace {

const pass_data guard_pass_data = {
	RTL_PASS, "kplug_sancov_guard", OPTGROUP_NONE, TV_NONE, 0, 0, 0, 0, 0
};

class guard_pass : public rtl_opt_pass {
public:
	guard_pass(gcc::context *ctxt) : rtl_opt_pass(guard_pass_data, ctxt) {}
	bool gate(function *fn) final override
	{
		return guard_uid >= 0 && guard_uid == (int)DECL_UID(fn->decl);
	}
	unsigned int execute(function *fn) final override
	{
		return guard_execute(fn);
	}
};

} /* namespace */

opt_pass *sancov_guard_make_pass(void)
{
	return new guard_pass(g);
}
