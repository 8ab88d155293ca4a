// SPDX-License-Identifier: GPL-2.0
/*
 * lineloc - the line tables of CONFIG_KALLSYMS_LINE_LOCATIONS, at build time
 *
 *   lineloc [--strip PREFIX]... [--inlines] -o OUT --kernel-table VMLINUX
 *	read VMLINUX's DWARF .debug_line and write its compact line tables,
 *	in their container (<linux/lineloc/vmlinux.h>), to OUT; with
 *	--inlines, the chains of inlined calls of its .debug_info in them
 *   lineloc --check-anchors VMLINUX FINAL
 *	fail unless FINAL's text symbols lie where VMLINUX's did
 *   lineloc [--exit-init] --module-sections MODULE CORE INIT
 *	read MODULE's .debug_line and write the contents of its sections of
 *	line tables (<linux/lineloc/module.h>) to CORE and INIT
 *   lineloc --shared-codes OUT LIST
 *	make the prefix codes that module line tables share from the
 *	symbols of the tables of the modules LIST names (one path a line,
 *	as modules.order), and write them to OUT as
 *	lib/lineloc/linetab_codes.h
 *
 * scripts/link-vmlinux.sh runs the first two, scripts/Makefile.modfinal
 * the third; the fourth is run by hand.  ELF32 and ELF64 of either byte order
 * are read on any host; every address and offset is 64-bit.  Rows are
 * clipped to the address ranges of the compilation unit that owns their
 * line table (units.c), and paths are stripped of the source and object
 * trees (tables.c).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "util.h"
#include "tables.h"
#include "ktable.h"
#include "modsec.h"

static const char usage[] =
	"usage: lineloc [--strip PREFIX]... [--inlines] -o OUT --kernel-table VMLINUX\n"
	"       lineloc --check-anchors VMLINUX FINAL\n"
	"       lineloc [--exit-init] --module-sections MODULE CORE INIT\n"
	"       lineloc --shared-codes OUT LIST\n";

static void __attribute__((noreturn)) usage_error(const char *what)
{
	fprintf(stderr, "%s: %s\n%s", prog, what, usage);
	exit(1);
}

enum {
	OPT_STRIP = 0x100,
	OPT_KERNEL_TABLE,
	OPT_CHECK_ANCHORS,
	OPT_MODULE_SECTIONS,
	OPT_EXIT_INIT,
	OPT_INLINES,
	OPT_SHARED_CODES,
};

static const struct option longopts[] = {
	{ "strip",		required_argument,	NULL, OPT_STRIP },
	{ "kernel-table",	required_argument,	NULL, OPT_KERNEL_TABLE },
	{ "check-anchors",	required_argument,	NULL, OPT_CHECK_ANCHORS },
	{ "module-sections",	required_argument,	NULL, OPT_MODULE_SECTIONS },
	{ "exit-init",		no_argument,		NULL, OPT_EXIT_INIT },
	{ "inlines",		no_argument,		NULL, OPT_INLINES },
	{ "shared-codes",	required_argument,	NULL, OPT_SHARED_CODES },
	{ NULL,			0,			NULL, 0 },
};

int main(int argc, char **argv)
{
	const char *table = NULL, *anchors = NULL, *outpath = NULL;
	const char *module = NULL, *codes = NULL;
	static struct tables t;
	int c, stripped = 0, exit_init = 0, inlines = 0;
	struct elf e;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+o:", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_STRIP:
			add_strip(&t, optarg);
			stripped = 1;
			break;
		case OPT_KERNEL_TABLE:
			table = optarg;
			break;
		case OPT_CHECK_ANCHORS:
			anchors = optarg;
			break;
		case OPT_MODULE_SECTIONS:
			module = optarg;
			break;
		case OPT_EXIT_INIT:
			exit_init = 1;
			break;
		case OPT_INLINES:
			inlines = 1;
			break;
		case OPT_SHARED_CODES:
			codes = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		default:
			usage_error("unknown option or missing argument");
		}
	}
	if (!!table + !!anchors + !!module + !!codes != 1)
		usage_error("one mode, exactly");
	if (codes) {
		if (optind + 1 != argc)
			usage_error("--shared-codes OUT LIST: two files");
		do_shared_codes(codes, argv[optind]);
		return 0;
	}
	if (module) {
		if (optind + 2 != argc)
			usage_error("--module-sections MODULE CORE INIT: three files");
		in_path = module;
		elf_open(&e, module);
		do_module_sections(&e, argv[optind], argv[optind + 1],
				   exit_init);
		return 0;
	}
	if (anchors) {
		if (optind + 1 != argc)
			usage_error("--check-anchors VMLINUX FINAL: two files");
		out = stdout;
		do_check_anchors(anchors, argv[optind]);
		out_flush();
		return fflush(stdout) || ferror(stdout);
	}
	if (optind != argc || !outpath)
		usage_error("--kernel-table VMLINUX: one file, and -o OUT");
	in_path = table;
	out_open(outpath);
	load_tables(&t, table, stripped ? STRIP_GIVEN : STRIP_AUTO, 0);
	do_kernel_table(&t, KTABLE_BLOCK, inlines);
	out_close(outpath, 0);
	return 0;
}
