// SPDX-License-Identifier: GPL-2.0
/*
 * Read one named section of an ELF file; see elf-section.h.  Every offset
 * and size read from the file is checked against the file's size before
 * use: a truncated or damaged kplug.so gives an error line, never a crash.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf-section.h"
#include "kplug-util.h"

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_DATA	ELFDATA2LSB
#else
#define HOST_DATA	ELFDATA2MSB
#endif
#if __SIZEOF_POINTER__ == 8
#define HOST_CLASS	ELFCLASS64
#else
#define HOST_CLASS	ELFCLASS32
#endif

struct elf_file {
	const char *path;
	int fd;
	uint64_t size;
	char **err;		/* the error line, malloc'ed */
};

static int fail(struct elf_file *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct elf_file *f, const char *fmt, ...)
{
	char *what = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		what = NULL;
	va_end(ap);
	free(*f->err);
	if (asprintf(f->err, "kplug: %s: %s", f->path, what ? what : "out of memory") < 0)
		*f->err = NULL;
	free(what);
	return -1;
}

/* Read LEN bytes at OFF, which must lie inside the file. */
static int read_at(struct elf_file *f, void *buf, uint64_t len, uint64_t off,
		   const char *what)
{
	ssize_t n;

	if (off > f->size || len > f->size - off)
		return fail(f, "damaged ELF file (%s past its end)", what);
	n = pread(f->fd, buf, len, (off_t)off);
	if (n < 0)
		return fail(f, "cannot read %s: %s", what, strerror(errno));
	if ((uint64_t)n != len)
		return fail(f, "short read of %s", what);
	return 0;
}

static int read_header(struct elf_file *f, ElfW(Ehdr) *eh)
{
	if (f->size < sizeof(*eh) || read_at(f, eh, sizeof(*eh), 0, "the ELF header") ||
	    memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return fail(f, "not an ELF file");
	if (eh->e_ident[EI_CLASS] != HOST_CLASS || eh->e_ident[EI_DATA] != HOST_DATA)
		return fail(f, "an ELF file of another class or byte order than this host's");
	if (eh->e_shoff && eh->e_shentsize != sizeof(ElfW(Shdr)))
		return fail(f, "damaged ELF file: section header size %u",
			    (unsigned int)eh->e_shentsize);
	return 0;
}

/* The section headers (NULL with *N 0 when there are none). */
static ElfW(Shdr) *read_sections(struct elf_file *f, const ElfW(Ehdr) *eh,
				 uint64_t *n, uint64_t *strndx)
{
	ElfW(Shdr) first, *sh;

	*n = 0;
	if (!eh->e_shoff)
		return NULL;
	if (read_at(f, &first, sizeof(first), eh->e_shoff, "the section headers"))
		return (ElfW(Shdr) *)-1;
	*n = eh->e_shnum ? eh->e_shnum : first.sh_size;	/* extended numbering */
	*strndx = eh->e_shstrndx == SHN_XINDEX ? first.sh_link : eh->e_shstrndx;
	if (*n > f->size / sizeof(*sh) || *strndx >= *n) {
		fail(f, "damaged ELF file: %llu sections, names in section %llu",
		     (unsigned long long)*n, (unsigned long long)*strndx);
		return (ElfW(Shdr) *)-1;
	}
	sh = (ElfW(Shdr) *)kplug_xzalloc(*n * sizeof(*sh));
	if (read_at(f, sh, *n * sizeof(*sh), eh->e_shoff, "the section headers")) {
		free(sh);
		return (ElfW(Shdr) *)-1;
	}
	return sh;
}

/* Read section SH whole, NUL-terminated. */
static char *read_section(struct elf_file *f, const ElfW(Shdr) *sh, const char *what)
{
	char *buf;

	if (sh->sh_type == SHT_NOBITS) {
		fail(f, "%s has no content in the file", what);
		return NULL;
	}
	if (sh->sh_offset > f->size || sh->sh_size > f->size - sh->sh_offset) {
		fail(f, "damaged ELF file (%s past its end)", what);
		return NULL;
	}
	buf = (char *)kplug_xzalloc(sh->sh_size + 1);
	if (read_at(f, buf, sh->sh_size, sh->sh_offset, what)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int find_section(struct elf_file *f, const char *name, char **data,
			size_t *len)
{
	ElfW(Ehdr) eh;
	ElfW(Shdr) *sh;
	uint64_t n, strndx = 0, i;
	char *names;
	int ret = 0;

	if (read_header(f, &eh))
		return -1;
	sh = read_sections(f, &eh, &n, &strndx);
	if (sh == (ElfW(Shdr) *)-1)
		return -1;
	if (!sh)
		return 0;
	names = read_section(f, &sh[strndx], "the section name table");
	if (!names) {
		free(sh);
		return -1;
	}
	for (i = 0; i < n && !ret; i++) {
		if (sh[i].sh_name >= sh[strndx].sh_size ||
		    strcmp(names + sh[i].sh_name, name))
			continue;
		*data = read_section(f, &sh[i], name);
		*len = sh[i].sh_size;
		ret = *data ? 1 : -1;
	}
	free(names);
	free(sh);
	return ret;
}

int kplug_elf_section(const char *path, const char *name, char **data,
		      size_t *len, char **err)
{
	struct elf_file f = { path, -1, 0, err };
	struct stat st;
	int ret;

	*data = NULL;
	*len = 0;
	f.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f.fd < 0)
		return fail(&f, "cannot open: %s", strerror(errno));
	if (fstat(f.fd, &st) || !S_ISREG(st.st_mode)) {
		close(f.fd);
		return fail(&f, "not a regular file");
	}
	f.size = (uint64_t)st.st_size;
	ret = find_section(&f, name, data, len);
	close(f.fd);
	return ret;
}
