/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cyc_complexity records embedded in objects: written by
 * passes/cyc_complexity.c (cyc_complexity-embed=on, through
 * compat/embed.c), read by tools/report/input/objects.c.  No GCC header:
 * both include it.
 *
 * The section holds complete records, each one JSON object on one line
 * ending in "\n" (the JSON Lines record of format=jsonl: "file", "line",
 * "function", "M", "parts", "inline_header", "tu", "run", "gcc", "opt"),
 * in the order the functions were measured.  ld -r concatenates the
 * sections of its inputs, so a reader must accept any number of records
 * and nothing but records.
 */
#ifndef KPLUG_CYC_RECORD_FORMAT_H
#define KPLUG_CYC_RECORD_FORMAT_H

#define KPLUG_CYC_SECTION	".kplug.cyc"

#endif
