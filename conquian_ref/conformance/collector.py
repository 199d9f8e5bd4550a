"""The garbage collector's setting in the processes conquian-ref runs: the command line (every
command: check, simulate, fuzz, bench, ...) and the reference adapter. The engine never sets it:
a program that embeds the engine keeps its own, and may set the same (docs/performance.md).

The meld tables memoise their searches (engine/solver.py): a long run holds a few hundred
thousand answers, in memos that CPython's collector walks whole at each of its full passes,
about 57 ms each after 1,000 two-deck games (30 of them the meld memos). By default a full
pass may come after every ten collections of the middle generation; the engine's garbage is
freed by reference counting, not by the collector (no cycles are made per action), so a full
pass finds nothing to free, and taking one ten times less often costs no memory.

Measured: 2 to 10 % less time per random game, the most where the memos grow most (two decks
of cards), and up to 8 % off a fuzz run; the figures are in docs/performance.md.
"""

from __future__ import annotations

import gc

FULL_PASS_EVERY = 100  # collections of the middle generation between two full passes (CPython: 10)


def set_collector() -> None:
    """Make the collector's full passes rarer, its young collections as they were (a process's
    own thresholds for them, if it set any, are kept)."""
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_PASS_EVERY)
