// SPDX-License-Identifier: GPL-2.0
/*
 * A coverage runtime for the pruning tests: records what a run hit and
 * writes it at exit to $KPLUG_COV_OUT, one hexadecimal address per line,
 * as kplug-report cover reads: the return address of every trace-pc and
 * trace-pc-guard call (what kcov records), the address of every guard,
 * and of every non-zero inline counter or flag.  Build it without kplug.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SET_BITS	20
static uintptr_t set[1u << SET_BITS];
static unsigned long nset;
static uint8_t *cntrs, *cntrs_end;
static bool *bools, *bools_end;

static void record(uintptr_t a)
{
	unsigned long i = (a * 0x9E3779B97F4A7C15ull) >> (64 - SET_BITS);

	while (set[i] && set[i] != a)
		i = (i + 1) & ((1u << SET_BITS) - 1);
	if (!set[i]) {
		if (++nset > (1u << SET_BITS) / 2)
			abort();	/* never silently drop a hit */
		set[i] = a;
	}
}

void __sanitizer_cov_trace_pc(void)
{
	record((uintptr_t)__builtin_return_address(0));
}

void __sanitizer_cov_trace_pc_guard(uint32_t *guard)
{
	record((uintptr_t)__builtin_return_address(0));
	record((uintptr_t)guard);
}

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop)
{
}

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop)
{
	cntrs = start;
	cntrs_end = stop;
}

void __sanitizer_cov_bool_flag_init(bool *start, bool *stop)
{
	bools = start;
	bools_end = stop;
}

__attribute__((destructor)) static void dump(void)
{
	const char *path = getenv("KPLUG_COV_OUT");
	FILE *f;
	unsigned long i;

	if (!path || !(f = fopen(path, "w")))
		return;
	for (i = 0; i < (1u << SET_BITS); i++)
		if (set[i])
			fprintf(f, "%lx\n", (unsigned long)set[i]);
	for (; cntrs && cntrs < cntrs_end; cntrs++)
		if (*cntrs)
			fprintf(f, "%lx\n", (unsigned long)cntrs);
	for (; bools && bools < bools_end; bools++)
		if (*bools)
			fprintf(f, "%lx\n", (unsigned long)bools);
	fclose(f);
}
