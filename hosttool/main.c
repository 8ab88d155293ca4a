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
 *
 * The parts: elfread.c (ELF), units.c (.debug_info and address ranges),
 * paths.c, tables.c (line tables, strip prefixes, clipping), modes.c (what
 * is printed), util.c (output, errors, allocation); this file holds main().
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "tables.h"
#include "modes.h"
#include "ktable.h"
#include <linux/lineloc/table.h>
#include "modtable.h"

static const char usage[] =
	"usage: lineloc [options] --rows FILE\n"
	"       lineloc [options] --stats FILE\n"
	"       lineloc [options] --inline-stats FILE     inlined calls: counts\n"
	"       lineloc [options] -e FILE [-j SECTION] [ADDR...]\n"
	"       lineloc [options] --kernel-table FILE     vmlinux's compact tables\n"
	"       lineloc [options] --table-size FILE       what they cost (of a .ko:\n"
	"                                                 its load-time tables)\n"
	"       lineloc [options] --table-check FILE      they against the rows\n"
	"       lineloc [options] --via-table -e FILE [-j SECTION] [ADDR...]\n"
	"       lineloc --check-anchors FILE FINAL        same text layout\n"
	"options:\n"
	"  -o OUT          write the output to OUT atomically (nothing on error)\n"
	"  --strip PREFIX  remove PREFIX from paths (repeatable; default: the\n"
	"                  source and object trees of a kernel, else nothing)\n"
	"  --no-strip      print paths as resolved, absolute where DWARF says so\n"
	"  --all-rows      every row of the line programs; by default the rows of\n"
	"                  an executable are clipped to the address ranges of\n"
	"                  their compilation unit (what llvm-symbolizer answers)\n"
	"  -i, --inlines   with -e: every level of inlined calls, innermost\n"
	"                  first: the line inside each function, then where it\n"
	"                  is called (executables); with --via-table,\n"
	"                  --table-size and --kernel-table: vmlinux's tables\n"
	"                  with these chains (--table-size: their cost and\n"
	"                  lookup time)\n"
	"  -f, --functions with -i: each level's function name before it\n"
	"  -a, --addresses with -e: each address on a line before its answer\n"
	"  -j SECTION      with -e: addresses are offsets in SECTION of a\n"
	"                  relocatable object\n"
	"  --via-table     answer through the compact tables the kernel builds:\n"
	"                  vmlinux's at build time, a module's at load time\n"
	"                  (of a .ko, for offsets in SECTION, default .text)\n"
	"  --block N       rows per block of a compact table (default 64)\n"
	"  -h, --help      print this text and exit\n"
	"ADDRs are hex, with or without 0x; without any, one per line on stdin.\n"
	"Options come before the first ADDR; everything after it is an ADDR.\n"
	"An unknown option, a missing argument, a second FILE or an argument\n"
	"where no ADDR can be is an error: one line and this text on stderr,\n"
	"exit status 1.\n";

