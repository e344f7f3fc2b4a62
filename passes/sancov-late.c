// SPDX-License-Identifier: GPL-2.0
/*
 * The code of Clang's coverage points, given late (see sancov-late.h).
 *
 * Given in GIMPLE, a point's code costs GCC much more than trace-pc's call
 * (docs/sancov.md): a guard call's argument is one more instruction that
 * every optimiser and the register allocator look at and can only keep
 * where it is (or, worse, keep in a callee-saved register across a loop),
 * and an inline counter is a load, an add and a store that the memory
 * optimisers track point by point.  So sancov instruments a late function
 * with calls without arguments to a placeholder, the code of trace-pc,
 * each call with a location unique to its point (kept by every copy the
 * optimisers make of it), and an RTL pass gives each call its real code:
 *
 *  pc-guard: after register allocation, scheduling and block reordering
 *    (before "alignments"), a load of &guard[i] into the first argument
 *    register right before the call, which becomes a call of
 *    __sanitizer_cov_trace_pc_guard using that register.  The register is
 *    free there: the call clobbers it and is passed nothing else.  The
 *    object is trace-pc's, call for call, with one move before each call,
 *    as Clang's code is.  The move comes from the target's own move
 *    expander and must be recognised instructions on hard registers (x86,
 *    arm64 and arm give them), else the compile fails.
 *  inline-8bit-counters, inline-bool-flag: just before register
 *    allocation (before "ira"), the call replaced by the increment (one
 *    instruction where the target has a memory add, as x86's addb $1;
 *    else load, add, store) or the store of 1, so that the allocator and
 *    everything after it see no call.
 *
 * A placeholder call whose point is unknown is an error, and the
 * placeholder is a symbol no library defines: a point can never be left
 * silently without its code.
 */
#include "kplug.h"
#include "rtl-iter.h"
#include "calls.h"
#include "explow.h"
#include "expr.h"
#include "insn-config.h"
#include "recog.h"
#include "df.h"
#include "passes/sancov-abi.h"
#include "passes/sancov-late.h"
#include "passes/sancov-map.h"

#define LATE_PLACEHOLDER	"__kplug_sancov_point"

tree sancov_late_placeholder;
tree sancov_late_array;

/*
 * The function whose points get their code late: set by
 * sancov_late_begin() (GIMPLE), read by the RTL pass of the same function
 * (its gate compares uid).  late_fn_reset() is the one place that clears
 * it: at the start of a unit, at every sancov_late_begin(), and whenever
 * late_execute() has given the function's points their code (the one exit
 * that keeps it is the pre-RA instance leaving pc-guard to the post-RA
 * one), so no function sees another's state.  Its array is
 * sancov_late_array, a GGC root; callback is one too (sancov_abi_guard_fn).
 */
static struct late_fn {
	int uid;			/* DECL_UID of the function begun, or -1 */
	enum sancov_late_kind kind;
	tree callback;			/* __sanitizer_cov_trace_pc_guard */
	bool post_ra;			/* its code comes after register allocation */
	bool pc_table;			/* its sites get PC table entries */
	rtx guard_reg;			/* pc-guard: the callback's argument register */
} late = { .uid = -1 };

static void late_fn_reset(void)
{
	late = { .uid = -1 };
}

/* The point of each location, for the function begun (emptied by sancov_late_begin()). */
static hash_map<int_hash<unsigned int, 0, UINT_MAX>, unsigned int> *point_of_loc;
/*
 * The instructions of the sites' code in the function rewritten last
 * (DECL_UID site_uid): no pass may copy them, or two sites would share an
 * element.
 */
static hash_set<int_hash<int, -1, -2> > *site_insns;
static int site_uid = -1;
static bool (*target_cannot_copy)(rtx_insn *);

void sancov_late_start_unit(void)
{
	sancov_late_placeholder = NULL_TREE;
	sancov_late_array = NULL_TREE;
	late_fn_reset();
}

