// SPDX-License-Identifier: GPL-2.0
/*
 * lineloc - read DWARF .debug_line from any ELF file on any host
 *
 *   lineloc --rows FILE            every row: path:line 0xaddr [section] [end]
 *   lineloc -e FILE [-j SECTION] [ADDR...]
 *                                  addr2line-style lookup (stdin if no ADDR)
 *   lineloc --stats FILE           counts: rows, addresses, files, versions
 *
 * ELF32/ELF64 of either byte order, executables and relocatable objects
 * (relocations against .debug_line/.debug_info applied for x86_64, i386,
 * arm and arm64), SHF_COMPRESSED sections via zlib.  Sections are read with
 * pread(), never by mapping the whole file, and every address and offset is
 * 64-bit, so a 32-bit build reads a 590 MB vmlinux and prints the same bytes
 * as a 64-bit one.  The line programs are decoded by dwarf_line.c, the
 * allocation-free decoder shared with the kernel and the fuzz target.
 *
 * In an executable, rows are clipped to the address ranges of the unit
 * that owns their line table (.debug_aranges, or the unit DIE's
 * DW_AT_low_pc/high_pc/ranges), so that lineloc answers where addr2line and
 * llvm-symbolizer do and nowhere else; --all-rows gives the line programs
 * whole.  Relocatable objects are not clipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "dwarf_line.h"
#include "dwarf_cursor.h"

#define ET_REL		1
#define SHT_SYMTAB	2
#define SHT_RELA	4
#define SHT_NOBITS	8
#define SHT_REL		9
#define SHF_COMPRESSED	0x800
#define SHN_XINDEX	0xffff
#define ELFCOMPRESS_ZLIB 1

#define EM_386		3
#define EM_ARM		40
#define EM_X86_64	62
#define EM_AARCH64	183

static const char *prog = "lineloc";
static const char *in_path;	/* the input file, named by every error */

/* ---- output and errors ------------------------------------------------ */

static FILE *out;
static char *out_tmp;		/* -o: temporary file to remove on error */
static char obuf[1 << 16];
static size_t olen;

static void out_flush(void)
{
	if (olen && fwrite(obuf, 1, olen, out) != olen) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
		if (out_tmp)
			unlink(out_tmp);
		exit(1);
	}
	olen = 0;
}

static void out_mem(const char *s, size_t n)
{
	if (olen + n > sizeof(obuf)) {
		out_flush();
		if (n > sizeof(obuf)) {
			if (fwrite(s, 1, n, out) != n)
				olen = sizeof(obuf) + 1;	/* caught below */
			return;
		}
	}
	memcpy(obuf + olen, s, n);
	olen += n;
}

static void out_str(const char *s)
{
	out_mem(s, strlen(s));
}

