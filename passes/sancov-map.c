// SPDX-License-Identifier: GPL-2.0
/*
 * sancov's coverage map (see sancov-map.h).  The record of a function is
 * made when sancov instruments it; just before "final" an RTL pass finds
 * the callback calls by their location (unique per probe in the function,
 * and kept by every copy the optimizers make of a call) and puts a label
 * after each: its address is what the callback sees as return address.
 * At the end of the unit the records are written as assembler data, in
 * the format of config/sancov-map-format.h.
 */
#include "kplug.h"
#include "passes/probeset.h"
#include "passes/sancov-map.h"

bool sancov_map_on;

struct map_pc {
	int probe, label;
};

struct map_rec {
	int uid;			/* DECL_UID of the function */
	char *name;
	int nnodes;
	int *idom, *ipdom, *first_line, *nlines;
	int nedges;
	int *edge_from, *edge_to;	/* SANCOV_MAP_ENTRY, SANCOV_MAP_EXIT */
	int observe;			/* SANCOV_MAP_OBSERVE_* */
	vec<int> bb_node;		/* node of each block's start, by index */
	vec<int> probe_node;
	vec<unsigned int> line_file, line_no;
	vec<char *> files;
	vec<location_t> probe_loc;
	hash_map<int_hash<unsigned int, 0, UINT_MAX>, int> *probe_of_loc;
	char *array;			/* the array's assembler name, or NULL */
	unsigned int elt_size;		/* of its elements */
	vec<int> elt_probe;		/* the probe of each element */
	vec<map_pc> pcs;
};

static vec<map_rec *> map_recs;
static const char *map_callbacks[2] = { "__sanitizer_cov_trace_pc", NULL };

/* ---- records ---- */

static map_rec *map_current(void)
{
	map_rec *r;

	if (!cfun || map_recs.is_empty())
		return NULL;
	r = map_recs.last();
	return r->uid == (int)DECL_UID(cfun->decl) ? r : NULL;
}

static unsigned int map_file(map_rec *r, const char *file)
{
	unsigned int i;

	for (i = 0; i < r->files.length(); i++)
		if (!strcmp(r->files[i], file))
			return i;
	r->files.safe_push(xstrdup(file));
	return i;
}

void sancov_block_lines(basic_block bb, vec<struct sancov_line> *lines)
{
	gimple_stmt_iterator gsi;
	unsigned int i;

	lines->truncate(0);
	for (gsi = gsi_start_nondebug_after_labels_bb(bb); !gsi_end_p(gsi);
	     gsi_next_nondebug(&gsi)) {
		location_t loc = gimple_location(gsi_stmt(gsi));
		struct sancov_line sl;
		expanded_location x;
		bool seen = false;

		if (LOCATION_LOCUS(loc) == UNKNOWN_LOCATION)
			continue;
		x = expand_location(loc);
		if (!x.file || !x.line)
			continue;
		for (i = 0; i < lines->length() && !seen; i++)
			seen = (*lines)[i].line == x.line && !strcmp((*lines)[i].file, x.file);
		if (seen)
			continue;
		sl.file = x.file;
		sl.line = x.line;
		lines->safe_push(sl);
	}
}

/* The distinct source lines of BB's statements. */
static void map_block_lines(map_rec *r, basic_block bb, int node)
{
	auto_vec<struct sancov_line> lines;
	unsigned int i;

	sancov_block_lines(bb, &lines);
	r->first_line[node] = r->line_no.length();
	r->nlines[node] = lines.length();
	for (i = 0; i < lines.length(); i++) {
		r->line_file.safe_push(map_file(r, lines[i].file));
		r->line_no.safe_push(lines[i].line);
	}
}

void sancov_map_function(function *fn, const struct probeset *ps, const int *bb_node)
{
	map_rec *r;
	basic_block bb;
	int i;

	if (!sancov_map_on)
		return;
	r = XCNEW(map_rec);
	r->uid = DECL_UID(fn->decl);
	r->name = xstrdup(IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn->decl)));
	r->nnodes = ps->n;
	r->idom = XNEWVEC(int, ps->n);
	r->ipdom = XNEWVEC(int, ps->n);
	r->first_line = XCNEWVEC(int, ps->n);
	r->nlines = XCNEWVEC(int, ps->n);
	memcpy(r->idom, ps->idom, ps->n * sizeof(int));
	memcpy(r->ipdom, ps->ipdom, ps->n * sizeof(int));
	r->nedges = ps->nedges;
	r->edge_from = XNEWVEC(int, ps->nedges + 1);
	r->edge_to = XNEWVEC(int, ps->nedges + 1);
	for (i = 0; i < ps->nedges; i++) {
		r->edge_from[i] = ps->from[i] == ps->n ? SANCOV_MAP_ENTRY : ps->from[i];
		r->edge_to[i] = ps->to[i] == ps->n + 1 ? SANCOV_MAP_EXIT : ps->to[i];
	}
	r->observe = ps->observe == PS_OBSERVE_TRACE ? SANCOV_MAP_OBSERVE_TRACE :
						       SANCOV_MAP_OBSERVE_SET;
	r->bb_node.safe_grow_cleared(last_basic_block_for_fn(fn));
	r->probe_of_loc = new hash_map<int_hash<unsigned int, 0, UINT_MAX>, int>;
	FOR_EACH_BB_FN(bb, fn) {
		i = bb_node[bb->index];
		r->bb_node[bb->index] = i;
		if (ps->flags[i] & PS_LINES)
			map_block_lines(r, bb, i);
	}
	map_recs.safe_push(r);
}