/* The register the callback's pointer argument goes in, or NULL. */
static rtx late_arg_reg(tree callback)
{
	CUMULATIVE_ARGS cum_v;
	cumulative_args_t cum;
	tree type = build_pointer_type(uint32_type_node);

	INIT_CUMULATIVE_ARGS(cum_v, TREE_TYPE(callback), NULL_RTX, callback, 1);
	cum = pack_cumulative_args(&cum_v);
	function_arg_info arg(type, TYPE_MODE(type), true);
	return targetm.calls.function_arg(cum, arg);
}

static bool late_arg_in_reg(tree callback)
{
	rtx reg = late_arg_reg(callback);

	return reg && REG_P(reg) && HARD_REGISTER_P(reg) && GET_MODE(reg) == Pmode;
}

static tree late_placeholder(void)
{
	tree decl = sancov_late_placeholder;

	if (!decl) {
		decl = build_fn_decl(LATE_PLACEHOLDER,
				     build_function_type_list(void_type_node, NULL_TREE));
		TREE_NOTHROW(decl) = 1;
		DECL_ATTRIBUTES(decl) = tree_cons(get_identifier("leaf"), NULL_TREE,
						  DECL_ATTRIBUTES(decl));
		sancov_late_placeholder = decl;
	}
	return decl;
}

bool sancov_late_is_placeholder(tree decl)
{
	return sancov_late_placeholder && decl == sancov_late_placeholder;
}

/* The target's answer, and no for the sites' code: each site keeps its element. */
static bool late_cannot_copy(rtx_insn *insn)
{
	if (site_insns && cfun && (int)DECL_UID(cfun->decl) == site_uid &&
	    site_insns->contains(INSN_UID(insn)))
		return true;
	return target_cannot_copy && target_cannot_copy(insn);
}

bool sancov_late_begin(function *fn, enum sancov_late_kind kind, tree callback,
		       tree array, bool pc_table)
{
	late_fn_reset();
	if (targetm.cannot_copy_insn_p != late_cannot_copy) {
		target_cannot_copy = targetm.cannot_copy_insn_p;
		targetm.cannot_copy_insn_p = late_cannot_copy;
	}
	if (kind == SANCOV_LATE_GUARD && !late_arg_in_reg(callback))
		return false;
	late.kind = kind;
	late.callback = callback;
	late.pc_table = pc_table;
	late.uid = DECL_UID(fn->decl);	/* post_ra: decided in the RTL, before register allocation */
	sancov_late_array = array;
	if (!point_of_loc)
		point_of_loc = new hash_map<int_hash<unsigned int, 0, UINT_MAX>, unsigned int>;
	point_of_loc->empty();
	return true;
}

gimple *sancov_late_point(unsigned int i, location_t *loc)
{
	if (!sancov_map_on || point_of_loc->get(*loc))	/* else the map made it unique */
		*loc = sancov_unique_loc(*loc, cfun->decl, i);
	if (point_of_loc->get(*loc))
		error_at(*loc, "kplug: sancov: two coverage points of %qD share a "
			 "location (please report)", cfun->decl);
	point_of_loc->put(*loc, i);
	return gimple_build_call(late_placeholder(), 0);
}

/* ---- the RTL pass ---- */

/* Whether INSN calls the placeholder. */
static bool late_is_placeholder_call(rtx_insn *insn)
{
	rtx call = get_call_rtx_from(insn), sym;

	if (!call || !MEM_P(XEXP(call, 0)))
		return false;
	sym = XEXP(XEXP(call, 0), 0);
	return GET_CODE(sym) == SYMBOL_REF && SYMBOL_REF_DECL(sym) == sancov_late_placeholder;
}

/* Every reference to the placeholder in *LOC made one to the callback. */
static void late_retarget(rtx *loc, rtx callback)
{
	subrtx_ptr_iterator::array_type array;

	FOR_EACH_SUBRTX_PTR(iter, array, loc, ALL) {
		rtx *x = *iter;

		if (*x && GET_CODE(*x) == SYMBOL_REF && SYMBOL_REF_DECL(*x) == sancov_late_placeholder)
			*x = callback;
	}
}

