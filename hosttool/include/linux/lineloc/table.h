/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lineloc/table.h - compact line tables: address offset -> (path, line)
 *
 * A line table maps u32 offsets from a base chosen by its builder (the
 * kernel: _text, or _sinittext for a second table of init text) to source
 * locations.  Rows are coded in blocks of a fixed number of rows; a block
 * index finds a block by binary search, and a block is decoded from its
 * start up to the row that covers the wanted offset.  Inside a block the
 * file (move-to-front over the files seen in the block), the line (delta
 * against the last line of the same file) and the address delta are coded
 * with canonical prefix codes, one per context: either the table's own
 * (built by the encoder for its rows) or a shared set that the kernel
 * carries once (lineloc_shared_codes(): module tables, whose own codes
 * would cost about 1.1 KB each).
 * The byte layout is what linetab_enc.c writes and linetab_dec.c reads.
 *
 * The decoder (linetab_dec.c) is shared by the kernel and user space: no
 * allocation, no global state, no libc, and every read is checked against
 * the table's own sizes.  The encoder (linetab_enc.c) is host code written
 * so that a module loader could run it: no stdio, memory from the caller.
 */
#ifndef _LINUX_LINELOC_TABLE_H
#define _LINUX_LINELOC_TABLE_H

#include <linux/types.h>

#define LINELOC_MAGIC		0x3354414cU	/* "LAT3", little-endian */

/* The header: little-endian u32 words; offsets are from the table start. */
enum {
	LINELOC_H_MAGIC,
	LINELOC_H_SIZE,		/* bytes in the table */
	LINELOC_H_ENTRIES,	/* rows and ends */
	LINELOC_H_BLOCK_ROWS,
	LINELOC_H_NBLOCKS,
	LINELOC_H_CODES,	/* LINELOC_NCTX | decode table bits << 16 */
	LINELOC_H_LUT_OFF,	/* u16 decode tables, one per context */
	LINELOC_H_LONG_OFF,	/* u32 offset per context of its long codes */
	LINELOC_H_NSUPER,	/* superblocks */
	LINELOC_H_SUPER_OFF,	/* per superblock: u32 offset, data, block */
	LINELOC_H_INDEX_OFF,	/* per block: u16 offset, u16 data deltas */
	LINELOC_H_DATA_OFF,
	LINELOC_H_DATA_SIZE,
	LINELOC_H_NFILES,
	LINELOC_H_NDIRS,
	LINELOC_H_FILES_OFF,	/* u32 name start per group, u8 len [], u16 dir [] */
	LINELOC_H_DIRS_OFF,	/* u32 dir start [ndirs + 1] */
	LINELOC_H_STR_OFF,
	LINELOC_H_STR_SIZE,
	LINELOC_H_NDICT,	/* (file, line) pairs of the dictionary */
	LINELOC_H_DICT_OFF,	/* per pair: u16 file, u16 line */
	LINELOC_H_WORDS
};

#define LINELOC_HDR_SIZE	(4 * LINELOC_H_WORDS)

/*
 * Shared codes: a table coded with the set lineloc_shared_codes() returns
 * carries no codes and a short header instead of the one above (the
 * tables of modules, a few hundred bytes smaller each):
 *
 *	u16 LINELOC_SHORT_MAGIC, u32 the set's id, then ULEB128 numbers:
 *	entries, rows a block, superblocks, data bytes, dictionary pairs,
 *	files, directories, string bytes
 *
 * The blocks are the entries over the rows a block, rounded up.  Its
 * parts follow, in the order of the offsets above, each where the one
 * before ends: superblocks, block index, data, dictionary, files,
 * directories, strings; the table ends with its strings.  A set is laid
 * out as the codes of a table, after four u32 words: its id (FNV-1a of
 * the bytes that follow it), LINELOC_NCTX | decode table bits << 16, and
 * the offsets, from the set's start, of its decode tables and long codes.
 * Every symbol of every context has a code in it.
 */
#define LINELOC_SHORT_MAGIC	0x534cU		/* "LS", little-endian */
#define LINELOC_SET_HDR		16
#define LINELOC_MAX_LEN		12		/* longest prefix code */
#define LINELOC_LONG_HDR	(1 + LINELOC_MAX_LEN + 3)	/* see README */
#define LINELOC_MAX_SYMS	128		/* symbols of one alphabet */
#define LINELOC_MTF		16		/* files remembered in a block */
#define LINELOC_MAX_BLOCK	4096		/* rows per block, at most */
#define LINELOC_SUPER_BLOCKS	64		/* blocks per superblock, at most */
#define LINELOC_FILE_GROUP	16		/* files per name start */
#define LINELOC_MAX_NAME	255		/* bytes of a file name */

