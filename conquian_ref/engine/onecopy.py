"""The meld solvers for one copy of each card: C-ARR-1..2 (a valid arrangement of all exposed
cards, with full rearrangement), C-ARR-4 / RUL-3 (fits), RUL-22 (extends), RUL-35 (placement
under `meld_timing: discard_then_meld`) and C-TURN-2 (which hand cards can go down).

`GivenMelds` searches any list of melds (a house rule may give its own). Whether a set of cards
can be arranged is a small exact search: the lowest card left must belong to some meld made
only of cards left (there is nowhere else for it to go), so try each such meld and recurse.
Answers are memoised per mask.

`OneCopy` is that search over the rule's melds (engine/meldrules.py) with two facts of the rule:
the searches leave out the runs of 2 * run_min cards or more (each is two shorter runs, RUL-2,
so they change no answer and only add branches; `meldrules.searched`), and `meldable` is a bit
filter over whole masks (runs of `run_min`, sets of `set_min`) instead of trying melds. Its
`legal_uses` splits the pool into the stretches of ranks no meld of it crosses
(engine/parts.py) and combines the options of each.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from . import meldrules
from .parts import Parts
from .profile import Profile
from .solver import MeldSolver, gated, indexed, run_starts, subsets


class GivenMelds(MeldSolver):
    """A solver over a given list of melds (a mapping to their rule ids, or plain masks), one
    copy of each card. A subclass may replace a search (`_arrangeable`, `_use_options`, ...):
    the memoised attribute calls the subclass's method."""

    def __init__(self, profile: Profile, melds: Mapping[int, tuple[str, ...]] | Iterable[int], searched: Iterable[int] | None = None):
        super().__init__(profile, melds)
        if profile.deck.copies != 1:
            raise ValueError(f"{type(self).__name__} searches one copy of each card")
        # The melds the arrangement searches try (by default all of them); `arrangement`
        # (what is shown), `extends` and `placeable` (where a meld must stay whole) try all.
        searched = self.melds if searched is None else tuple(searched)
        self._search_lowest, self._search_containing = indexed(searched, profile.deck.size)
        self._memoise(
            arrangeable=self._arrangeable,
            extends=self._extends,
            placeable=self._placeable,
            use_options=self._use_options,
            _hand_melds=self._hand_only,
        )

    # -- C-ARR-1: is there a valid arrangement? -------------------------------------------
    def _arrangeable(self, mask: int) -> bool:
        """True when the cards of `mask` can be split into valid melds, each card in one meld."""
        if mask == 0:
            return True
        low = (mask & -mask).bit_length() - 1
        for meld in self._search_lowest[low]:
            if meld & mask == meld and self.arrangeable(mask ^ meld):
                return True
        return False

    def arrangement(self, mask: int) -> list[int] | None:
        """One valid arrangement of `mask` as a list of meld masks (the canonical one: the lowest
        card's melds are tried in table order), or None when there is none."""
        if mask == 0:
            return []
        low = (mask & -mask).bit_length() - 1
        for meld in self._by_lowest[low]:
            if meld & mask == meld and self.arrangeable(mask ^ meld):
                return [meld] + self.arrangement(mask ^ meld)
        return None

    def _extends(self, exposed: int, card_bit: int) -> bool:
        """RUL-22: the card extends one meld M of some valid arrangement of `exposed`: M plus the
        card is a meld. Quantified over arrangements, so the partition shown does not matter
        (RUL-13): some meld holding the card, less the card, is a meld of exposed cards whose
        rest can still be arranged."""
        for meld in self._containing[card_bit.bit_length() - 1]:
            base = meld ^ card_bit
            if base in self.is_meld and base & exposed == base and self.arrangeable(exposed ^ base):
                return True
        return False

    def _placeable(self, exposed: int, new: int) -> bool:
        """RUL-35: the new cards (the taken card and the named hand cards) complete some valid
        arrangement of `exposed` left as it is: `exposed | new` has an arrangement in which the
        exposed cards of every meld are none or themselves a meld (so each new card extends an
        exposed meld or forms a new meld with other new cards, and no exposed card moves)."""
        mask = exposed | new
        if mask == 0:
            return True
        low = (mask & -mask).bit_length() - 1
        for meld in self._by_lowest[low]:
            if meld & mask == meld:
                part = meld & exposed
                if (part == 0 or part in self.is_meld) and self.placeable(exposed & ~meld, new & ~meld):
                    return True
        return False

    # -- C-TURN-2: which hand cards can go down with the taken card? ------------------------
    def meldable(self, pool: int) -> int:
        """The cards of `pool` that belong to at least one meld made only of cards of `pool`."""
        cards, rest = 0, pool
        while rest:
            card = rest & -rest
            rest ^= card
            if self._in_some_meld(card.bit_length() - 1, pool):
                cards |= card
        return cards

    def legal_uses(self, exposed: int, card_bit: int, hand: int) -> frozenset[int]:
        """Every set of hand cards that can be exposed with the taken card (C-TURN-2, C-ARR-2).
        Hand cards that belong to no possible meld are left out of the search first."""
        must = exposed | card_bit
        pool = must | hand
        if not self._in_some_meld(card_bit.bit_length() - 1, pool):
            return frozenset()  # the taken card belongs to no meld at all: the common case
        candidates = hand & self.meldable(pool)
        if candidates.bit_count() <= self.few_candidates:  # ask each subset (see FEW_CANDIDATES)
            return frozenset(s for s in subsets(candidates) if self.arrangeable(must | s))
        return frozenset(self.use_options(must, candidates))

    def _use_options(self, must: int, hand: int) -> tuple[int, ...]:
        """Every subset S of `hand` such that `must | S` has a valid arrangement.

        `must` is what has to be covered (exposed cards plus the taken card). Its lowest card
        lies in exactly one meld, which may borrow hand cards; recurse on what is left. Once
        `must` is covered, any further melds made purely of hand cards may go down too.
        """
        if must == 0:
            return self._hand_melds(hand)
        low = (must & -must).bit_length() - 1
        pool = must | hand
        options: set[int] = set()
        for meld in self._search_containing[low]:
            if meld & pool == meld:
                used = meld & hand
                rests = self.use_options(must & ~meld, hand & ~meld)
                options.update([used | rest for rest in rests] if used else rests)
        return tuple(options)

    def _hand_only(self, hand: int) -> tuple[int, ...]:
        """Every subset of `hand` (the empty one included) with a valid arrangement."""
        if hand == 0:
            return (0,)
        low = (hand & -hand).bit_length() - 1
        without = hand & ~(1 << low)
        options = set(self._hand_melds(without))  # the lowest card stays in hand
        for meld in self._search_lowest[low]:  # or it goes down in a meld of cards above it
            if meld & hand == meld:
                options.update([meld | rest for rest in self._hand_melds(hand & ~meld)])
        return tuple(options)


