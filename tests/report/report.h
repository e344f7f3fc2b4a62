/* Fixture header for the cyc_complexity report tests. */
int pick(int v);
void report_warn(int line);
void die(void) __attribute__((noreturn));

#define WARN_ONISH(c) ({ int __r = !!(c); if (__r) report_warn(__LINE__); __r; })
#define PICK(a, b) ((a) > (b) ? pick(a) : pick(b))
#define OUTER(x) PICK(x, 3)
#define ID(x) (x)
#define IFCALL(c, f) do { if (c) f; } while (0)

/* A header inline: reported once per translation unit that uses it. */
static inline int clamp_hdr(int v, int lo, int hi)
{
	if (v < lo)
		return lo;
	if (v > hi)
		return hi;
	return v;
}
