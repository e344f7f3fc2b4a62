/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect: the cyc_complexity records that objects carry
 * (cyc_complexity-embed=on writes them into section .kplug.cyc), printed
 * as the JSON Lines that format=jsonl writes.
 *
 *	struct collect c;
 *
 *	collect_init(&c, stdout);
 *	for each PATH: collect_path(&c, PATH);
 *	return collect_finish(&c);	// 0, or 2 (tool error) as kplug-report
 *
 * PATH is an ELF object (.o, .ko, vmlinux.o...), an ar archive (a thin
 * archive's members are read from their paths, relative to the archive's
 * directory) or a directory, searched recursively in name order for *.o
 * and *.ko files and regular *.a archives (thin archives only list files
 * the search reads anyway).  A record is printed once however many files
 * hold it: ld -r concatenates the sections of its inputs, so a module's
 * records are in foo.o and in foo.ko.
 *
 * A bad, truncated or unreadable file gives one line on stderr,
 * "kplug-report: FILE: what", and makes collect_finish() return 2; so does
 * finding no record at all.  Nothing in the input can crash the reader.
 */
#ifndef KPLUG_REPORT_INPUT_OBJECTS_H
#define KPLUG_REPORT_INPUT_OBJECTS_H

#include <stddef.h>
#include <stdio.h>

#include "config/cyc-record-format.h"

struct collect {
	FILE *out;
	size_t records, files, errors;
	/* records seen: open addressing on a 64-bit hash of the line */
	unsigned long long *seen;
	size_t nseen, cap;
};

void collect_init(struct collect *c, FILE *out);
/* Collect from PATH (file or directory); returns -1 if anything failed. */
int collect_path(struct collect *c, const char *path);
/* Free what collect_init() allocated; the exit status: 0, or 2. */
int collect_finish(struct collect *c);

#endif
