/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LLTEST_H
#define LLTEST_H

/*
 * LLTEST_PROBE takes a backtrace across an exception boundary: a kprobe's
 * post handler calls dump_stack().  LLTEST_SAVED prints a saved stack
 * (stack_trace_save(), stack_trace_print()).  LLTEST_HANG never returns:
 * tests/faults plants it to prove a hang is caught.  LLTEST_LONG calls
 * dump_stack() from lltest_long(), whose source file Kbuild places at a
 * path of over 1 KiB: its location cannot fit a backtrace line.
 */
enum lltest_kind {
	LLTEST_WARN, LLTEST_OOPS, LLTEST_DUMP, LLTEST_PROBE, LLTEST_SAVED,
	LLTEST_HANG, LLTEST_LONG,
};

/*
 * The chain a trigger runs through: lltest_write (lltest_main.c) ->
 * lltest_chain_a -> lltest_chain_b (lltest_chain.c) -> lltest_fire
 * (lltest_main.c).  noipa keeps each a real, uncloned function with its own
 * name (no .constprop/.isra clones, no inlining), and each call's result is
 * used after the call so that none is a sibling call, even under ORC.
 */
#define lltest_noipa __attribute__((__noipa__)) noinline

int lltest_chain_a(enum lltest_kind kind, const char *name);
int lltest_chain_b(enum lltest_kind kind, const char *name);
int lltest_fire(enum lltest_kind kind, const char *name);
int lltest_target(enum lltest_kind kind);
/*
 * lltest_probed is one branch to lltest_target (lltest_main.c), nothing
 * else: a kprobe on it is simulated (arm, arm64) or emulated (x86), so its
 * post handler runs from the breakpoint exception with the pc at the first
 * instruction of a function, where the pc and the pc - 1 name different
 * functions.
 */
int lltest_probed(enum lltest_kind kind);
int lltest_probe_call(enum lltest_kind kind);
unsigned int lltest_save(unsigned long *entries, unsigned int size);
int lltest_long(enum lltest_kind kind, const char *name);

#endif
