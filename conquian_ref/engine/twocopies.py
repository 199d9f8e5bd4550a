"""The meld solvers for two copies of every card (`deck.copies: 2`, SATD): C-ARR-1..2, C-ARR-4 /
RUL-3, RUL-22 and C-TURN-2 as in engine/onecopy.py, on multisets of cards.

The copies of a card are indistinguishable in play (RUL-34), so every question is asked about
the multiset of cards, as a canonical mask (cards.canonical: the copies present packed low). The
rule's melds are canonical too (engine/meldrules.py), so there are no more of them than
multisets of cards that are melds (a run holds one copy of each of its cards; with
`melds.set_suits: any` a set may hold two identical cards, RUL-33, SATD-SET-1): about five
hundred, where one meld per choice of copies would be tens of thousands. On canonical masks AND,
OR and inclusion keep their meaning (the smaller count, the larger, fewer of every card), and the
lowest card of a multiset still lies in a meld whose lowest card it is, so the one-copy searches
work with a multiset difference in place of XOR. A physical mask given to a solver is
canonicalised on the way in; the uses it lists are turned back into the copies the seat holds
(cards.resolve), one per distinct multiset. As with one copy, the searches leave out the long
runs (`meldrules.searched`, RUL-2).

`Multiset` is the general search (`set_suits: distinct` with two copies, and the cross-check of
the other); `AnySuitSets` (`set_suits: any`) takes the cards rank by rank and counts the cards
that go to sets, and answers `legal_uses` part by part (engine/parts.py).
"""

from __future__ import annotations

from . import meldrules
from .cards import canonical, cards_of, resolve
from .profile import Profile
from .parts import Parts
from .solver import MeldSolver, gated, indexed, run_starts, subsets
from .policies import SetSuits


