// SPDX-License-Identifier: GPL-2.0
/*
 * ELF section reader; see elf.h.  Fields are read byte by byte in the
 * file's byte order, so the host's endianness and alignment do not matter.
 */
#include <stdint.h>
#include <string.h>

#include "tools/report/input/elf.h"

#define EI_CLASS	4
#define EI_DATA		5
#define ELFCLASS32	1
#define ELFCLASS64	2
#define ELFDATA2LSB	1
#define ELFDATA2MSB	2
#define SHN_XINDEX	0xffff
#define SHT_NOBITS	8
#define SHF_COMPRESSED	0x800
#define E_TYPE		16	/* offset of e_type, both classes */
#define E_MACHINE	18	/* offset of e_machine, both classes */

struct elf {
	const unsigned char *buf;
	size_t len;
	int is64, big;
};

/* One section header, whatever the class. */
struct shdr {
	uint32_t name, type;
	uint64_t flags, offset, size, link;
};

static uint64_t get(const struct elf *e, size_t off, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)e->buf[off + (e->big ? n - 1 - i : i)] << (8 * i);
	return v;
}

int elf_magic(const unsigned char *buf, size_t len)
{
	return len >= 4 && !memcmp(buf, ELF_MAGIC, 4);
}

/* The ELF header's 16-bit field at OFF (the same in both classes), or -1. */
static int header_half(const unsigned char *buf, size_t len, size_t off)
{
	struct elf e = { buf, len, 0, 0 };

	if (!elf_magic(buf, len) || len < off + 2)
		return -1;
	e.big = buf[EI_DATA] == ELFDATA2MSB;
	return (int)get(&e, off, 2);
}

int elf_machine(const unsigned char *buf, size_t len)
{
	return header_half(buf, len, E_MACHINE);
}

int elf_type(const unsigned char *buf, size_t len)
{
	return header_half(buf, len, E_TYPE);
}

/* Section header I; the caller checked that the table is in bounds. */
static void read_shdr(const struct elf *e, uint64_t shoff, uint64_t entsize,
		      uint64_t i, struct shdr *sh)
{
	size_t p = (size_t)(shoff + i * entsize);
	int w = e->is64 ? 8 : 4;

	sh->name = (uint32_t)get(e, p, 4);
	sh->type = (uint32_t)get(e, p + 4, 4);
	sh->flags = get(e, p + 8, w);
	/* ELF32: addr, offset, size, link; ELF64 the same, 8-byte words */
	sh->offset = get(e, p + 8 + 2 * w, w);
	sh->size = get(e, p + 8 + 3 * w, w);
	sh->link = get(e, p + 8 + 4 * w, 4);
}

static int in_bounds(const struct elf *e, uint64_t off, uint64_t size)
{
	return off <= e->len && size <= e->len - off;
}

/* Is the NUL-terminated name at OFF in the string table NAME? */
static int name_is(const struct elf *e, const struct shdr *strtab, uint32_t off,
		   const char *name)
{
	size_t n = strlen(name);

	if (off >= strtab->size || strtab->size - off < n + 1)
		return 0;
	return !memcmp(e->buf + strtab->offset + off, name, n + 1);
}

int elf_each_section(const unsigned char *buf, size_t len, const char *name,
		     int (*fn)(const char *data, size_t size, void *arg),
		     void *arg, const char **err)
{
	struct elf e = { buf, len, 0, 0 };
	uint64_t shoff, entsize, shnum, shstrndx, i;
	struct shdr sh, strtab;
	size_t ehsize;
	int ret;

	if (!elf_magic(buf, len) || len < 16) {
		*err = "not an ELF file";
		return -1;
	}
	if ((buf[EI_CLASS] != ELFCLASS32 && buf[EI_CLASS] != ELFCLASS64) ||
	    (buf[EI_DATA] != ELFDATA2LSB && buf[EI_DATA] != ELFDATA2MSB)) {
		*err = "unknown ELF class or byte order";
		return -1;
	}
	e.is64 = buf[EI_CLASS] == ELFCLASS64;
	e.big = buf[EI_DATA] == ELFDATA2MSB;
	ehsize = e.is64 ? 64 : 52;
	if (len < ehsize) {
		*err = "truncated ELF header";
		return -1;
	}
	shoff = get(&e, e.is64 ? 0x28 : 0x20, e.is64 ? 8 : 4);
	entsize = get(&e, e.is64 ? 0x3a : 0x2e, 2);
	shnum = get(&e, e.is64 ? 0x3c : 0x30, 2);
	shstrndx = get(&e, e.is64 ? 0x3e : 0x32, 2);
	if (!shoff)
		return 0;	/* no section table: nothing embedded */
	if (entsize < (uint64_t)(e.is64 ? 64 : 40) || !in_bounds(&e, shoff, entsize)) {
		*err = "section header table out of bounds";
		return -1;
	}
	read_shdr(&e, shoff, entsize, 0, &sh);
	if (!shnum)		/* extended numbering: the count is in section 0 */
		shnum = sh.size;
	if (shstrndx == SHN_XINDEX)
		shstrndx = sh.link;
	if (shnum > (len - shoff) / entsize) {
		*err = "section header table out of bounds";
		return -1;
	}
	if (shstrndx >= shnum) {
		*err = "bad section name table index";
		return -1;
	}
	read_shdr(&e, shoff, entsize, shstrndx, &strtab);
	if (strtab.type == SHT_NOBITS || !in_bounds(&e, strtab.offset, strtab.size)) {
		*err = "section name table out of bounds";
		return -1;
	}
	for (i = 1; i < shnum; i++) {
		read_shdr(&e, shoff, entsize, i, &sh);
		if (!name_is(&e, &strtab, sh.name, name))
			continue;
		if (sh.type == SHT_NOBITS || !in_bounds(&e, sh.offset, sh.size)) {
			*err = "section out of bounds";
			return -1;
		}
		if (sh.flags & SHF_COMPRESSED) {
			*err = "compressed section: decompress it first (objcopy --decompress-debug-sections)";
			return -1;
		}
		ret = fn((const char *)buf + sh.offset, (size_t)sh.size, arg);
		if (ret)
			return ret;
	}
	return 0;
}