/* Coding contexts; the table holds one prefix code for each. */
enum {
	LINELOC_CTX_ROW = 0,		/* 11: by the previous row's class */
	LINELOC_CTX_ADDR = 11,		/* 10: by the row's class */
	LINELOC_CTX_LINE_MTF = 21,	/* 2: line delta after a switch to MTF 1, 2+ */
	LINELOC_CTX_LINE_ABS = 23,	/* line of a file new in the block */
	LINELOC_CTX_FILE_IDX = 24,	/* index of a file new in the block */
	LINELOC_CTX_DICT = 25,		/* index of a dictionary pair */
	LINELOC_NCTX = 26,
	/* with chains of inlined calls (below) */
	LINELOC_CTX_OP = 26,		/* 10: chain change, by the row's class */
	LINELOC_CTX_PUSHES = 36,	/* pushes beyond 2 */
	LINELOC_CTX_PUSH = 37,		/* 2: recent or new, outermost / inner */
	LINELOC_CTX_NAME = 39,		/* name of a new instance */
	LINELOC_CTX_CFILE = 40,		/* its call file: 0 predicted, 1 + file */
	LINELOC_CTX_CLINE = 41,		/* 2: its call line against the line */
					/* of a row, at its caller's depth / not */
	LINELOC_CTX_CLINE_ABS = 43,	/* in another file: its call line */
	LINELOC_NCTX_CHAINS = 44
};

/*
 * Chains of inlined calls.  A table whose LINELOC_H_CODES word counts
 * LINELOC_NCTX_CHAINS contexts also says, after each row's address delta,
 * how the chain of inlined calls that holds from that row on differs from
 * the row before's (linetab_model.h), and its header has LINELOC_HX_WORDS
 * more words after the LINELOC_H_WORDS: the names of the inlined
 * functions (numbered by how often a chain codes them, stored sorted and
 * front-coded in groups: linetab_enc.c's put_names()), and the usual
 * calls: for a
 * function (by name), the call of an inlined function that its inlined
 * instances make most often.  Only tables with their own codes carry
 * chains.
 */
enum {
	LINELOC_HX_NNAMES,
	LINELOC_HX_NAMES_OFF,	/* sorted position by rank, group starts */
	LINELOC_HX_NSTR_OFF,
	LINELOC_HX_NSTR_SIZE,
	LINELOC_HX_NUSUAL,	/* usual calls, by caller */
	LINELOC_HX_USUAL_OFF,	/* per call: u16 caller, name, file, line */
	LINELOC_HX_WORDS
};

#define LINELOC_MAX_DEPTH	20	/* levels of inlined calls in a chain */
#define LINELOC_RECENT		8	/* left instances a block remembers */
#define LINELOC_NAME_GROUP	16	/* names per name start */

/* Errors: lookups return 0, LINELOC_UNKNOWN or -LINELOC_E_*. */
#define LINELOC_UNKNOWN	1	/* the table has no location for the offset */
enum {
	LINELOC_E_HEADER = 2,	/* bad magic, sizes or offsets in the header */
	LINELOC_E_CODE,		/* a prefix code is damaged */
	LINELOC_E_DATA,		/* block data inconsistent or truncated */
	LINELOC_E_CODESET,	/* shared codes other than lineloc_shared_codes() */
};

/**
 * struct lineloc_loc - the location of an offset
 * @dir: directory part of the path, with its trailing '/', not terminated
 * @dir_len: bytes at @dir (0 for a path without a directory)
 * @name: file name part of the path, not terminated
 * @name_len: bytes at @name
 * @file: index of the path in the table
 * @line: line number; 0 when the row has no line ("path:0" rows)
 * @start: offset of the row that covers the looked-up offset
 *
 * The path is @dir followed by @name; both point into the table.
 */
struct lineloc_loc {
	const char *dir;
	u32 dir_len;
	const char *name;
	u32 name_len;
	u32 file;
	u32 line;
	u32 start;
};

int lineloc_check_header(const void *tab, size_t size);
int lineloc_check(const void *tab, size_t size);
int lineloc_lookup(const void *tab, size_t size, u32 off,
		   struct lineloc_loc *loc);

/**
 * struct lineloc_call - one level of inlined calls
 * @name: index of the inlined function's name (lineloc_name())
 * @file: index of the path where it is called (lineloc_path())
 * @line: line of the call
 */
struct lineloc_call {
	u32 name;
	u32 file;
	u32 line;
};

int lineloc_lookup_calls(const void *tab, size_t size, u32 off,
			 struct lineloc_loc *loc, struct lineloc_call *calls,
			 u32 max, u32 *ncalls);
int lineloc_lookup_outer(const void *tab, size_t size, u32 off,
			 struct lineloc_loc *loc, u32 *depth);
int lineloc_name(const void *tab, size_t size, u32 name, char *buf, u32 *len);
int lineloc_path(const void *tab, size_t size, u32 file,
		 struct lineloc_loc *loc);
const u8 *lineloc_shared_codes(u32 *size);
int lineloc_uleb32(const u8 *t, u32 size, u32 *pos, u32 *v);

/* ---- encoder (linetab_enc.c): lineloc, and the kernel's module loader ---- */

