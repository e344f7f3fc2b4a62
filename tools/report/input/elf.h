/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal, bounds-checked ELF section reader: ELF32 and ELF64, little
 * and big endian, extended section numbering.  Input is untrusted: every
 * offset and size is checked against the buffer, nothing is trusted to be
 * NUL-terminated.  No libelf.
 */
#ifndef KPLUG_REPORT_INPUT_ELF_H
#define KPLUG_REPORT_INPUT_ELF_H

#include <stddef.h>

#define ELF_MAGIC	"\177ELF"

/* Does BUF start like an ELF file? */
int elf_magic(const unsigned char *buf, size_t len);

#define ELF_EM_ARM	40

/* e_machine of the ELF image BUF[0..LEN) (ELF_EM_ARM, ...), or -1. */
int elf_machine(const unsigned char *buf, size_t len);

#define ELF_ET_DYN	3	/* a PIE or a shared object */

/* e_type of the ELF image BUF[0..LEN) (ELF_ET_DYN, ...), or -1. */
int elf_type(const unsigned char *buf, size_t len);

/*
 * Call FN(DATA, SIZE, ARG) for every section named NAME of the ELF image
 * BUF[0..LEN), in section order; stop when FN returns non-zero and return
 * that.  Returns 0 when done, or -1 with *ERR set to a constant message
 * when the image is malformed or truncated (then FN may have been called
 * for sections before the damage was found).
 */
int elf_each_section(const unsigned char *buf, size_t len, const char *name,
		     int (*fn)(const char *data, size_t size, void *arg),
		     void *arg, const char **err);

#endif
