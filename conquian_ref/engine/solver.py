"""The one interface of the meld solvers, and what every solver shares.

A solver answers the engine's questions about arrangements of cards into the melds of one list
(the rule's, engine/meldrules.py, or any list given). Masks are physical cards; with two copies
of every card a mask may hold any copies, and the answer is about its multiset (RUL-34). The
engine asks only these:

- `melds`, `is_meld`: the melds (bit masks, canonical with two copies) in table order, as a set;
- `arrangeable(mask)`: C-ARR-1, the cards split into melds, each card in one meld;
- `arrangement(mask)`: one such split (the canonical one: the lowest card's melds tried in table
  order), or None; `rules_of(mask)`: the rule ids behind it;
- `fits(exposed, card_bit)`: C-ARR-4 / RUL-3, the card joins the exposed cards alone under
  some rearrangement;
- `extends(exposed, card_bit)`: RUL-22, the card extends one meld of some arrangement;
- `placeable(exposed, new)`: RUL-35, the new cards complete an arrangement of `exposed` left as
  it is;
- `meldable(pool)`: the cards of `pool` in some meld of cards of `pool` (a filter);
- `legal_uses(exposed, card_bit, hand)`: C-TURN-2 / C-ARR-2, every set of hand cards that can
  be exposed with the taken card (with two copies, one per multiset, as the copies held).

The implementations: `onecopy.GivenMelds` (any list of melds, one copy of each card: a plain
search), `onecopy.OneCopy` (the rule's melds, one copy: the same search with two facts of the
rule), `twocopies.Multiset` and `twocopies.AnySuitSets` (two copies). `melds.solver_for` picks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Protocol

from .cards import cards_of
from .profile import Profile

CACHE_SIZE = 1 << 18  # masks remembered per question and solver; bounded so long runs keep flat memory
FEW_CANDIDATES = 3
"""Up to this many candidate hand cards, `legal_uses` asks `arrangeable` of each subset (at most
eight questions, each stopping at its first arrangement) instead of enumerating every option
with `use_options`, which must explore every arrangement of the exposed cards. Measured over the
legal-use questions of 300 random games per profile (instructions counted): about 10 % fewer
on the 40-card ten-card-hand profiles, 8 % with two decks, about 20 % with 52 cards or 13-card
hands; 4 candidates or more cost more than 3 (docs/performance.md). The rule's solvers, whose
`legal_uses` answers part by part (engine/parts.py), stop at 1: see `few_candidates` of
onecopy.OneCopy and twocopies.AnySuitSets."""


class Solver(Protocol):
    """The interface the engine asks (see the module docstring)."""

    melds: tuple[int, ...]
    is_meld: frozenset[int]

    def arrangeable(self, mask: int) -> bool: ...
    def arrangement(self, mask: int) -> list[int] | None: ...
    def rules_of(self, mask: int) -> list[str]: ...
    def fits(self, exposed: int, card_bit: int) -> bool: ...
    def extends(self, exposed: int, card_bit: int) -> bool: ...
    def placeable(self, exposed: int, new: int) -> bool: ...
    def meldable(self, pool: int) -> int: ...
    def legal_uses(self, exposed: int, card_bit: int, hand: int) -> frozenset[int]: ...


class MeldSolver:
    """What every solver shares: the melds with their rule ids, indexed by lowest card and by
    card, `rules_of` and `fits`. A subclass implements the rest of `Solver` and memoises its
    searches (`_memoise`)."""

    few_candidates = FEW_CANDIDATES  # where legal_uses stops asking subsets (a solver may differ)

    def __init__(self, profile: Profile, melds: Mapping[int, tuple[str, ...]] | Iterable[int]):
        rules = dict(melds) if isinstance(melds, Mapping) else dict.fromkeys(melds, ())
        self.melds: tuple[int, ...] = tuple(rules)
        # Built from the tuple, not the dict: a frozenset made from a dict is sized for it, half as
        # large, and the many misses of `base in is_meld` (RUL-22) then probe longer (measured:
        # 1.3 % more instructions for the questions of 200 games with 52 cards).
        self.is_meld: frozenset[int] = frozenset(self.melds)
        self._rules = rules
        self._by_lowest, self._containing = indexed(self.melds, profile.deck.size)
        # The smallest melds through each card (no other meld through it lies inside them): a
        # card is in some meld of a pool exactly when it is in one of these, fewer to try.
        self._witnesses = tuple(
            tuple(m for m in ms if not any(o != m and o & m == o for o in ms)) for ms in self._containing
        )

    def _memoise(self, **searches) -> None:
        """Each search becomes the attribute of its name, memoised per arguments."""
        for name, search in searches.items():
            setattr(self, name, lru_cache(maxsize=CACHE_SIZE)(search))

    # -- shared ----------------------------------------------------------------------------
    def rules_of(self, mask: int) -> list[str]:
        """The rule ids behind the canonical arrangement of `mask` (for rule coverage)."""
        rules = ["C-ARR-1", "C-MELD-1"]
        for meld in self.arrangement(mask) or ():
            rules.extend(self._rules[meld])
        return rules

    def fits(self, exposed: int, card_bit: int) -> bool:
        """C-ARR-4 / RUL-3: the card joins the exposed cards, alone, under some rearrangement."""
        return exposed != 0 and self.arrangeable(exposed | card_bit)

    def _uses_in_parts(self, parts: list[int], must: int, candidates: int) -> list[int]:
        """C-TURN-2 part by part (engine/parts.py): every set of candidate hand cards that goes
        down with `must`, as one choice per part, each part's cards arranged alone: a part with
        no candidate only needs its cards of `must` arranged; one with candidates gives its
        `use_options` (with none of `must`, its melds of hand cards alone, the empty one
        included). Empty when some part has no choice."""
        options = [0]
        for part in parts:
            here, hand = must & part, candidates & part
            if not hand:
                if not self.arrangeable(here):
                    return []
                continue
            found = self.use_options(here, hand)
            if not found:
                return []
            options = [chosen | more for chosen in options for more in found]  # disjoint cards: OR adds
        return options

    def _in_some_meld(self, card: int, pool: int) -> bool:
        """Whether some meld made of cards of `pool` holds `card` (copy 0 with two copies)."""
        for meld in self._witnesses[card]:
            if meld & pool == meld:
                return True
        return False


def subsets(mask: int):
    """Every subset of the bits of `mask`, the empty one first."""
    subset = 0
    while True:
        yield subset
        subset = (subset - mask) & mask
        if subset == 0:
            return


def indexed(melds: Iterable[int], size: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """The melds by their lowest card, and the melds through each card (in the order given)."""
    by_lowest: list[list[int]] = [[] for _ in range(size)]
    containing: list[list[int]] = [[] for _ in range(size)]
    for meld in melds:
        by_lowest[(meld & -meld).bit_length() - 1].append(meld)
        for card in cards_of(meld):
            containing[card].append(meld)
    return tuple(map(tuple, by_lowest)), tuple(map(tuple, containing))


def gated(bases: Iterable[int], rank_of, rank: int) -> tuple[tuple[int, int, int, tuple[int, ...]], ...]:
    """RUL-22's bases for a card of `rank` (the melds the card completes, less the card), in
    groups: the sets of its rank, the runs below it, the runs above it (in the order given inside
    each). Each group comes with what every base of it holds (`gate`), where its bases lie
    (`region`) and the fewest cards a base has (`least`): a base lies within the exposed cards
    only if the gate does and the exposed cards hold at least `least` cards of the region, so a
    group that fails either is skipped unread. Most cards asked about extend nothing (about 85 %
    with two decks), and these two tests answer for a whole group at once."""
    groups: dict[str, list[int]] = {"sets": [], "below": [], "above": []}
    for base in bases:
        ranks = {rank_of(c) for c in cards_of(base)}
        kind = "sets" if ranks == {rank} else "below" if max(ranks) < rank else "above"
        groups[kind].append(base)
    found = []
    for members in groups.values():
        if members:
            gate, region = members[0], 0
            for base in members:
                gate &= base
                region |= base
            found.append((gate, region, min(b.bit_count() for b in members), tuple(members)))
    return tuple(found)


def run_starts(profile: Profile) -> int:
    """Copy 0 of every card from which `run_min` cards of its suit follow (bit filters)."""
    deck, n_ranks = profile.deck, len(profile.deck.ranks)
    return sum(
        1 << deck.card(suit, start) for suit in range(len(deck.suit_ids)) for start in range(n_ranks - profile.run_min + 1)
    )
