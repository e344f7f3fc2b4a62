// SPDX-License-Identifier: GPL-2.0
/*
 * The source file's name; see source-name.h.
 *
 * plugin_init runs before the front end has read anything: cc1's input is
 * still "foo.i" or "-".  For preprocessed input (-fpreprocessed, .i) the C
 * front end reads the first line marker in its post_options hook and sets
 * main_input_filename to the name it gives, before PLUGIN_START_UNIT.  C
 * that is not marked as preprocessed but arrives on stdin keeps the name
 * "<stdin>"; its line markers are read with the code, so the first one is
 * caught through cpplib's file_change callback, and the first token that
 * is not a directive ends the wait (line_change).
 */
#include "kplug.h"
#include "cpplib.h"
#include "compat/source-name.h"

/*
 * The C-family front ends' preprocessor (c-family/c-common.h, which must
 * come before GCC's diagnostic headers).  Weak: lto1 loads plugins too.
 */
extern cpp_reader *parse_in __attribute__((weak));

static kplug_source_cb source_done;
static void (*prev_file_change)(cpp_reader *, const line_map_ordinary *);
static void (*prev_line_change)(cpp_reader *, const cpp_token *, int);

static bool is_stdin(const char *name)
{
	return !*name || !strcmp(name, "-") || !strcmp(name, "<stdin>");
}

static void source_settle(const char *name)
{
	cpp_callbacks *cb = cpp_get_callbacks(parse_in);

	cb->file_change = prev_file_change;
	cb->line_change = prev_line_change;
	source_done(name);
}

/* "# 1 "foo.c"" and "#line 1 "foo.c"" rename the main file verbatim. */
static void source_file_change(cpp_reader *reader, const line_map_ordinary *map)
{
	if (prev_file_change)
		prev_file_change(reader, map);
	if (map && map->reason == LC_RENAME_VERBATIM && MAIN_FILE_P(map))
		source_settle(ORDINARY_MAP_FILE_NAME(map));
}

/* A token of code came first: no line marker names the source. */
static void source_line_change(cpp_reader *reader, const cpp_token *token,
			       int parsing_args)
{
	if (prev_line_change)
		prev_line_change(reader, token, parsing_args);
	source_settle(NULL);
}

/*
 * The directory a preprocessed unit names on its second line ("# 1
 * "DIR//"", written by -fworking-directory, which -g implies): libcpp
 * reports it through the dir_change callback while the front end reads
 * the main file in its post_options hook.  That hook sets the callback
 * just before it calls lang_hooks.preprocess_options and reads the file,
 * so kplug wraps it from there.
 */
static char *unit_dir;
static void (*prev_dir_change)(cpp_reader *, const char *);
static void (*prev_preprocess_options)(cpp_reader *);

static void source_dir_change(cpp_reader *reader, const char *dir)
{
	if (prev_dir_change)
		prev_dir_change(reader, dir);
	free(unit_dir);
	unit_dir = xstrdup(dir);
}

static void source_preprocess_options(cpp_reader *reader)
{
	cpp_callbacks *cb = cpp_get_callbacks(reader);

	prev_dir_change = cb->dir_change;
	cb->dir_change = source_dir_change;
	if (prev_preprocess_options)
		prev_preprocess_options(reader);
}

void kplug_source_watch_dir(void)
{
	prev_preprocess_options = lang_hooks.preprocess_options;
	lang_hooks.preprocess_options = source_preprocess_options;
}

const char *kplug_source_dir(const char *raw, bool *unknown)
{
	bool preprocessed = &parse_in && parse_in &&
			    cpp_get_options(parse_in)->preprocessed;

	*unknown = preprocessed && !unit_dir && is_stdin(raw);
	return preprocessed ? unit_dir : NULL;
}

void kplug_source_name(const char *raw, kplug_source_cb done)
{
	cpp_callbacks *cb;

	/* not a C-family front end (lto1): take what it says */
	if (!&parse_in || !parse_in) {
		done(main_input_filename);
		return;
	}
	if (cpp_get_options(parse_in)->preprocessed) {
		/* unchanged: the input starts with no line marker (cpp -P) */
		bool same = !strcmp(main_input_filename, raw) ||
			    (is_stdin(raw) && is_stdin(main_input_filename));

		done(same ? NULL : main_input_filename);
		return;
	}
	if (!is_stdin(raw)) {
		done(main_input_filename);
		return;
	}
	source_done = done;
	cb = cpp_get_callbacks(parse_in);
	prev_file_change = cb->file_change;
	prev_line_change = cb->line_change;
	cb->file_change = source_file_change;
	cb->line_change = source_line_change;
}
