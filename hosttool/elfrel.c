// SPDX-License-Identifier: GPL-2.0
/*
 * elfrel.c - what the user tool's ELF reader does beyond reading: inflate
 * SHF_COMPRESSED sections (with zlib) and apply the relocations of a
 * relocatable object against a loaded section (x86_64, i386, arm, arm64,
 * riscv64: the types, sizes and operations of lineloc_rel_type_size() and
 * lineloc_rel_type_op(), the one table; riscv's ADD and SUB pairs add and
 * subtract in place, as a linker does).  Not in
 * the kernel tree: its writer reads vmlinux only (elf_prepare unset).
 */
#include <elf.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include <linux/lineloc/reloc.h>

#include "util.h"
#include "elfread.h"
#include "modes.h"

static void wle32(uint8_t *p, uint32_t v)
{
	p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
}

static void wbe32(uint8_t *p, uint32_t v)
{
	p[3] = v; p[2] = v >> 8; p[1] = v >> 16; p[0] = v >> 24;
}

/* The @size-byte field at @p (2, 4 or 8 bytes). */
static uint64_t field(const struct elf *e, const uint8_t *p, int size)
{
	if (size == 2)
		return e->r16(p);
	return size == 8 ? e->r64(p) : e->r32(p);
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

static void decompress(struct elf *e, struct section *s)
{
	uint64_t hdr = e->is64 ? sizeof(Elf64_Chdr) : sizeof(Elf32_Chdr), size;
	uint64_t size_at = e->is64 ? offsetof(Elf64_Chdr, ch_size) :
			   offsetof(Elf32_Chdr, ch_size);
	uint32_t type;

	if (s->data_size < hdr)
		die(e->path, sec_at(s->name, 0), "truncated compression header");
	type = e->r32(s->data);
	size = e->is64 ? e->r64(s->data + size_at) : e->r32(s->data + size_at);
	if (type != ELFCOMPRESS_ZLIB)
		die(e->path, sec_at(s->name, 0), "unsupported compression type %u",
		    type);
	/* Deflate expands at most 1032:1; a larger claim is corrupt. */
	if (size / 1032 > s->data_size)
		die(e->path, sec_at(s->name, size_at),
		    "ch_size 0x%" PRIx64 " is impossible for 0x%" PRIx64
		    " compressed bytes", size, s->data_size - hdr);
#ifdef HAVE_ZLIB
	{
		uLongf dlen = (uLongf)size;
		uint8_t *d;

		if ((uint64_t)dlen != size || size > SIZE_MAX - 1)
			die(e->path, sec_at(s->name, size_at),
			    "ch_size 0x%" PRIx64 " is too large for this host",
			    size);
		d = xmalloc((size_t)size + 1);
		if (uncompress(d, &dlen, s->data + hdr,
			       (uLong)(s->data_size - hdr)) != Z_OK ||
		    dlen != size)
			die(e->path, sec_at(s->name, hdr), "zlib data is corrupt");
		free(s->data);
		s->data = d;
		s->data_size = size;
	}
#else
	(void)size;
	die(e->path, sec_at(s->name, 0),
	    "compressed section, but lineloc was built without zlib");
#endif
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
		uint64_t ent = rela ? (e->is64 ? sizeof(Elf64_Rela) :
					  sizeof(Elf32_Rela)) :
				      (e->is64 ? sizeof(Elf64_Rel) :
					  sizeof(Elf32_Rel));
		uint64_t symsz = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
		uint64_t nsym, j;
		uint8_t *rd, *sd;
		size_t cap = 0;
		uint64_t add_off = 0;	/* the ADD of a pair: its offset, section */
		uint32_t add_shndx = 0;
		int in_pair = 0;

		if ((r->type != SHT_REL && !rela) || r->info != target)
			continue;
		if (r->link >= e->shnum || e->sec[r->link].type != SHT_SYMTAB)
			die(e->path, sec_at(r->name, 0), "bad symbol table link %u",
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
			int size, op;

			if (e->is64) {
				off = e->r64(p);
				info = e->r64(p + 8);
				addend = rela ? e->r64(p + 16) : 0;
				type = (uint32_t)ELF64_R_TYPE(info);
				symi = ELF64_R_SYM(info);
			} else {
				off = e->r32(p);
				info = e->r32(p + 4);
				addend = rela ? (uint64_t)(int64_t)(int32_t)
						e->r32(p + 8) : 0;
				type = (uint32_t)ELF32_R_TYPE(info);
				symi = ELF32_R_SYM(info);
			}
			size = lineloc_rel_type_size(e->machine, type);
			if (size < 0) {
				if (!strict)
					continue;
				die(e->path, sec_at(r->name, j),
				    "unsupported relocation type %u for machine %u against %s",
				    type, e->machine, t->name);
			}
			if (!size)
				continue;
			if (off > t->data_size || (uint64_t)size > t->data_size - off)
				die(e->path, sec_at(r->name, j),
				    "relocation at 0x%" PRIx64
				    " is outside %s (size 0x%" PRIx64 ")",
				    off, t->name, t->data_size);
			if (symi >= nsym)
				die(e->path, sec_at(r->name, j),
				    "bad symbol index %" PRIu64, symi);
			sym = sd + symi * symsz;
			if (e->is64) {
				value = e->r64(sym + 8);
				shndx = e->r16(sym + 6);
			} else {
				value = e->r32(sym + 4);
				shndx = e->r16(sym + 14);
			}
			op = lineloc_rel_type_op(e->machine, type);
			/* an ADD, then its SUB: same offset, same section */
			if (in_pair && !(op == LINELOC_REL_SUB && off == add_off &&
					 shndx == add_shndx)) {
				if (strict)
					die(e->path, sec_at(r->name, j),
					    "difference relocation at 0x%" PRIx64
					    " without its SUB in one section",
					    add_off);
				in_pair = 0;
				if (op == LINELOC_REL_SUB)
					continue;
			} else if (!in_pair && op == LINELOC_REL_SUB) {
				if (strict)
					die(e->path, sec_at(r->name, j),
					    "difference relocation at 0x%" PRIx64
					    " without its ADD", off);
				continue;
			}
			in_pair = op == LINELOC_REL_ADD;
			add_off = off;
			add_shndx = shndx;
			if (op != LINELOC_REL_ABS) {
				/* in place, whatever the section type */
				value += rela ? addend : 0;
				value = op == LINELOC_REL_ADD ?
					field(e, t->data + off, size) + value :
					field(e, t->data + off, size) - value;
			} else {
				if (!rela)	/* REL: the addend is in place */
					addend = field(e, t->data + off, size);
				value += addend;
			}
			if (size == 2) {
				t->data[off + (e->big ? 1 : 0)] = (uint8_t)value;
				t->data[off + (e->big ? 0 : 1)] = (uint8_t)(value >> 8);
			} else if (size == 8)
				(e->big ? wbe64 : wle64)(t->data + off, value);
			else
				(e->big ? wbe32 : wle32)(t->data + off,
							 (uint32_t)value);
			if (record && op != LINELOC_REL_SUB) {
				e->lrel = grow(e->lrel, &cap, e->nlrel + 1,
					       sizeof(*e->lrel));
				e->lrel[e->nlrel].off = off;
				e->lrel[e->nlrel++].shndx = shndx;
			}
		}
		if (in_pair && strict)
			die(e->path, sec_at(r->name, r->size),
			    "difference relocation at 0x%" PRIx64 " without its SUB",
			    add_off);
		free(rd);
		free(sd);
	}
}

static int cmp_lrel(const void *a, const void *b)
{
	const struct line_reloc *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/**
 * elfrel_prepare() - elf_prepare for the user tool
 * @e: the file
 * @s: section @i, its raw contents loaded
 * @i: its index
 * @strict: a relocation of an unknown type against it is an error
 * @record: keep the section of each relocation's symbol, for lrel_shndx()
 */
void elfrel_prepare(struct elf *e, struct section *s, uint32_t i, int strict,
		    int record)
{
	if (s->flags & SHF_COMPRESSED)
		decompress(e, s);
	if (e->type == ET_REL)
		apply_relocs(e, i, strict, record);
	if (record)
		xqsort(e->lrel, e->nlrel, sizeof(*e->lrel), cmp_lrel);
}
