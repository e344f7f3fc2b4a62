/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The coverage map's format: written by passes/sancov-map.c (one record
 * per instrumented function, into a non-allocated section), read by
 * tools/report/input/covmap.c.  No GCC header: both include it.
 *
 * A record: 32-bit words in the target's byte order, PTR a target pointer,
 * no padding:
 *   magic, size (bytes, whole record), ptrsize | element size << 8,
 *   nnodes, nprobes, nlines, npcs, nfiles, nelts, nedges, observe,
 *   PTR array (0: none),
 *   nnodes x {idom, ipdom, first line, nlines}   (-1: none)
 *   nedges x {from, to}   (-1: ENTRY, -2: EXIT)
 *   nprobes x {node},  nlines x {file, line},  npcs x {probe, PTR pc},
 *   nelts x {probe},
 *   function name, nfiles file names (each NUL-terminated).
 *
 * observe: what the probes were placed for (SANCOV_MAP_OBSERVE_*): the
 * set of hits (inference through idom and ipdom) or their order (through
 * the edges: passes/probeset.h, probeset_infer_trace).  A record placed
 * for the order cannot be read from a set of hits.
 *
 * A probe is found by the address its callback call returns to (pc records,
 * one per call: a probe the optimizers duplicated has several, one they
 * deleted none) or by its element of the guard, counter or flag array:
 * element k belongs to probe elts[k], one element per call site (or
 * counter increment) of the final code.
 */
#ifndef KPLUG_SANCOV_MAP_FORMAT_H
#define KPLUG_SANCOV_MAP_FORMAT_H

#define SANCOV_MAP_SECTION	".debug_kplug_sancov"
/* "KPS" and the version: a reader refuses another version's records */
#define SANCOV_MAP_MAGIC	0x3353504bU	/* "KPS3" little-endian */
#define SANCOV_MAP_MAGIC_MASK	0x00ffffffU	/* the "KPS" of any version */

#define SANCOV_MAP_HEADER_WORDS	11	/* before the array pointer */
#define SANCOV_MAP_NODE_SIZE	16	/* idom, ipdom, first line, nlines */
#define SANCOV_MAP_EDGE_SIZE	8	/* from, to */
#define SANCOV_MAP_ENTRY	(-1)	/* as an edge's from */
#define SANCOV_MAP_EXIT		(-2)	/* as an edge's to */

#define SANCOV_MAP_OBSERVE_SET		0
#define SANCOV_MAP_OBSERVE_TRACE	1
#define SANCOV_MAP_LINE_SIZE	8	/* file, line */
#define SANCOV_MAP_ELT_SIZE	4	/* probe */

#endif
