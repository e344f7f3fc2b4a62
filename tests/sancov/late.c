/* SPDX-License-Identifier: GPL-2.0 */
/* No headers: compiled for targets whose C library is not installed. */
extern int g(int);
extern void stop(int) __attribute__((noreturn));

int f(int a, int b)
{
	int s = 0, i;

	for (i = 0; i < a; i++) {
		if (g(i) > 3)
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