/* (set REG ADDR) as an instruction, if the target knows it on hard registers. */
static rtx_insn *guard_plain_move(rtx reg, rtx addr)
{
	rtx_insn *insn = make_insn_raw(gen_rtx_SET(reg, addr));

	SET_PREV_INSN(insn) = NULL;	/* not in any chain: GCC 11 leaves them unset */
	SET_NEXT_INSN(insn) = NULL;
	if (recog_memoized(insn) < 0)
		return NULL;
	extract_insn(insn);
	return constrain_operands(1, get_preferred_alternatives(insn)) ? insn : NULL;
}

/* The address of element I of ARRAY. */
static rtx late_address(tree array, unsigned int i)
{
	unsigned int size = tree_to_uhwi(TYPE_SIZE_UNIT(TREE_TYPE(TREE_TYPE(array))));

	return plus_constant(Pmode, XEXP(DECL_RTL(array), 0), i * size);
}

/* The placeholder calls of the current function, now. */
static unsigned int late_count(void)
{
	rtx_insn *insn;
	unsigned int n = 0;

	for (insn = get_insns(); insn; insn = NEXT_INSN(insn))
		n += CALL_P(insn) && late_is_placeholder_call(insn);
	return n;
}

/*
 * The point's move before CALL, and CALL made the callback's.  After
 * register allocation the move is the plain one late_begin checked; before
 * it, whatever the target's move expander gives (pseudo registers too).
 */
static bool guard_rewrite(rtx_insn *call, unsigned int i)
{
	rtx addr = late_address(sancov_late_array, i), reg = late.guard_reg;
	rtx callback = XEXP(DECL_RTL(late.callback), 0);
	rtx_insn *seq, *insn;

	if (reload_completed) {
		seq = guard_plain_move(reg, addr);
	} else {
		start_sequence();
		emit_move_insn(reg, addr);
		seq = get_insns();
		end_sequence();
	}
	for (insn = seq; insn; insn = NEXT_INSN(insn)) {
		if (!NONJUMP_INSN_P(insn) || recog_memoized(insn) < 0)
			return false;
		INSN_LOCATION(insn) = INSN_LOCATION(call);
	}
	if (!seq)
		return false;
	emit_insn_before(seq, call);
	PATTERN(call) = copy_rtx(PATTERN(call));
	late_retarget(&PATTERN(call), callback);
	late_retarget(&REG_NOTES(call), callback);
	use_reg(&CALL_INSN_FUNCTION_USAGE(call), reg);
	df_insn_rescan(call);
	return true;
}

/* PAT emitted as an instruction the target knows, with the clobbers it asks for. */
static bool emit_known(rtx pat)
{
	rtx_insn *insn = emit_insn(pat);
	int icode, nclob = 0;

	icode = recog(pat, insn, &nclob);
	if (icode >= 0 && nclob > 0) {
		rtx par = gen_rtx_PARALLEL(VOIDmode, rtvec_alloc(nclob + 1));

		XVECEXP(par, 0, 0) = pat;
		add_clobbers(par, icode);
		PATTERN(insn) = par;
		INSN_CODE(insn) = -1;
		icode = recog_memoized(insn);
	}
	return icode >= 0;
}

/* ++MEM in one instruction if the target has one, else load, add, store. */
static bool emit_increment(rtx mem)
{
	rtx r, sum;
	rtx_insn *seq;

	start_sequence();
	if (emit_known(gen_rtx_SET(mem, gen_rtx_PLUS(QImode, copy_rtx(mem), const1_rtx)))) {
		seq = get_insns();
		end_sequence();
		emit_insn(seq);
		return true;
	}
	end_sequence();
	r = gen_reg_rtx(SImode);
	sum = gen_reg_rtx(SImode);
	emit_insn(gen_rtx_SET(r, gen_rtx_ZERO_EXTEND(SImode, mem)));
	return emit_known(gen_rtx_SET(sum, gen_rtx_PLUS(SImode, r, const1_rtx))) &&
	       emit_known(gen_rtx_SET(copy_rtx(mem), gen_lowpart(QImode, sum)));
}

