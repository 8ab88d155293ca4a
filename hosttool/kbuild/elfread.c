// SPDX-License-Identifier: GPL-2.0
/*
 * elfread.c - lineloc's ELF reader
 *
 * ELF32/ELF64 of either byte order (chosen once per file, through reader
 * functions), executables and relocatable objects, more than 0xff00
 * sections (SHN_XINDEX).  Sections are read with pread(), never by mapping
 * the whole file, and every offset is 64-bit, so a 32-bit build reads what
 * a 64-bit one does.  Every size read from the file is bounded by what the
 * file can hold before anything is allocated for it.  Inflating
 * SHF_COMPRESSED sections and applying a relocatable object's relocations
 * is elf_prepare's, which the kernel build leaves unset: it reads vmlinux.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "elfread.h"

void (*elf_prepare)(struct elf *e, struct section *s, uint32_t i, int strict,
		    int record);

static uint16_t le16(const uint8_t *p)
{
	return p[0] | p[1] << 8;
}

static uint16_t be16(const uint8_t *p)
{
	return p[1] | p[0] << 8;
}

static uint32_t le32(const uint8_t *p)
{
	return le16(p) | (uint32_t)le16(p + 2) << 16;
}

static uint32_t be32(const uint8_t *p)
{
	return be16(p + 2) | (uint32_t)be16(p) << 16;
}

static uint64_t le64(const uint8_t *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}

static uint64_t be64(const uint8_t *p)
{
	return be32(p + 4) | (uint64_t)be32(p) << 32;
}

/**
 * elf_read_at() - read bytes of the file
 * @e: the file
 * @off: file offset
 * @buf: where to put them
 * @len: how many
 * @what: what they are, for the error
 *
 * Bytes past the end of the file, more than the host can address, or a
 * failed read are an error.
 */
