/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place that includes GCC's plugin headers and hides the
 * differences between the GCC versions kplug supports (11 to 16).
 * Every "#if GCC_VERSION" of the project lives in compat/.
 */
#ifndef KPLUG_GCC_H
#define KPLUG_GCC_H

#include "gcc-plugin.h"
#include "context.h"
#include "config.h"
#include "system.h"
#include "coretypes.h"
#include "backend.h"
#include "rtl.h"		/* before tm_p.h: the targets' RTL prototypes */
#include "tree.h"
#include "gimple.h"
#include "basic-block.h"
#include "options.h"
#include "flags.h"
#include "memmodel.h"
#include "tm_p.h"
#include "stmt.h"
#include "diagnostic.h"
#include "intl.h"
#include "gimple-iterator.h"
#include "gimple-builder.h"
#include "gimplify.h"
#include "tree-cfg.h"
#include "ssa.h"
#include "target.h"
#include "tree-pass.h"
#include "tree-iterator.h"
#include "fold-const.h"
#include "stringpool.h"
#include "stor-layout.h"
#include "attribs.h"
#include "output.h"
#include "cgraph.h"
#include "varasm.h"
#include "asan.h"
#include "ggc.h"
#include "opts.h"
#include "toplev.h"
#include "langhooks.h"
#include "emit-rtl.h"
#include "version.h"		/* version_string: the GCC kplug was built for */

/* BUILDING_GCC_VERSION is major * 1000 + minor: 13.3 is 13003. */
#if BUILDING_GCC_VERSION < 11000
#error "kplug supports GCC 11 and later"
#endif

/*
 * LOC with RANGE and BLOCK attached (an ad hoc location).  GCC 13 gave
 * COMBINE_LOCATION_DATA a discriminator argument, GCC 14 replaced the macro
 * with a line_maps method; kplug never sets a discriminator.
 */
static inline location_t kplug_combine_location(location_t loc,
						source_range range, tree block)
{
#if BUILDING_GCC_VERSION >= 14000
	return line_table->get_or_create_combined_loc(loc, range, block, 0);
#elif BUILDING_GCC_VERSION >= 13000
	return COMBINE_LOCATION_DATA(line_table, loc, range, block, 0);
#else
	return COMBINE_LOCATION_DATA(line_table, loc, range, block);
#endif
}

/*
 * GCC 12 added __attribute__((no_sanitize_coverage)); GCC 11 warns that it
 * ignores it and never records it, so the lookup is simply empty there.
 */
static inline bool kplug_fn_no_sanitize_coverage(tree fndecl)
{
	return lookup_attribute("no_sanitize_coverage",
				DECL_ATTRIBUTES(fndecl)) != NULL_TREE;
}

/*
 * With -flto (fat or not) the code that runs after an LTO link is
 * generated in lto1, from the GIMPLE streamed out after the early passes:
 * what kplug inserts later in cc1 does not reach it.
 */
static inline bool kplug_unit_is_lto(void)
{
	return flag_lto != NULL;
}

/* True in lto1, the LTO link's compiler: its units are no source files. */
static inline bool kplug_in_lto_link(void)
{
	return in_lto_p;
}

/*
 * -fcompare-debug compiles each unit twice; only the second cc1 gets
 * -fcompare-debug-second, which sets flag_compare_debug (the same in GCC 11
 * and 12; the first run's -fcompare-debug=OPTS leaves it 0).  Reports and
 * diagnostics belong to the first compilation only.
 */
static inline bool kplug_compare_debug_second(void)
{
	return flag_compare_debug != 0;
}

#endif
