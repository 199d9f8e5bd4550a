"""What a meld is, for a profile: the rule, read one group of cards at a time.

C-MELD-1: a meld is a set or a run. C-SET-1: a set is 3 or 4 cards (the profile's
`melds.set_sizes`) of one rank, each of a different suit; with two copies of every card and
`melds.set_suits: any` (the profile's `set_suits` rule, RUL-33) two of them may be identical.
C-RUN-1..3: a run is cards of one suit, consecutive in the sequence order of the profile's ranks
(C-RUN-2: the ranks the deck leaves out are no gap, so 7 is next to 10 or J; C-RUN-3: the ace is
the lowest rank only, nothing follows the highest), `run_min` of them at least and `run_max` at
most (the profile's run length rule, RUL-2; RUL-29: no maximum). A run holds one copy of each
of its cards.

`meld_rules` answers for one group of cards (card indices, copies apart) with the rule ids that
make it a meld, or None. `melds` lists every meld of a profile once, as a bit mask, with those
rule ids (a solver's `rules_of` reports them); with two copies of every card the mask is
canonical (cards.canonical: the copies present packed low), one per multiset. `searched` is the
part of that list an arrangement search needs (RUL-2).
"""

from __future__ import annotations

from itertools import chain, combinations, product

from .cards import cards_of, mask_of
from .profile import Profile
from .policies import SetSuits


def set_rules(profile: Profile, cards: list[int]) -> tuple[str, ...] | None:
    """The rules making `cards` a set, or None when they are not one."""
    deck = profile.deck
    if len(cards) not in profile.set_sizes or len({deck.rank_of(c) for c in cards}) != 1:
        return None  # C-SET-1: 3 or 4 cards (the profile's set sizes) of one rank
    if len({deck.suit_of(c) for c in cards}) == len(cards):
        return ("C-SET-1",)  # each of a different suit
    if profile.set_suits == SetSuits.ANY:  # a suit twice is two identical cards (two copies of each card)
        return (profile.rule("set_suits"), "RUL-33")  # SATD-SET-1: any suits, identical cards included
    return None


def run_rules(profile: Profile, cards: list[int]) -> tuple[str, ...] | None:
    """The rules making `cards` a run, or None when they are not one."""
    deck = profile.deck
    if len({deck.suit_of(c) for c in cards}) != 1:
        return None  # C-RUN-1: one suit
    # C-RUN-1: consecutive in sequence order. A position is an index in the profile's rank list,
    # so a rank the deck leaves out is no gap (C-RUN-2), the ace is position 0 and nothing comes
    # after the last position (C-RUN-3: no wrap). Two identical cards repeat a position.
    positions = sorted(deck.rank_of(c) for c in cards)
    if positions != list(range(positions[0], positions[0] + len(cards))):
        return None
    if not profile.run_min <= len(cards) <= profile.run_max:
        return None  # the profile's run length rule: RUL-2, or RUL-29 for no maximum
    rules = ["C-RUN-1", profile.rule("run_length"), "RUL-2", "RUL-29"]
    labels = [deck.ranks[p] for p in positions]
    if "7" in labels[:-1] and labels[labels.index("7") + 1] != "8":
        rules.append("C-RUN-2")  # it crosses the ranks the deck leaves out (7 next to 10 or J)
    if positions[0] == 0:
        rules.append("C-RUN-3")  # it starts at the ace: ace low
    return tuple(rules)


def meld_rules(profile: Profile, cards: list[int]) -> tuple[str, ...] | None:
    """C-MELD-1: a meld is a set or a run. The rules making `cards` one, or None."""
    if not cards:
        return None
    return set_rules(profile, cards) or run_rules(profile, cards)


def melds(profile: Profile) -> dict[int, tuple[str, ...]]:
    """Every meld of the profile as a mask (canonical with two copies), with its rule ids.

    The candidates are the groups of one rank of a set size (different suits first, then those
    with identical cards) and the stretches of consecutive ranks of one suit; `meld_rules`
    keeps the melds among them. Their order is the table order, in which an arrangement shown
    to a player tries the melds of its lowest card."""
    deck = profile.deck
    n_ranks, n_suits = len(deck.ranks), len(deck.suit_ids)
    different_suits = (
        [deck.card(s, rank) for s in suits]
        for rank in range(n_ranks)
        for size in profile.set_sizes
        for suits in combinations(range(n_suits), size)
    )
    with_identical_cards = (
        [deck.card(s, rank, k) for s, n in enumerate(counts) for k in range(n)]
        for rank in range(n_ranks)
        for counts in product(range(deck.copies + 1), repeat=n_suits)  # cards per suit
        if max(counts) > 1 and sum(counts) in profile.set_sizes
    )
    stretches = (
        [deck.card(suit, start + i) for i in range(length)]
        for suit in range(n_suits)
        for length in range(1, n_ranks + 1)
        for start in range(n_ranks - length + 1)
    )
    table: dict[int, tuple[str, ...]] = {}
    for cards in chain(different_suits, with_identical_cards, stretches):
        rules = meld_rules(profile, cards)
        if rules is not None:
            table[mask_of(cards)] = rules  # copy 0 of a card first: canonical with two copies
    return table


def searched(profile: Profile, table: dict[int, tuple[str, ...]]) -> list[int]:
    """The melds of `table` an arrangement search needs: all but the runs of 2 * run_min cards
    or more. Such a run is two runs of at least run_min cards, each within the maximum (RUL-2),
    so whatever can be arranged can be arranged without it. (Where a meld must stay whole, as in
    extending or placing, every meld counts.)"""
    deck = profile.deck
    return [
        mask for mask in table
        if mask.bit_count() < 2 * profile.run_min or len({deck.rank_of(c) for c in cards_of(mask)}) == 1
    ]