/* CALL replaced by element I's increment or store of 1. */
static bool inline_rewrite(rtx_insn *call, unsigned int i)
{
	rtx addr = late_address(sancov_late_array, i);
	rtx mem, note;
	rtx_insn *seq, *insn, *last = NULL;
	bool ok;

	start_sequence();
	mem = validize_mem(gen_rtx_MEM(QImode, addr));
	MEM_NOTRAP_P(mem) = 1;
	if (late.kind == SANCOV_LATE_COUNTER) {
		ok = emit_increment(mem);
	} else {
		emit_move_insn(mem, const1_rtx);
		ok = true;
	}
	seq = get_insns();
	end_sequence();
	for (insn = seq; ok && insn; insn = NEXT_INSN(insn)) {
		ok = NONJUMP_INSN_P(insn) && recog_memoized(insn) >= 0;
		INSN_LOCATION(insn) = INSN_LOCATION(call);
		last = insn;
	}
	if (!ok || !last)
		return false;
	emit_insn_before(seq, call);
	note = find_reg_note(call, REG_ARGS_SIZE, NULL_RTX);
	if (note)
		add_reg_note(last, REG_ARGS_SIZE, XEXP(note, 0));
	delete_insn(call);
	return true;
}

/*
 * ARRAY made N elements long: one per site.  The array is output at the
 * end of the unit (sancov-abi defers it), after every function's RTL.
 */
static void late_set_length(tree array, unsigned int n)
{
	tree type = build_array_type_nelts(TREE_TYPE(TREE_TYPE(array)), n);

	TREE_TYPE(array) = type;
	DECL_SIZE(array) = TYPE_SIZE(type);
	DECL_SIZE_UNIT(array) = TYPE_SIZE_UNIT(type);
	DECL_INITIAL(array) = build_constructor(type, NULL);
}

/*
 * The placeholder calls of FN in code order into CALLS, the point of each
 * into POINTS (a call whose point is unknown is an error).  With the PC
 * table, the entry point's first call goes first: element 0 is the
 * function's entry in Clang's table.
 */
static void late_collect(function *fn, vec<rtx_insn *> *calls, vec<int> *points)
{
	rtx_insn *insn;
	unsigned int k;

	for (insn = get_insns(); insn; insn = NEXT_INSN(insn)) {
		unsigned int *i;

		if (!CALL_P(insn) || !late_is_placeholder_call(insn))
			continue;
		i = point_of_loc->get(INSN_LOCATION(insn));
		if (!i) {
			error_at(INSN_LOCATION(insn), "kplug: sancov: a coverage point "
				 "in %qD lost its number (please report)", fn->decl);
			continue;
		}
		calls->safe_push(insn);
		points->safe_push(*i);
	}
	for (k = 0; late.pc_table && k < points->length() && (*points)[k] != 0; k++)
		;
	if (late.pc_table && k > 0 && k < points->length()) {
		rtx_insn *entry = (*calls)[k];

		calls->ordered_remove(k);
		points->ordered_remove(k);
		calls->quick_insert(0, entry);
		points->quick_insert(0, 0);
	}
}

/* A label (for the PC table) at FIRST, the start of a site's code. */
static tree late_site_label(rtx_insn *first)
{
	tree label = create_artificial_label(UNKNOWN_LOCATION);
	rtx_note *note;

	FORCED_LABEL(label) = 1;
	/* a label whose code is gone, as cfgrtl.cc makes them: it splits no block */
	note = emit_note_before(NOTE_INSN_DELETED, first);
	NOTE_KIND(note) = NOTE_INSN_DELETED_LABEL;
	NOTE_DELETED_LABEL_NAME(note) = NULL;
	CODE_LABEL_NUMBER(note) = CODE_LABEL_NUMBER(label_rtx(label));
	return label;
}

