// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for linetab_dec.c, the line-table decoder the kernel
 * and the host tool share, and a round trip through linetab_enc.c.
 * Input: a mode byte, then
 *   mode 0: a table; lookups at offsets taken from its first bytes and at
 *           every block start and the offset before it;
 *   mode 1: edits (position, xor value) applied to a valid table built
 *           once from fixed rows (with a dictionary), with its own codes
 *           for an odd number of bytes, the shared codes for an even one;
 *           lookups all over it;
 *   mode 2: rows (8 bytes each) for the encoder, with the shared codes
 *           when the third byte's top bit is set; its table must pass
 *           lineloc_check() and answer every row start as the rows say.
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


static uint64_t sink;

static void look(const uint8_t *t, size_t size, u32 off)
{
	struct lineloc_loc loc;
	int ret = lineloc_lookup(t, size, off, &loc);

	if (ret < -LINELOC_E_CODESET || ret > LINELOC_UNKNOWN)
		__builtin_trap();
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

static uint8_t *base[2];
static size_t base_size[2];

/*
 * Valid tables: 3 sequences over 8 files, blocks of 5 rows; with their own
 * codes, and with the shared codes.
 */
static void make_base(void)
{
	struct lineloc_enc_opts opt = { .block_rows = 5 };
	struct lineloc_row rows[200];
	u32 i, n = 0, off = 0x100;

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
}

static void mode_edit(const uint8_t *data, size_t size)
{
	size_t i, bs = base_size[size % 2 == 0];
	uint8_t *t = malloc(bs);
	u32 pos;

	memcpy(t, base[size % 2 == 0], bs);
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u32 off;
	size_t i;

	if (size < 1)
		return 0;
	if (!base[0])
		make_base();
	switch (data[0] % 3) {
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
	default:
		mode_rows(data + 1, size - 1);
		break;
	}
	return 0;
}
