// SPDX-License-Identifier: GPL-2.0
/*
 * A tiny coverage runtime, like the kernel's kcov in trace-pc mode: every
 * __sanitizer_cov_trace_pc() call records its return address (the PC after
 * the call in the instrumented block).  At exit the distinct PCs are
 * written, one hex number a line, to the file named by $COVERAGE_OUT.
 * Built without instrumentation.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_PCS	4096

static uintptr_t pcs[MAX_PCS];
static unsigned int npcs, dropped;

void __sanitizer_cov_trace_pc(void)
{
	uintptr_t pc = (uintptr_t)__builtin_return_address(0);
	unsigned int i;

	for (i = 0; i < npcs; i++)	/* small program: linear is fine */
		if (pcs[i] == pc)
			return;
	if (npcs < MAX_PCS)
		pcs[npcs++] = pc;
	else
		dropped++;
}

static void dump_pcs(void)
{
	const char *path = getenv("COVERAGE_OUT");
	FILE *f;
	unsigned int i;

	if (!path)
		return;
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return;
	}
	for (i = 0; i < npcs; i++)
		fprintf(f, "0x%lx\n", (unsigned long)pcs[i]);
	fclose(f);
	if (dropped)
		fprintf(stderr, "coverage: %u PCs dropped\n", dropped);
}

__attribute__((constructor)) static void init(void)
{
	atexit(dump_pcs);
}
