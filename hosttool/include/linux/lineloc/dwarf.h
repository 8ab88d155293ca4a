/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lineloc/dwarf.h - decoder for DWARF .debug_line line-number programs
 *
 * One self-contained unit shared by lineloc, its fuzz target and the
 * kernel's module loader: no allocation, no
 * global state, no libc.  The caller owns every buffer; rows and file
 * entries are handed to callbacks.  Errors are negative LINELOC_DW_E*
 * codes, with the offending .debug_line offset (and a value, where one
 * helps) left in struct lineloc_dwarf_ctx.
 */
#ifndef _LINUX_LINELOC_DWARF_H
#define _LINUX_LINELOC_DWARF_H

#include <linux/types.h>

enum {
	LINELOC_DW_E_TRUNCATED = 1,	/* a read would go past the unit or section */
	LINELOC_DW_E_LENGTH,		/* unit_length past the end of the section */
	LINELOC_DW_E_RESERVED_LENGTH,	/* unit_length 0xfffffff0..0xfffffffe */
	LINELOC_DW_E_VERSION,		/* version not 2..5 (err_val) */
	LINELOC_DW_E_HEADER_LENGTH,	/* header_length past the end of the unit */
	LINELOC_DW_E_LINE_RANGE,	/* line_range is 0 */
	LINELOC_DW_E_OPCODE_BASE,	/* opcode_base is 0 */
	LINELOC_DW_E_MAX_OPS,		/* maximum_operations_per_instruction is 0 */
	LINELOC_DW_E_ADDR_SIZE,	/* address size not 1..8 (err_val) */
	LINELOC_DW_E_SEG_SEL,		/* non-zero segment selector size (err_val) */
	LINELOC_DW_E_FORM,		/* unsupported form in an entry format (err_val) */
	LINELOC_DW_E_FORMAT_COUNT,	/* too many format pairs, or entries but none */
	LINELOC_DW_E_STR_OFFSET,	/* string offset past its section (err_val) */
	LINELOC_DW_E_STR_UNTERMINATED,	/* string runs off the end of its section */
	LINELOC_DW_E_NO_STR_SECTION,	/* strp/line_strp with no such section */
	LINELOC_DW_E_EXT_LENGTH,	/* extended opcode length 0 */
	LINELOC_DW_E_CALLBACK,		/* a callback returned non-zero (err_val) */
	LINELOC_DW_E_RELOC,		/* the relocation hook refused a field (err_val) */
	LINELOC_DW_E_MAX
};

/* Entry-format pairs kept per table; DWARF 5 producers use 2 to 4. */
#define LINELOC_DW_MAX_FORMATS 8

/**
 * struct lineloc_dwarf_ctx - the sections a line program may refer to
 * @line: .debug_line contents
 * @line_size: its size in bytes
 * @line_str: .debug_line_str contents (DW_FORM_line_strp), or NULL
 * @line_str_size: its size in bytes
 * @str: .debug_str contents (DW_FORM_strp), or NULL
 * @str_size: its size in bytes
 * @big_endian: byte order of the object, chosen once per file
 * @reloc: NULL, or called for each field that a relocatable object's
 *	relocations may change (DW_FORM_strp and DW_FORM_line_strp offsets,
 *	DW_LNE_set_address operands, and DW_LNS_fixed_advance_pc operands,
 *	which riscv relocates) with the field's .debug_line offset,
 *	size and contents in *@value, which it replaces with the relocated
 *	value; non-zero stops decoding with LINELOC_DW_E_RELOC and the value in
 *	@err_val.  Lets a reader relocate without writing the section.
 * @reloc_arg: passed to @reloc
 * @err_off: on error, the .debug_line offset where decoding stopped
 * @err_val: on error, the offending value (version, form, size, ...)
 */
struct lineloc_dwarf_ctx {
	const u8 *line;
	u64 line_size;
	const u8 *line_str;
	u64 line_str_size;
	const u8 *str;
	u64 str_size;
	bool big_endian;
	int (*reloc)(void *arg, u64 off, unsigned int size, u64 *value);
	void *reloc_arg;
	u64 err_off;
	u64 err_val;
};