/**
 * struct lineloc_row - one row of a line program, in sequence order
 * @off: offset from the table's base
 * @file: index into the caller's path array
 * @line: line number (0: no line)
 * @end: the end of a sequence: the offset has no location
 */
struct lineloc_row {
	u32 off;
	u32 file;
	u32 line;
	u32 end;
};

/*
 * Memory for the encoder.  @alloc returns zeroed or uninitialised memory
 * (either is fine) or NULL; @free takes what @alloc returned, or NULL.
 */
struct lineloc_alloc {
	void *(*alloc)(void *arg, size_t size);
	void (*free)(void *arg, void *ptr);
	void *arg;
};

/* Fields of the block data, for struct lineloc_stats' @bits. */
enum {
	LINELOC_F_ROW,		/* row symbols, with a line delta's raw bits */
	LINELOC_F_ADDR,		/* address deltas */
	LINELOC_F_MTF_LINE,	/* lines after a switch within the MTF list */
	LINELOC_F_NEW_LINE,	/* lines of files new in a block */
	LINELOC_F_NEW_FILE,	/* indexes of files new in a block */
	LINELOC_F_DICT,		/* dictionary indexes of files new in a block */
	LINELOC_F_CHAIN,	/* chain changes: pops, pushes, recent ones */
	LINELOC_F_NAME,		/* names of new inlined instances */
	LINELOC_F_CALL,		/* their call files and lines */
	LINELOC_F_PAD,		/* padding of each block to a byte */
	LINELOC_NFIELDS
};

/*
 * struct lineloc_stats - what the encoder kept and where the bytes went,
 * each field described where it is declared
 */
struct lineloc_stats {
	u32 rows_in;		/* rows given */
	u32 kept;		/* entries after the kept-row rules (kallsyms) */
	u32 entries;		/* entries in the table (rows and ends) */
	u32 ends;		/* of which ends of sequences (gaps) */
	u32 files;		/* distinct paths used */
	u32 blocks;
	u32 lut_bits;		/* decode table bits of each code */
	u32 dict;		/* pairs in the dictionary */
	u32 names;		/* names of inlined functions in the table */
	u32 pushes, pushes_new;	/* levels pushed; not from the recent ones */
	u32 usual, usual_hits;	/* usual calls; new levels that were one */
	size_t header, codes, index, data, paths, dict_bytes, names_bytes;
	size_t usual_bytes;
	size_t total;
	u64 bits[LINELOC_NFIELDS];	/* bits of the data by field */
};

enum {
	LINELOC_ENC_NOMEM = 1,
	LINELOC_ENC_ARG,	/* bad file index, block size or path */
	LINELOC_ENC_LIMIT,	/* a count does not fit the format */
};

/**
 * struct lineloc_enc_opts - how lineloc_encode() codes a table
 * @block_rows: rows per block, 1 to LINELOC_MAX_BLOCK
 * @shared: code with lineloc_shared_codes() instead of the table's own
 * @counts: NULL, or LINELOC_NCTX * LINELOC_MAX_SYMS counters, context by
 *	context: each symbol coded is added to its own (what a shared set is
 *	made from)
 */
struct lineloc_enc_opts {
	u32 block_rows;
	bool shared;
	u32 *counts;
};

int lineloc_encode(const struct lineloc_row *rows, size_t nrows,
		   const char *const *paths, size_t npaths,
		   const struct lineloc_enc_opts *opt,
		   const struct lineloc_alloc *mem, u8 **out, size_t *out_size,
		   struct lineloc_stats *st);
/**
 * struct lineloc_inline - an inlined instance, for lineloc_encode_calls()
 * @name: index into the names
 * @parent: 1 + index of the instance it is inlined into, 0 for none
 *	(inlined into the function the symbol table names)
 * @file: index into the paths of the file that calls it
 * @line: line of the call
 */
struct lineloc_inline {
	u32 name;
	u32 parent;
	u32 file;
	u32 line;
};

/**
 * struct lineloc_calls - the chains of inlined calls of a table's rows
 * @row_inl: per row, 1 + index of the innermost instance that holds from
 *	it on, 0 for none; at most LINELOC_MAX_DEPTH levels deep
 * @inl: the instances
 * @ninl: their number
 * @names: NUL-terminated names, indexed by @inl[].name
 * @nnames: their number
 */
struct lineloc_calls {
	const u32 *row_inl;
	const struct lineloc_inline *inl;
	u32 ninl;
	const char *const *names;
	u32 nnames;
};

int lineloc_encode_calls(const struct lineloc_row *rows, size_t nrows,
			 const char *const *paths, size_t npaths,
			 const struct lineloc_calls *calls,
			 const struct lineloc_enc_opts *opt,
			 const struct lineloc_alloc *mem, u8 **out,
			 size_t *out_size, struct lineloc_stats *st);
int lineloc_codes_make(const u32 *counts, u32 lut_bits,
		       const struct lineloc_alloc *mem, u8 **out,
		       size_t *out_size);

#endif /* _LINUX_LINELOC_TABLE_H */
