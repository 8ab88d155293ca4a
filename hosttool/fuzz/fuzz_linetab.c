// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for linetab_dec.c, the line-table decoder the kernel
 * and the host tool share, and a round trip through linetab_enc.c.
 * Input: a mode byte, then
 *   mode 0: a table; lookups at offsets taken from its first bytes and at
 *           every block start and the offset before it;
 *   mode 1: edits (position, xor value) applied to a valid table built
 *           once from fixed rows (with a dictionary), with its own codes,
 *           the shared codes, or its own codes and chains of inlined
 *           calls, by the number of bytes modulo 3; lookups all over it;
 *   mode 2: rows (8 bytes each) for the encoder, with the shared codes
 *           when the third byte's top bit is set; its table must pass
 *           lineloc_check() and answer every row start as the rows say;
 *   mode 3: rows at increasing offsets and their chains of inlined calls
 *           (8 bytes each) over 24 instances the first bytes describe;
 *           the table must pass lineloc_check() and answer every row
 *           that is the only one at its offset with its line and chain.
 * Build: make -f hosttool/hosttool.mk hosttool/fuzz/fuzz_linetab
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/lineloc/table.h>

#include "util.h"

static const char *const paths[] = {
	"kernel/a.c", "kernel/b.h", "include/linux/c.h", "d.S",
	"arch/x86/e.c", "lib/f.c", "mm/g.c", "fs/h.c",
};

static const char *const names[] = {
	"spin_lock", "spin_lock_irq", "raw_spin_lock", "get_current",
	"__list_add", "list_add", "a", "",
};

#define NINL	24


static uint64_t sink;

static void look(const uint8_t *t, size_t size, u32 off)
{
	struct lineloc_call calls[LINELOC_MAX_DEPTH];
	char name[LINELOC_MAX_NAME];
	struct lineloc_loc loc, loc2;
	u32 n = 0, i, len, depth;
	int ret = lineloc_lookup(t, size, off, &loc);

	if (ret < -LINELOC_E_CODESET || ret > LINELOC_UNKNOWN)
		__builtin_trap();
	/*
	 * With its chain the lookup checks more (the chain's levels), so it
	 * may refuse a damaged table that a plain lookup reads past; what it
	 * answers, the plain lookup answers too.
	 */
	i = lineloc_lookup_calls(t, size, off, &loc2, calls, LINELOC_MAX_DEPTH,
				 &n);
	if ((int)i != ret && (int)i >= 0)
		__builtin_trap();
	if (!ret && !i && (loc2.line != loc.line || loc2.file != loc.file ||
			   loc2.start != loc.start))
		__builtin_trap();
	/* The outermost call site: the chain's last level, or the line. */
	i = lineloc_lookup_outer(t, size, off, &loc2, &depth);
	if ((int)i != ret && (int)i >= 0)
		__builtin_trap();
	if (!ret && !i && (depth != n || loc2.start != loc.start ||
			   loc2.line != (n ? calls[n - 1].line : loc.line) ||
			   loc2.file != (n ? calls[n - 1].file : loc.file)))
		__builtin_trap();
	for (i = 0; !ret && i < n; i++)
		if (!lineloc_name(t, size, calls[i].name, name, &len) && len)
			sink += (uint8_t)name[0] + (uint8_t)name[len - 1];
	if (ret == 0) {
		/* Touch what the decoder handed out, so ASan checks it. */
		if (loc.dir_len)
			sink += (uint8_t)loc.dir[0] + (uint8_t)loc.dir[loc.dir_len - 1];
		if (loc.name_len)
			sink += (uint8_t)loc.name[0] +
				(uint8_t)loc.name[loc.name_len - 1];
		if (loc.start > off)
			__builtin_trap();
	}
}

/*
 * Look up around the start of the first superblocks and of their first
 * blocks, as the index names them (bounded).
 */
static void look_blocks(const uint8_t *t, size_t size)
{
	u32 nsuper, nblocks, sb, ix, i, j, off, first;
	uint16_t rel;

	if (size < LINELOC_HDR_SIZE)
		return;
	memcpy(&nsuper, t + 4 * LINELOC_H_NSUPER, 4);
	memcpy(&nblocks, t + 4 * LINELOC_H_NBLOCKS, 4);
	memcpy(&sb, t + 4 * LINELOC_H_SUPER_OFF, 4);
	memcpy(&ix, t + 4 * LINELOC_H_INDEX_OFF, 4);
	for (i = 0; i < nsuper && i < 16; i++) {
		if (sb > size || (size - sb) / 12 <= i)
			break;
		memcpy(&off, t + sb + 12 * i, 4);
		memcpy(&first, t + sb + 12 * i + 8, 4);
		look(t, size, off);
		look(t, size, off - 1);
		look(t, size, off + 7);
		for (j = first; j < nblocks && j < first + 8; j++) {
			if (ix > size || (size - ix) / 4 <= j)
				break;
			memcpy(&rel, t + ix + 4 * j, 2);
			look(t, size, off + rel);
			look(t, size, off + rel - 1);
		}
	}
}