void elf_read_at(struct elf *e, uint64_t off, void *buf, uint64_t len,
		 const char *what)
{
	uint8_t *p = buf;
	ssize_t n;

	if (off > e->file_size || len > e->file_size - off)
		die(e->path, NULL, "%s at 0x%" PRIx64 " (0x%" PRIx64
		    " bytes) is past the end of the file (0x%" PRIx64 ")",
		    what, off, len, e->file_size);
	if ((uint64_t)(size_t)len != len)
		die(e->path, NULL, "%s too large for this host", what);
	while (len) {
		n = pread(e->fd, p, len > (1u << 30) ? (1u << 30) : (size_t)len,
			  (off_t)off);
		if (n <= 0)
			die(e->path, NULL, "reading %s: %s", what,
			    n ? strerror(errno) : "unexpected end of file");
		p += n;
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
}

/**
 * elf_check_in_file() - check that a section's bytes lie inside the file
 * @e: the file
 * @i: the section's index
 * @what: what it is, for the error
 *
 * Checked before anything is allocated for them: a corrupt sh_size must not
 * become malloc's argument.  A section past the end of the file, or larger
 * than the host can address, is an error.
 */
void elf_check_in_file(const struct elf *e, uint32_t i, const char *what)
{
	const struct section *s = &e->sec[i];

	if (s->off > e->file_size || s->size > e->file_size - s->off)
		die(e->path, NULL, "%s (section header %u at 0x%" PRIx64
		    "): sh_offset 0x%" PRIx64 " + sh_size 0x%" PRIx64
		    " is past the end of the file (0x%" PRIx64 ")", what, i,
		    s->hdr, s->off, s->size, e->file_size);
	if (s->size >= SIZE_MAX)
		die(e->path, NULL, "%s (section header %u at 0x%" PRIx64
		    "): sh_size 0x%" PRIx64 " is too large for this host", what,
		    i, s->hdr, s->size);
}

/**
 * elf_open() - open an ELF file and read its section headers and names
 * @e: the reader, filled in
 * @path: the file
 *
 * The byte order and class are read once, here; section contents are read
 * later, by elf_load().  Anything that is not a readable ELF file is an
 * error.
 */
/* Where the fields of a section header are: ELF32, ELF64. */
static const struct shdr_at {
	uint8_t flags, addr, off, size, link, info, addralign, entsize;
} shdr_at[2] = {
	{ 8, 12, 16, 20, 24, 28, 32, 36 },
	{ 8, 16, 24, 32, 40, 44, 48, 56 },
};

/* A word of the file's class: 32 or 64 bits. */
static uint64_t word(const struct elf *e, const uint8_t *p)
{
	return e->is64 ? e->r64(p) : e->r32(p);
}

void elf_open(struct elf *e, const char *path)
{
	const struct shdr_at *at;
	uint8_t h[sizeof(Elf64_Ehdr)], sh[sizeof(Elf64_Shdr)];
	uint64_t shoff, shnum;
	uint32_t shentsize, i, shstrndx;
	const char *count_from = "e_shnum";
	struct section *ns;
	struct stat st;
	char *names;

	memset(e, 0, sizeof(*e));
	e->path = path;
	e->fd = open(path, O_RDONLY);
	if (e->fd < 0)
		die(path, NULL, "%s", strerror(errno));
	if (fstat(e->fd, &st))
		die(path, NULL, "%s", strerror(errno));
	e->file_size = (uint64_t)st.st_size;
	if (e->file_size < sizeof(Elf32_Ehdr))
		die(path, NULL, "not an ELF file (too short)");
	elf_read_at(e, 0, h, e->file_size < sizeof(Elf64_Ehdr) ?
		    sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr), "ELF header");
	if (memcmp(h, ELFMAG, SELFMAG))
		die(path, NULL, "not an ELF file");
	if (h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64)
		die(path, NULL, "bad ELF class %u", h[EI_CLASS]);
	if (h[EI_DATA] != ELFDATA2LSB && h[EI_DATA] != ELFDATA2MSB)
		die(path, NULL, "bad ELF data encoding %u", h[EI_DATA]);
	e->is64 = h[EI_CLASS] == ELFCLASS64;
	e->big = h[EI_DATA] == ELFDATA2MSB;
	/* Byte order is decided here, once; everything reads through these. */
	e->r16 = e->big ? be16 : le16;
	e->r32 = e->big ? be32 : le32;
	e->r64 = e->big ? be64 : le64;
	if (e->is64 && e->file_size < sizeof(Elf64_Ehdr))
		die(path, NULL, "truncated ELF header");
	e->type = e->r16(h + 16);
	e->machine = e->r16(h + 18);
	if (e->is64) {
		shoff = e->r64(h + 40);
		shentsize = e->r16(h + 58);
		shnum = e->r16(h + 60);
		shstrndx = e->r16(h + 62);
	} else {
		shoff = e->r32(h + 32);
		shentsize = e->r16(h + 46);
		shnum = e->r16(h + 48);
		shstrndx = e->r16(h + 50);
	}
	if (!shoff)
		die(path, NULL, "no section headers");
	if (shentsize < (e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)))
		die(path, NULL, "bad section header size %u (e_shentsize)",
		    shentsize);
	/* More than 0xff00 sections: the real counts live in section 0. */
	elf_read_at(e, shoff, sh, e->is64 ? sizeof(Elf64_Shdr) :
		    sizeof(Elf32_Shdr), "section header 0 (e_shoff)");
	if (!shnum) {
		shnum = e->is64 ? e->r64(sh + 32) : e->r32(sh + 20);
		count_from = "sh_size of section header 0";
	}
	/* Bounded by the file before it sizes anything. */
	if (shnum > (e->file_size - shoff) / shentsize || shnum > UINT32_MAX)
		die(path, NULL, "%" PRIu64 " section headers (%s) of %u bytes at 0x%"
		    PRIx64 " go past the end of the file (0x%" PRIx64 ")",
		    shnum, count_from, shentsize, shoff, e->file_size);
	e->shnum = (uint32_t)shnum;
	if (shstrndx == SHN_XINDEX)
		shstrndx = e->r32(sh + (e->is64 ? 40 : 24));
	if (shstrndx >= e->shnum)
		die(path, NULL, "bad section name table index %u (e_shstrndx)",
		    shstrndx);
	e->sec = xalloc_array("section headers", e->shnum, sizeof(*e->sec));
	at = &shdr_at[e->is64];
	for (i = 0; i < e->shnum; i++) {
		struct section *s = &e->sec[i];

		s->hdr = shoff + (uint64_t)i * shentsize;
		elf_read_at(e, s->hdr, sh, e->is64 ? sizeof(Elf64_Shdr) :
			    sizeof(Elf32_Shdr), "section header");
		s->name = "?";
		s->name_off = e->r32(sh);
		s->type = e->r32(sh + 4);
		s->flags = word(e, sh + at->flags);
		s->addr = word(e, sh + at->addr);
		s->off = word(e, sh + at->off);
		s->size = word(e, sh + at->size);
		s->link = e->r32(sh + at->link);
		s->info = e->r32(sh + at->info);
		s->addralign = word(e, sh + at->addralign);
		s->entsize = word(e, sh + at->entsize);
		s->data = NULL;
	}
	ns = &e->sec[shstrndx];
	elf_check_in_file(e, shstrndx, "section name table");
	names = xmalloc((size_t)ns->size + 1);
	elf_read_at(e, ns->off, names, ns->size, "section name table");
	names[ns->size] = 0;
	for (i = 0; i < e->shnum; i++)
		if (e->sec[i].name_off < ns->size)
			e->sec[i].name = names + e->sec[i].name_off;
}

/**
 * elf_find() - find a section by name
 * @e: the file
 * @name: the section's name
 *
 * Return: the index of the first section called @name that has contents in
 * the file (not SHT_NOBITS), or -1.
 */
