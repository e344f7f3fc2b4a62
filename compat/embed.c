// SPDX-License-Identifier: GPL-2.0
/*
 * Records embedded in the object; see embed.h.  The section is declared
 * the way GCC declares its own LTO sections: SECTION_DEBUG leaves out the
 * "a" (alloc) flag, SECTION_EXCLUDE adds "e".
 */
#include "kplug.h"
#include "compat/embed.h"

void kplug_embed_add(struct kplug_embed *e, const char *s, size_t len)
{
	if (e->len + len > e->size) {
		e->size = MAX(e->len + len, 2 * e->size + 4096);
		e->buf = (char *)xrealloc(e->buf, e->size);
	}
	memcpy(e->buf + e->len, s, len);
	e->len += len;
}

void kplug_embed_emit(struct kplug_embed *e)
{
	if (!e->len || !asm_out_file)
		return;
	switch_to_section(get_section(e->section, SECTION_DEBUG | SECTION_EXCLUDE,
				      NULL));
	assemble_string(e->buf, e->len);
	free(e->buf);
	e->buf = NULL;
	e->len = e->size = 0;
}
