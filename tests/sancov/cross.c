/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A unit for the cross targets (35: the map on arm and arm64; 34: the late
 * code on every target): no headers, since their C libraries may be
 * missing.
 */
extern int g(int);
extern void stop(int) __attribute__((noreturn));
int f(int a, int b)
{
	int s = 0, i;

	for (i = 0; i < a; i++) {
		if (g(i))
			s += i;
		else
			s -= b;
	}
	switch (s & 3) {
	case 0: s = g(s); break;
	case 1: s++; break;
	case 2: if (b > 7) stop(s); break;
	default: s <<= 1;
	}
	return s;
}
/* __exit code: arm's vmlinux discards it; its map record must not break the link */
__attribute__((section(".exit.text"))) int fx(int a)
{
	return a > 2 ? g(a) : 0;
}
