"""A partition of cards into valid melds, for engines that keep their exposed cards as melds.

The protocol's `use` names the hand cards that go down with the taken card (RUL-16), and only
the set of a seat's exposed cards is normative (RUL-13). An engine whose own `use` takes melds
needs a partition of those cards into melds; `partition` finds one with the reference engine's
arrangement solver (conquian_ref.engine.melds), so that engine need not write its own search.
With a French deck, a seat with 3H 4H 5H exposed taking 6H with 7H from its hand:
`partition(profile, ["6H", "7H"], melds=[["3H", "4H", "5H"]])` is `[["3H", "4H", "5H", "6H",
"7H"]]`, and `partition(profile, ["5H"], melds=[["3S", "4S", "5S"]])` is None.

`rearrange=True` (C-ARR-2, the "corte": every profile's `rearrangement: full`) pools the given
melds with the new cards and returns any valid arrangement of all of them. `rearrange=False`
keeps each given meld and only lets it grow (RUL-35, a profile with
`meld_timing: discard_then_meld`): every new card extends one of the melds or forms a new meld
with other new cards. Which partition is returned when several exist is not normative (RUL-13).
"""

from __future__ import annotations

from .cards import canonical, low_bits, minus
from .errors import MalformedInput
from .melds import meld_table
from .profile import Profile


def partition(profile: Profile, cards: list[str], melds: list[list[str]] = (), rearrange: bool = True) -> list[list[str]] | None:
    """The cards of `cards` and `melds` split into valid melds of `profile`, each meld's cards in
    deck order, or None when there is no such partition. `cards` are the new cards (a use's hand
    cards and the taken card), `melds` the seat's (its team's) exposed melds. A card that is not
    the profile's, or named more often than the deck has copies, is MalformedInput."""
    deck, table = profile.deck, meld_table(profile)
    groups = _groups(profile, cards, melds)
    new, fixed = groups[0], groups[1:]
    if rearrange:
        pooled = 0
        for mask in groups:
            pooled |= mask  # physical cards: each copy has its own bit, so none is lost
        found = table.arrangement(pooled)
        return None if found is None else [deck.names(m) for m in found]
    for i, meld in enumerate(fixed):
        if _canon(profile, meld) not in table.is_meld:
            raise MalformedInput(f"melds[{i}]", f"{' '.join(deck.names(meld))} is not a meld")
    found = _placed(profile, [_canon(profile, m) for m in fixed], _canon(profile, new))
    return None if found is None else [deck.names(m) for m in found]


def _groups(profile: Profile, cards: object, melds: object) -> list[int]:
    """The new cards, then each meld, as masks of physical cards; copies are numbered across all
    of them, so a card held once and named twice is caught (cards.Deck.parse_list)."""
    if not isinstance(melds, (list, tuple)):
        raise MalformedInput("melds", f"a list of melds, got {type(melds).__name__}")
    lists = [("cards", cards)] + [(f"melds[{i}]", m) for i, m in enumerate(melds)]
    every = []
    for field, items in lists:
        if not isinstance(items, (list, tuple)):
            raise MalformedInput(field, f"expected a list of cards, got {type(items).__name__}")
        every += [(field, i, c) for i, c in enumerate(items)]
    # One read of every name, so the k-th 7H anywhere is copy k; a field names the culprit.
    try:
        parsed = profile.deck.parse_list([c for _, _, c in every], "cards")
    except MalformedInput as exc:
        index = int(exc.field.split("[")[1].rstrip("]"))
        field, i, _ = every[index]
        raise MalformedInput(f"{field}[{i}]", exc.message) from None
    masks = [0] * len(lists)
    names = [field for field, _ in lists]
    for (field, _, _), card in zip(every, parsed):
        masks[names.index(field)] |= 1 << card
    return masks


def _canon(profile: Profile, mask: int) -> int:
    """The mask as the meld table keys it: with two copies, the canonical multiset mask."""
    return mask if profile.deck.copies == 1 else canonical(mask, profile.deck.low)


def _without(profile: Profile, a: int, b: int) -> int:
    """a less b (b within a), as canonical masks."""
    return a & ~b if profile.deck.copies == 1 else minus(a, b, low_bits(profile.deck.size))


def _within(profile: Profile, part: int, whole: int) -> bool:
    return part & whole == part  # inclusion of canonical masks is multiset inclusion


def _placed(profile: Profile, fixed: list[int], new: int) -> list[int] | None:
    """RUL-35: each fixed meld grown by some new cards into a meld, the rest arranged alone."""
    table = meld_table(profile)
    if not fixed:
        return table.arrangement(new)
    meld, rest = fixed[0], fixed[1:]
    # The meld itself first (no extension), then every meld of the table that holds it and takes
    # only new cards beyond it.
    for grown in [meld] + [m for m in table.melds if m != meld and _within(profile, meld, m)]:
        added = _without(profile, grown, meld)
        if _within(profile, added, new):
            found = _placed(profile, rest, _without(profile, new, added))
            if found is not None:
                return [grown] + found
    return None
