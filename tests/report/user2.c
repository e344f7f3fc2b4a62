/* A second user of the header inline clamp_hdr(). */
#include "report.h"

int clamp_twice(int a, int b)
{
	return clamp_hdr(a, 0, 10) + clamp_hdr(b, 0, 20);
}
