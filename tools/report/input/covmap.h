/* SPDX-License-Identifier: GPL-2.0 */
/*
 * covmap: the coverage maps sancov writes (section .debug_kplug_sancov, format in
 * config/sancov-map-format.h) read from a linked ELF file (executable, shared
 * object without relocation, vmlinux), and inference from probe hits:
 * a hit probe implies its node, and a node its immediate dominator and
 * immediate post-dominator (passes/probeset.h).
 */
#ifndef KPLUG_REPORT_INPUT_COVMAP_H
#define KPLUG_REPORT_INPUT_COVMAP_H

#include <stddef.h>
#include <stdint.h>

#include "config/sancov-map-format.h"

#define SANCOV_SECTION	SANCOV_MAP_SECTION

struct covfn {
	const char *name;
	uint32_t nnodes, nprobes, nlines, npcs, nfiles, nelts, elt_size;
	uint32_t nedges, observe;	/* observe: SANCOV_MAP_OBSERVE_* */
	uint64_t array;
	const unsigned char *nodes, *edges, *probes, *lines, *pcs, *elts;	/* raw records */
	const char **files;
	unsigned char *hit;		/* per probe */
	uint32_t *seq;			/* with m->trace: the probes hit, in order */
	size_t nseq, seq_size;
	int dead;			/* the link discarded its code */
	int copy;			/* a copy of another record's code (COMDAT) */
};

struct covmap {
	int big, ptr;			/* byte order, pointer size */
	int thumb;			/* arm: a PC may carry the Thumb bit */
	int dyn;			/* ET_DYN: run-time addresses are not the map's */
	int trace;			/* covmap_hit() also appends to the function's seq */
	struct covfn *fns;
	size_t nfns;
	struct covpc { uint64_t pc; uint32_t fn, probe; } *pcs;	/* sorted */
	size_t npcs;
	size_t *by_array;		/* fns with an array, by address */
	size_t narrays;
	size_t shared_pcs;		/* probes the optimizer left without a call */
	size_t dead;			/* functions whose code the link discarded */
	size_t copies;			/* records of code another record has (COMDAT) */
	void *data;			/* the sections, owned */
};

/* 0, or -1 with *ERR set (bad map). */
int covmap_load(struct covmap *m, const unsigned char *buf, size_t len,
		const char **err);
/* Mark the probe ADDR is: a PC a callback returned to, or an array element.
 * 0 when found, -1 when no map knows it. */
int covmap_hit(struct covmap *m, uint64_t addr);
/* The covered "file:line" strings of every function, unique, sorted by file
 * and then by line number. */
char **covmap_lines(const struct covmap *m, size_t *n);
/* A function with hits whose probes were placed for traces
 * (SANCOV_MAP_OBSERVE_TRACE): a set of hits cannot tell its lines.  NULL
 * when there is none. */
const struct covfn *covmap_trace_only(const struct covmap *m);
/* Line I of F as "file:line" (allocated). */
char *covmap_line_name(const struct covmap *m, const struct covfn *f, uint32_t i);
/* Sort OUT (N strings) by file and line, drop repeats; the new count. */
size_t covmap_sort_lines(char **out, size_t n);
/* Accessors of a record's raw words. */
uint32_t covmap_u32(const struct covmap *m, const unsigned char *p);
/* Probes in all maps of code the link kept, and how many were hit. */
void covmap_stats(const struct covmap *m, size_t *probes, size_t *hit);
void covmap_free(struct covmap *m);

#endif
