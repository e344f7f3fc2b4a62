/* Decision points written in the function, from macros, and noreturn ones. */
#include "report.h"

int own_only(int a, int b)
{
	if (a)
		b = pick(b);
	if (b > 3)
		return 1;
	return a ? pick(a) : pick(0);
}

int macro_only(int a)
{
	WARN_ONISH(a > 2);
	return PICK(a, 7);
}

int nested_macro(int a)
{
	return OUTER(a) + PICK(a, pick(4));
}

/* Decisions written in macro arguments are the function's own. */
int macro_argument(int a)
{
	IFCALL(a > 3 ? pick(3) : pick(4), pick(1));
	return ID(a ? pick(1) : pick(2));
}

int with_noreturn(int a)
{
	if (a < 0)
		die();
	switch (a) {
	case 0:
		return pick(1);
	case 1:
		return pick(2);
	case 2:
		return pick(5);
	default:
		return clamp_hdr(a, 3, 9);
	}
}