/*
 * Every placeholder call of FN given its code by REWRITE (CALL, element
 * K): one element of the array per call, in code order, so that no two
 * sites share one and no element is left without a site.  The map learns
 * each element's point, the PC table gets each site's address.  FAILED is
 * the error when REWRITE cannot (the rest is left as is: the compile
 * fails anyway).
 */
static void late_rewrite_all(function *fn, bool (*rewrite)(rtx_insn *, unsigned int),
			     const char *failed)
{
	auto_vec<rtx_insn *> calls;
	auto_vec<int> points;
	auto_vec<tree> labels;
	unsigned int k;

	late_collect(fn, &calls, &points);
	late_set_length(sancov_late_array, calls.length());
	if (!site_insns)
		site_insns = new hash_set<int_hash<int, -1, -2> >;
	site_insns->empty();
	site_uid = DECL_UID(fn->decl);
	for (k = 0; k < calls.length(); k++) {
		rtx_insn *prev = PREV_INSN(calls[k]), *after = NEXT_INSN(calls[k]), *insn;

		if (!rewrite(calls[k], k)) {
			error_at(INSN_LOCATION(calls[k]), "kplug: sancov: %s (please report)",
				 failed);
			return;
		}
		for (insn = NEXT_INSN(prev); insn != after; insn = NEXT_INSN(insn))
			if (INSN_P(insn))
				site_insns->add(INSN_UID(insn));
		if (late.pc_table)
			labels.safe_push(late_site_label(NEXT_INSN(prev)));
	}
	sancov_map_elements(points);
	if (late.pc_table)
		sancov_abi_pc_table(fn, points, labels);
}

/*
 * Whether the guards of ARRAY can be loaded into REG after
 * register allocation by a plain move (x86-64: lea or mov of the address),
 * asked as after register allocation (targets accept a constant into a
 * hard register only then).  Where the address needs a temporary or a PIC
 * register (arm64, arm, i386 PIC) the load is made before register
 * allocation instead.
 */
static bool guard_post_ra(rtx reg, tree array)
{
	int saved = reload_completed;
	bool ok;

	reload_completed = 1;
	ok = guard_plain_move(reg, late_address(array, 0)) &&
	     guard_plain_move(reg, late_address(array, 2 * late_count()));
	reload_completed = saved;
	return ok;
}

static unsigned int late_execute(function *fn)
{
	if (late.kind != SANCOV_LATE_GUARD) {
		late_rewrite_all(fn, inline_rewrite, "the target gives no code for "
				 "an inline counter or flag");
		late_fn_reset();
		return 0;
	}
	late.guard_reg = late_arg_reg(late.callback);
	if (!reload_completed) {
		late.post_ra = guard_post_ra(late.guard_reg, sancov_late_array);
		if (late.post_ra)
			return 0;	/* after register allocation */
	}
	late_rewrite_all(fn, guard_rewrite, "sancov-trace=pc-guard: the target gives no "
			 "move of the guard address into the argument register");
	late_fn_reset();
	return 0;
}

namespace {

const pass_data late_pass_data = KPLUG_RTL_PASS_DATA("kplug_sancov_late");

class late_pass : public rtl_opt_pass {
public:
	late_pass(gcc::context *ctxt, bool post) : rtl_opt_pass(late_pass_data, ctxt),
		post_ra(post) {}
	bool post_ra;
	bool gate(function *fn) final override
	{
		return late.uid >= 0 && late.uid == (int)DECL_UID(fn->decl) &&
		       (!post_ra || late.post_ra);
	}
	unsigned int execute(function *fn) final override
	{
		return late_execute(fn);
	}
};

} /* namespace */

opt_pass *sancov_late_make_pass(bool post_ra)
{
	return new late_pass(g, post_ra);
}

const char *sancov_late_pass_before(bool post_ra)
{
	return post_ra ? "alignments" : "ira";
}
