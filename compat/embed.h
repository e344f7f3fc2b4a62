/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records that travel with the object file: bytes collected during the
 * unit and written at its end into a non-allocated ELF section with
 * SHF_EXCLUDE.  ld -r keeps such a section (kernel modules, vmlinux.o);
 * a final link drops it without an orphan-section warning, so the
 * allocated sections, and the code, are those of a build without it.
 */
#ifndef KPLUG_EMBED_H
#define KPLUG_EMBED_H

#include <stddef.h>

struct kplug_embed {
	const char *section;	/* e.g. ".kplug.cyc" */
	char *buf;
	size_t len, size;
};

/* Append LEN bytes of S to what the section will hold. */
void kplug_embed_add(struct kplug_embed *e, const char *s, size_t len);

/*
 * Write the section into the assembler output and empty the buffer.  Call
 * from PLUGIN_FINISH_UNIT (after it nothing may be written).  No section
 * is written when nothing was added.
 */
void kplug_embed_emit(struct kplug_embed *e);

#endif
