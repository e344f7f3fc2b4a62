// SPDX-License-Identifier: GPL-2.0
/*
 * A coverage runtime for the trace model's tests: records the return
 * address of every trace-pc and trace-pc-guard call, in order, repeats
 * included (what a kcov trace-mode buffer holds), and writes them at exit
 * to $KPLUG_TRACE_OUT, one hexadecimal address per line, as kplug-report
 * cover --trace reads.  A run with more hits than the buffer holds exits
 * 3 instead of writing a trace with hits missing.  Build it without kplug.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define TRACE_MAX	(1u << 21)
static uintptr_t trace[TRACE_MAX];
static unsigned long ntrace;

static void record(uintptr_t a)
{
	if (ntrace == TRACE_MAX)
		_exit(3);	/* never silently drop a hit */
	trace[ntrace++] = a;
}

void __sanitizer_cov_trace_pc(void)
{
	record((uintptr_t)__builtin_return_address(0));
}

void __sanitizer_cov_trace_pc_guard(uint32_t *guard)
{
	(void)guard;
	record((uintptr_t)__builtin_return_address(0));
}

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop)
{
	(void)start;
	(void)stop;
}

__attribute__((destructor)) static void dump(void)
{
	const char *path = getenv("KPLUG_TRACE_OUT");
	FILE *f;
	unsigned long i;

	if (!path || !(f = fopen(path, "w")))
		return;
	for (i = 0; i < ntrace; i++)
		fprintf(f, "%lx\n", (unsigned long)trace[i]);
	fclose(f);
}