class Multiset(MeldSolver):
    """The rule's melds with two copies of every card (see the module docstring). Every method
    takes physical masks (any copies) and answers about their multisets; inside, the searches
    run on canonical masks, memoised by canonical mask."""

    def __init__(self, profile: Profile):
        table = meldrules.melds(profile)
        super().__init__(profile, table)
        deck = profile.deck
        if deck.copies != 2:
            raise ValueError(f"{type(self).__name__} searches two copies of every card")
        self._search_lowest, self._search_containing = indexed(meldrules.searched(profile, table), deck.size)
        self._low = low = deck.low
        # RUL-22 with duplicates: the melds that a card completes, less that card (one copy).
        ext: list[list[int]] = [[] for _ in range(deck.size)]
        for card in range(0, deck.size, 2):
            for meld in self._containing[card]:
                base = canonical(meld & ~(1 << card), low) if not meld & (2 << card) else meld & ~(2 << card)
                if base in self.is_meld:
                    ext[card].append(base)
        self._ext_groups = tuple(gated(ext[c], deck.rank_of, deck.rank_of(c)) for c in range(deck.size))
        # `meldable`: a suit's row is 2 * ranks bits wide; copy 0 of each card is an even bit.
        self._n_ranks, self._n_suits = len(deck.ranks), len(deck.suit_ids)
        self._width = 2 * self._n_ranks
        self._row = low & ((1 << self._width) - 1)
        self._set_counts_copies = profile.set_suits == SetSuits.ANY
        self._run_starts = run_starts(profile)  # copy 0 of each card where a run of run_min may start
        self._run_min = profile.run_min
        self._set_min = min(profile.set_sizes)
        self._memoise(
            arrangeable=self._arrangeable,
            extends=self._extends,
            placeable=self._placeable,
            use_options=self._use_options,
            _hand_melds=self._hand_only,
        )

    def _arrangeable(self, mask: int) -> bool:
        low = self._low
        first, second = mask & low, (mask >> 1) & low
        mask = first | second | (first & second) << 1
        if mask == 0:
            return True
        lowest = (mask & -mask).bit_length() - 1
        for meld in self._search_lowest[lowest]:
            if meld & mask == meld:
                rest = mask & ~meld  # the multiset difference, canonical again:
                first, second = rest & low, (rest >> 1) & low
                if self.arrangeable(first | second | (first & second) << 1):
                    return True
        return False

    def arrangement(self, mask: int) -> list[int] | None:
        low = self._low
        mask = canonical(mask, low)
        if mask == 0:
            return []
        lowest = (mask & -mask).bit_length() - 1
        for meld in self._by_lowest[lowest]:
            if meld & mask == meld:
                rest = canonical(mask & ~meld, low)
                if self.arrangeable(rest):
                    return [meld] + self.arrangement(rest)
        return None

    def _extends(self, exposed: int, card_bit: int) -> bool:
        low = self._low
        exposed = canonical(exposed, low)
        for gate, region, least, bases in self._ext_groups[(card_bit.bit_length() - 1) & ~1]:
            if gate & exposed == gate and (exposed & region).bit_count() >= least:
                for base in bases:
                    if base & exposed == base and self.arrangeable(canonical(exposed & ~base, low)):
                        return True
        return False

    def _placeable(self, exposed: int, new: int) -> bool:
        raise NotImplementedError("RUL-35 placement with two copies (refused when the profile is loaded)")

    def _in_runs(self, once: int) -> int:
        """The cards (copy 0 bits) of `once`, one copy of each card present, that lie in `run_min`
        consecutive cards of their suit there (copy 0 bits are two apart)."""
        starts = self._run_starts
        for i in range(self._run_min):
            starts &= once >> (2 * i)
        cards = 0
        for i in range(self._run_min):
            cards |= starts << (2 * i)
        return cards

    def meldable(self, pool: int) -> int:
        """As OneCopy.meldable, on the multiset `pool`: a card is in a run when `run_min`
        consecutive cards of its suit are there (copy 0 bits, two apart), in a set when its rank
        is there `set_min` times (counting the suits present, and under `set_suits: any` the second
        copies too: a saturating bit-sliced count). Every copy of such a card is kept."""
        low = self._low
        pool = canonical(pool, low)
        once, twice = pool & low, (pool >> 1) & low
        cards = self._in_runs(once)
        width, row = self._width, self._row
        rows = [(once >> (s * width)) & row for s in range(self._n_suits)]
        counted = rows + [(twice >> (s * width)) & row for s in range(self._n_suits)] if self._set_counts_copies else rows
        at_least = [0] * self._set_min  # at_least[j]: ranks seen j + 1 times or more
        for x in counted:
            for j in range(self._set_min - 1, 0, -1):
                at_least[j] |= at_least[j - 1] & x
            at_least[0] |= x
        ranks = at_least[-1]
        for s, r in enumerate(rows):
            cards |= (r & ranks) << (s * width)
        return (cards | cards << 1) & pool

    def legal_uses(self, exposed: int, card_bit: int, hand: int) -> frozenset[int]:
        """Every multiset of hand cards that can be exposed with the taken card, once each, as
        the copies the hand holds."""
        low = self._low
        pool = canonical(exposed | card_bit | hand, low)
        if not self._in_some_meld((card_bit.bit_length() - 1) & ~1, pool):
            return _NONE  # the common case: the taken card is in no meld at all
        must = canonical(exposed | card_bit, low)
        candidates = canonical(hand, low) & self.meldable(pool)
        if candidates.bit_count() <= self.few_candidates:  # ask each sub-multiset (see FEW_CANDIDATES)
            options = self._asked_one_by_one(must, candidates)
        else:
            options = self.use_options(must, candidates)
        return frozenset(resolve(s, hand, low) for s in options)

    def _asked_one_by_one(self, must: int, candidates: int) -> list[int]:
        """Each sub-multiset of `candidates` that arranges with `must`, `arrangeable` asked of
        each (see FEW_CANDIDATES). A subset holding a card's copy 1 without its copy 0 is the
        same multiset as the one holding copy 0 instead, which is asked: only canonical subsets are."""
        low = self._low
        return [s for s in subsets(candidates) if not (s >> 1) & ~s & low and self.arrangeable(must | s | (must & s & low) << 1)]

    def _use_options(self, must: int, hand: int) -> tuple[int, ...]:
        """As GivenMelds._use_options on multisets: the meld of `must`'s lowest card takes what
        it can from `must` first (the cards left are the same multiset either way), the rest from
        the hand."""
        if must == 0:
            return self._hand_melds(hand)
        if hand == 0:
            return _EMPTY_ONLY if self.arrangeable(must) else _NO_OPTION
        low = self._low
        lowest = (must & -must).bit_length() - 1
        pool = must | hand | (must & hand & low) << 1
        options: set[int] = set()
        for meld in self._search_containing[lowest]:
            if meld & pool == meld:
                from_must = meld & must
                used = canonical(meld & ~from_must, low)
                for rest in self.use_options(canonical(must & ~from_must, low), canonical(hand & ~used, low)):
                    options.add(used | rest | (used & rest & low) << 1)
        return tuple(options)

    def _hand_only(self, hand: int) -> tuple[int, ...]:
        if hand == 0:
            return _EMPTY_ONLY
        low = self._low
        lowest = (hand & -hand).bit_length() - 1
        options = set(self._hand_melds(hand & ~(3 << lowest)))  # no copy of the lowest card goes down
        for meld in self._search_lowest[lowest]:  # or one goes down in a meld of cards above it
            if meld & hand == meld:
                for rest in self._hand_melds(canonical(hand & ~meld, low)):
                    options.add(meld | rest | (meld & rest & low) << 1)
        return tuple(options)