int elf_find(const struct elf *e, const char *name)
{
	uint32_t i;

	for (i = 1; i < e->shnum; i++)
		if (!strcmp(e->sec[i].name, name) && e->sec[i].type != SHT_NOBITS)
			return (int)i;
	return -1;
}

/* Raw contents of section @i (no decompression, no relocation). */
uint8_t *elf_raw(struct elf *e, uint32_t i)
{
	struct section *s = &e->sec[i];
	uint8_t *p;

	if (s->type == SHT_NOBITS)
		return xmalloc(1);
	elf_check_in_file(e, i, s->name);
	p = xmalloc((size_t)s->size + 1);
	elf_read_at(e, s->off, p, s->size, s->name);
	return p;
}

/**
 * elf_load() - load a section: read, decompress, relocate (ET_REL only)
 * @e: the file
 * @name: the section's name
 * @strict: a relocation of an unknown type against it is an error, else
 *          it is left alone
 * @record: keep the section of each relocation's symbol, for lrel_shndx()
 *
 * A section is loaded once; later calls return it as it is.
 *
 * Return: the section, with its contents in data and data_size, or NULL if
 * the file has none called @name.
 */
struct section *elf_load(struct elf *e, const char *name, int strict,
			 int record)
{
	int i = elf_find(e, name);
	struct section *s;

	if (i < 0)
		return NULL;
	s = &e->sec[i];
	if (s->data)
		return s;
	s->data = elf_raw(e, (uint32_t)i);
	s->data_size = s->size;
	/*
	 * Executables keep their relocations with --emit-relocs (Debian's
	 * vmlinux has .rela.debug_line); they are already applied there.
	 */
	if ((s->flags & SHF_COMPRESSED) || e->type == ET_REL) {
		if (!elf_prepare)
			die(e->path, sec_at(s->name, 0), "%s",
			    e->type == ET_REL ?
			    "a relocatable object: this lineloc reads executables" :
			    "a compressed section: this lineloc does not inflate");
		elf_prepare(e, s, (uint32_t)i, strict, record);
	}
	return s;
}

/**
 * lrel_shndx() - the section a relocation of .debug_line points into
 * @e: the file, its .debug_line loaded with @record
 * @off: offset in .debug_line
 *
 * Return: the section index of the symbol of the relocation at @off, or 0
 * if none was applied there.
 */
uint32_t lrel_shndx(const struct elf *e, uint64_t off)
{
	size_t lo;

	LOWER_BOUND(lo, e->nlrel, e->lrel[i].off < off);
	return lo < e->nlrel && e->lrel[lo].off == off ? e->lrel[lo].shndx : 0;
}

/**
 * elf_each_symbol() - call @fn for each named symbol of the symbol table
 * @e: the file
 * @fn: called with the name, st_value and st_info; non-zero stops
 * @arg: passed to @fn
 *
 * Return: -1 if the file has no symbol table, else what @fn last returned.
 */
int elf_each_symbol(struct elf *e,
		    int (*fn)(void *arg, const char *name, uint64_t value,
			      uint8_t info),
		    void *arg)
{
	size_t esz = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	const struct section *st;
	uint64_t i, n, size;
	const char *names;
	int k, ret = 0;

	k = elf_find(e, ".symtab");
	if (k < 0 || e->sec[k].type != SHT_SYMTAB || !e->sec[k].link ||
	    e->sec[k].link >= e->shnum ||
	    e->sec[e->sec[k].link].type != SHT_STRTAB)
		return -1;
	st = elf_load(e, ".symtab", 0, 0);
	names = (const char *)elf_raw(e, e->sec[k].link);
	size = e->sec[e->sec[k].link].size;
	n = st->data_size / esz;
	for (i = 1; i < n && !ret; i++) {
		const uint8_t *s = st->data + i * esz;
		uint32_t off = e->r32(s);

		if (!off || off >= size || !memchr(names + off, 0, size - off))
			continue;
		ret = fn(arg, names + off, e->is64 ? e->r64(s + 8) : e->r32(s + 4),
			 e->is64 ? s[4] : s[12]);
	}
	free((void *)names);
	return ret;
}

struct find_symbol {
	const char *name;
	uint64_t value;
};

static int find_symbol(void *arg, const char *name, uint64_t value,
		       uint8_t info)
{
	struct find_symbol *f = arg;

	(void)info;
	if (strcmp(name, f->name))
		return 0;
	f->value = value;
	return 1;
}

/**
 * elf_symbol() - the value of a symbol of the symbol table
 * @e: the file
 * @name: the symbol's name
 * @value: set to its st_value
 *
 * Return: 1 if the file's .symtab defines @name, else 0.
 */
int elf_symbol(struct elf *e, const char *name, uint64_t *value)
{
	struct find_symbol f = { name, 0 };

	if (elf_each_symbol(e, find_symbol, &f) != 1)
		return 0;
	*value = f.value;
	return 1;
}
