// SPDX-License-Identifier: GPL-2.0
/*
 * cyc_complexity: the cyclomatic complexity M = E - N + 2 of each
 * function's CFG, measured right after the first "ssa" pass, exactly as
 * the 2016 kernel plugin did.  Lines are "Cyclomatic Complexity M FILE:FN".
 */
#include <fcntl.h>
#include "kplug.h"

static const struct kplug_opt cyc_opts[] = {
	{ "output", KPLUG_OPT_STR, NULL, NULL, 0, 0,
	  "append the report to FILE (one write per line) instead of stderr" },
	{ "min", KPLUG_OPT_INT, "0", NULL, 0, INT_MAX,
	  "report only functions with M >= N" },
	{ NULL, KPLUG_OPT_STR, NULL, NULL, 0, 0, NULL }
};

static struct {
	int fd;
	long min;
} cyc;

static int cyc_edges_minus_nodes(function *fn)
{
	return n_edges_for_fn(fn) - n_basic_blocks_for_fn(fn);
}

/* Write the whole line at once: parallel compiles share one file. */
static void cyc_emit(const char *line, size_t len)
{
	while (len) {
		ssize_t n = write(cyc.fd, line, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			kplug_error("cyc_complexity: cannot write report: %s",
				    xstrerror(errno));
			return;
		}
		line += n;
		len -= n;
	}
}

static unsigned int cyc_execute(function *fn)
{
	int complexity = cyc_edges_minus_nodes(fn) + 2;
	expanded_location xloc;
	char *line;

	if (complexity < cyc.min)
		return 0;
	xloc = expand_location(DECL_SOURCE_LOCATION(fn->decl));
	line = xasprintf("Cyclomatic Complexity %d %s:%s\n", complexity,
			 xloc.file, IDENTIFIER_POINTER(DECL_NAME(fn->decl)));
	cyc_emit(line, strlen(line));
	free(line);
	return 0;
}

namespace {

const pass_data cyc_pass_data = {
	GIMPLE_PASS,		/* type */
	"kplug_cyc_complexity",	/* name */
	OPTGROUP_NONE,		/* optinfo_flags */
	TV_NONE,		/* tv_id */
	PROP_cfg,		/* properties_required */
	0,			/* properties_provided */
	0,			/* properties_destroyed */
	0,			/* todo_flags_start */
	0,			/* todo_flags_finish */
};

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

	if (!path) {
		cyc.fd = STDERR_FILENO;
		return 0;
	}
	cyc.fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (cyc.fd < 0) {
		kplug_error("%s: cannot open cyc_complexity output '%s': %s",
			    kplug_origin(ctx, "output"), path, xstrerror(errno));
		return -1;
	}
	return 0;
}

static int cyc_setup(const struct kplug_ctx *ctx)
{
	cyc.min = kplug_int(ctx, "min");
	if (cyc_open_output(ctx))
		return -1;
	kplug_register_pass(ctx, new cyc_pass(g), "ssa", 1,
			    PASS_POS_INSERT_AFTER);
	return 0;
}

const struct kplug_pass kplug_cyc_complexity = {
	{ "cyc_complexity", "cyclomatic complexity of every function", cyc_opts },
	NULL,
	cyc_setup,
};
