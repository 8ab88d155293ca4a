/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lineloc/reloc.h - the relocations of a relocatable object's debug section
 *
 * One small resolver shared by lineloc, its fuzz target and the
 * kernel's module loader (kernel/module/lines.c).  It accepts only what a
 * debug section needs: absolute data relocations (x86_64 R_X86_64_64/32/32S,
 * i386 R_386_32, arm R_ARM_ABS32, arm64 R_AARCH64_ABS64/ABS32, riscv64
 * R_RISCV_64/32, and each machine's NONE), and riscv's differences of two
 * symbols: an R_RISCV_ADDn and an R_RISCV_SUBn at one offset (n 16, 32 or
 * 64), both symbols in one section, as gas writes for the address advance
 * of DW_LNS_fixed_advance_pc.  It checks every entry (type, offset and size
 * against the section, symbol index, symbol section, each difference's
 * pair) before anything uses one, and never writes: a reader asks for the
 * value of the field at an offset.
 *
 * No allocation, no global state, no libc.  The entries must be in order of
 * offset (as gas and ld -r write them): a section that is not is refused.
 */
#ifndef _LINUX_LINELOC_RELOC_H
#define _LINUX_LINELOC_RELOC_H

#include <linux/types.h>

#define LINELOC_EM_386		3
#define LINELOC_EM_ARM		40
#define LINELOC_EM_X86_64		62
#define LINELOC_EM_AARCH64	183
#define LINELOC_EM_RISCV		243

/*
 * The relocation types the resolver takes, by the names of each arch's
 * ELF supplement (the kernel has them per arch only, the host's <elf.h>
 * not always): the absolute data relocations of debug sections, and each
 * machine's NONE.
 */
#define LINELOC_R_X86_64_NONE	0
#define LINELOC_R_X86_64_64	1
#define LINELOC_R_X86_64_32	10
#define LINELOC_R_X86_64_32S	11
#define LINELOC_R_386_NONE	0
#define LINELOC_R_386_32		1
#define LINELOC_R_ARM_NONE	0
#define LINELOC_R_ARM_ABS32	2
#define LINELOC_R_AARCH64_NONE	0
#define LINELOC_R_AARCH64_NONE_OLD 256	/* binutils' R_AARCH64_NONE until 2.26 */
#define LINELOC_R_AARCH64_ABS64	257
#define LINELOC_R_AARCH64_ABS32	258
#define LINELOC_R_RISCV_NONE	0
#define LINELOC_R_RISCV_32	1
#define LINELOC_R_RISCV_64	2
#define LINELOC_R_RISCV_ADD16	34
#define LINELOC_R_RISCV_ADD32	35
#define LINELOC_R_RISCV_ADD64	36
#define LINELOC_R_RISCV_SUB16	38
#define LINELOC_R_RISCV_SUB32	39
#define LINELOC_R_RISCV_SUB64	40

/* What a relocation type does to its field (lineloc_rel_type_op()). */
enum {
	LINELOC_REL_ABS,		/* the field is symbol + addend */
	LINELOC_REL_ADD,		/* symbol + addend added to the field */
	LINELOC_REL_SUB,		/* symbol + addend taken from the field */
};

enum {
	LINELOC_REL_E_SHAPE = 1,	/* section size not a multiple of the entry */
	LINELOC_REL_E_TYPE,		/* a type the resolver does not take (err_val) */
	LINELOC_REL_E_OFFSET,		/* a field outside the section (err_val) */
	LINELOC_REL_E_SYMBOL,		/* symbol index past the table (err_val) */
	LINELOC_REL_E_SYMSEC,		/* symbol not in a section (err_val: shndx) */
	LINELOC_REL_E_ORDER,		/* offsets not increasing (err_val) */
	LINELOC_REL_E_MACHINE,	/* a machine the resolver does not know */
	LINELOC_REL_E_PAIR,		/* an ADD without its SUB, or a SUB alone (err_val: type) */
	LINELOC_REL_E_PAIRSEC,	/* a difference across sections (err_val: shndx) */
	LINELOC_REL_E_MAX
};

/**
 * struct lineloc_rel - one relocation section and what it refers to
 * @machine: e_machine
 * @is64: ELFCLASS64
 * @big_endian: ELFDATA2MSB
 * @rela: SHT_RELA (addend in the entry), else SHT_REL (addend in place)
 * @rel: the entries
 * @rel_size: their size in bytes
 * @sym: the symbol table
 * @sym_size: its size in bytes
 * @shnum: sections in the object: a symbol's st_shndx must be below it
 * @target: the section the entries apply to, as in the file (REL reads
 *	its addends there)
 * @target_size: its size in bytes
 * @bias: if set, returns what to subtract from a symbol's st_value in
 *	section @shndx to make it section-relative (the kernel's loader has
 *	added each section's address to its symbols); NULL: st_value is
 *	section-relative already, as in a relocatable file
 * @bias_arg: passed to @bias
 * @count: entries (set by lineloc_rel_check())
 * @err_off: on error, the offset of the bad entry in the section
 * @err_val: on error, the offending value
 */
struct lineloc_rel {
	u16 machine;
	bool is64;
	bool big_endian;
	bool rela;
	const u8 *rel;
	u64 rel_size;
	const u8 *sym;
	u64 sym_size;
	u32 shnum;
	const u8 *target;
	u64 target_size;
	u64 (*bias)(void *arg, u32 shndx);
	void *bias_arg;
	u64 count;
	u64 err_off;
	u64 err_val;
};

/*
 * A resolved field: its value is @value bytes into section @shndx; for a
 * difference (an ADD and SUB pair), @value is the difference and @shndx
 * the section of both symbols.
 */
struct lineloc_rel_value {
	u64 offset;		/* of the field in the target section */
	u32 size;		/* of the field: 2, 4 or 8 */
	u32 shndx;		/* the symbol's section */
	u64 value;		/* section-relative: symbol + addend */
};

int lineloc_rel_type_size(u16 machine, u32 type);
int lineloc_rel_type_op(u16 machine, u32 type);
int lineloc_rel_check(struct lineloc_rel *r);
int lineloc_rel_entry(const struct lineloc_rel *r, u64 i,
		      struct lineloc_rel_value *v);
int lineloc_rel_find(const struct lineloc_rel *r, u64 offset,
		     struct lineloc_rel_value *v);
const char *lineloc_rel_strerror(int err);

#endif /* _LINUX_LINELOC_RELOC_H */
