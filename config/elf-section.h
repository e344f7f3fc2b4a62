/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read one named section of an ELF file: kplug reads the profile that
 * "make PROFILE=" or the kernel build embedded into kplug.so (section
 * .kplug.profile) from its own file.  No GCC header, like all of config/.
 *
 * Only files of the running program's own class and byte order are read
 * (kplug.so is always a host file).
 */
#ifndef KPLUG_ELF_SECTION_H
#define KPLUG_ELF_SECTION_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The section kplug.so carries its embedded profile in. */
#define KPLUG_PROFILE_SECTION	".kplug.profile"

/*
 * Find section NAME in the ELF file PATH.  Returns 1 with *DATA (malloc'ed,
 * NUL-terminated, to be freed) and *LEN set when it is there, 0 when the
 * file has no such section, -1 with one "kplug: ..." line in *ERR (malloc'ed,
 * to be freed; NULL only when out of memory) when the file cannot be read or
 * is not a well-formed ELF file of the host's kind.
 */
int kplug_elf_section(const char *path, const char *name, char **data,
		      size_t *len, char **err);

#ifdef __cplusplus
}
#endif

#endif
