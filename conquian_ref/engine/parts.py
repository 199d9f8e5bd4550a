"""A pool of cards split into independent parts: stretches of ranks that no meld of the pool
crosses. Cards that share no meld cannot affect each other's arrangement (C-ARR-1: each card
in one meld, every meld made of cards of the pool), so a question about the pool is answered
part by part (the use search of engine/onecopy.py and engine/twocopies.py).

The rule's melds (engine/meldrules.py) give where a meld can cross from a rank to the next:

- a set lies within one rank (C-SET-1; RUL-33 with two copies), so it crosses nothing;
- a run is consecutive cards of one suit (C-RUN-1), at least `run_min` of them (the run length
  rule, RUL-2). A run of the pool crossing from rank r to r + 1 holds its suit's cards of both
  ranks, and each of them then lies in `run_min` consecutive cards of its suit in the pool.

So where no suit has both its cards of r and r + 1 among the pool's cards in runs of `run_min`
(`in_run`), no meld crosses, and the pool splits there. A part is a stretch of ranks between
two such places, with the pool's cards of those ranks that lie in some meld (`linked`); the
other cards of the pool lie in no meld at all and in no part.

These parts are coarser than the classes of cards linked by a shared meld (two runs of
different suits over the same ranks stay in one part): that finer split was measured too and
cost more to find than it saved (docs/performance.md, "the meld search in parts"). Only the
rule's melds are read: a solver of another list of melds (onecopy.GivenMelds, a house rule's,
a mutant's) does not split.
"""

from __future__ import annotations

from .profile import Profile


class Parts:
    """The stretches of ranks of one profile's deck, as bit masks over copy 0 of every card
    (one copy: every card; two copies: the even bits, a card's copies side by side)."""

    def __init__(self, profile: Profile):
        deck = profile.deck
        self._step = step = deck.copies  # from a card to the next rank's card of its suit
        n_ranks, n_suits = len(deck.ranks), len(deck.suit_ids)
        width = step * n_ranks  # one suit's row of bits
        self._row = sum(1 << step * r for r in range(n_ranks))  # copy 0 of the first suit's cards
        self._spread = sum(1 << width * s for s in range(n_suits))  # a row times this: every suit's
        self._folds = tuple(width << k for k in range((n_suits - 1).bit_length()))  # ORs every row onto the first
        self._two = deck.copies == 2

    def split(self, pool: int, in_run: int, linked: int) -> list[int]:
        """The parts of `pool` (canonical with two copies), lowest first, each with every copy
        of its cards in the pool. `in_run`: copy 0 of the cards of `pool` in `run_min`
        consecutive cards of their suit there; `linked`: copy 0 of those in some meld of the
        pool (the runs' and the sets'). Written with whole-mask bit operations, a few dozen
        for any pool: the split must cost less than the search it saves (docs/performance.md)."""
        step, row, spread = self._step, self._row, self._spread
        # a suit's card of r and of r + 1 in runs (at a suit's top rank this reads the next
        # suit's ace: the carry below then runs past the row, which is cut off, so no harm)
        bridges = in_run & (in_run >> step)
        ranks = linked
        for shift in self._folds:  # the ranks where some suit has a bridge, or a linked card
            bridges |= bridges >> shift
            ranks |= ranks >> shift
        bridges &= row
        ranks &= row
        if step == 2:
            bridges |= bridges << 1  # fills the odd bits between two bridges, so a carry runs on
        parts = []
        while ranks:
            start = ranks & -ranks
            # the carry of `bridges + start` runs from `start` through the bridges above it and
            # stops at the rank after the last: XOR keeps exactly the stretch's ranks
            span = ((bridges + start) ^ bridges) & row
            ranks &= ~span
            part = (span * spread) & linked
            parts.append((part | part << 1) & pool if self._two else part)
        return parts
