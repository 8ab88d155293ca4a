/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linetab.h - compact line tables: address offset -> (path, line)
 *
 * A line table maps u32 offsets from a base chosen by its builder (the
 * kernel: _text, or _sinittext for a second table of init text) to source
 * locations.  Rows are coded in blocks of a fixed number of rows; a block
 * index finds a block by binary search, and a block is decoded from its
 * start up to the row that covers the wanted offset.  Inside a block the
 * file (move-to-front over the files seen in the block), the line (delta
 * against the last line of the same file) and the address delta are coded
 * with canonical prefix codes, one per context, that the table carries
 * itself (built by the encoder for this table's rows).
 * The byte layout is what linetab_enc.c writes and linetab_dec.c reads.
 *
 * The decoder (linetab_dec.c) is shared by the kernel and user space: no
 * allocation, no global state, no libc, and every read is checked against
 * the table's own sizes.  The encoder (linetab_enc.c) is host code written
 * so that a module loader could run it: no stdio, memory from the caller.
 */
#ifndef LINETAB_H
#define LINETAB_H

#include "ktypes.h"

#define LINETAB_MAGIC		0x3354414cU	/* "LAT3", little-endian */

/* The header: little-endian u32 words; offsets are from the table start. */
enum {
	LINETAB_H_MAGIC,
	LINETAB_H_SIZE,		/* bytes in the table */
	LINETAB_H_ENTRIES,	/* rows and ends */
	LINETAB_H_BLOCK_ROWS,
	LINETAB_H_NBLOCKS,
	LINETAB_H_CODES,	/* LINETAB_NCTX | decode table bits << 16 */
	LINETAB_H_LUT_OFF,	/* u16 decode tables, one per context */
	LINETAB_H_LONG_OFF,	/* u32 offset per context of its long codes */
	LINETAB_H_NSUPER,	/* superblocks */
	LINETAB_H_SUPER_OFF,	/* per superblock: u32 offset, data, block */
	LINETAB_H_INDEX_OFF,	/* per block: u16 offset, u16 data deltas */
	LINETAB_H_DATA_OFF,
	LINETAB_H_DATA_SIZE,
	LINETAB_H_NFILES,
	LINETAB_H_NDIRS,
	LINETAB_H_FILES_OFF,	/* u32 name start per group, u8 len [], u16 dir [] */
	LINETAB_H_DIRS_OFF,	/* u32 dir start [ndirs + 1] */
	LINETAB_H_STR_OFF,
	LINETAB_H_STR_SIZE,
	LINETAB_H_NDICT,	/* (file, line) pairs of the dictionary */
	LINETAB_H_DICT_OFF,	/* per pair: u16 file, u16 line */
	LINETAB_H_WORDS
};

#define LINETAB_HDR_SIZE	(4 * LINETAB_H_WORDS)
#define LINETAB_MAX_LEN		12		/* longest prefix code */
#define LINETAB_LONG_HDR	(1 + LINETAB_MAX_LEN + 3)	/* see README */
#define LINETAB_MAX_SYMS	128		/* symbols of one alphabet */
#define LINETAB_MTF		16		/* files remembered in a block */
#define LINETAB_MAX_BLOCK	4096		/* rows per block, at most */
#define LINETAB_SUPER_BLOCKS	64		/* blocks per superblock, at most */
#define LINETAB_FILE_GROUP	16		/* files per name start */
#define LINETAB_MAX_NAME	255		/* bytes of a file name */

/* Coding contexts; the table holds one prefix code for each. */
enum {
	LINETAB_CTX_ROW = 0,		/* 11: by the previous row's class */
	LINETAB_CTX_ADDR = 11,		/* 10: by the row's class */
	LINETAB_CTX_LINE_MTF = 21,	/* 2: line delta after a switch to MTF 1, 2+ */
	LINETAB_CTX_LINE_ABS = 23,	/* line of a file new in the block */
	LINETAB_CTX_FILE_IDX = 24,	/* index of a file new in the block */
	LINETAB_CTX_DICT = 25,		/* index of a dictionary pair */
	LINETAB_NCTX = 26
};

/* Errors: lookups return 0, LINETAB_UNKNOWN or -LINETAB_E_*. */
#define LINETAB_UNKNOWN	1	/* the table has no location for the offset */
enum {
	LINETAB_E_HEADER = 2,	/* bad magic, sizes or offsets in the header */
	LINETAB_E_CODE,		/* a prefix code is damaged */
	LINETAB_E_DATA,		/* block data inconsistent or truncated */
};

/**
 * struct linetab_loc - the location of an offset
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
struct linetab_loc {
	const char *dir;
	u32 dir_len;
	const char *name;
	u32 name_len;
	u32 file;
	u32 line;
	u32 start;
};

int linetab_check_header(const void *tab, size_t size);
int linetab_lookup(const void *tab, size_t size, u32 off,
		   struct linetab_loc *loc);
int linetab_path(const void *tab, size_t size, u32 file,
		 struct linetab_loc *loc);

/* ---- encoder (linetab_enc.c): lineloc, and the kernel's module loader ---- */

/**
 * struct linetab_row - one row of a line program, in sequence order
 * @off: offset from the table's base
 * @file: index into the caller's path array
 * @line: line number (0: no line)
 * @end: the end of a sequence: the offset has no location
 */
struct linetab_row {
	u32 off;
	u32 file;
	u32 line;
	u32 end;
};

/*
 * Memory for the encoder.  @alloc returns zeroed or uninitialised memory
 * (either is fine) or NULL; @free takes what @alloc returned, or NULL.
 */
struct linetab_alloc {
	void *(*alloc)(void *arg, size_t size);
	void (*free)(void *arg, void *ptr);
	void *arg;
};

#ifndef __KERNEL__
/* malloc() and free(), for the encoder's users in user space */
extern const struct linetab_alloc linetab_libc_alloc;
#endif

/* Fields of the block data, for struct linetab_stats' @bits. */
enum {
	LINETAB_F_ROW,		/* row symbols, with a line delta's raw bits */
	LINETAB_F_ADDR,		/* address deltas */
	LINETAB_F_MTF_LINE,	/* lines after a switch within the MTF list */
	LINETAB_F_NEW_LINE,	/* lines of files new in a block */
	LINETAB_F_NEW_FILE,	/* indexes of files new in a block */
	LINETAB_F_DICT,		/* dictionary indexes of files new in a block */
	LINETAB_F_PAD,		/* padding of each block to a byte */
	LINETAB_NFIELDS
};

/**
 * struct linetab_stats - what the encoder kept and where the bytes went
 */
struct linetab_stats {
	u32 rows_in;		/* rows given */
	u32 kept;		/* entries after the kept-row rules (kallsyms) */
	u32 entries;		/* entries in the table (rows and ends) */
	u32 ends;		/* of which ends of sequences (gaps) */
	u32 files;		/* distinct paths used */
	u32 blocks;
	u32 lut_bits;		/* decode table bits of each code */
	u32 dict;		/* pairs in the dictionary */
	size_t header, codes, index, data, paths, dict_bytes, total;
	u64 bits[LINETAB_NFIELDS];	/* bits of the data by field */
};

enum {
	LINETAB_ENC_NOMEM = 1,
	LINETAB_ENC_ARG,	/* bad file index, block size or path */
	LINETAB_ENC_LIMIT,	/* a count does not fit the format */
};

int linetab_encode(const struct linetab_row *rows, size_t nrows,
		   const char *const *paths, size_t npaths, u32 block_rows,
		   const struct linetab_alloc *mem, u8 **out, size_t *out_size,
		   struct linetab_stats *st);

#endif /* LINETAB_H */
