/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LLTEST_H
#define LLTEST_H

/* LLTEST_HANG never returns: tests/faults plants it to prove a hang is caught. */
enum lltest_kind { LLTEST_WARN, LLTEST_OOPS, LLTEST_DUMP, LLTEST_HANG };

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

#endif
