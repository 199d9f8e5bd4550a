"""Melds and the arrangement solver.

Implements C-MELD-1 (a meld is a set or a run), C-SET-1 (3 or 4 of a rank, different suits),
C-RUN-1..3 (runs: one suit, consecutive in sequence order, 7 next to 10/J, ace low, no wrap),
the profile's run length rule (`rules.run_length`, RUL-2), C-ARR-1..2 (a valid arrangement of all exposed
cards, with full rearrangement), C-ARR-4 / RUL-3 ("fits" means any valid repartition), RUL-22
(for forcing under `forcing.fit: extension`, "fits" means extending one meld) and RUL-35 (under
`meld_timing: discard_then_meld` the taken card is placed before any rearrangement).

Every possible meld of a profile is listed once, as a bit mask, when the table is built (about
two hundred of them). Whether a set of cards can be arranged is then a small exact search: the
lowest card left must belong to some meld made only of cards left (there is nowhere else for
it to go), so try each such meld and recurse. Answers are memoised per mask.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from .cards import cards_of
from .profile import Profile

_CACHE_SIZE = 1 << 18  # masks remembered per profile; bounded so long runs keep flat memory


class MeldTable:
    """All melds of one profile and the arrangement questions asked about them."""

    def __init__(self, profile: Profile):
        deck = profile.deck
        n_ranks = len(deck.ranks)
        n_suits = len(deck.suit_ids)
        melds: list[int] = []
        # C-SET-1: 3 or 4 cards of one rank, each of a different suit.
        for rank in range(n_ranks):
            for size in profile.set_sizes:
                for suits in combinations(range(n_suits), size):
                    melds.append(sum(1 << deck.card(s, rank) for s in suits))
        # C-RUN-1..3: consecutive positions in the sequence order of one suit. Positions are
        # indices in the profile's rank list, so 7 and 10 (or 7 and J) are neighbours (C-RUN-2),
        # the ace is position 0 and nothing follows the last rank (C-RUN-3: no wrap).
        for suit in range(n_suits):
            for length in range(profile.run_min, profile.run_max + 1):
                for start in range(0, n_ranks - length + 1):
                    melds.append(sum(1 << deck.card(suit, start + i) for i in range(length)))
        self.melds: tuple[int, ...] = tuple(melds)
        self._rules = {m: _meld_rules(profile, m) for m in melds}
        self.is_meld: frozenset[int] = frozenset(melds)
        by_lowest: list[list[int]] = [[] for _ in range(deck.size)]
        containing: list[list[int]] = [[] for _ in range(deck.size)]
        for meld in melds:
            by_lowest[(meld & -meld).bit_length() - 1].append(meld)
            for card in cards_of(meld):
                containing[card].append(meld)
        self._by_lowest = tuple(tuple(ms) for ms in by_lowest)
        self._containing = tuple(tuple(ms) for ms in containing)
        # Bit masks for `meldable`: one suit's row of ranks, and where a run may start.
        self._n_ranks, self._n_suits = n_ranks, n_suits
        self._row = (1 << n_ranks) - 1
        self._run_starts = sum(
            1 << deck.card(suit, start) for suit in range(n_suits) for start in range(n_ranks - profile.run_min + 1)
        )
        self._run_min = profile.run_min
        self._set_min = min(profile.set_sizes)
        self.arrangeable = lru_cache(maxsize=_CACHE_SIZE)(self._arrangeable)
        self.extends = lru_cache(maxsize=_CACHE_SIZE)(self._extends)
        self.placeable = lru_cache(maxsize=_CACHE_SIZE)(self._placeable)
        self.use_options = lru_cache(maxsize=_CACHE_SIZE)(self._use_options)
        self._hand_melds = lru_cache(maxsize=_CACHE_SIZE)(self._hand_only)

    # -- C-ARR-1: is there a valid arrangement? -------------------------------------------
    def _arrangeable(self, mask: int) -> bool:
        """True when the cards of `mask` can be split into valid melds, each card in one meld."""
        if mask == 0:
            return True
        low = (mask & -mask).bit_length() - 1
        for meld in self._by_lowest[low]:
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

    def rules_of(self, mask: int) -> list[str]:
        """The rule ids behind the canonical arrangement of `mask` (for rule coverage)."""
        rules = ["C-ARR-1", "C-MELD-1"]
        for meld in self.arrangement(mask) or ():
            rules.extend(self._rules[meld])
        return rules

    def fits(self, exposed: int, card_bit: int) -> bool:
        """C-ARR-4 / RUL-3: the card joins the exposed cards, alone, under some rearrangement."""
        return exposed != 0 and self.arrangeable(exposed | card_bit)

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
        """The cards of `pool` that belong to at least one meld made only of cards of `pool`.

        A quick filter computed with whole-mask bit operations: a card is in a run of `pool`
        when `run_min` consecutive cards of its suit around it are there (a window start is
        only valid inside one suit's row), and in a set when its rank is present in at least
        `set_min` suits. Cards outside this mask can never be exposed from `pool`."""
        starts = self._run_starts
        for i in range(self._run_min):
            starts &= pool >> i
        in_run = 0
        for i in range(self._run_min):
            in_run |= starts << i
        rows = [(pool >> (s * self._n_ranks)) & self._row for s in range(self._n_suits)]
        ranks = 0
        for suits in combinations(rows, self._set_min):
            common = suits[0]
            for row in suits[1:]:
                common &= row
            ranks |= common
        in_set = 0
        for s, row in enumerate(rows):
            in_set |= (row & ranks) << (s * self._n_ranks)
        return (in_run | in_set) & pool

    def legal_uses(self, exposed: int, card_bit: int, hand: int) -> frozenset[int]:
        """Every set of hand cards that can be exposed with the taken card (C-TURN-2, C-ARR-2).
        Hand cards that belong to no possible meld are left out of the search first."""
        must = exposed | card_bit
        pool = must | hand
        card = card_bit.bit_length() - 1
        if not any(meld & pool == meld for meld in self._containing[card]):
            return frozenset()  # the taken card belongs to no meld at all: the common case
        return self.use_options(must, hand & self.meldable(pool))

    def _use_options(self, must: int, hand: int) -> frozenset[int]:
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
        for meld in self._containing[low]:
            if meld & pool == meld:
                used = meld & hand
                for rest in self.use_options(must & ~meld, hand & ~meld):
                    options.add(used | rest)
        return frozenset(options)

    def _hand_only(self, hand: int) -> frozenset[int]:
        """Every subset of `hand` (the empty one included) with a valid arrangement."""
        if hand == 0:
            return frozenset((0,))
        low = (hand & -hand).bit_length() - 1
        without = hand & ~(1 << low)
        options = set(self._hand_melds(without))  # the lowest card stays in hand
        for meld in self._by_lowest[low]:  # or it goes down in a meld of cards above it
            if meld & hand == meld:
                for rest in self._hand_melds(hand & ~meld):
                    options.add(meld | rest)
        return frozenset(options)


@lru_cache(maxsize=None)
def meld_table(profile: Profile) -> MeldTable:
    """The meld table of a profile, built once."""
    return MeldTable(profile)


def _meld_rules(profile: Profile, meld: int) -> tuple[str, ...]:
    """Which rules make `meld` a meld: C-SET-1 for a set; for a run C-RUN-1 and the profile's run
    length rule (RUL-2), C-RUN-2 when it crosses the gap left by the removed ranks (7 next to 10 or J),
    C-RUN-3 when it starts at the ace (ace low)."""
    deck = profile.deck
    cards = cards_of(meld)
    if len({deck.suit_of(c) for c in cards}) > 1:
        return ("C-SET-1",)
    rules = ["C-RUN-1", profile.rule("run_length"), "RUL-2", "RUL-29"]  # the run maximum (RUL-2 or RUL-29)
    ranks = [deck.ranks[deck.rank_of(c)] for c in cards]
    if "7" in ranks[:-1] and ranks[ranks.index("7") + 1] != "8":  # it crosses the removed ranks
        rules.append("C-RUN-2")
    if deck.rank_of(cards[0]) == 0:
        rules.append("C-RUN-3")
    return tuple(rules)
