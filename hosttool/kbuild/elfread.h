/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elfread.h - lineloc's ELF reader (elfread.c): ELF32/ELF64 of either byte
 * order, sections read with pread(); inflating SHF_COMPRESSED sections and
 * applying a relocatable object's relocations through elf_prepare.
 */
#ifndef ELFREAD_H
#define ELFREAD_H

#include <stddef.h>
#include <stdint.h>

struct section {
	const char *name;
	uint32_t name_off;	/* sh_name */
	uint64_t hdr;		/* file offset of the section header */
	uint32_t type;
	uint64_t flags, addr, off, size, entsize, addralign;
	uint32_t link, info;
	uint8_t *data;		/* loaded contents, or NULL */
	uint64_t data_size;
};

/* A relocation applied to .debug_line: where, and the symbol's section. */
struct line_reloc {
	uint64_t off;
	uint32_t shndx;
};

struct elf {
	const char *path;
	int fd;
	uint64_t file_size;
	int is64, big;
	uint16_t type, machine;
	uint32_t shnum;
	struct section *sec;
	uint16_t (*r16)(const uint8_t *p);
	uint32_t (*r32)(const uint8_t *p);
	uint64_t (*r64)(const uint8_t *p);
	struct line_reloc *lrel;	/* sorted by offset */
	size_t nlrel;
};

/*
 * What elf_load() does beyond reading a section, when it is compressed or
 * the file is relocatable: NULL here, where only vmlinux is read, so
 * either is an error; a reader of object files sets it.
 */
extern void (*elf_prepare)(struct elf *e, struct section *s, uint32_t i,
			   int strict, int record);

void elf_open(struct elf *e, const char *path);
int elf_find(const struct elf *e, const char *name);
struct section *elf_load(struct elf *e, const char *name, int strict,
			 int record);
void elf_read_at(struct elf *e, uint64_t off, void *buf, uint64_t len,
		 const char *what);
void elf_check_in_file(const struct elf *e, uint32_t i, const char *what);
uint8_t *elf_raw(struct elf *e, uint32_t i);
uint32_t lrel_shndx(const struct elf *e, uint64_t off);
int elf_each_symbol(struct elf *e,
		    int (*fn)(void *arg, const char *name, uint64_t value,
			      uint8_t info),
		    void *arg);
int elf_symbol(struct elf *e, const char *name, uint64_t *value);

#endif /* ELFREAD_H */
