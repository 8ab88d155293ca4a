/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lineloc/module.h - a module's line tables, built from its own .debug_line
 *
 * The kernel's module loader (kernel/module/lines.c) runs this at load
 * time (scripts/lineloc builds the same source for the host): decode
 * each line program with dwarf_line.c, relocate its fields with
 * dwarf_reloc.c (without writing the section), map each sequence to the
 * loaded section it describes, and encode the rows of the core text and of
 * the init text as two compact tables (linetab_enc.c), offsets from the
 * start of each region.
 *
 * Paths: a file's directory and name are joined (DWARF 5: a relative
 * directory is relative to directory 0, the compilation directory) and
 * normalised lexically.  Then the roots of the kernel tree are stripped:
 * whatever precedes "include/linux" in a directory of the module's line
 * tables (not under /usr/) is a root, and so is what precedes "arch/" in
 * an absolute directory under no root (assembler units name no header).
 * Paths under no root keep their full form: an out-of-tree module's own
 * sources, built with M=, print as absolute paths.  The compilation
 * directory is not a root: DWARF 2-4 line tables do not name it, and a
 * module's paths must not depend on its DWARF version.
 *
 * No libc, no global state; memory from the caller's allocator, bounded by
 * the sizes of the sections.
 */
#ifndef _LINUX_LINELOC_MODULE_H
#define _LINUX_LINELOC_MODULE_H

#include <linux/types.h>
#include <linux/lineloc/dwarf.h>
#include <linux/lineloc/reloc.h>
#include <linux/lineloc/table.h>

/* Where a section's rows go. */
enum {
	LINELOC_MOD_NONE,		/* dropped: not text that stays loaded */
	LINELOC_MOD_CORE,		/* the core text */
	LINELOC_MOD_INIT,		/* the init text */
};

#define LINELOC_PATH_MAX	4096	/* longest path taken */
#define LINELOC_ROOTS		8	/* roots of the kernel tree stripped */
#define LINELOC_ROOT_MAX	512	/* longest root */

/**
 * struct lineloc_mod_sec - a section of the object, by section index
 * @region: LINELOC_MOD_CORE, LINELOC_MOD_INIT or LINELOC_MOD_NONE
 * @base: offset of the section's start from its region's start
 * @size: the section's size
 */
struct lineloc_mod_sec {
	u8 region;
	u64 base;
	u64 size;
};

/**
 * struct lineloc_mod_in - what lineloc_mod_build() reads
 * @dl: .debug_line, .debug_line_str, .debug_str and the byte order (its
 *	@reloc is set by lineloc_mod_build())
 * @rel: the checked relocations of .debug_line (lineloc_rel_check()), or NULL
 * @secs: one entry per section index
 * @nsecs: entries of @secs
 * @mem: the allocator, of the work space and of the tables
 * @enc: how the tables are coded (rows per block, shared codes, counters)
 * @resched: NULL, or called between line programs (the kernel reschedules)
 * @used: NULL, or one entry per section index, set to 1 for each section
 *	that a sequence was mapped to
 */
struct lineloc_mod_in {
	struct lineloc_dwarf_ctx dl;
	const struct lineloc_rel *rel;
	const struct lineloc_mod_sec *secs;
	u32 nsecs;
	const struct lineloc_alloc *mem;
	struct lineloc_enc_opts enc;
	void (*resched)(void);
	u8 *used;
};

/**
 * struct lineloc_mod_out - the tables, and what was kept
 * @tab: the core and init tables (index LINELOC_MOD_CORE - 1, INIT - 1), or
 *	NULL where no row was kept; free them with @mem
 * @size: their sizes
 * @rows: rows given to the encoder for each
 * @fixed: bytes of each table that do not grow with its rows: the header
 *	and the prefix codes (none with shared codes)
 * @units: line programs read
 * @seqs: sequences read
 * @dropped: sequences dropped: no relocation of their address, or not in
 *	loaded text, or a row outside their section
 * @err_off: on error, the .debug_line offset where it was found
 * @err_val: on error, the offending value
 * @dwarf_err: with LINELOC_MOD_E_DWARF, the decoder's error (LINELOC_DW_E_*)
 */
struct lineloc_mod_out {
	u8 *tab[2];
	size_t size[2];
	u32 rows[2];
	size_t fixed[2];
	u32 units;
	u32 seqs;
	u32 dropped;
	u64 err_off;
	u64 err_val;
	int dwarf_err;
};

enum {
	LINELOC_MOD_E_NOMEM = 1,
	LINELOC_MOD_E_DWARF,	/* the line program is malformed (dl.err_*) */
	LINELOC_MOD_E_PATH,	/* a path longer than LINELOC_PATH_MAX */
	LINELOC_MOD_E_LIMIT,	/* more rows or path bytes than the sizes allow */
	LINELOC_MOD_E_ENCODE,	/* the encoder refused (err_val) */
	LINELOC_MOD_E_MAX
};

int lineloc_mod_build(struct lineloc_mod_in *in, struct lineloc_mod_out *out);
void lineloc_mod_free(const struct lineloc_alloc *mem,
		      struct lineloc_mod_out *out);
const char *lineloc_mod_strerror(int err, const struct lineloc_mod_out *out);
void lineloc_normalize(char *path);
bool lineloc_host_include(const char *root, size_t n);

/*
 * Tables built with the module (scripts/lineloc, when the module is
 * finalised), so that a module stripped of its debug information keeps its
 * line locations.  Two allocated, read-only sections: LINELOC_SEC_CORE for
 * text that stays loaded, LINELOC_SEC_INIT for init text (its name starts
 * ".init", so that the loader frees it with the init memory).  Each holds
 * one compact table (<linux/lineloc/table.h>) for the text sections it
 * lists, which lie one after the other in the table's offsets, in the
 * order of the list, from 0:
 *
 *	u16 LINELOC_SEC_MAGIC, then ULEB128 numbers: n, and n entries
 *	{ name, size }; the table follows, to the section's end
 *
 * An entry gives a text section by name (strip renumbers sections) and
 * its size; its offset 0 is the sum of the sizes before it.  The name is
 * k >= 1 for the k-th of the names the kernel knows (".text",
 * ".init.text", ".exit.text", ".text.unlikely", ...: modlines.c), or 0
 * followed by the name, NUL-terminated.
 */
#define LINELOC_SEC_MAGIC	0x4d4cU		/* "LM", little-endian */
#define LINELOC_SEC_CORE	".lineloc"
#define LINELOC_SEC_INIT	".init.lineloc"
#define LINELOC_SEC_MAX		64		/* entries of one section */
#define LINELOC_SEC_HDR		2
#define LINELOC_SEC_NAMES	17		/* names known by index */

extern const char *const lineloc_sec_names[LINELOC_SEC_NAMES];

/**
 * struct lineloc_sec_ent - an entry of a module's section of line tables
 * @name: the text section
 * @base: where its offset 0 lies in the table's offsets (the sizes before)
 * @size: its size
 * @off: where the entry is in the section
 */
struct lineloc_sec_ent {
	const char *name;
	u32 base;
	u32 size;
	u32 off;
};

int lineloc_sec_check(const u8 *sec, size_t size, u32 *err_off,
		      const char **why);
void lineloc_sec_get(const u8 *sec, size_t size, u32 i,
		     struct lineloc_sec_ent *e);
const u8 *lineloc_sec_table(const u8 *sec, size_t size, u32 *tab_size);

#endif /* _LINUX_LINELOC_MODULE_H */
