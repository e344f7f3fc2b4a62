/*
 * A libFuzzer target with a planted bug behind one 32-bit comparison and
 * four byte comparisons: blind mutation practically never gets there;
 * comparison tracing (cmp) plus coverage feedback does within seconds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static volatile int reached;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t magic;

	if (size < 8)
		return 0;
	memcpy(&magic, data, 4);
	if (magic != 0x4b504c47)	/* "GLPK" */
		return 0;
	reached = 1;
	if (data[4] != 'c')
		return 0;
	if (data[5] != 'o')
		return 0;
	if (data[6] != 'v')
		return 0;
	if (data[7] == '!')
		abort();		/* the planted bug */
	return 0;
}