/* An error in the command line: what is wrong, the usage, exit status 1. */
static void __attribute__((noreturn, format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		fprintf(stderr, "%s: ", prog);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	fputs(usage, stderr);
	exit(1);
}

enum {
	OPT_ROWS = 0x100,	/* long options only: above any option letter */
	OPT_STATS,
	OPT_STRIP,
	OPT_NO_STRIP,
	OPT_ALL_ROWS,
	OPT_HELP,
	OPT_KERNEL_TABLE,
	OPT_TABLE_SIZE,
	OPT_TABLE_CHECK,
	OPT_VIA_TABLE,
	OPT_CHECK_ANCHORS,
	OPT_BLOCK,
	OPT_INLINE_STATS,
};

/*
 * "+": options end at the first ADDR whatever POSIXLY_CORRECT says, so an
 * ADDR that looks like an option is answered ("??:0"), as before getopt.
 * ":": no messages from getopt; a missing argument is ':', not '?'.
 */
static const char shortopts[] = "+:e:o:j:aifh";

static const struct option longopts[] = {
	{ "rows",	required_argument,	NULL, OPT_ROWS },
	{ "stats",	required_argument,	NULL, OPT_STATS },
	{ "strip",	required_argument,	NULL, OPT_STRIP },
	{ "no-strip",	no_argument,		NULL, OPT_NO_STRIP },
	{ "kernel-table", required_argument,	NULL, OPT_KERNEL_TABLE },
	{ "table-size",	required_argument,	NULL, OPT_TABLE_SIZE },
	{ "table-check", required_argument,	NULL, OPT_TABLE_CHECK },
	{ "via-table",	no_argument,		NULL, OPT_VIA_TABLE },
	{ "check-anchors", required_argument,	NULL, OPT_CHECK_ANCHORS },
	{ "block",	required_argument,	NULL, OPT_BLOCK },
	{ "all-rows",	no_argument,		NULL, OPT_ALL_ROWS },
	{ "inline-stats", required_argument,	NULL, OPT_INLINE_STATS },
	{ "inlines",	no_argument,		NULL, 'i' },
	{ "functions",	no_argument,		NULL, 'f' },
	{ "addresses",	no_argument,		NULL, 'a' },
	{ "help",	no_argument,		NULL, OPT_HELP },
	{ NULL,		0,			NULL, 0 },
};

/*
 * The option getopt_long() could not take (@c: '?' or ':'), named by
 * optopt: a letter, a long option's value, or 0 for a long option it does
 * not know (then argv[optind - 1]).
 */
static void __attribute__((noreturn)) bad_option(int c, char **argv)
{
	const char *arg = argv[optind - 1];
	const struct option *o;
	size_t n = strcspn(arg, "=");
	int matches = 0;

	if (optopt > 0 && optopt < OPT_ROWS)
		usage_error(c == ':' ? "option '-%c' needs an argument" :
			    "unknown option '-%c'", optopt);
	for (o = longopts; o->name; o++)
		if (optopt && o->val == optopt)
			usage_error(c == ':' ? "option '--%s' needs an argument" :
				    "option '--%s' takes no argument", o->name);
	for (o = longopts; o->name; o++)
		matches += n > 2 && !strncmp(o->name, arg + 2, n - 2);
	usage_error("%s option '%s'", matches > 1 ? "ambiguous" : "unknown",
		    arg);
}

int main(int argc, char **argv)
{
	enum { NONE, ROWS, STATS, ADDR, KTABLE, TSIZE, TCHECK, ANCHORS,
	       ISTATS } mode = NONE;
	unsigned long block = KTABLE_BLOCK;
	int via = 0;
	char *end;
	enum strip_mode strip = STRIP_AUTO;
	const char *file = NULL, *outpath = NULL, *jsec = NULL;
	const char **strips = NULL;
	static struct tables t;
	int i, c, nstrips = 0, all_rows = 0, inl = 0, names = 0, show = 0;

	elf_prepare = elfrel_prepare;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case OPT_ROWS:
		case OPT_STATS:
		case 'e':
		case OPT_KERNEL_TABLE:
		case OPT_TABLE_SIZE:
		case OPT_TABLE_CHECK:
		case OPT_CHECK_ANCHORS:
		case OPT_INLINE_STATS:
			if (mode != NONE)
				usage_error("one mode only (a second FILE: '%s')",
					    optarg);
			mode = c == 'e' ? ADDR : c == OPT_ROWS ? ROWS :
			       c == OPT_STATS ? STATS : c == OPT_KERNEL_TABLE ?
			       KTABLE : c == OPT_TABLE_SIZE ? TSIZE :
			       c == OPT_TABLE_CHECK ? TCHECK :
			       c == OPT_INLINE_STATS ? ISTATS : ANCHORS;
			file = optarg;
			break;
		case OPT_VIA_TABLE:
			via = 1;
			break;
		case 'i':
			inl = 1;
			break;
		case 'f':
			names = 1;
			break;
		case 'a':
			show = 1;
			break;
		case OPT_BLOCK:
			errno = 0;
			block = strtoul(optarg, &end, 0);
			if (*end || errno || !block || block > LINELOC_MAX_BLOCK)
				usage_error("--block: 1 to %u rows, not '%s'",
					    LINELOC_MAX_BLOCK, optarg);
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'j':
			jsec = optarg;
			break;
		case OPT_STRIP:
			strips = xrealloc(strips, (nstrips + 1) * sizeof(*strips));
			strips[nstrips++] = optarg;
			if (strip != STRIP_NONE)
				strip = STRIP_GIVEN;
			break;
		case OPT_NO_STRIP:
			strip = STRIP_NONE;
			break;
		case OPT_ALL_ROWS:
			all_rows = 1;
			break;
		case 'h':
		case OPT_HELP:
			fputs(usage, stdout);
			return fflush(stdout) || ferror(stdout);
		default:
			bad_option(c, argv);
		}
	}
	if (mode == ANCHORS) {
		if (optind + 1 != argc)
			usage_error("--check-anchors FILE FINAL: two files");
		out = stdout;
		do_check_anchors(file, argv[optind]);
		out_close(NULL, 0);
		return 0;
	}
	if (optind < argc && mode != ADDR)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (via && mode != ADDR)
		usage_error("--via-table is for -e FILE");
	if (mode == NONE)
		usage_error(NULL);
	if (jsec && mode != ADDR)
		usage_error("-j SECTION is for -e FILE");
	if (names && mode != ADDR)
		usage_error("-f is for -e FILE");
	if (inl && mode != ADDR && mode != TSIZE && mode != KTABLE)
		usage_error("-i is for -e FILE, --table-size and --kernel-table");
	if (show && mode != ADDR)
		usage_error("-a is for -e FILE");
	if (names && !inl)
		usage_error("-f names each level of -i: give both");

	in_path = file;
	out = stdout;
	if (outpath)
		out_open(outpath);
	if (via || mode == TSIZE) {
		static struct elf e;

		elf_open(&e, file);
		if (e.type == ET_REL && inl)
			usage_error("-i: chains of inlined calls are in a vmlinux's tables, not a module's (%s)",
				    file);
		if (e.type == ET_REL) {
			if (via)
				do_via_module(&e, jsec, (uint32_t)block,
					      argv + optind, argc - optind);
			else
				do_module_table_size(&e, (uint32_t)block);
			out_close(outpath, 1);
			return 0;
		}
	}
	if (strip == STRIP_GIVEN)
		for (i = 0; i < nstrips; i++)
			add_strip(&t, strips[i]);
	load_tables(&t, file, strip, all_rows);

	if (mode == ROWS)
		do_rows(&t);
	else if (mode == STATS)
		do_stats(&t);
	else if (mode == KTABLE)
		do_kernel_table(&t, (uint32_t)block, inl);
	else if (mode == TSIZE)
		do_table_size(&t, (uint32_t)block, inl);
	else if (mode == TCHECK)
		do_table_check(&t, (uint32_t)block);
	else if (mode == ISTATS)
		do_inline_stats(&t);
	else if (via)
		do_via_table(&t, (uint32_t)block, (inl ? ADDR_INLINES : 0) |
			     (names ? ADDR_NAMES : 0) | (show ? ADDR_SHOW : 0),
			     argv + optind, argc - optind);
	else
		do_addrs(&t, jsec, (inl ? ADDR_INLINES : 0) |
			 (names ? ADDR_NAMES : 0) | (show ? ADDR_SHOW : 0),
			 argv + optind, argc - optind);
	out_close(outpath, 1);
	return 0;
}
