/*
 * A kcov-like runtime that prints each comparison and switch callback with
 * its operands (PCs are left out: they differ between builds).  Built
 * without coverage.
 */
#include <stdint.h>
#include <stdio.h>

void __sanitizer_cov_trace_pc(void)
{
}

#define CMP(name, type, fmt)						\
void __sanitizer_cov_trace_##name(type a, type b)			\
{									\
	printf(#name " " fmt " " fmt "\n", a, b);			\
}

CMP(cmp1, uint8_t, "%u")
CMP(cmp2, uint16_t, "%u")
CMP(cmp4, uint32_t, "%u")
CMP(cmp8, uint64_t, "%llu")
CMP(const_cmp1, uint8_t, "%u")
CMP(const_cmp2, uint16_t, "%u")
CMP(const_cmp4, uint32_t, "%u")
CMP(const_cmp8, uint64_t, "%llu")
CMP(cmpf, float, "%g")
CMP(cmpd, double, "%g")

void __sanitizer_cov_trace_switch(uint64_t val, uint64_t *cases)
{
	uint64_t i;

	printf("switch %llu count=%llu bits=%llu values=", (unsigned long long)val,
	       (unsigned long long)cases[0], (unsigned long long)cases[1]);
	for (i = 0; i < cases[0]; i++)
		printf("%s%lld", i ? "," : "", (long long)cases[2 + i]);
	printf("\n");
}