class AnySuitSets(Multiset):
    """Two copies and `melds.set_suits: any` (RUL-33): a set is any 3 or 4 cards of one rank, so
    which cards of a rank go into sets does not matter, only how many: n cards of a rank split
    into sets exactly when n is a sum of set sizes (3, 4, 6, 7, 8). The searches therefore take
    the cards rank by rank (all suits of a rank before the next rank): the lowest card left
    either goes to its rank's sets (counted, not placed) or starts a run (every card of a lower
    rank has been placed, so a run holding it starts at it); when a rank is done its count must
    be a sum of set sizes. The state is the cards left and one count, where the general search
    tries each of the dozens of sets holding the lowest card; the cards of a rank that start no
    run go to its sets at once. (Measured with `conquian-ref bench`'s arrangement workload: two
    to five times the checks per second of Multiset, which stays the table for
    `set_suits: distinct` with two copies, and is the cross-check of this one.)"""

    few_candidates = 1
    """With this table's by-rank searches, `use_options` already pays from two candidates on:
    over 300 random two-deck games (instructions counted) 1 costs 2 % less than 3, 0 and 2 more."""

    def __init__(self, profile: Profile):
        super().__init__(profile)
        deck = profile.deck
        n_ranks = len(deck.ranks)
        self._rank_bits = tuple(
            sum(3 << deck.card(s, r) for s in range(len(deck.suit_ids))) for r in range(n_ranks)
        ) + (0,)
        sums, most = {0}, deck.copies * len(deck.suit_ids)
        for _ in range(most):
            sums |= {t + k for t in sums for k in profile.set_sizes if t + k <= most}
        self._set_counts = frozenset(sums)  # how many cards of one rank sets can hold
        self._most = max(sums)
        self._runs_of_min = frozenset(
            m for m in self.melds if len({deck.suit_of(x) for x in cards_of(m)}) == 1 and m.bit_count() == profile.run_min
        )
        self._runs_from = tuple(
            tuple(m for m in self._search_lowest[c] if len({deck.suit_of(x) for x in cards_of(m)}) == 1)
            for c in range(deck.size)
        )
        self._deck_rank = tuple(deck.rank_of(c) for c in range(deck.size))
        self._windows = tuple(
            tuple(m for m in self._containing[c] if m in self._runs_of_min) for c in range(deck.size)
        )
        self._memoise(arrangeable=self._by_rank, use_options=self._uses_by_rank)
        self._parts = Parts(profile)

    def legal_uses(self, exposed: int, card_bit: int, hand: int) -> frozenset[int]:
        """As Multiset.legal_uses, with more than `few_candidates` candidates answered part by
        part (engine/parts.py): the options of each stretch of ranks no meld crosses, combined.
        The filter of `meldable` (`_links`) gives the runs `Parts` reads."""
        low = self._low
        pool = canonical(exposed | card_bit | hand, low)
        if not self._in_some_meld((card_bit.bit_length() - 1) & ~1, pool):
            return _NONE  # the common case: the taken card is in no meld at all
        in_run, linked = self._links(pool)
        must = canonical(exposed | card_bit, low)
        candidates = canonical(hand, low) & (linked | linked << 1)
        if candidates.bit_count() <= self.few_candidates:  # as Multiset.legal_uses
            options = self._asked_one_by_one(must, candidates)
        elif must & ~(linked | linked << 1):
            return _NONE  # an exposed card (or the taken one) in no meld of the pool
        else:
            options = self._uses_in_parts(self._parts.split(pool, in_run, linked), must, candidates)
        return frozenset(resolve(s, hand, low) for s in options)

    def _by_rank(self, mask: int, rank: int | None = None, pending: int = 0) -> bool:
        """Whether `mask` can be arranged, `pending` cards of `rank` already counted for sets.
        Called from outside (no rank) `mask` may hold any copies and is canonicalised once; the
        search keeps its masks canonical as it goes, taking away the last copy of a card."""
        if rank is None:
            mask, rank = canonical(mask, self._low), 0
        bits = self._rank_bits
        starts = self._run_starts  # copy 0 of each card with a run of `run_min` cards from it
        for i in range(1, self._run_min):
            starts &= mask >> (2 * i)
        starts &= mask
        while True:
            here = mask & bits[rank]
            # the cards of this rank that start no run go to its sets, all at once
            alone = here & ~(starts | starts << 1)
            if alone:
                pending += alone.bit_count()
                mask ^= alone
                here ^= alone
            if here:
                break
            if pending not in self._set_counts:
                return False
            if not mask:
                return True
            rank, pending = rank + 1, 0
        # sets need `set_min` cards of a rank: with fewer left the lowest card starts a run
        to_sets = pending + here.bit_count() >= self._set_min
        if pending and not to_sets:
            return False
        lowest = here & -here  # copy 0 of the lowest card left
        if to_sets and pending < self._most:
            last = lowest << 1 if mask & lowest << 1 else lowest  # its last copy: canonical still
            if self.arrangeable(mask ^ last, rank, pending + 1):
                return True
        for run in self._runs_from[lowest.bit_length() - 1]:
            if run & mask == run:
                twice = mask & run << 1  # as _less(mask, run), written out: this is the hot loop
                if self.arrangeable(mask ^ twice ^ run & ~(twice >> 1), rank, pending):
                    return True
        return False

    def meldable(self, pool: int) -> int:
        """As Multiset.meldable, where a set is any `set_min` or more cards of one rank
        (RUL-33): a rank's cards are counted whatever their suits and copies."""
        pool = canonical(pool, self._low)
        linked = self._links(pool)[1]
        return (linked | linked << 1) & pool

    def _links(self, pool: int) -> tuple[int, int]:
        """Copy 0 of the cards of the canonical `pool` in runs of `run_min` there, and of those
        in some meld of it (those and the ranks there `set_min` times or more)."""
        low = self._low
        in_run = linked = self._in_runs(pool & low)
        set_min = self._set_min
        for bits in self._rank_bits:
            here = pool & bits
            if here.bit_count() >= set_min:
                linked |= here & low
        return in_run, linked

    def _in_some_meld(self, card: int, pool: int) -> bool:
        """Whether some meld of the multiset `pool` holds `card`: `set_min` cards of its rank,
        or one of the runs of `run_min` cards through it."""
        if (pool & self._rank_bits[self._deck_rank[card]]).bit_count() >= self._set_min:
            return True
        for window in self._windows[card]:
            if window & pool == window:
                return True
        return False

    def _uses_by_rank(self, must: int, hand: int, rank: int | None = None, pending: int = 0) -> tuple[int, ...]:
        """Every multiset S of `hand` such that `must` + S can be arranged (canonical masks),
        `pending` cards of `rank` already counted for sets. The lowest card is taken from
        `must` when it is there (it has to be placed), else from the hand (left out, or used);
        a run takes what it can from `must` (the cards left are the same multiset either way).
        Called from outside (no rank) the masks are canonicalised once, and kept canonical; once
        the hand is empty the question is `arrangeable`'s, which stops at the first arrangement."""
        low = self._low
        if rank is None:
            must, hand, rank = canonical(must, low), canonical(hand, low), 0
        if not hand:
            return _EMPTY_ONLY if self.arrangeable(must, rank, pending) else _NO_OPTION
        pool = must | hand | (must & hand & low) << 1
        bits = self._rank_bits
        while not pool & bits[rank]:
            if pending not in self._set_counts:
                return _NO_OPTION
            rank, pending = rank + 1, 0
        here = pool & bits[rank]
        to_sets = pending + here.bit_count() >= self._set_min  # as in _by_rank
        if pending and not to_sets:
            return _NO_OPTION
        lowest = here & -here  # copy 0 of the lowest card left
        runs = self._runs_from[lowest.bit_length() - 1]
        options: set[int] = set()
        if must & lowest:
            must = _less(must, lowest)
            if to_sets and pending < self._most:
                options.update(self.use_options(must, hand, rank, pending + 1))
            for run in runs:
                rest = run ^ lowest
                if rest & pool == rest:
                    used = rest & ~must  # the cards of the run that `must` lacks come from the hand
                    for more in self.use_options(_less(must, rest & must), _less(hand, used), rank, pending):
                        options.add(used | more | (used & more & low) << 1)
            return tuple(options)
        hand = _less(hand, lowest)
        options.update(self.use_options(must, hand, rank, pending))  # this copy stays in hand
        if to_sets and pending < self._most:
            for more in self.use_options(must, hand, rank, pending + 1):
                options.add(lowest | more | (lowest & more & low) << 1)
        for run in runs:
            rest = run ^ lowest
            if rest & pool == rest:
                used = rest & ~must
                add = lowest | used
                for more in self.use_options(_less(must, rest & must), _less(hand, used), rank, pending):
                    options.add(add | more | (add & more & low) << 1)
        return tuple(options)


def _less(mask: int, cards: int) -> int:
    """The canonical mask `mask` less one copy of each card of `cards` (copy 0 bits, each card
    in `mask`), canonical again: a card held twice keeps its copy 0."""
    twice = mask & cards << 1
    return mask ^ twice ^ cards & ~(twice >> 1)


_NONE: frozenset[int] = frozenset()
# The use searches' options, memoised, are tuples (a set's contents, once each), not frozensets:
# a tuple of ints leaves the garbage collector's lists at its first collection, a frozenset never,
# and the collector's full passes walked every one the memo held.
_NO_OPTION: tuple[int, ...] = ()
_EMPTY_ONLY: tuple[int, ...] = (0,)
