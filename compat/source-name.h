/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The name of the source file a translation unit was compiled from, as its
 * first line marker names it, however cc1 got its input: a .c file, a .i
 * file (-save-temps, -no-integrated-cpp, ccache), preprocessed source on
 * stdin (icecream's remote compile) or C with line markers on stdin.
 */
#ifndef KPLUG_SOURCE_NAME_H
#define KPLUG_SOURCE_NAME_H

typedef void (*kplug_source_cb)(const char *name);

/*
 * Call from PLUGIN_START_UNIT.  RAW is main_input_filename as plugin_init
 * saw it (what cc1 was given).  DONE is called exactly once with the name,
 * or with NULL when no line marker names the source: at once, or for C on
 * stdin at its first line marker, before the first token is parsed.
 */
void kplug_source_name(const char *raw, kplug_source_cb done);

/* Call from plugin_init, before the front end reads its input. */
void kplug_source_watch_dir(void);

/*
 * The directory the unit was compiled in when it differs from cc1's: for
 * preprocessed input, the directory its working-directory line names;
 * else NULL (the current directory).  *UNKNOWN is set for preprocessed
 * input on stdin without that line (icecream's remote compile without
 * -g): its directory cannot be known.
 */
const char *kplug_source_dir(const char *raw, bool *unknown);

#endif
