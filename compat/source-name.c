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
