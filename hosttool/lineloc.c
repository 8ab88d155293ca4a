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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lineloc.h"
#include "tables.h"
#include "modes.h"

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

/* -o: the output goes to a temporary file, renamed to @outpath at the end. */
static void open_output(const char *outpath)
{
	size_t n = strlen(outpath) + 16;
	int fd;

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

/* Flush the output; with -o, give the file its permissions and rename it. */
static void close_output(const char *outpath)
{
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
	if (outpath)
		open_output(outpath);
	if (strip == STRIP_GIVEN)
		for (i = 0; i < nstrips; i++)
			add_strip(&t, strips[i]);
	load_tables(&t, file, strip, all_rows);

	if (mode == ROWS)
		do_rows(&t);
	else if (mode == STATS)
		do_stats(&t);
	else
		do_addrs(&t, jsec, argv + first_addr, argc - first_addr);
	close_output(outpath);
	return 0;
}