/* One entry-format table (DWARF 5), or the fixed v2-4 layout. */
struct lineloc_dwarf_format {
	u8 count;
	u64 type[LINELOC_DW_MAX_FORMATS];	/* DW_LNCT_* */
	u64 form[LINELOC_DW_MAX_FORMATS];	/* DW_FORM_* */
};

/*
 * A parsed line-program header (struct lineloc_dwarf_unit), each field
 * described where it is declared.
 *
 * Offsets are .debug_line offsets.  Directory and file indexes are the raw
 * DWARF ones: from 1 in versions 2-4 (index 0 meaning the compilation
 * directory / no file), from 0 in version 5 (entry 0 is the compilation
 * directory and the primary source file).
 */
struct lineloc_dwarf_unit {
	u64 offset;		/* of the unit_length field */
	u64 end;		/* one past the unit: the next unit's offset */
	u64 program;		/* first opcode */
	u64 header_length;
	u16 version;
	u8 offset_size;		/* 4 or 8 (64-bit DWARF) */
	u8 address_size;	/* v5 header; 0 when the header has none */
	u8 seg_sel_size;
	u8 min_inst_length;
	u8 max_ops_per_inst;
	u8 default_is_stmt;
	s8 line_base;
	u8 line_range;
	u8 opcode_base;
	u64 std_lengths;	/* offset of standard_opcode_lengths[] */
	struct lineloc_dwarf_format dir_format;
	struct lineloc_dwarf_format file_format;
	u64 dirs;		/* offset of the first directory entry */
	u64 dir_count;
	u64 files;		/* offset of the first file entry */
	u64 file_count;
};

/* A directory or file entry; @path points into one of the sections. */
struct lineloc_dwarf_entry {
	u64 index;
	const char *path;	/* NUL-terminated; NULL if the entry has none */
	u64 dir_index;
	u64 mtime;
	u64 size;
	const u8 *md5;		/* 16 bytes, or NULL */
	u64 offset;		/* .debug_line offset of the entry */
};

/* One row of the line-number matrix. */
struct lineloc_dwarf_row {
	u64 address;
	u64 file;		/* raw DWARF file index */
	u64 line;
	u64 column;
	u64 discriminator;
	u64 isa;
	u32 op_index;
	bool is_stmt;
	bool basic_block;
	bool end_sequence;
	bool prologue_end;
	bool epilogue_begin;
	u64 offset;		/* .debug_line offset of the opcode */
	/*
	 * .debug_line offset of the operand of the sequence's last
	 * DW_LNE_set_address, or ~0 if none: in a relocatable object the
	 * relocation found there names the section the sequence is in.
	 */
	u64 set_address_offset;
};

/*
 * Callbacks: return 0 to go on; anything else stops decoding with
 * LINELOC_DW_E_CALLBACK and the value in ctx->err_val.  @define_file receives
 * DW_LNE_define_file entries (v2-4); its index continues the file table.
 */
struct lineloc_dwarf_ops {
	int (*row)(void *arg, const struct lineloc_dwarf_row *row);
	int (*define_file)(void *arg, const struct lineloc_dwarf_entry *entry);
};

enum lineloc_dwarf_table { LINELOC_DW_DIRS, LINELOC_DW_FILES };

int lineloc_dwarf_parse_header(struct lineloc_dwarf_ctx *ctx, u64 offset,
			       struct lineloc_dwarf_unit *unit);
int lineloc_dwarf_entries(struct lineloc_dwarf_ctx *ctx,
			  const struct lineloc_dwarf_unit *unit,
			  enum lineloc_dwarf_table table,
			  int (*cb)(void *arg, const struct lineloc_dwarf_entry *e),
			  void *arg);
int lineloc_dwarf_run(struct lineloc_dwarf_ctx *ctx,
		      const struct lineloc_dwarf_unit *unit,
		      const struct lineloc_dwarf_ops *ops, void *arg);
const char *lineloc_dwarf_strerror(int err);

#endif /* _LINUX_LINELOC_DWARF_H */
