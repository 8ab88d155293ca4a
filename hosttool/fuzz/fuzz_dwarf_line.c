// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for dwarf_line.c, the decoder lineloc and the kernel
 * share.  Input: one flags byte (bit 0: big-endian), then .debug_line
 * bytes.  A fixed .debug_line_str/.debug_str stands in for the string
 * sections.  Build: make -f hosttool/hosttool.mk fuzz-hosttool
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <linux/lineloc/dwarf.h>

static const u8 strs[] = "/src\0dir\0file.c\0\0x";

struct sink {
	u64 rows, sum;
};

static int entry(void *arg, const struct lineloc_dwarf_entry *e)
{
	struct sink *s = arg;

	/* Touch what the decoder handed out, so ASan checks it. */
	if (e->path)
		s->sum += strlen(e->path);
	if (e->md5)
		s->sum += e->md5[0] + e->md5[15];
	return 0;
}

static int row(void *arg, const struct lineloc_dwarf_row *r)
{
	struct sink *s = arg;

	s->rows++;
	s->sum += r->address + r->line + r->file;
	return s->rows > (1u << 20);	/* bound the time per input */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lineloc_dwarf_ops ops = { row, entry };
	struct lineloc_dwarf_ctx ctx;
	struct lineloc_dwarf_unit u;
	struct sink s = { 0, 0 };
	u64 off = 0;
	int n = 0;

	if (size < 1)
		return 0;
	memset(&ctx, 0, sizeof(ctx));
	ctx.big_endian = data[0] & 1;
	ctx.line = data + 1;
	ctx.line_size = size - 1;
	ctx.line_str = strs;
	ctx.line_str_size = sizeof(strs) - 1;	/* last string unterminated */
	ctx.str = strs;
	ctx.str_size = sizeof(strs) - 1;
	while (off < ctx.line_size && n++ < 64) {
		if (lineloc_dwarf_parse_header(&ctx, off, &u))
			break;
		if (u.end <= off)
			__builtin_trap();	/* must always progress */
		lineloc_dwarf_entries(&ctx, &u, LINELOC_DW_DIRS, entry, &s);
		lineloc_dwarf_entries(&ctx, &u, LINELOC_DW_FILES, entry, &s);
		lineloc_dwarf_run(&ctx, &u, &ops, &s);
		off = u.end;
	}
	return 0;
}
