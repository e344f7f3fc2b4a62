// SPDX-License-Identifier: GPL-2.0
/*
 * The GCC version check, the first thing plugin_init does.
 *
 * Loaded into another GCC, kplug.so still loads because every GCC symbol
 * the rest of kplug uses is a weak reference (kplug-link.sh).  What runs
 * here runs in that other GCC: it uses libc and only two GCC symbols that
 * every GCC with plugin support exports unchanged, error() and
 * plugin_default_version_check(), and kplug-link.sh keeps exactly the
 * references of this file strong.  Call nothing else from here.
 *
 * It includes only gcc-plugin.h and diagnostic-core.h: from GCC 13 on, the
 * rest of GCC's headers define inline virtual functions whose vtables
 * (irange's, for one) would become undefined references of this object,
 * and dlopen() would fail on them in another GCC before this check runs.
 */
#include "gcc-plugin.h"
#include "diagnostic-core.h"
#include "plugin-version.h"
#include "compat/version-check.h"

/*
 * How to rebuild: in the kernel tree, from a Debian package (it depends on
 * the exact GCC build: a mismatch means a forced install or a plugin
 * copied elsewhere), or in the kplug repository.
 */
#ifdef KPLUG_KBUILD_OBJTREE
#define KPLUG_REBUILD	"make -C " KPLUG_KBUILD_OBJTREE " CC=%s scripts"
#elif defined(KPLUG_DEB_PACKAGE)
/* gcc-MAJOR-kplug, MAJOR from the loaded GCC's version */
#define KPLUG_REBUILD	"apt-get install gcc-%.*s-kplug (this kplug.so is from " \
			KPLUG_DEB_PACKAGE ")"
#define KPLUG_REBUILD_ARGS	(int)strcspn(version->basever, "."), version->basever
#else
#ifndef KPLUG_SRCDIR
#define KPLUG_SRCDIR	"<kplug source>"
#endif
#define KPLUG_REBUILD	"make -C " KPLUG_SRCDIR " CC=%s clean install"
#endif
#ifndef KPLUG_REBUILD_ARGS
#define KPLUG_REBUILD_ARGS	driver_name()
#endif

static void describe_gcc(char *buf, size_t len,
			 const struct plugin_gcc_version *v)
{
	snprintf(buf, len, "GCC %s (%s%s%s)", v->basever, v->datestamp,
		 *v->devphase ? " " : "", v->devphase);
}

/* The driver's name without its directory, for the rebuild command. */
static const char * ATTRIBUTE_UNUSED driver_name(void)
{
	const char *driver = getenv("COLLECT_GCC");	/* set by the gcc driver */
	const char *slash;

	if (!driver || !*driver)
		return "<your gcc>";
	slash = strrchr(driver, '/');
	return slash ? slash + 1 : driver;
}

/*
 * plugin_default_version_check() compares basever, datestamp, devphase,
 * revision and configure arguments.  Name both compilers on failure.
 */
bool kplug_check_gcc_version(struct plugin_gcc_version *version)
{
	char built[128];
	char loaded[128];
	char *line;
	const char *why = "";

	if (plugin_default_version_check(version, &gcc_version))
		return true;
	describe_gcc(built, sizeof(built), &gcc_version);
	describe_gcc(loaded, sizeof(loaded), version);
	if (!strcmp(built, loaded))
		why = ", same version but a different build configuration";
	if (asprintf(&line, "kplug: kplug.so was built for %s but loaded into %s%s; "
		     "rebuild it for this compiler: " KPLUG_REBUILD,
		     built, loaded, why, KPLUG_REBUILD_ARGS) < 0)
		line = NULL;
	error("%s", line ? line : "kplug: kplug.so was built for another GCC");
	free(line);
	return false;
}