class OneCopy(GivenMelds):
    """The rule's melds (engine/meldrules.py), one copy of each card: the searches skip the long
    runs (`meldrules.searched`, RUL-2), `meldable` is a bit filter, `legal_uses` answers part by
    part (engine/parts.py), and `extends` tries only the melds the card completes, a group at a
    time (solver.gated)."""

    few_candidates = 1
    """With the use search split into parts (engine/parts.py), asking each subset pays only up
    to one candidate: over the solver questions of 300 random games per profile (instructions
    counted) 1 costs 2 to 10 % less than 3 on six one-copy profiles of nine and within 0.5 % on
    the other three; 0, 2 and none at all (-1) cost more (docs/performance.md, "the meld
    search in parts")."""

    def __init__(self, profile: Profile):
        table = meldrules.melds(profile)
        super().__init__(profile, table, meldrules.searched(profile, table))
        deck = profile.deck
        self._n_ranks, self._n_suits = len(deck.ranks), len(deck.suit_ids)
        self._row = (1 << self._n_ranks) - 1  # one suit's row of ranks
        self._row_shifts = tuple(s * self._n_ranks for s in range(self._n_suits))
        self._spread = sum(1 << shift for shift in self._row_shifts)  # a row times this: every suit's
        self._run_starts = run_starts(profile)  # where a run of run_min may start
        self._run_min = profile.run_min
        self._set_min = min(profile.set_sizes)
        self._parts = Parts(profile)
        # RUL-22: the melds each card completes, less the card, in groups with their tests
        # (solver.gated); the same bases `GivenMelds._extends` finds, without trying every meld.
        bases = [[m ^ (1 << c) for m in self._containing[c] if m ^ (1 << c) in self.is_meld] for c in range(deck.size)]
        self._ext_groups = tuple(gated(bases[c], deck.rank_of, deck.rank_of(c)) for c in range(deck.size))

    def fits(self, exposed: int, card_bit: int) -> bool:
        """C-ARR-4 / RUL-3 (solver.MeldSolver.fits): a card in no meld of the exposed cards and
        itself cannot be arranged with them, which the witnesses tell without a search (most
        cards offered fit nothing, and their masks are new, so the memo would miss)."""
        pool = exposed | card_bit
        return exposed != 0 and self._in_some_meld(card_bit.bit_length() - 1, pool) and self.arrangeable(pool)

    def _extends(self, exposed: int, card_bit: int) -> bool:
        """As GivenMelds._extends, over the card's bases in groups (solver.gated)."""
        for gate, region, least, bases in self._ext_groups[card_bit.bit_length() - 1]:
            if gate & exposed == gate and (exposed & region).bit_count() >= least:
                for base in bases:
                    if base & exposed == base and self.arrangeable(exposed ^ base):
                        return True
        return False

    def legal_uses(self, exposed: int, card_bit: int, hand: int) -> frozenset[int]:
        """As GivenMelds.legal_uses, with more than `few_candidates` candidates answered part by
        part (engine/parts.py): the options of each stretch of ranks no meld crosses, combined."""
        must = exposed | card_bit
        pool = must | hand
        if not self._in_some_meld(card_bit.bit_length() - 1, pool):
            return _NONE  # the taken card belongs to no meld at all: the common case
        in_run, linked = self._links(pool)
        candidates = hand & linked
        if candidates.bit_count() <= self.few_candidates:  # ask each subset (see FEW_CANDIDATES)
            return frozenset(s for s in subsets(candidates) if self.arrangeable(must | s))
        if must & ~linked:
            return _NONE  # an exposed card (or the taken one) in no meld of the pool
        return frozenset(self._uses_in_parts(self._parts.split(pool, in_run, linked), must, candidates))

    def meldable(self, pool: int) -> int:
        """The cards of `pool` in some meld of `pool`. Cards outside this mask can never be
        exposed from `pool`."""
        return self._links(pool)[1]

    def _links(self, pool: int) -> tuple[int, int]:
        """The cards of `pool` in runs of `run_min` there, and those in some meld of `pool`, with
        whole-mask bit operations: a card is in a run when `run_min` consecutive cards of its suit
        around it are there (a window start is only valid inside one suit's row), and in a set when
        its rank is present in at least `set_min` suits."""
        starts = self._run_starts
        for i in range(self._run_min):
            starts &= pool >> i
        in_run = 0
        for i in range(self._run_min):
            in_run |= starts << i
        # a saturating bit-sliced count of the suits' rows (measured: a quarter cheaper than
        # ANDing every `set_min` rows): at_least[j] holds the ranks there j + 1 times or more
        row, set_min = self._row, self._set_min
        at_least = [0] * set_min
        for shift in self._row_shifts:
            there = (pool >> shift) & row
            for j in range(set_min - 1, 0, -1):
                at_least[j] |= at_least[j - 1] & there
            at_least[0] |= there
        return in_run, (in_run | at_least[-1] * self._spread) & pool


_NONE: frozenset[int] = frozenset()
