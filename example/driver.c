// SPDX-License-Identifier: GPL-2.0
/*
 * A small piece of driver-like code for kplug's example run: functions of
 * growing complexity, a macro hiding branches, a header-style inline.
 */
#include <errno.h>
#include <stddef.h>

#define CHECK_RANGE(v, lo, hi) do {			\
	if ((v) < (lo) || (v) > (hi))			\
		return -EINVAL;				\
} while (0)

struct regs {
	unsigned int ctrl, status, irq_mask, dma_len;
};

static inline int reg_ready(const struct regs *r)
{
	return (r->status & 1) && !(r->status & 0x80);
}

int regs_init(struct regs *r, unsigned int mode, unsigned int len)
{
	CHECK_RANGE(mode, 0, 3);
	CHECK_RANGE(len, 16, 4096);
	r->ctrl = mode << 4;
	r->dma_len = len;
	r->irq_mask = mode == 3 ? 0xff : 0x0f;
	return reg_ready(r) ? 0 : -EAGAIN;
}

int handle_irq(struct regs *r, unsigned int cause)
{
	int handled = 0;

	switch (cause & 7) {
	case 0:
		break;
	case 1:
		r->status |= 1;
		handled++;
		break;
	case 2:
	case 3:
		if (r->dma_len > 1024)
			r->dma_len -= 1024;
		else
			r->dma_len = 0;
		handled++;
		break;
	case 4:
		r->status = 0x80;
		return -EIO;
	default:
		for (unsigned int i = 0; i < 8; i++)
			if (cause & (1u << i))
				handled++;
	}
	if (handled && (r->irq_mask & cause))
		r->status &= ~1u;
	return handled;
}