static void out_dec(uint64_t v)
{
	char b[24];
	int i = sizeof(b);

	do {
		b[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	out_mem(b + i, sizeof(b) - i);
}

static void out_hex(uint64_t v)
{
	char b[24];
	int i = sizeof(b);

	do {
		b[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	b[--i] = 'x';
	b[--i] = '0';
	out_mem(b + i, sizeof(b) - i);
}

/* Any error ends here: one line, no partial -o file, exit status 1. */
static void __attribute__((noreturn, format(printf, 3, 4)))
die(const char *file, const char *where, const char *fmt, ...)
{
	va_list ap;

	if (out)
		out_flush();
	if (out == stdout)
		fflush(stdout);
	if (out_tmp)
		unlink(out_tmp);
	fprintf(stderr, "%s: ", prog);
	if (file)
		fprintf(stderr, "%s: ", file);
	if (where)
		fprintf(stderr, "%s: ", where);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/*
 * Allocation failures are one error line like any other.  Sizes taken from
 * the file are bounded by what the file can hold before they get here.
 */
static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die(in_path, NULL, "out of memory (%zu bytes)", n);
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die(in_path, NULL, "out of memory (%zu bytes)", n);
	return p;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		die(in_path, NULL, "out of memory (%zu x %zu bytes)", n, size);
	return p;
}

/* @n elements of @size for @what; on a 32-bit host n * size may not fit. */
static void *xalloc_array(const char *what, uint64_t n, size_t size)
{
	if (n > SIZE_MAX / size)
		die(in_path, NULL, "%s: %" PRIu64 " entries are too many for this host",
		    what, n);
	return xmalloc((size_t)n * size);
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

/* qsort() that accepts an empty (NULL) array. */
static void sort(void *base, size_t n, size_t size,
		 int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* Grow an array to hold at least @need elements of @size bytes. */
static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	if (need > SIZE_MAX / 2 / size)
		die(in_path, NULL, "out of memory (%zu entries of %zu bytes)",
		    need, size);
	*cap = need < 16 ? 16 : need * 2;
	return xrealloc(p, *cap * size);
}

/* ---- ELF ---------------------------------------------------------------- */

struct section {
	const char *name;
	uint32_t name_off;	/* sh_name */
	uint64_t hdr;		/* file offset of the section header */
	uint32_t type;
	uint64_t flags, addr, off, size, entsize;
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
	void (*w32)(uint8_t *p, uint32_t v);
	void (*w64)(uint8_t *p, uint64_t v);
	struct line_reloc *lrel;
	size_t nlrel;
};

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

static void wle32(uint8_t *p, uint32_t v)
{
	p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
}

static void wbe32(uint8_t *p, uint32_t v)
{
	p[3] = v; p[2] = v >> 8; p[1] = v >> 16; p[0] = v >> 24;
}

static void wle64(uint8_t *p, uint64_t v)
{
	wle32(p, (uint32_t)v);
	wle32(p + 4, (uint32_t)(v >> 32));
}

static void wbe64(uint8_t *p, uint64_t v)
{
	wbe32(p + 4, (uint32_t)v);
	wbe32(p, (uint32_t)(v >> 32));
}

static char where_buf[512];

/* "SECTION+0xOFF" for error messages. */
static const char *at(const char *sec, uint64_t off)
{
	snprintf(where_buf, sizeof(where_buf), "%s+0x%" PRIx64, sec, off);
	return where_buf;
}

static void read_at(struct elf *e, uint64_t off, void *buf, uint64_t len,
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

/*
 * A section's bytes must lie inside the file, checked before anything is
 * allocated for them: a corrupt sh_size must not become malloc's argument.
 */
static void check_in_file(const struct elf *e, uint32_t i, const char *what)
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

static void elf_open(struct elf *e, const char *path)
{
	uint8_t h[64], sh[64];
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
	if (e->file_size < 52)
		die(path, NULL, "not an ELF file (too short)");
	read_at(e, 0, h, e->file_size < 64 ? 52 : 64, "ELF header");
	if (memcmp(h, "\177ELF", 4))
		die(path, NULL, "not an ELF file");
	if (h[4] != 1 && h[4] != 2)
		die(path, NULL, "bad ELF class %u", h[4]);
	if (h[5] != 1 && h[5] != 2)
		die(path, NULL, "bad ELF data encoding %u", h[5]);
	e->is64 = h[4] == 2;
	e->big = h[5] == 2;
	/* Byte order is decided here, once; everything reads through these. */
	e->r16 = e->big ? be16 : le16;
	e->r32 = e->big ? be32 : le32;
	e->r64 = e->big ? be64 : le64;
	e->w32 = e->big ? wbe32 : wle32;
	e->w64 = e->big ? wbe64 : wle64;
	if (e->is64 && e->file_size < 64)
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
	if (shentsize < (e->is64 ? 64u : 40u))
		die(path, NULL, "bad section header size %u (e_shentsize)",
		    shentsize);
	/* More than 0xff00 sections: the real counts live in section 0. */
	read_at(e, shoff, sh, e->is64 ? 64 : 40, "section header 0 (e_shoff)");
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
	for (i = 0; i < e->shnum; i++) {
		struct section *s = &e->sec[i];

		s->hdr = shoff + (uint64_t)i * shentsize;
		read_at(e, s->hdr, sh, e->is64 ? 64 : 40, "section header");
		s->name = "?";
		s->name_off = e->r32(sh);
		s->type = e->r32(sh + 4);
		if (e->is64) {
			s->flags = e->r64(sh + 8);
			s->addr = e->r64(sh + 16);
			s->off = e->r64(sh + 24);
			s->size = e->r64(sh + 32);
			s->link = e->r32(sh + 40);
			s->info = e->r32(sh + 44);
			s->entsize = e->r64(sh + 56);
		} else {
			s->flags = e->r32(sh + 8);
			s->addr = e->r32(sh + 12);
			s->off = e->r32(sh + 16);
			s->size = e->r32(sh + 20);
			s->link = e->r32(sh + 24);
			s->info = e->r32(sh + 28);
			s->entsize = e->r32(sh + 36);
		}
		s->data = NULL;
	}
	ns = &e->sec[shstrndx];
	check_in_file(e, shstrndx, "section name table");
	names = xmalloc((size_t)ns->size + 1);
	read_at(e, ns->off, names, ns->size, "section name table");
	names[ns->size] = 0;
	for (i = 0; i < e->shnum; i++)
		if (e->sec[i].name_off < ns->size)
			e->sec[i].name = names + e->sec[i].name_off;
}

static int elf_find(const struct elf *e, const char *name)
{
	uint32_t i;

	for (i = 1; i < e->shnum; i++)
		if (!strcmp(e->sec[i].name, name) && e->sec[i].type != SHT_NOBITS)
			return (int)i;
	return -1;
}

/* Raw contents of section @i (no decompression, no relocation). */
static uint8_t *elf_raw(struct elf *e, uint32_t i)
{
	struct section *s = &e->sec[i];
	uint8_t *p;

	if (s->type == SHT_NOBITS)
		return xmalloc(1);
	check_in_file(e, i, s->name);
	p = xmalloc((size_t)s->size + 1);
	read_at(e, s->off, p, s->size, s->name);
	return p;
}

static void decompress(struct elf *e, struct section *s)
{
	uint64_t hdr = e->is64 ? 24 : 12, size;
	uint32_t type;

	if (s->data_size < hdr)
		die(e->path, at(s->name, 0), "truncated compression header");
	type = e->r32(s->data);
	size = e->is64 ? e->r64(s->data + 8) : e->r32(s->data + 4);
	if (type != ELFCOMPRESS_ZLIB)
		die(e->path, at(s->name, 0), "unsupported compression type %u",
		    type);
	/* Deflate expands at most 1032:1; a larger claim is corrupt. */
	if (size / 1032 > s->data_size)
		die(e->path, at(s->name, e->is64 ? 8 : 4),
		    "ch_size 0x%" PRIx64 " is impossible for 0x%" PRIx64
		    " compressed bytes", size, s->data_size - hdr);
#ifdef HAVE_ZLIB
	{
		uLongf dlen = (uLongf)size;
		uint8_t *d;

		if ((uint64_t)dlen != size || size > SIZE_MAX - 1)
			die(e->path, at(s->name, e->is64 ? 8 : 4),
			    "ch_size 0x%" PRIx64 " is too large for this host",
			    size);
		d = xmalloc((size_t)size + 1);
		if (uncompress(d, &dlen, s->data + hdr,
			       (uLong)(s->data_size - hdr)) != Z_OK ||
		    dlen != size)
			die(e->path, at(s->name, hdr), "zlib data is corrupt");
		free(s->data);
		s->data = d;
		s->data_size = size;
	}
#else
	(void)size;
	die(e->path, at(s->name, 0),
	    "compressed section, but lineloc was built without zlib");
#endif
}

/* Size of relocation @type's field, 0 for "none", -1 if unknown. */
static int reloc_size(uint16_t machine, uint32_t type)
{
	switch (machine) {
	case EM_X86_64:
		if (type == 0)
			return 0;
		if (type == 1)			/* R_X86_64_64 */
			return 8;
		if (type == 10 || type == 11)	/* R_X86_64_32, _32S */
			return 4;
		break;
	case EM_386:
		if (type == 0)
			return 0;
		if (type == 1)			/* R_386_32 */
			return 4;
		break;
	case EM_ARM:
		if (type == 0)
			return 0;
		if (type == 2)			/* R_ARM_ABS32 */
			return 4;
		break;
	case EM_AARCH64:
		if (type == 0 || type == 256)
			return 0;
		if (type == 257)		/* R_AARCH64_ABS64 */
			return 8;
		if (type == 258)		/* R_AARCH64_ABS32 */
			return 4;
		break;
	}
	return -1;
}

/*
 * Apply the REL/RELA sections that target section @target of a
 * relocatable object.  @strict: an unknown type is an error (.debug_line);
 * otherwise it is left alone (.debug_info carries TLS offsets in DIEs that
 * lineloc never reads).  @record: remember each applied relocation's
 * symbol section, to name the section of every line sequence.
 */
static void apply_relocs(struct elf *e, uint32_t target, int strict,
			 int record)
{
	struct section *t = &e->sec[target];
	uint32_t i;

	for (i = 1; i < e->shnum; i++) {
		struct section *r = &e->sec[i];
		int rela = r->type == SHT_RELA;
		uint64_t ent = rela ? (e->is64 ? 24 : 12) : (e->is64 ? 16 : 8);
		uint64_t symsz = e->is64 ? 24 : 16, nsym, j;
		uint8_t *rd, *sd;
		size_t cap = 0;

		if ((r->type != SHT_REL && !rela) || r->info != target)
			continue;
		if (r->link >= e->shnum || e->sec[r->link].type != SHT_SYMTAB)
			die(e->path, at(r->name, 0), "bad symbol table link %u",
			    r->link);
		rd = elf_raw(e, i);
		sd = elf_raw(e, r->link);
		nsym = e->sec[r->link].size / symsz;
		if (record)
			cap = e->nlrel;
		for (j = 0; j + ent <= r->size; j += ent) {
			uint8_t *p = rd + j, *sym;
			uint64_t off, info, addend, value, symi;
			uint32_t type, shndx;
			int size;

			if (e->is64) {
				off = e->r64(p);
				info = e->r64(p + 8);
				addend = rela ? e->r64(p + 16) : 0;
				type = (uint32_t)info;
				symi = info >> 32;
			} else {
				off = e->r32(p);
				info = e->r32(p + 4);
				addend = rela ? (uint64_t)(int64_t)(int32_t)
						e->r32(p + 8) : 0;
				type = info & 0xff;
				symi = info >> 8;
			}
			size = reloc_size(e->machine, type);
			if (size < 0) {
				if (!strict)
					continue;
				die(e->path, at(r->name, j),
				    "unsupported relocation type %u for machine %u against %s",
				    type, e->machine, t->name);
			}
			if (!size)
				continue;
			if (off > t->data_size || (uint64_t)size > t->data_size - off)
				die(e->path, at(r->name, j),
				    "relocation at 0x%" PRIx64
				    " is outside %s (size 0x%" PRIx64 ")",
				    off, t->name, t->data_size);
			if (symi >= nsym)
				die(e->path, at(r->name, j),
				    "bad symbol index %" PRIu64, symi);
			sym = sd + symi * symsz;
			if (e->is64) {
				value = e->r64(sym + 8);
				shndx = e->r16(sym + 6);
			} else {
				value = e->r32(sym + 4);
				shndx = e->r16(sym + 14);
			}
			if (!rela)	/* REL: the addend is in place */
				addend = size == 8 ? e->r64(t->data + off)
						   : e->r32(t->data + off);
			value += addend;
			if (size == 8)
				e->w64(t->data + off, value);
			else
				e->w32(t->data + off, (uint32_t)value);
			if (record) {
				e->lrel = grow(e->lrel, &cap, e->nlrel + 1,
					       sizeof(*e->lrel));
				e->lrel[e->nlrel].off = off;
				e->lrel[e->nlrel++].shndx = shndx;
			}
		}
		free(rd);
		free(sd);
	}
}

/* Load a section: read, decompress, relocate (ET_REL only). */
static struct section *elf_load(struct elf *e, const char *name, int strict,
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
	if (s->flags & SHF_COMPRESSED)
		decompress(e, s);
	/*
	 * Executables keep their relocations with --emit-relocs (Debian's
	 * vmlinux has .rela.debug_line); they are already applied there.
	 */
	if (e->type == ET_REL)
		apply_relocs(e, (uint32_t)i, strict, record);
	return s;
}

static int cmp_lrel(const void *a, const void *b)
{
	const struct line_reloc *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* Section index of the relocation at .debug_line offset @off, or 0. */
static uint32_t lrel_shndx(const struct elf *e, uint64_t off)
{
	size_t lo = 0, hi = e->nlrel;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->lrel[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < e->nlrel && e->lrel[lo].off == off ? e->lrel[lo].shndx : 0;
}

/* ---- compilation units: .debug_info, .debug_aranges, address ranges ---- */

/*
 * Each line table belongs to the unit whose DW_AT_stmt_list points at it.
 * That unit's first DIE gives DW_AT_comp_dir, which DWARF 2-4 tables need
 * for directory index 0, and the addresses the unit covers:
 * DW_AT_low_pc/DW_AT_high_pc, or DW_AT_ranges into .debug_ranges (DWARF
 * 2-4) or .debug_rnglists (DWARF 5; DW_FORM_rnglistx through
 * DW_AT_rnglists_base, addresses by index through .debug_addr and
 * DW_AT_addr_base).  A unit that .debug_aranges lists takes its ranges from
 * there instead, as llvm-symbolizer does.
 *
 * Only each unit's first DIE is read: for an executable a few KiB per unit
 * through pread(), never the whole (164 MB in Debian's vmlinux) section.
 * Values are read with the checked readers of dwarf_cursor.h.  Nothing here
 * is an error: a unit that cannot be read is "unreadable" and its line
 * table is kept whole (lineloc reports only .debug_line errors).
 */

#define DW_AT_stmt_list		0x10
#define DW_AT_low_pc		0x11
#define DW_AT_high_pc		0x12
#define DW_AT_comp_dir		0x1b
#define DW_AT_ranges		0x55
#define DW_AT_addr_base		0x73
#define DW_AT_rnglists_base	0x74

#define DW_RLE_end_of_list	0x00
#define DW_RLE_base_addressx	0x01
#define DW_RLE_startx_endx	0x02
#define DW_RLE_startx_length	0x03
#define DW_RLE_offset_pair	0x04
#define DW_RLE_base_address	0x05
#define DW_RLE_start_end	0x06
#define DW_RLE_start_length	0x07

#define NO_OFFSET UINT64_MAX
#define UNIT_CHUNK 4096		/* first read of a unit; then up to 1 MiB */
#define UNIT_CHUNK_MAX 0x100000

/* Where a unit's address ranges come from. */
enum cu_how { CU_NONE, CU_ARANGES, CU_DIE, CU_UNREADABLE };

struct cu {
	uint64_t offset, next;	/* .debug_info offsets of it and the next */
	uint64_t stmt_list;	/* NO_OFFSET: none */
	char *comp_dir;
	uint8_t version, asz, osz;
	uint8_t has_low, low_index, has_high, high_kind, has_ranges;
	uint8_t ranges_index, listed;
	uint64_t low, high, ranges;
	uint64_t addr_base, rnglists_base;	/* NO_OFFSET: absent */
	enum cu_how how;
};

/* An address range [lo, hi) of unit @cu (an index into struct cus). */
struct cu_range {
	uint64_t lo, hi;
	size_t cu;
};

struct cus {
	struct cu *cu;
	size_t n, cap;
	int complete;		/* every unit read as far as DW_AT_stmt_list */
	int lists_loaded;	/* .debug_addr, .debug_ranges, .debug_rnglists */
	struct cu_range *r;
	size_t nr, rcap;
	struct dwarf_line_ctx ctx;	/* byte order; errors land here */
	struct section *abbrev, *str, *lstr, *addr, *rnglists, *ranges;
};

/* The value of one attribute, by form class. */
enum val_kind { V_SKIP, V_NUM, V_ADDR, V_INDEX, V_STR };

struct val {
	enum val_kind kind;
	uint64_t num;
	const char *str;
};

static void sec_cursor(struct cursor *c, const struct section *s, uint64_t pos)
{
	c->buf = s->data;
	c->pos = pos;
	c->end = s->data_size;
}

/* A string at @off of @s, or NULL (never an error). */
static const char *str_or_null(struct cus *cs, const struct section *s,
			       uint64_t off)
{
	const char *p = NULL;

	if (!s || str_at(&cs->ctx, 0, s->data, s->data_size, off, &p))
		return NULL;
	return p;
}

/* Read one attribute value of @form at @c; <0 for a form with no known size. */
static int die_value(struct cus *cs, struct cursor *c, const struct cu *cu,
		     uint64_t form, uint64_t implicit, struct val *v)
{
	struct dwarf_line_ctx *ctx = &cs->ctx;
	uint64_t n;
	int err;

	v->kind = V_NUM;
	v->num = 0;
	v->str = NULL;
	for (;;) {
		switch (form) {
		case DW_FORM_addr:
			v->kind = V_ADDR;
			return read_un(ctx, c, cu->asz, &v->num);
		case DW_FORM_addrx: case DW_FORM_GNU_addr_index:
			v->kind = V_INDEX;
			return read_uleb(ctx, c, &v->num);
		case DW_FORM_addrx1: case DW_FORM_addrx2: case DW_FORM_addrx3:
		case DW_FORM_addrx4:
			v->kind = V_INDEX;
			return read_un(ctx, c, (unsigned int)(form - DW_FORM_addrx1 + 1),
				       &v->num);
		case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag:
			return read_un(ctx, c, 1, &v->num);
		case DW_FORM_data2: case DW_FORM_ref2:
			return read_un(ctx, c, 2, &v->num);
		case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_ref_sup4:
			return read_un(ctx, c, 4, &v->num);
		case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8:
		case DW_FORM_ref_sup8:
			return read_un(ctx, c, 8, &v->num);
		case DW_FORM_strx1: case DW_FORM_strx2: case DW_FORM_strx3:
		case DW_FORM_strx4:	/* strings by index: not resolved */
			v->kind = V_SKIP;
			return read_un(ctx, c, (unsigned int)(form - DW_FORM_strx1 + 1),
				       &v->num);
		case DW_FORM_sdata:
			return read_sleb(ctx, c, &v->num);
		case DW_FORM_udata: case DW_FORM_ref_udata:
			return read_uleb(ctx, c, &v->num);
		case DW_FORM_strx: case DW_FORM_GNU_str_index:
		case DW_FORM_loclistx:
			v->kind = V_SKIP;
			return read_uleb(ctx, c, &v->num);
		case DW_FORM_rnglistx:
			v->kind = V_INDEX;
			return read_uleb(ctx, c, &v->num);
		case DW_FORM_sec_offset:
			return read_un(ctx, c, cu->osz, &v->num);
		case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt:
		case DW_FORM_GNU_strp_alt:
			v->kind = V_SKIP;
			return read_un(ctx, c, cu->osz, &v->num);
		case DW_FORM_strp: case DW_FORM_line_strp:
			err = read_un(ctx, c, cu->osz, &n);
			if (err)
				return err;
			v->kind = V_STR;
			v->str = str_or_null(cs, form == DW_FORM_strp ? cs->str :
					     cs->lstr, n);
			return 0;
		case DW_FORM_string:
			v->kind = V_STR;
			return read_cstr(ctx, c, &v->str);
		case DW_FORM_ref_addr:
			v->kind = V_SKIP;
			return skip(ctx, c, cu->version == 2 ? cu->asz : cu->osz);
		case DW_FORM_data16:
			v->kind = V_SKIP;
			return skip(ctx, c, 16);
		case DW_FORM_block1: case DW_FORM_block2: case DW_FORM_block4:
			v->kind = V_SKIP;
			err = read_un(ctx, c, form == DW_FORM_block1 ? 1 :
				      form == DW_FORM_block2 ? 2 : 4, &n);
			return err ? err : skip(ctx, c, n);
		case DW_FORM_block: case DW_FORM_exprloc:
			v->kind = V_SKIP;
			err = read_uleb(ctx, c, &n);
			return err ? err : skip(ctx, c, n);
		case DW_FORM_flag_present:
			v->num = 1;
			return 0;
		case DW_FORM_implicit_const:
			v->num = implicit;
			return 0;
		case DW_FORM_indirect:
			err = read_uleb(ctx, c, &form);
			if (err)
				return err;
			if (form == DW_FORM_indirect ||
			    form == DW_FORM_implicit_const)
				return -DWL_E_FORM;
			continue;
		default:
			return -DWL_E_FORM;
		}
	}
}

/* Find abbreviation @code in the table at @off; leave @a at its attributes. */
static int find_abbrev(struct cus *cs, uint64_t off, uint64_t code,
		       struct cursor *a)
{
	struct dwarf_line_ctx *ctx = &cs->ctx;
	uint64_t ac, v, name, form;
	int err;

	if (!cs->abbrev)
		return -1;
	sec_cursor(a, cs->abbrev, off);
	for (;;) {
		err = read_uleb(ctx, a, &ac);
		if (err || !ac)
			return -1;
		err = read_uleb(ctx, a, &v);		/* tag */
		if (!err)
			err = skip(ctx, a, 1);		/* children */
		if (err)
			return -1;
		if (ac == code)
			return 0;
		do {
			err = read_uleb(ctx, a, &name);
			if (!err)
				err = read_uleb(ctx, a, &form);
			if (!err && form == DW_FORM_implicit_const)
				err = read_sleb(ctx, a, &v);
			if (err)
				return -1;
		} while (name || form);
	}
}

/*
 * The header and first DIE of the unit whose first @n bytes are at @buf
 * (@total: the unit's size).  Return 0, -1 if it cannot be read, or 1 if
 * it was cut short by @n < @total (read more and try again).
 */
static int read_unit_die(struct cus *cs, struct cu *cu, const uint8_t *buf,
			 uint64_t n, uint64_t total)
{
	struct dwarf_line_ctx *ctx = &cs->ctx;
	struct cursor c = { buf, 0, n < total ? n : total }, a;
	uint64_t v, abbr_off, code, name, form, implicit;
	uint8_t ut = 1;
	struct val val;
	int err;

	err = read_un(ctx, &c, 4, &v);
	if (!err && v == 0xffffffff)
		err = read_un(ctx, &c, 8, &v);
	if (!err)
		err = read_un(ctx, &c, 2, &v);
	if (err)
		goto fail;
	if (v < 2 || v > 5)
		return -1;
	cu->version = (uint8_t)v;
	if (cu->version >= 5) {
		err = read_u8(ctx, &c, &ut);
		if (!err)
			err = read_u8(ctx, &c, &cu->asz);
		if (!err)
			err = read_un(ctx, &c, cu->osz, &abbr_off);
		if (!err && (ut == 4 || ut == 5))	/* skeleton, split */
			err = skip(ctx, &c, 8);
		else if (!err && (ut == 2 || ut == 6))	/* type units */
			err = skip(ctx, &c, 8 + cu->osz);
	} else {
		err = read_un(ctx, &c, cu->osz, &abbr_off);
		if (!err)
			err = read_u8(ctx, &c, &cu->asz);
	}
	if (!err)
		err = read_uleb(ctx, &c, &code);
	if (err)
		goto fail;
	if (!code || cu->asz < 1 || cu->asz > 8 ||
	    find_abbrev(cs, abbr_off, code, &a))
		return -1;
	for (;;) {
		implicit = 0;
		if (read_uleb(ctx, &a, &name) || read_uleb(ctx, &a, &form) ||
		    (form == DW_FORM_implicit_const &&
		     read_sleb(ctx, &a, &implicit)))
			return -1;
		if (!name && !form)
			return 0;
		err = die_value(cs, &c, cu, form, implicit, &val);
		if (err)
			goto fail;
		switch (name) {
		case DW_AT_stmt_list:
			if (val.kind == V_NUM)
				cu->stmt_list = val.num;
			break;
		case DW_AT_comp_dir:
			if (val.str && !cu->comp_dir)
				cu->comp_dir = xstrdup(val.str);
			break;
		case DW_AT_low_pc:
			cu->has_low = val.kind == V_ADDR || val.kind == V_INDEX;
			cu->low_index = val.kind == V_INDEX;
			cu->low = val.num;
			break;
		case DW_AT_high_pc:
			cu->has_high = val.kind == V_ADDR || val.kind == V_INDEX ||
				       val.kind == V_NUM;
			cu->high_kind = (uint8_t)val.kind;
			cu->high = val.num;
			break;
		case DW_AT_ranges:
			cu->has_ranges = val.kind == V_NUM || val.kind == V_INDEX;
			cu->ranges_index = val.kind == V_INDEX;
			cu->ranges = val.num;
			break;
		case DW_AT_addr_base:
			if (val.kind == V_NUM)
				cu->addr_base = val.num;
			break;
		case DW_AT_rnglists_base:
			if (val.kind == V_NUM)
				cu->rnglists_base = val.num;
			break;
		}
	}
fail:
	return err == -DWL_E_TRUNCATED && n < total ? 1 : -1;
}

static int cmp_cu_range(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	if (x->cu != y->cu)
		return x->cu < y->cu ? -1 : 1;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

static void add_cu_range(struct cus *cs, size_t cu, uint64_t lo, uint64_t hi)
{
	if (lo >= hi)
		return;
	cs->r = grow(cs->r, &cs->rcap, cs->nr + 1, sizeof(*cs->r));
	cs->r[cs->nr].lo = lo;
	cs->r[cs->nr].hi = hi;
	cs->r[cs->nr++].cu = cu;
}

/* The unit that contains .debug_info offset @off, or -1. */
static long cu_at(const struct cus *cs, uint64_t off)
{
	size_t lo = 0, hi = cs->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cs->cu[mid].next <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < cs->n && cs->cu[lo].offset <= off ? (long)lo : -1;
}

/*
 * .debug_aranges: sets of (address, length) per unit.  Like llvm-symbolizer,
 * stop at the first set that cannot be read; the sets before it stand.
 */
static void read_aranges(struct elf *e, struct cus *cs)
{
	struct section *s = elf_load(e, ".debug_aranges", 0, 0);
	struct dwarf_line_ctx *ctx = &cs->ctx;
	uint64_t off = 0, len, v, cu_off, a, l, hdr;
	uint8_t asz, seg;
	struct cursor c;
	long cu;

	while (s && off < s->data_size) {
		unsigned int osz = 4;

		sec_cursor(&c, s, off);
		if (read_un(ctx, &c, 4, &len))
			return;
		if (len == 0xffffffff) {
			osz = 8;
			if (read_un(ctx, &c, 8, &len))
				return;
		} else if (len >= 0xfffffff0) {
			return;
		}
		if (len > left(&c))
			return;
		c.end = c.pos + len;
		if (read_un(ctx, &c, 2, &v) || v < 2 || v > 3 ||
		    read_un(ctx, &c, osz, &cu_off) || read_u8(ctx, &c, &asz) ||
		    read_u8(ctx, &c, &seg) || asz < 1 || asz > 8 || seg)
			return;
		/* The first tuple is aligned to twice the address size. */
		hdr = c.pos - off;
		hdr = (hdr + 2u * asz - 1) / (2u * asz) * (2u * asz);
		if (hdr > c.end - off)
			return;
		c.pos = off + hdr;
		cu = cu_at(cs, cu_off);
		if (cu >= 0 && cs->cu[cu].offset == cu_off)
			cs->cu[cu].listed = 1;
		while (left(&c) >= 2u * asz) {
			read_un(ctx, &c, asz, &a);
			read_un(ctx, &c, asz, &l);
			if (!a && !l)
				break;
			if (cu >= 0 && a + l > a)
				add_cu_range(cs, (size_t)cu, a, a + l);
		}
		off = c.end;
	}
}

/* Entry @index of .debug_addr for @cu. */
static int addr_index(struct cus *cs, const struct cu *cu, uint64_t index,
		      uint64_t *a)
{
	struct cursor c;

	if (!cs->addr || cu->addr_base == NO_OFFSET ||
	    cu->addr_base > cs->addr->data_size ||
	    index >= (cs->addr->data_size - cu->addr_base) / cu->asz)
		return -1;
	sec_cursor(&c, cs->addr, cu->addr_base + index * cu->asz);
	return read_un(&cs->ctx, &c, cu->asz, a) ? -1 : 0;
}

/* A DWARF 2-4 range list in .debug_ranges. */
static int read_ranges(struct cus *cs, size_t i, uint64_t base)
{
	const struct cu *cu = &cs->cu[i];
	uint64_t a, b, top = cu->asz >= 8 ? UINT64_MAX :
			    ((uint64_t)1 << (8 * cu->asz)) - 1;
	struct cursor c;

	if (!cs->ranges || cu->ranges >= cs->ranges->data_size)
		return -1;
	sec_cursor(&c, cs->ranges, cu->ranges);
	for (;;) {
		if (read_un(&cs->ctx, &c, cu->asz, &a) ||
		    read_un(&cs->ctx, &c, cu->asz, &b))
			return -1;
		if (!a && !b)
			return 0;
		if (a == top)
			base = b;
		else
			add_cu_range(cs, i, base + a, base + b);
	}
}

/* A DWARF 5 range list in .debug_rnglists (DW_RLE_* entries). */
static int read_rnglist(struct cus *cs, size_t i, uint64_t base)
{
	struct dwarf_line_ctx *ctx = &cs->ctx;
	const struct cu *cu = &cs->cu[i];
	uint64_t off = cu->ranges, x, y, a, b;
	struct cursor c;
	uint8_t kind;

	if (!cs->rnglists)
		return -1;
	if (cu->ranges_index) {
		/* Offsets after DW_AT_rnglists_base, relative to it. */
		if (cu->rnglists_base == NO_OFFSET ||
		    cu->rnglists_base > cs->rnglists->data_size ||
		    off >= (cs->rnglists->data_size - cu->rnglists_base) /
			   cu->osz)
			return -1;
		sec_cursor(&c, cs->rnglists, cu->rnglists_base + off * cu->osz);
		if (read_un(ctx, &c, cu->osz, &off))
			return -1;
		off += cu->rnglists_base;
	}
	if (off >= cs->rnglists->data_size)
		return -1;
	sec_cursor(&c, cs->rnglists, off);
	for (;;) {
		if (read_u8(ctx, &c, &kind))
			return -1;
		switch (kind) {
		case DW_RLE_end_of_list:
			return 0;
		case DW_RLE_base_addressx:
			if (read_uleb(ctx, &c, &x) || addr_index(cs, cu, x, &base))
				return -1;
			break;
		case DW_RLE_startx_endx:
			if (read_uleb(ctx, &c, &x) || read_uleb(ctx, &c, &y) ||
			    addr_index(cs, cu, x, &a) || addr_index(cs, cu, y, &b))
				return -1;
			add_cu_range(cs, i, a, b);
			break;
		case DW_RLE_startx_length:
			if (read_uleb(ctx, &c, &x) || read_uleb(ctx, &c, &y) ||
			    addr_index(cs, cu, x, &a))
				return -1;
			add_cu_range(cs, i, a, a + y);
			break;
		case DW_RLE_offset_pair:
			if (read_uleb(ctx, &c, &x) || read_uleb(ctx, &c, &y))
				return -1;
			add_cu_range(cs, i, base + x, base + y);
			break;
		case DW_RLE_base_address:
			if (read_un(ctx, &c, cu->asz, &base))
				return -1;
			break;
		case DW_RLE_start_end:
			if (read_un(ctx, &c, cu->asz, &a) ||
			    read_un(ctx, &c, cu->asz, &b))
				return -1;
			add_cu_range(cs, i, a, b);
			break;
		case DW_RLE_start_length:
			if (read_un(ctx, &c, cu->asz, &a) ||
			    read_uleb(ctx, &c, &y))
				return -1;
			add_cu_range(cs, i, a, a + y);
			break;
		default:
			return -1;
		}
	}
}

/*
 * The ranges of a unit that .debug_aranges does not list, from its DIE:
 * DW_AT_low_pc with DW_AT_high_pc (an address, or a length from low_pc),
 * else DW_AT_ranges, based at DW_AT_low_pc if there is one.
 */
static enum cu_how die_ranges(struct cus *cs, size_t i)
{
	struct cu *cu = &cs->cu[i];
	uint64_t low = 0, high;
	size_t nr = cs->nr;
	int ok;

	if (cu->has_low && cu->low_index && addr_index(cs, cu, cu->low, &low))
		return CU_UNREADABLE;
	if (cu->has_low && !cu->low_index)
		low = cu->low;
	if (cu->has_low && cu->has_high) {
		high = cu->high;
		if (cu->high_kind == V_INDEX && addr_index(cs, cu, high, &high))
			return CU_UNREADABLE;
		if (cu->high_kind == V_NUM)
			high += low;
		add_cu_range(cs, i, low, high);
		return CU_DIE;
	}
	if (!cu->has_ranges)
		return CU_NONE;
	ok = cu->version >= 5 ? !read_rnglist(cs, i, low) :
	     !read_ranges(cs, i, low);
	if (ok)
		return CU_DIE;
	cs->nr = nr;		/* a list that cannot be read counts for nothing */
	return CU_UNREADABLE;
}

/*
 * Read every unit's header and first DIE, then the address ranges:
 * .debug_aranges first, the DIEs for the units it does not list.
 */
static void read_units(struct elf *e, struct cus *cs)
{
	struct section *info;
	uint64_t off = 0, size;
	uint8_t chunk[UNIT_CHUNK];
	int i, whole;
	size_t k;

	memset(cs, 0, sizeof(*cs));
	cs->ctx.big_endian = e->big;
	cs->complete = 1;
	i = elf_find(e, ".debug_info");
	if (i < 0)
		return;
	cs->abbrev = elf_load(e, ".debug_abbrev", 0, 0);
	cs->str = elf_load(e, ".debug_str", 0, 0);
	cs->lstr = elf_load(e, ".debug_line_str", 0, 0);
	info = &e->sec[i];
	whole = e->type == ET_REL || (info->flags & SHF_COMPRESSED);
	if (whole)
		info = elf_load(e, ".debug_info", 0, 0);
	else
		check_in_file(e, (uint32_t)i, ".debug_info");
	size = whole ? info->data_size : info->size;

	while (off < size) {
		uint64_t len, total, n = size - off;
		uint8_t *big = NULL;
		const uint8_t *p;
		unsigned int hl = 4;
		struct cu *cu;
		int rc;

		/* The unit length, to know where the next one starts. */
		if (n < 4)
			break;
		if (whole) {
			p = info->data + off;
		} else {
			n = n < sizeof(chunk) ? n : sizeof(chunk);
			read_at(e, info->off + off, chunk, n, ".debug_info");
			p = chunk;
		}
		len = e->r32(p);
		if (len == 0xffffffff) {
			if (n < 12)
				break;
			hl = 12;
			len = e->r64(p + 4);
		} else if (len >= 0xfffffff0) {
			break;
		}
		if (len > size - off - hl)
			break;
		total = hl + len;
		cs->cu = grow(cs->cu, &cs->cap, cs->n + 1, sizeof(*cs->cu));
		cu = &cs->cu[cs->n++];
		memset(cu, 0, sizeof(*cu));
		cu->offset = off;
		cu->next = off + total;
		cu->osz = hl == 12 ? 8 : 4;
		cu->stmt_list = NO_OFFSET;
		cu->addr_base = NO_OFFSET;
		cu->rnglists_base = NO_OFFSET;
		rc = read_unit_die(cs, cu, p, n, total);
		if (rc > 0) {
			/* The first DIE is longer than the chunk: read more. */
			n = total < UNIT_CHUNK_MAX ? total : UNIT_CHUNK_MAX;
			big = xmalloc((size_t)n);
			read_at(e, info->off + off, big, n, ".debug_info");
			rc = read_unit_die(cs, cu, big, n, total);
			free(big);
		}
		if (rc) {
			cu->how = CU_UNREADABLE;
			if (cu->stmt_list == NO_OFFSET)
				cs->complete = 0;
		}
		off += total;
	}
	if (off < size)
		cs->complete = 0;	/* a unit length that cannot be right */

	read_aranges(e, cs);
	for (k = 0; k < cs->n; k++) {
		struct cu *cu = &cs->cu[k];

		if (cu->listed) {
			cu->how = CU_ARANGES;
			continue;
		}
		if (cu->how == CU_UNREADABLE)
			continue;
		if (!cs->lists_loaded) {
			/* Only for units that .debug_aranges does not list. */
			cs->lists_loaded = 1;
			cs->addr = elf_load(e, ".debug_addr", 0, 0);
			cs->ranges = elf_load(e, ".debug_ranges", 0, 0);
			cs->rnglists = elf_load(e, ".debug_rnglists", 0, 0);
		}
		cu->how = die_ranges(cs, k);
	}
	sort(cs->r, cs->nr, sizeof(*cs->r), cmp_cu_range);
}

static const struct cus *sort_cus;

static int cmp_by_stmt(const void *a, const void *b)
{
	const struct cu *x = &sort_cus->cu[*(const size_t *)a];
	const struct cu *y = &sort_cus->cu[*(const size_t *)b];

	if (x->stmt_list != y->stmt_list)
		return x->stmt_list < y->stmt_list ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Unit indexes sorted by DW_AT_stmt_list, then by offset. */
static size_t *units_by_stmt(const struct cus *cs)
{
	size_t *ix = xalloc_array("units", cs->n, sizeof(*ix)), k;

	for (k = 0; k < cs->n; k++)
		ix[k] = k;
	sort_cus = cs;
	sort(ix, cs->n, sizeof(*ix), cmp_by_stmt);
	return ix;
}

/* Position in @ix of the first unit whose DW_AT_stmt_list is @stmt. */
static size_t first_for_stmt(const struct cus *cs, const size_t *ix,
			     uint64_t stmt)
{
	size_t lo = 0, hi = cs->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cs->cu[ix[mid]].stmt_list < stmt)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Position in cs->r of the first range of unit @cu. */
static size_t first_range(const struct cus *cs, size_t cu)
{
	size_t lo = 0, hi = cs->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cs->r[mid].cu < cu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- paths -------------------------------------------------------------- */

/*
 * Lexical normalisation: "a//b", "a/./b" and "a/x/../b" become "a/b"; a
 * leading ".." of a relative path stays.  No symlinks are resolved: the
 * build machine's file system is not this one.
 */
static void normalize(char *path)
{
	char *src = path, *dst = path, *base;
	int abs = *path == '/';

	if (abs)
		dst = ++src;
	base = dst;
	/* dst never passes src: each segment is written over input consumed. */
	while (*src) {
		char *seg = src;
		size_t len;

		while (*src && *src != '/')
			src++;
		len = (size_t)(src - seg);
		if (*src)
			src++;
		if (!len || (len == 1 && seg[0] == '.'))
			continue;
		if (len == 2 && seg[0] == '.' && seg[1] == '.') {
			char *prev = dst;

			while (prev > base && prev[-1] != '/')
				prev--;
			if (prev < dst && !(dst - prev == 2 && prev[0] == '.' &&
					    prev[1] == '.')) {
				/* Drop the previous segment and its '/'. */
				dst = prev > base ? prev - 1 : prev;
				continue;
			}
			if (prev == dst && abs)
				continue;	/* "/.." is "/" */
		}
		if (dst > base)
			*dst++ = '/';
		memmove(dst, seg, len);
		dst += len;
	}
	*dst = 0;
	if (!*path)
		strcpy(path, ".");
}

/* Join @dir and @name ("" parts skipped), normalised, in a new string. */
static char *join(const char *dir, const char *name)
{
	size_t dl = dir ? strlen(dir) : 0, nl = strlen(name);
	char *p = xmalloc(dl + nl + 2);

	if (*name == '/' || !dl) {
		memcpy(p, name, nl + 1);
	} else {
		memcpy(p, dir, dl);
		p[dl] = '/';
		memcpy(p + dl + 1, name, nl + 1);
	}
	normalize(p);
	return p;
}

/* Interned paths: a file id per distinct resolved path. */
struct paths {
	char **str;
	const char **show;	/* after stripping the source root */
	size_t *showlen;
	size_t n, cap;
	uint32_t *hash;		/* open addressing, id + 1, 0 = empty */
	size_t hcap;
};

static uint32_t fnv(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

static uint32_t intern(struct paths *ps, char *s)
{
	size_t i;

	if (ps->n * 2 >= ps->hcap) {
		size_t j, ncap = ps->hcap ? ps->hcap * 2 : 1024;
		uint32_t *nh = xcalloc(ncap, sizeof(*nh));

		for (j = 0; j < ps->n; j++) {
			i = fnv(ps->str[j]) & (ncap - 1);
			while (nh[i])
				i = (i + 1) & (ncap - 1);
			nh[i] = (uint32_t)j + 1;
		}
		free(ps->hash);
		ps->hash = nh;
		ps->hcap = ncap;
	}
	i = fnv(s) & (ps->hcap - 1);
	while (ps->hash[i]) {
		uint32_t id = ps->hash[i] - 1;

		if (!strcmp(ps->str[id], s)) {
			free(s);
			return id;
		}
		i = (i + 1) & (ps->hcap - 1);
	}
	ps->str = grow(ps->str, &ps->cap, ps->n + 1, sizeof(*ps->str));
	ps->str[ps->n] = s;
	ps->hash[i] = (uint32_t)ps->n + 1;
	return (uint32_t)ps->n++;
}

/* ---- line tables ---------------------------------------------------------- */

#define NOFILE UINT32_MAX

struct unit {
	struct dwarf_line_unit h;
	const char *comp_dir;
	char **dirs;
	size_t ndirs, dcap;
	uint32_t *files;	/* by raw DWARF file index */
	size_t nfiles, fcap;
	int clip;		/* rows clipped to the ranges below */
	size_t rfirst, nranges;	/* the unit's address ranges in tables.rg */
};

/* An address range [lo, hi). */
struct range {
	uint64_t lo, hi;
};

/* Whether rows are clipped to the address ranges of their unit, and why not. */
enum clip_mode { CLIP_ON, CLIP_ALL_ROWS, CLIP_RELOCATABLE, CLIP_NO_INFO };

struct tables {
	struct elf elf;
	struct section *line;
	struct dwarf_line_ctx ctx;
	struct unit *units;
	size_t nunits;
	struct paths paths;
	struct paths dirs;	/* interned directory paths */
	struct cus cus;		/* the units of .debug_info, once read */
	size_t *by_stmt;	/* their indexes by DW_AT_stmt_list */
	int cus_read;
	enum clip_mode clip;
	struct range *rg;	/* merged ranges of each table, see unit.rfirst */
	size_t nrg, rgcap;
	size_t tables_without_unit, tables_clipped;
	char **strip;		/* prefixes, each ending in '/', longest first */
	size_t nstrip;
};

static struct unit *cur_unit;
static struct paths *cur_paths;
static struct paths *cur_dirs;
static struct tables *cur_tables;
static void set_shown(struct tables *t, size_t from);

static void dwl_die(struct tables *t, int err)
{
	char what[160];

	if (-err == DWL_E_VERSION || -err == DWL_E_ADDR_SIZE ||
	    -err == DWL_E_FORM || -err == DWL_E_SEG_SEL ||
	    -err == DWL_E_STR_OFFSET || -err == DWL_E_FORMAT_COUNT)
		snprintf(what, sizeof(what), "%s (0x%" PRIx64 ")",
			 dwarf_line_strerror(err), t->ctx.err_val);
	else
		snprintf(what, sizeof(what), "%s", dwarf_line_strerror(err));
	die(t->elf.path, at(".debug_line", t->ctx.err_off), "%s", what);
}

static int add_dir(void *arg, const struct dwarf_line_entry *e)
{
	struct unit *u = arg;
	const char *p = e->path ? e->path : "";
	uint32_t id;
	char *d;

	if (u->h.version >= 5 && e->index == 0) {
		d = xstrdup(p);
		if (*d)
			normalize(d);
	} else {
		d = join(u->comp_dir, p);
	}
	/* Interned: equal directories share one pointer (see add_file). */
	id = intern(cur_dirs, d);
	d = cur_dirs->str[id];
	if (u->h.version >= 5 && e->index == 0)
		u->comp_dir = d;
	u->dirs = grow(u->dirs, &u->dcap, u->ndirs + 1, sizeof(*u->dirs));
	u->dirs[u->ndirs++] = d;
	return 0;
}

/*
 * A kernel's units share most of their files: the 2,172 units of Debian's
 * vmlinux list 328,000 entries for 4,334 paths.  With DW_FORM_line_strp the
 * same name is the same pointer, and directories are interned, so the pair
 * (directory, name pointer) finds the path id without joining, normalising
 * and hashing the string again.
 */
struct file_key {
	const char *dir, *name;
	uint32_t id;
};

static struct file_key *fcache;
static size_t fcache_cap, fcache_n;

static size_t fkey_hash(const char *dir, const char *name)
{
	uint64_t h = (uint64_t)(uintptr_t)dir * 0x9e3779b97f4a7c15ull ^
		     (uint64_t)(uintptr_t)name * 0xc2b2ae3d27d4eb4full;

	return (size_t)(h ^ h >> 29);
}

static uint32_t file_id(const char *dir, const char *name)
{
	size_t i, mask;

	if (fcache_n * 2 >= fcache_cap) {
		struct file_key *old = fcache;
		size_t j, ocap = fcache_cap;

		fcache_cap = ocap ? ocap * 2 : 4096;
		fcache = xcalloc(fcache_cap, sizeof(*fcache));
		for (j = 0; j < ocap; j++) {
			if (!old[j].name)
				continue;
			i = fkey_hash(old[j].dir, old[j].name) & (fcache_cap - 1);
			while (fcache[i].name)
				i = (i + 1) & (fcache_cap - 1);
			fcache[i] = old[j];
		}
		free(old);
	}
	mask = fcache_cap - 1;
	i = fkey_hash(dir, name) & mask;
	while (fcache[i].name) {
		if (fcache[i].dir == dir && fcache[i].name == name)
			return fcache[i].id;
		i = (i + 1) & mask;
	}
	fcache[i].dir = dir;
	fcache[i].name = name;
	fcache[i].id = intern(cur_paths, join(dir, name));
	fcache_n++;
	return fcache[i].id;
}

static int add_file(void *arg, const struct dwarf_line_entry *e)
{
	struct unit *u = arg;
	const char *dir = e->dir_index < u->ndirs ? u->dirs[e->dir_index] :
			  u->comp_dir;
	uint32_t id = file_id(dir, e->path ? e->path : "??");

	while (u->nfiles < e->index) {		/* v2-4 index 0: no file */
		u->files = grow(u->files, &u->fcap, u->nfiles + 1,
				sizeof(*u->files));
		u->files[u->nfiles++] = NOFILE;
	}
	u->files = grow(u->files, &u->fcap, u->nfiles + 1, sizeof(*u->files));
	u->files[u->nfiles++] = id;
	return 0;
}

static int define_file(void *arg, const struct dwarf_line_entry *e)
{
	size_t before = cur_tables->paths.n;

	(void)arg;
	add_file(cur_unit, e);
	set_shown(cur_tables, before);
	return 0;
}

static int cmp_len_desc(const void *a, const void *b)
{
	size_t x = strlen(*(char *const *)a), y = strlen(*(char *const *)b);

	return x > y ? -1 : x < y;
}

static void add_strip(struct tables *t, const char *prefix)
{
	size_t n = strlen(prefix), i;
	char *p;

	while (n > 1 && prefix[n - 1] == '/')
		n--;
	if (!n)
		return;
	p = xmalloc(n + 2);
	memcpy(p, prefix, n);
	p[n] = '/';
	p[n + 1] = 0;
	for (i = 0; i < t->nstrip; i++)
		if (!strcmp(t->strip[i], p)) {
			free(p);
			return;
		}
	t->strip = xrealloc(t->strip, (t->nstrip + 1) * sizeof(*t->strip));
	t->strip[t->nstrip++] = p;
}

/* Length of the strip prefix @s starts with, 0 if none. */
static size_t strip_len(const struct tables *t, const char *s)
{
	size_t j, best = 0;

	for (j = 0; j < t->nstrip; j++) {
		size_t n = strlen(t->strip[j]);

		if (n > best && !strncmp(s, t->strip[j], n) && s[n])
			best = n;
	}
	return best;
}

/*
 * A kernel is recognised by its headers: whatever precedes "include/linux/"
 * in a path (other than the host's /usr/include) is a root of the source or
 * object tree.  Those roots and the compilation directories are stripped, so
 * kernel/panic.c and include/generated/autoconf.h print relative whether
 * the tree was absolute (/build/linux-6.1/...) or prefix-mapped to a
 * relative object directory (Debian: debian/build/build_amd64_.../).
 */
static void auto_strip(struct tables *t)
{
	static const char mark[] = "include/linux/";
	size_t i, kernel = 0;

	for (i = 0; i < t->paths.n; i++) {
		const char *s = t->paths.str[i], *m = s;
		char *root;

		while ((m = strstr(m, mark)) && m != s && m[-1] != '/')
			m++;
		if (!m || (m - s >= 5 && !strncmp(m - 5, "/usr/", 5)))
			continue;
		kernel = 1;
		if (m == s)
			continue;
		root = xmalloc((size_t)(m - s) + 1);
		memcpy(root, s, (size_t)(m - s));
		root[m - s] = 0;
		add_strip(t, root);
		free(root);
	}
	if (!kernel)
		return;
	for (i = 0; i < t->nunits; i++)
		if (t->units[i].comp_dir && t->units[i].comp_dir[0])
			add_strip(t, t->units[i].comp_dir);
	/*
	 * Assembler units list only .S files, with no header to learn the
	 * root from: in a kernel, what precedes "arch/" is the root too.
	 */
	for (i = 0; i < t->paths.n; i++) {
		const char *s = t->paths.str[i], *m = strstr(s, "/arch/");
		char *root;

		if (*s != '/' || !m || strip_len(t, s))
			continue;
		root = xmalloc((size_t)(m - s) + 2);
		memcpy(root, s, (size_t)(m - s) + 1);
		root[m - s + 1] = 0;
		add_strip(t, root);
		free(root);
	}
}

static void set_shown(struct tables *t, size_t from)
{
	size_t i;

	t->paths.show = xrealloc(t->paths.show,
				 (t->paths.cap ? t->paths.cap : 1) *
				 sizeof(*t->paths.show));
	t->paths.showlen = xrealloc(t->paths.showlen,
				    (t->paths.cap ? t->paths.cap : 1) *
				    sizeof(*t->paths.showlen));
	for (i = from; i < t->paths.n; i++) {
		const char *s = t->paths.str[i];

		t->paths.show[i] = s + strip_len(t, s);
		t->paths.showlen[i] = strlen(t->paths.show[i]);
	}
}

enum strip_mode { STRIP_AUTO, STRIP_GIVEN, STRIP_NONE };

static void need_cus(struct tables *t)
{
	if (t->cus_read)
		return;
	t->cus_read = 1;
	read_units(&t->elf, &t->cus);
	t->by_stmt = units_by_stmt(&t->cus);
}

static const char *find_comp_dir(struct tables *t, uint64_t stmt)
{
	const struct cus *cs = &t->cus;
	size_t k = first_for_stmt(cs, t->by_stmt, stmt);

	for (; k < cs->n && cs->cu[t->by_stmt[k]].stmt_list == stmt; k++)
		if (cs->cu[t->by_stmt[k]].comp_dir)
			return cs->cu[t->by_stmt[k]].comp_dir;
	return NULL;
}

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

/*
 * Give each line table the address ranges of the units that point at it,
 * sorted and merged.  A table is clipped to them unless one of its units
 * could not be read; a table no unit points at has no ranges (no address
 * reaches it in llvm-symbolizer either), unless some unit could not be read
 * far enough to know where it points.
 */
static void assign_ranges(struct tables *t, int all_rows)
{
	const struct cus *cs = &t->cus;
	size_t i, k, j;

	if (all_rows)
		t->clip = CLIP_ALL_ROWS;
	else if (t->elf.type == ET_REL)
		t->clip = CLIP_RELOCATABLE;
	else if (elf_find(&t->elf, ".debug_info") < 0)
		t->clip = CLIP_NO_INFO;
	else
		t->clip = CLIP_ON;
	if (t->clip != CLIP_ON)
		return;
	need_cus(t);
	for (i = 0; i < t->nunits; i++) {
		struct unit *u = &t->units[i];
		size_t first = t->nrg, n;
		int owned = 0, unreadable = 0;

		k = first_for_stmt(cs, t->by_stmt, u->h.offset);
		for (; k < cs->n && cs->cu[t->by_stmt[k]].stmt_list ==
		     u->h.offset; k++) {
			size_t c = t->by_stmt[k];

			owned = 1;
			unreadable |= cs->cu[c].how == CU_UNREADABLE;
			for (j = first_range(cs, c); j < cs->nr && cs->r[j].cu == c;
			     j++) {
				t->rg = grow(t->rg, &t->rgcap, t->nrg + 1,
					     sizeof(*t->rg));
				t->rg[t->nrg].lo = cs->r[j].lo;
				t->rg[t->nrg++].hi = cs->r[j].hi;
			}
		}
		/* Sorted, then overlapping and touching ranges merged. */
		sort(t->rg + first, t->nrg - first, sizeof(*t->rg), cmp_range);
		for (j = first, n = first; j < t->nrg; j++) {
			if (n > first && t->rg[j].lo <= t->rg[n - 1].hi) {
				if (t->rg[j].hi > t->rg[n - 1].hi)
					t->rg[n - 1].hi = t->rg[j].hi;
			} else {
				t->rg[n++] = t->rg[j];
			}
		}
		t->nrg = n;
		u->rfirst = first;
		u->nranges = n - first;
		u->clip = !unreadable && (owned || cs->complete);
		t->tables_without_unit += !owned;
		t->tables_clipped += u->clip;
	}
}

/* Pass 1: every header and file table; the programs run later. */
static void load_tables(struct tables *t, const char *path,
			enum strip_mode mode, int all_rows)
{
	uint64_t off = 0;
	size_t cap = 0;
	int err;
	struct section *s;

	elf_open(&t->elf, path);
	t->line = elf_load(&t->elf, ".debug_line", 1, 1);
	if (!t->line)
		die(path, NULL, "no .debug_line section");
	sort(t->elf.lrel, t->elf.nlrel, sizeof(*t->elf.lrel), cmp_lrel);
	memset(&t->ctx, 0, sizeof(t->ctx));
	t->ctx.line = t->line->data;
	t->ctx.line_size = t->line->data_size;
	t->ctx.big_endian = t->elf.big;
	s = elf_load(&t->elf, ".debug_line_str", 1, 0);
	if (s) {
		t->ctx.line_str = s->data;
		t->ctx.line_str_size = s->data_size;
	}
	s = elf_load(&t->elf, ".debug_str", 0, 0);
	if (s) {
		t->ctx.str = s->data;
		t->ctx.str_size = s->data_size;
	}
	cur_paths = &t->paths;
	cur_dirs = &t->dirs;
	while (off < t->ctx.line_size) {
		struct unit *u;

		t->units = grow(t->units, &cap, t->nunits + 1, sizeof(*t->units));
		u = &t->units[t->nunits];
		memset(u, 0, sizeof(*u));
		err = dwarf_line_parse_header(&t->ctx, off, &u->h);
		if (err)
			dwl_die(t, err);
		t->nunits++;
		if (u->h.version < 5) {
			need_cus(t);
			u->comp_dir = find_comp_dir(t, off);
			add_dir(u, &(struct dwarf_line_entry){ .path = u->comp_dir });
		}
		err = dwarf_line_entries(&t->ctx, &u->h, DWL_DIRS, add_dir, u);
		if (!err)
			err = dwarf_line_entries(&t->ctx, &u->h, DWL_FILES,
						 add_file, u);
		if (err)
			dwl_die(t, err);
		off = u->h.end;
	}
	if (mode == STRIP_AUTO)
		auto_strip(t);
	sort(t->strip, t->nstrip, sizeof(*t->strip), cmp_len_desc);
	set_shown(t, 0);
	assign_ranges(t, all_rows);
}

/* ---- clipping rows to the address ranges of their unit -------------------- */

/*
 * llvm-symbolizer and addr2line answer only for addresses inside a unit's
 * ranges, then look the address up in that unit's line table.  A sequence
 * can reach past its unit's ranges: arm64's ALTERNATIVE puts replacement
 * code in ".subsection 1", after the function's DW_AT_high_pc and inside
 * the span of its last row.  So each sequence is cut to the ranges: a run
 * of rows that leaves a range ends with an end row at the range's end, and
 * resumes as a new sequence at the next range's start with the row that
 * covers it.  "Last row at or below A, nothing past an end" then gives the
 * oracle's answer for every address.  A sequence inside one range is passed
 * on unchanged.
 */

/* A row of the sequence being collected. */
struct crow {
	uint64_t addr, file, line;
	size_t idx;		/* program order, to sort out-of-order rows */
};

struct clip {
	int (*row)(void *arg, const struct dwarf_line_row *r);
	void *arg;
	const struct range *rg;
	size_t nr;
	struct crow *b;
	size_t n, cap;
	bool unsorted;		/* a row below the one before it */
	struct dwarf_line_row out;
};

static struct {
	uint64_t rows_dropped, rows_added, seqs_dropped, seqs_split;
	uint64_t unterminated;
} clipst;

static void clip_emit(struct clip *c, uint64_t addr, uint64_t file,
		      uint64_t line, bool end)
{
	c->out.address = addr;
	c->out.file = file;
	c->out.line = line;
	c->out.end_sequence = end;
	c->row(c->arg, &c->out);
}

static int cmp_crow(const void *a, const void *b)
{
	const struct crow *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* First row at an address above @a (rows sorted). */
static size_t crow_above(const struct crow *b, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* First range whose end is above @a. */
static size_t range_above(const struct range *rg, size_t nr, uint64_t a)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rg[mid].hi <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The sequence in c->b ends with @end: pass on what lies inside the ranges. */
static void clip_sequence(struct clip *c, const struct dwarf_line_row *end)
{
	struct crow *b = c->b;
	size_t n = c->n, i, j, x, last = 0, kept = 0, pieces = 0;
	uint64_t start, stop = end->address, s, e;
	bool sorted = !c->unsorted && (!n || b[n - 1].addr <= stop);

	c->n = 0;
	c->unsorted = false;
	if (!sorted)
		sort(b, n, sizeof(*b), cmp_crow);
	start = n ? b[0].addr : stop;
	j = range_above(c->rg, c->nr, start);
	if (sorted && start <= stop && j < c->nr && c->rg[j].lo <= start &&
	    stop <= c->rg[j].hi) {
		for (i = 0; i < n; i++)
			clip_emit(c, b[i].addr, b[i].file, b[i].line, false);
		c->row(c->arg, end);
		return;
	}
	for (; start < stop && j < c->nr && c->rg[j].lo < stop; j++) {
		s = c->rg[j].lo > start ? c->rg[j].lo : start;
		e = c->rg[j].hi < stop ? c->rg[j].hi : stop;
		if (s >= e)
			continue;
		i = crow_above(b, n, s) - 1;	/* b[0].addr <= s: i >= 0 */
		if (b[i].addr < s) {
			/* The row covering the range's start, moved to it. */
			clip_emit(c, s, b[i].file, b[i].line, false);
			clipst.rows_added++;
			last = i;
			x = i + 1;
		} else {
			for (x = i; x > 0 && b[x - 1].addr == s; x--)
				;
		}
		for (; x < n && b[x].addr < e; x++) {
			clip_emit(c, b[x].addr, b[x].file, b[x].line, false);
			kept++;
			last = x;
		}
		if (e == stop)
			c->row(c->arg, end);
		else
			clip_emit(c, e, b[last].file, b[last].line, true);
		pieces++;
	}
	clipst.rows_dropped += n - kept;
	if (pieces)
		clipst.seqs_split++;
	else
		clipst.seqs_dropped++;
}

static int clip_row(void *arg, const struct dwarf_line_row *r)
{
	struct clip *c = arg;
	struct crow *w;

	if (r->end_sequence) {
		clip_sequence(c, r);
		return 0;
	}
	if (c->n == c->cap)
		c->b = grow(c->b, &c->cap, c->n + 1, sizeof(*c->b));
	if (c->n && r->address < c->b[c->n - 1].addr)
		c->unsorted = true;
	w = &c->b[c->n];
	w->addr = r->address;
	w->file = r->file;
	w->line = r->line;
	w->idx = c->n++;
	return 0;
}

/* Run one unit's program; define_file paths get their shown form at once. */
static void run_unit(struct tables *t, struct unit *u,
		     int (*row)(void *, const struct dwarf_line_row *), void *arg)
{
	struct dwarf_line_ops ops = { row, define_file };
	static struct clip c;
	int err;

	cur_unit = u;
	cur_tables = t;
	if (t->clip == CLIP_ON && u->clip) {
		c.row = row;
		c.arg = arg;
		c.rg = t->rg + u->rfirst;
		c.nr = u->nranges;
		c.n = 0;
		c.unsorted = false;
		memset(&c.out, 0, sizeof(c.out));
		c.out.set_address_offset = ~(uint64_t)0;
		ops.row = clip_row;
		arg = &c;
	}
	err = dwarf_line_run(&t->ctx, &u->h, &ops, arg);
	if (err)
		dwl_die(t, err);
	if (ops.row == clip_row && c.n) {
		/* No end_sequence: it covers nothing. */
		clipst.unterminated++;
		clipst.rows_dropped += c.n;
	}
}

static const char *seq_section(struct tables *t, uint64_t set_addr_off)
{
	uint32_t shndx;

	if (t->elf.type != ET_REL)
		return NULL;
	shndx = set_addr_off == ~(uint64_t)0 ? 0 :
		lrel_shndx(&t->elf, set_addr_off);
	return shndx && shndx < t->elf.shnum ? t->elf.sec[shndx].name : "*ABS*";
}

/* ---- --rows ---------------------------------------------------------------- */

struct rows_arg {
	struct tables *t;
	struct unit *u;
};

/* The two decimal digits of @d (below 100) at @p. */
static void put_pair(char *p, unsigned int d)
{
	p[0] = (char)('0' + d / 10);
	p[1] = (char)('0' + d % 10);
}

/* Decimal digits of @v at @w, two at a time; returns the end. */
static char *put_dec(char *w, uint64_t v)
{
	char b[20];
	int i = sizeof(b);

	while (v >= 100) {
		i -= 2;
		put_pair(b + i, (unsigned int)(v % 100));
		v /= 100;
	}
	if (v >= 10) {
		i -= 2;
		put_pair(b + i, (unsigned int)v);
	} else {
		b[--i] = (char)('0' + v);
	}
	memcpy(w, b + i, sizeof(b) - i);
	return w + sizeof(b) - i;
}

static char *put_hex(char *w, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char b[16];
	int i = sizeof(b);

	do {
		b[--i] = digits[v & 15];
		v >>= 4;
	} while (v);
	*w++ = '0';
	*w++ = 'x';
	memcpy(w, b + i, sizeof(b) - i);
	return w + sizeof(b) - i;
}

/*
 * One row per line, the hot loop of --rows (4.2 M rows for a distribution
 * vmlinux): formatted straight into the output buffer.
 */
static int print_row(void *arg, const struct dwarf_line_row *r)
{
	struct rows_arg *ra = arg;
	struct tables *t = ra->t;
	uint32_t id = r->file < ra->u->nfiles ? ra->u->files[r->file] : NOFILE;
	const char *path = id == NOFILE ? "??" : t->paths.show[id];
	size_t n = id == NOFILE ? 2 : t->paths.showlen[id];
	const char *sec = seq_section(t, r->set_address_offset);
	size_t need = n + (sec ? strlen(sec) : 0) + 64;
	char *w;

	if (olen + need > sizeof(obuf))
		out_flush();
	if (need > sizeof(obuf)) {	/* absurd path: the slow way */
		out_str(path);
		out_mem(":", 1);
		out_dec(r->line);
		out_mem(" ", 1);
		out_hex(r->address);
		if (sec) {
			out_mem(" ", 1);
			out_str(sec);
		}
		if (r->end_sequence)
			out_mem(" end", 4);
		out_mem("\n", 1);
		return 0;
	}
	w = obuf + olen;
	memcpy(w, path, n);
	w += n;
	*w++ = ':';
	w = put_dec(w, r->line);
	*w++ = ' ';
	w = put_hex(w, r->address);
	if (sec) {
		*w++ = ' ';
		n = strlen(sec);
		memcpy(w, sec, n);
		w += n;
	}
	if (r->end_sequence) {
		memcpy(w, " end", 4);
		w += 4;
	}
	*w++ = '\n';
	olen = (size_t)(w - obuf);
	return 0;
}

static void do_rows(struct tables *t)
{
	struct rows_arg ra = { t, NULL };
	size_t i;

	for (i = 0; i < t->nunits; i++) {
		ra.u = &t->units[i];
		run_unit(t, ra.u, print_row, &ra);
	}
}

/* ---- collected rows: -e and --stats ----------------------------------------- */

struct row {
	uint64_t addr;
	uint32_t file;		/* path id, or NOFILE */
	uint32_t line;		/* addr2line's width; larger lines wrap */
};

struct seq {
	uint64_t start, end;
	size_t first, n;	/* rows, the end_sequence row included */
	uint32_t shndx;		/* ET_REL: section of the sequence */
	uint32_t sorted;
};

struct collect {
	struct tables *t;
	struct unit *u;
	struct row *rows;
	size_t nrows, rcap;
	struct seq *seqs;
	size_t nseqs, scap;
	size_t open_first;	/* first row of the open sequence */
	int open;
	uint64_t shndx;
	size_t unterminated;
	size_t end_rows;
};

static int collect_row(void *arg, const struct dwarf_line_row *r)
{
	struct collect *c = arg;
	struct row *w;

	if (!c->open) {
		c->open = 1;
		c->open_first = c->nrows;
		c->shndx = c->t->elf.type == ET_REL &&
			   r->set_address_offset != ~(uint64_t)0 ?
			   lrel_shndx(&c->t->elf, r->set_address_offset) : 0;
	}
	c->rows = grow(c->rows, &c->rcap, c->nrows + 1, sizeof(*c->rows));
	w = &c->rows[c->nrows++];
	w->addr = r->address;
	w->file = r->file < c->u->nfiles ? c->u->files[r->file] : NOFILE;
	w->line = (uint32_t)r->line;
	if (r->end_sequence) {
		struct seq *s;
		size_t i;

		c->seqs = grow(c->seqs, &c->scap, c->nseqs + 1,
			       sizeof(*c->seqs));
		s = &c->seqs[c->nseqs++];
		s->first = c->open_first;
		s->n = c->nrows - c->open_first;
		s->start = c->rows[s->first].addr;
		s->end = r->address;
		s->shndx = (uint32_t)c->shndx;
		s->sorted = 1;
		for (i = s->first + 1; i < c->nrows; i++)
			if (c->rows[i].addr < c->rows[i - 1].addr)
				s->sorted = 0;
		c->open = 0;
		c->end_rows++;
	}
	return 0;
}

static void collect_all(struct tables *t, struct collect *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->t = t;
	for (i = 0; i < t->nunits; i++) {
		c->u = &t->units[i];
		run_unit(t, c->u, collect_row, c);
		if (c->open) {
			/* No end_sequence: kept for --stats, never matched. */
			c->unterminated++;
			c->open = 0;
		}
	}
}

/* Sequences sorted by start, with a running maximum of their ends. */
struct index {
	struct seq **s;
	uint64_t *maxend;
	size_t n;
};

static int cmp_seq(const void *a, const void *b)
{
	const struct seq *x = *(struct seq *const *)a;
	const struct seq *y = *(struct seq *const *)b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x < y ? -1 : x > y;	/* keep program order */
}

static void build_index(struct collect *c, struct index *ix, int shndx)
{
	size_t i;

	ix->s = xmalloc((c->nseqs ? c->nseqs : 1) * sizeof(*ix->s));
	ix->n = 0;
	for (i = 0; i < c->nseqs; i++)
		if (shndx < 0 || c->seqs[i].shndx == (uint32_t)shndx)
			ix->s[ix->n++] = &c->seqs[i];
	sort(ix->s, ix->n, sizeof(*ix->s), cmp_seq);
	ix->maxend = xmalloc((ix->n ? ix->n : 1) * sizeof(*ix->maxend));
	for (i = 0; i < ix->n; i++)
		ix->maxend[i] = i && ix->maxend[i - 1] > ix->s[i]->end ?
				ix->maxend[i - 1] : ix->s[i]->end;
}

/*
 * The row covering @a: in the sequence with the greatest start <= @a that
 * still contains it (start <= a < end), the last row at the greatest
 * address <= @a.  Past a sequence's end nothing is known.
 */
static const struct row *lookup(struct collect *c, struct index *ix,
				uint64_t a)
{
	size_t lo = 0, hi = ix->n, i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix->s[mid]->start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i-- > 0 && ix->maxend[i] > a;) {
		const struct seq *s = ix->s[i];
		const struct row *r = c->rows + s->first, *best = NULL;
		size_t k, n = s->n - 1;		/* without the end row */

		if (a >= s->end || a < s->start)
			continue;
		if (s->sorted) {
			lo = 0;
			hi = n;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;

				if (r[mid].addr <= a)
					lo = mid + 1;
				else
					hi = mid;
			}
			return lo ? &r[lo - 1] : NULL;
		}
		for (k = 0; k < n; k++)
			if (r[k].addr <= a && (!best || r[k].addr >= best->addr))
				best = &r[k];
		return best;
	}
	return NULL;
}

/* -j in an executable: offsets from the section's address, as addr2line. */
static uint64_t jbase;

static void answer(struct tables *t, struct collect *c, struct index *ix,
		   const char *arg)
{
	const struct row *r = NULL;
	const char *p = arg;
	char *end;
	uint64_t a;

	while (*p == ' ' || *p == '\t')
		p++;
	errno = 0;
	a = strtoull(p, &end, 16);
	while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
		end++;
	if (end != p && !*end && !errno)
		r = lookup(c, ix, a + jbase);
	if (!r || r->file == NOFILE) {
		out_str("??:0\n");
		return;
	}
	out_str(t->paths.show[r->file]);
	out_mem(":", 1);
	out_dec(r->line);
	out_mem("\n", 1);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* How the rows were clipped to the ranges of their units (see --stats). */
static void do_clip_stats(struct tables *t)
{
	static const char *const why[] = {
		[CLIP_ON] = "unit ranges",
		[CLIP_ALL_ROWS] = "off (--all-rows)",
		[CLIP_RELOCATABLE] = "off (relocatable)",
		[CLIP_NO_INFO] = "off (no .debug_info)",
	};
	size_t how[4] = { 0 }, k;

	for (k = 0; k < t->cus.n; k++)
		how[t->cus.cu[k].how]++;
	out_str("\nclip: ");
	out_str(why[t->clip]);
	out_str("\ninfo_units: ");
	out_dec(t->cus.n);
	out_str("\ninfo_units_ranges_aranges: ");
	out_dec(how[CU_ARANGES]);
	out_str("\ninfo_units_ranges_die: ");
	out_dec(how[CU_DIE]);
	out_str("\ninfo_units_ranges_none: ");
	out_dec(how[CU_NONE]);
	out_str("\ninfo_units_unreadable: ");
	out_dec(how[CU_UNREADABLE]);
	out_str("\ntables_clipped: ");
	out_dec(t->tables_clipped);
	out_str("\ntables_without_unit: ");
	out_dec(t->tables_without_unit);
	out_str("\nclip_rows_dropped: ");
	out_dec(clipst.rows_dropped);
	out_str("\nclip_rows_added: ");
	out_dec(clipst.rows_added);
	out_str("\nclip_sequences_dropped: ");
	out_dec(clipst.seqs_dropped);
	out_str("\nclip_sequences_split: ");
	out_dec(clipst.seqs_split);
}

static void do_stats(struct tables *t, struct collect *c)
{
	uint64_t *keys, used = 0, distinct = 0;
	size_t i, k = 0, ver[6] = { 0 }, osz[2] = { 0 };
	unsigned char *seen;
	char buf[64];
	int first;

	keys = xmalloc((c->nrows ? c->nrows : 1) * sizeof(*keys));
	for (i = 0; i < c->nseqs; i++) {
		const struct seq *s = &c->seqs[i];
		size_t j;

		/* ET_REL: sections all start at 0; count per section. */
		for (j = s->first; j + 1 < s->first + s->n; j++)
			keys[k++] = c->rows[j].addr ^ ((uint64_t)s->shndx << 48);
	}
	sort(keys, k, sizeof(*keys), cmp_u64);
	for (i = 0; i < k; i++)
		if (!i || keys[i] != keys[i - 1])
			distinct++;
	free(keys);
	seen = xcalloc(t->paths.n + 1, 1);
	for (i = 0; i < c->nrows; i++)
		if (c->rows[i].file != NOFILE && !seen[c->rows[i].file]) {
			seen[c->rows[i].file] = 1;
			used++;
		}
	free(seen);
	for (i = 0; i < t->nunits; i++) {
		ver[t->units[i].h.version]++;
		osz[t->units[i].h.offset_size == 8]++;
	}
	out_str("file: ");
	out_str(t->elf.path);
	out_str("\nelf: ");
	out_str(t->elf.is64 ? "ELF64" : "ELF32");
	out_str(t->elf.big ? " big-endian" : " little-endian");
	out_str(t->elf.type == ET_REL ? " relocatable" : " executable");
	out_str("\nbytes: ");
	out_dec(t->line->data_size);
	out_str("\nunits: ");
	out_dec(t->nunits);
	out_str("\nversions:");
	for (first = 1, i = 2; i <= 5; i++)
		if (ver[i]) {
			out_str(first ? " " : ",");
			out_dec(i);
			first = 0;
		}
	out_str("\noffset_sizes:");
	if (osz[0])
		out_str(" 4");
	if (osz[1])
		out_str(osz[0] ? ",8" : " 8");
	for (i = 2; i <= 5; i++) {
		snprintf(buf, sizeof(buf), "\nunits_v%zu: ", i);
		out_str(buf);
		out_dec(ver[i]);
	}
	out_str("\nunits_dwarf64: ");
	out_dec(osz[1]);
	out_str("\nrows: ");
	out_dec(c->nrows);
	out_str("\nsequences: ");
	out_dec(c->nseqs);
	out_str("\nunterminated_sequences: ");
	out_dec(c->unterminated + clipst.unterminated);
	out_str("\ndistinct_addresses: ");
	out_dec(distinct);
	out_str("\nfiles: ");
	out_dec(t->paths.n);
	out_str("\nfiles_with_rows: ");
	out_dec(used);
	out_str("\nrelocations_applied: ");
	out_dec(t->elf.nlrel);
	do_clip_stats(t);
	out_str("\nstrip:");
	for (i = 0; i < t->nstrip; i++) {
		out_str(" ");
		out_str(t->strip[i]);
	}
	out_str("\n");
}

/* ---- main ------------------------------------------------------------------- */

static void print_usage(void)
{
	fprintf(stderr,
		"usage: lineloc [options] --rows FILE\n"
		"       lineloc [options] --stats FILE\n"
		"       lineloc [options] -e FILE [-j SECTION] [ADDR...]\n"
		"options:\n"
		"  -o OUT          write the output to OUT atomically (nothing on error)\n"
		"  --strip PREFIX  remove PREFIX from paths (repeatable; default: the\n"
		"                  source and object trees of a kernel, else nothing)\n"
		"  --no-strip      print paths as resolved, absolute where DWARF says so\n"
		"  --all-rows      every row of the line programs; by default the rows of\n"
		"                  an executable are clipped to the address ranges of\n"
		"                  their compilation unit (what llvm-symbolizer answers)\n"
		"  -j SECTION      with -e: addresses are offsets in SECTION of a\n"
		"                  relocatable object\n"
		"ADDRs are hex, with or without 0x; without any, one per line on stdin.\n");
	exit(1);
}

int main(int argc, char **argv)
{
	enum { NONE, ROWS, STATS, ADDR } mode = NONE;
	enum strip_mode strip = STRIP_AUTO;
	const char *file = NULL, *outpath = NULL, *jsec = NULL;
	const char **strips = NULL;
	static struct tables t;
	int i, nstrips = 0, first_addr = argc, all_rows = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--rows") || !strcmp(a, "--stats") ||
		    !strcmp(a, "-e")) {
			if (mode != NONE || i + 1 >= argc)
				print_usage();
			mode = a[1] == 'e' ? ADDR : a[2] == 'r' ? ROWS : STATS;
			file = argv[++i];
		} else if (!strcmp(a, "-o") && i + 1 < argc) {
			outpath = argv[++i];
		} else if (!strcmp(a, "-j") && i + 1 < argc) {
			jsec = argv[++i];
		} else if (!strcmp(a, "--strip") && i + 1 < argc) {
			strips = xrealloc(strips, (nstrips + 1) * sizeof(*strips));
			strips[nstrips++] = argv[++i];
			if (strip != STRIP_NONE)
				strip = STRIP_GIVEN;
		} else if (!strcmp(a, "--no-strip")) {
			strip = STRIP_NONE;
		} else if (!strcmp(a, "--all-rows")) {
			all_rows = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_usage();
		} else if (mode != ADDR || a[0] == '-') {
			fprintf(stderr, "%s: unknown option '%s'\n", prog, a);
			print_usage();
		} else {
			first_addr = i;
			break;
		}
	}
	if (mode == NONE || (jsec && mode != ADDR))
		print_usage();

	in_path = file;
	out = stdout;
	if (outpath) {
		int fd;
		size_t n = strlen(outpath) + 16;

		out_tmp = xmalloc(n);
		snprintf(out_tmp, n, "%s.tmpXXXXXX", outpath);
		fd = mkstemp(out_tmp);
		if (fd < 0) {
			free(out_tmp);
			out_tmp = NULL;
			die(outpath, NULL, "cannot create temporary file: %s",
			    strerror(errno));
		}
		out = fdopen(fd, "w");
		if (!out)
			die(outpath, NULL, "%s", strerror(errno));
	}

	if (strip == STRIP_GIVEN)
		for (i = 0; i < nstrips; i++)
			add_strip(&t, strips[i]);
	load_tables(&t, file, strip, all_rows);

	if (mode == ROWS) {
		do_rows(&t);
	} else {
		static struct collect c;
		struct index ix;
		int shndx = -1;

		collect_all(&t, &c);
		if (mode == STATS) {
			do_stats(&t, &c);
		} else {
			if (jsec) {
				shndx = elf_find(&t.elf, jsec);
				if (shndx < 0)
					die(file, NULL, "no section %s", jsec);
				if (t.elf.type != ET_REL) {
					jbase = t.elf.sec[shndx].addr;
					shndx = -1;
				}
			}
			build_index(&c, &ix, shndx);
			if (first_addr < argc) {
				for (i = first_addr; i < argc; i++)
					answer(&t, &c, &ix, argv[i]);
			} else {
				char line[256];

				while (fgets(line, sizeof(line), stdin)) {
					answer(&t, &c, &ix, line);
					out_flush();
					fflush(out);
				}
			}
		}
	}

	out_flush();
	if (outpath) {
		mode_t um = umask(0);

		umask(um);
		if (fflush(out) || fchmod(fileno(out), 0666 & ~um) ||
		    fsync(fileno(out)) || fclose(out))
			die(outpath, NULL, "write error: %s", strerror(errno));
		out = NULL;
		if (rename(out_tmp, outpath))
			die(outpath, NULL, "rename: %s", strerror(errno));
	} else if (fflush(stdout) || ferror(stdout)) {
		out = NULL;
		die(NULL, NULL, "write error: %s", strerror(errno));
	}
	return 0;
}
