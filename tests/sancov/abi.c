/*
 * Calls every kcov callback with known operands.  Built with coverage
 * (native or kplug) and linked with abi-rt.c, which prints the calls.
 */
#include <stdint.h>

volatile int8_t v8 = 5;
volatile int16_t v16 = -300;
volatile int32_t v32 = 70000;
volatile int64_t v64 = -5000000000LL;
volatile uint32_t w32 = 9;
volatile double vd = 1.5;
volatile float vf = 2.5f;
int sink;

static __attribute__((noinline)) void cmps(int8_t a8, int16_t a16, int32_t a32,
					   int64_t a64, uint32_t b32)
{
	if (a8 == 7)
		sink++;
	if (a16 < -299)
		sink++;
	if (a32 != (int32_t)b32)
		sink++;
	if (a64 > -1)
		sink++;
	sink += a32 > 100000;
}

static __attribute__((noinline)) void floats(double d, float f)
{
	if (d < 2.0)
		sink++;
	if (f > 1.0f)
		sink++;
}

static __attribute__((noinline)) int sw32(int x)
{
	switch (x) {
	case 1: return sink + 3;
	case 5 ... 7: return sink + 4;
	case 42: return sink * 2;
	case -8: return sink - 1;
	default: return 0;
	}
}

static __attribute__((noinline)) int sw8(unsigned char c)
{
	switch (c) {
	case 'a': return sink + 1;
	case 'z': return sink + 2;
	case 200: return sink + 9;
	default: return 0;
	}
}

int main(void)
{
	cmps(v8, v16, v32, v64, w32);
	floats(vd, vf);
	sink += sw32(v32) + sw32(6) + sw8('z');
	return 0;
}