static uint8_t *base[3];
static size_t base_size[3];

/* Instances from @d (NINL * 3 bytes): parents earlier in the list only. */
static void make_inl(struct lineloc_inline *inl, const uint8_t *d)
{
	u32 i;

	for (i = 0; i < NINL; i++, d += 3) {
		inl[i].name = d[0] % 8;
		inl[i].parent = i && d[0] & 0x80 ? 1 + d[1] % i : 0;
		inl[i].file = d[1] % 8;
		inl[i].line = d[2] & 0x40 ? d[2] * 1000003U : d[2] % 50;
	}
}

/*
 * Valid tables: 3 sequences over 8 files, blocks of 5 rows; with their own
 * codes, and with the shared codes.
 */
static void make_base(void)
{
	struct lineloc_enc_opts opt = { .block_rows = 5 };
	struct lineloc_inline inl[NINL];
	struct lineloc_row rows[200];
	struct lineloc_calls calls;
	uint8_t seed[NINL * 3];
	u32 i, n = 0, off = 0x100, row_inl[200];

	for (i = 0; i < 190; i++) {
		rows[n].off = off;
		rows[n].file = (i * 7 / 5) % 8;
		rows[n].line = i % 13 ? 10 + (i * 37) % 300 : 0;
		if (i % 5 == 0) {	/* pairs for the dictionary */
			rows[n].file = 2 + i % 2;
			rows[n].line = 42;
		}
		rows[n].end = i == 60 || i == 130 || i == 189;
		off += 1 + (i * 11) % 23 + (rows[n].end ? 0x1000 : 0);
		n++;
	}
	for (i = 0; i < 2; i++) {
		opt.shared = i;
		if (lineloc_encode(rows, n, paths, 8, &opt, &lineloc_libc_alloc,
				   &base[i], &base_size[i], NULL))
			__builtin_trap();
	}
	for (i = 0; i < NINL * 3; i++)
		seed[i] = (uint8_t)(i * 73 + 11);
	make_inl(inl, seed);
	for (i = 0; i < n; i++)
		row_inl[i] = (i * 7) % 5 ? (i * 13) % (NINL + 1) : 0;
	calls.row_inl = row_inl;
	calls.inl = inl;
	calls.ninl = NINL;
	calls.names = names;
	calls.nnames = 8;
	opt.shared = 0;
	if (lineloc_encode_calls(rows, n, paths, 8, &calls, &opt,
				 &lineloc_libc_alloc, &base[2], &base_size[2],
				 NULL))
		__builtin_trap();
}

static void mode_edit(const uint8_t *data, size_t size)
{
	size_t i, bs = base_size[size % 3];
	uint8_t *t = malloc(bs);
	u32 pos;

	memcpy(t, base[size % 3], bs);
	for (i = 0; i + 3 <= size; i += 3) {
		pos = (data[i] | data[i + 1] << 8) % bs;
		t[pos] ^= data[i + 2];
	}
	lineloc_check(t, bs);
	for (pos = 0; pos < 0x1400; pos += 29)
		look(t, bs, pos);
	look_blocks(t, bs);
	free(t);
}

static void mode_rows(const uint8_t *data, size_t size)
{
	struct lineloc_row *rows;
	size_t n = size / 8, i, tsize;
	struct lineloc_enc_opts opt;
	u32 off = 0;
	uint8_t *t;

	if (!n)
		return;
	rows = malloc(n * sizeof(*rows));
	for (i = 0; i < n; i++) {
		const uint8_t *d = data + 8 * i;

		off += d[0] | (d[1] & 0x0f) << 8;	/* may repeat an offset */
		rows[i].off = off;
		rows[i].file = d[2] % 8;
		rows[i].line = d[3] | d[4] << 8 | (d[5] & 0x7f) << 16 |
			       (d[7] & 0x80 ? 0x7fff0000U : 0);
		rows[i].end = (d[6] & 7) == 0;
		if (d[6] & 0x80)		/* a new sequence, anywhere */
			off = d[7] << 4;
	}
	opt.block_rows = 1 + data[0] % 40;
	opt.shared = data[2] & 0x80;	/* the file takes the low bits */
	opt.counts = NULL;
	if (lineloc_encode(rows, n, paths, 8, &opt, &lineloc_libc_alloc, &t,
			   &tsize, NULL))
		__builtin_trap();
	if (lineloc_check(t, tsize))
		__builtin_trap();
	for (i = 0; i < n; i++) {
		struct lineloc_loc loc;
		int ret = lineloc_lookup(t, tsize, rows[i].off, &loc);

		if (ret < 0)
			__builtin_trap();
	}
	free(t);
	free(rows);
}