location_t sancov_unique_loc(location_t loc, tree fndecl, unsigned int n)
{
	location_t locus = get_pure_location(line_table, loc);
	tree block = LOCATION_BLOCK(loc);
	source_range range;

	if (locus == UNKNOWN_LOCATION)
		locus = get_pure_location(line_table, DECL_SOURCE_LOCATION(fndecl));
	range.m_start = locus;
	range.m_finish = n;	/* before the start: never packed */
	return kplug_combine_location(locus, range, block);
}

location_t sancov_map_probe(basic_block bb, location_t loc)
{
	map_rec *r = map_current();

	if (!r)
		return loc;
	loc = sancov_unique_loc(loc, cfun->decl, r->probe_loc.length());
	r->probe_of_loc->put(loc, r->probe_loc.length());	/* new: the ranges differ */
	r->probe_node.safe_push(r->bb_node[bb->index]);
	r->probe_loc.safe_push(loc);
	return loc;
}

void sancov_map_array(tree var)
{
	map_rec *r = map_current();

	if (!r)
		return;
	r->array = xstrdup(IDENTIFIER_POINTER(DECL_NAME(var)));
	r->elt_size = tree_to_uhwi(TYPE_SIZE_UNIT(TREE_TYPE(TREE_TYPE(var))));
}

void sancov_map_elements(const vec<int> &probes)
{
	map_rec *r = map_current();

	if (!r)
		return;
	r->elt_probe.truncate(0);
	r->elt_probe.safe_splice(probes);
}

void sancov_map_set_callback(tree fn)
{
	map_callbacks[1] = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn));
}

/* ---- the RTL pass: a label after every callback call ---- */

static bool map_is_callback(rtx_insn *insn)
{
	rtx call = get_call_rtx_from(insn), sym;
	const char *name;
	int i;

	if (!call || !MEM_P(XEXP(call, 0)))
		return false;
	sym = XEXP(XEXP(call, 0), 0);
	if (GET_CODE(sym) != SYMBOL_REF)
		return false;
	name = targetm.strip_name_encoding(XSTR(sym, 0));
	for (i = 0; i < 2; i++)
		if (map_callbacks[i] && !strcmp(name, map_callbacks[i]))
			return true;
	return false;
}

static int map_probe_of(map_rec *r, location_t loc)
{
	int *probe = loc == UNKNOWN_LOCATION || loc == UINT_MAX ? NULL :
		     r->probe_of_loc->get(loc);

	return probe ? *probe : -1;
}

static unsigned int map_label_calls(void)
{
	map_rec *r = map_current();
	rtx_insn *insn;

	for (insn = get_insns(); insn; insn = NEXT_INSN(insn)) {
		rtx_note *note;
		map_pc pc;

		if (!CALL_P(insn) || !map_is_callback(insn))
			continue;
		pc.probe = map_probe_of(r, INSN_LOCATION(insn));
		if (pc.probe < 0)
			continue;	/* not ours: the report flags the PC */
		pc.label = CODE_LABEL_NUMBER(gen_label_rtx());
		/* made the way cfgrtl.cc turns a label into a deleted one */
		note = emit_note_after(NOTE_INSN_DELETED, insn);
		NOTE_KIND(note) = NOTE_INSN_DELETED_LABEL;
		NOTE_DELETED_LABEL_NAME(note) = NULL;
		CODE_LABEL_NUMBER(note) = pc.label;
		r->pcs.safe_push(pc);
	}
	return 0;
}

namespace {

const pass_data map_pass_data = KPLUG_RTL_PASS_DATA("kplug_sancov_map");

class map_pass : public rtl_opt_pass {
public:
	map_pass(gcc::context *ctxt) : rtl_opt_pass(map_pass_data, ctxt) {}
	bool gate(function *) final override
	{
		return sancov_map_on && map_current();
	}
	unsigned int execute(function *) final override
	{
		return map_label_calls();
	}
};

} /* namespace */

opt_pass *sancov_map_make_pass(void)
{
	return new map_pass(g);
}

/* ---- output ---- */

/*
 * The directive for a SIZE-byte integer.  Some targets (arm) have no aligned
 * one and print integers through a hook; the section is aligned, so the
 * unaligned directive (".4byte") says the same there.
 */
static const char *map_op(unsigned int size)
{
	const char *op = integer_asm_op(size, TRUE);

	if (!op)
		op = integer_asm_op(size, FALSE);
	if (!op)
		fatal_error(UNKNOWN_LOCATION,
			    "kplug: sancov-map: no assembler directive for a %u-byte integer on this target",
			    size);
	return op;
}

static void map_u32(unsigned int v)
{
	fprintf(asm_out_file, "%s%u\n", map_op(4), v);
}

static void map_ptr_label(const char *prefix_or_name, int num)
{
	char buf[64];

	fputs(map_op(POINTER_SIZE_UNITS), asm_out_file);
	if (num >= 0) {
		ASM_GENERATE_INTERNAL_LABEL(buf, prefix_or_name, num);
		assemble_name(asm_out_file, buf);
	} else if (prefix_or_name) {
		assemble_name(asm_out_file, prefix_or_name);
	} else {
		fputs("0", asm_out_file);
	}
	fputc('\n', asm_out_file);
}

static void map_string(const char *s)
{
	assemble_string(s, strlen(s) + 1);
}

static void map_emit_rec(map_rec *r, int idx)
{
	char b[64], e[64];
	unsigned int i;
	int n;

	ASM_GENERATE_INTERNAL_LABEL(b, "LKPSB", idx);
	ASM_GENERATE_INTERNAL_LABEL(e, "LKPSE", idx);
	targetm.asm_out.internal_label(asm_out_file, "LKPSB", idx);
	map_u32(SANCOV_MAP_MAGIC);
	fputs(map_op(4), asm_out_file);
	assemble_name(asm_out_file, e);
	fputc('-', asm_out_file);
	assemble_name(asm_out_file, b);
	fputc('\n', asm_out_file);
	map_u32(POINTER_SIZE_UNITS | r->elt_size << 8);
	map_u32(r->nnodes);
	map_u32(r->probe_node.length());
	map_u32(r->line_no.length());
	map_u32(r->pcs.length());
	map_u32(r->files.length());
	map_u32(r->elt_probe.length());
	map_u32(r->nedges);
	map_u32(r->observe);
	map_ptr_label(r->array, -1);
	for (n = 0; n < r->nnodes; n++) {
		map_u32(r->idom[n]);
		map_u32(r->ipdom[n]);
		map_u32(r->first_line[n]);
		map_u32(r->nlines[n]);
	}
	for (n = 0; n < r->nedges; n++) {
		map_u32(r->edge_from[n]);
		map_u32(r->edge_to[n]);
	}
	for (i = 0; i < r->probe_node.length(); i++)
		map_u32(r->probe_node[i]);
	for (i = 0; i < r->line_no.length(); i++) {
		map_u32(r->line_file[i]);
		map_u32(r->line_no[i]);
	}
	for (i = 0; i < r->pcs.length(); i++) {
		map_u32(r->pcs[i].probe);
		map_ptr_label("L", r->pcs[i].label);
	}
	for (i = 0; i < r->elt_probe.length(); i++)
		map_u32(r->elt_probe[i]);
	map_string(r->name);
	for (i = 0; i < r->files.length(); i++)
		map_string(r->files[i]);
	targetm.asm_out.internal_label(asm_out_file, "LKPSE", idx);
}

static void map_free_rec(map_rec *r)
{
	unsigned int i;

	for (i = 0; i < r->files.length(); i++)
		free(r->files[i]);
	r->files.release();
	r->bb_node.release();
	r->probe_node.release();
	r->line_file.release();
	r->line_no.release();
	r->probe_loc.release();
	r->pcs.release();
	r->elt_probe.release();
	delete r->probe_of_loc;
	free(r->edge_from);
	free(r->edge_to);
	free(r->idom);
	free(r->ipdom);
	free(r->first_line);
	free(r->nlines);
	free(r->name);
	free(r->array);
	free(r);
}

static void map_finish_unit(void *gcc_data, void *user_data)
{
	unsigned int i;

	if (!seen_error() && asm_out_file && !map_recs.is_empty()) {
		switch_to_section(get_section(SANCOV_MAP_SECTION, SECTION_DEBUG, NULL));
		for (i = 0; i < map_recs.length(); i++)
			map_emit_rec(map_recs[i], i);
	}
	for (i = 0; i < map_recs.length(); i++)
		map_free_rec(map_recs[i]);
	map_recs.release();
}

void sancov_map_setup(const char *plugin_name)
{
	sancov_map_on = true;
	map_callbacks[1] = NULL;
	register_callback(plugin_name, PLUGIN_FINISH_UNIT, map_finish_unit, NULL);
}