/* The chain of instance @k (1 + index, 0 for none): its depth. */
static u32 depth_of(const struct lineloc_inline *inl, u32 k)
{
	u32 d = 0;

	for (; k; k = inl[k - 1].parent)
		d++;
	return d;
}

static void mode_chains(const uint8_t *data, size_t size)
{
	struct lineloc_enc_opts opt = { .block_rows = 1 };
	struct lineloc_call c[LINELOC_MAX_DEPTH];
	struct lineloc_inline inl[NINL];
	char name[LINELOC_MAX_NAME];
	struct lineloc_row *rows;
	struct lineloc_calls calls;
	size_t n, i, tsize;
	u32 *row_inl, off = 0, k, j, nc, len;
	uint8_t *t;

	if (size < NINL * 3 + 1)
		return;
	make_inl(inl, data);
	opt.block_rows = 1 + data[NINL * 3] % 24;
	data += NINL * 3 + 1;
	size -= NINL * 3 + 1;
	n = size / 8;
	if (!n)
		return;
	rows = malloc(n * sizeof(*rows));
	row_inl = malloc(n * sizeof(*row_inl));
	for (i = 0; i < n; i++) {
		const uint8_t *d = data + 8 * i;

		off += d[0] & 0x0f;		/* may repeat an offset */
		rows[i].off = off;
		rows[i].file = d[1] % 8;
		rows[i].line = d[2] | (d[3] & 0x7f) << 8;
		rows[i].end = (d[4] & 15) == 0;
		row_inl[i] = d[5] % (NINL + 1);
		if (depth_of(inl, row_inl[i]) > LINELOC_MAX_DEPTH)
			row_inl[i] = 0;
	}
	calls.row_inl = row_inl;
	calls.inl = inl;
	calls.ninl = NINL;
	calls.names = names;
	calls.nnames = 8;
	if (lineloc_encode_calls(rows, n, paths, 8, &calls, &opt,
				 &lineloc_libc_alloc, &t, &tsize, NULL))
		__builtin_trap();
	if (lineloc_check(t, tsize))
		__builtin_trap();
	for (i = 0; i < n; i++) {
		struct lineloc_loc loc;

		if (rows[i].end || (i && rows[i - 1].off == rows[i].off) ||
		    (i + 1 < n && rows[i + 1].off == rows[i].off))
			continue;
		/* without the chain, read past: the same line */
		if (lineloc_lookup(t, tsize, rows[i].off, &loc) ||
		    loc.line != rows[i].line)
			__builtin_trap();
		if (lineloc_lookup_calls(t, tsize, rows[i].off, &loc, c,
					 LINELOC_MAX_DEPTH, &nc) ||
		    loc.line != rows[i].line ||
		    loc.name_len != strlen(paths[rows[i].file]) -
				    loc.dir_len ||
		    nc != depth_of(inl, row_inl[i]))
			__builtin_trap();
		for (j = 0, k = row_inl[i]; j < nc; j++, k = inl[k - 1].parent) {
			if (c[j].line != inl[k - 1].line ||
			    lineloc_path(t, tsize, c[j].file, &loc) ||
			    loc.dir_len + loc.name_len !=
			    strlen(paths[inl[k - 1].file]) ||
			    memcmp(loc.dir, paths[inl[k - 1].file], loc.dir_len) ||
			    lineloc_name(t, tsize, c[j].name, name, &len) ||
			    len != strlen(names[inl[k - 1].name]) ||
			    memcmp(name, names[inl[k - 1].name], len))
				__builtin_trap();
		}
	}
	free(t);
	free(rows);
	free(row_inl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u32 off;
	size_t i;

	if (size < 1)
		return 0;
	if (!base[0])
		make_base();
	switch (data[0] % 4) {
	case 0:
		data++;
		size--;
		lineloc_check_header(data, size);
		for (i = 0; i + 4 <= size && i < 64; i += 4) {
			memcpy(&off, data + i, 4);
			look(data, size, off);
		}
		look_blocks(data, size);
		break;
	case 1:
		mode_edit(data + 1, size - 1);
		break;
	case 2:
		mode_rows(data + 1, size - 1);
		break;
	default:
		mode_chains(data + 1, size - 1);
		break;
	}
	return 0;
}
