"""Rule profiles: every variable policy of a Conquian game, as a data file.

A profile is a YAML file in `conquian_ref/spec/profiles/`, validated by `schema/profile.schema.json`
and loaded by conquian_ref.spec.profiles; this module only turns its data into a `Profile`.
The engine never subclasses per profile: it reads these fields. The schema admits the
"Spielanleitung" variations (52 cards, two decks, four players, ...); `SUPPORTED` lists what
the reference engine implements today, and loading anything else fails with one clear line.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Deck
from .errors import MalformedInput

# Policy values the engine implements now; the schema allows more (see docs/rules/rulings.md,
# "Seed-002 variations not yet profiled").
SUPPORTED = {
    ("deck", "copies"): {1},
    ("players",): {2},
    ("partnerships",): {False},
    ("deal", "packet_size"): {1, 2},
    ("rearrangement",): {"full"},
    ("meld_timing",): {"with_take"},
    ("opening", "style"): {"revealed_to_non_dealer"},
}


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one object per loaded profile
class Profile:
    """A loaded rule profile. `data` keeps the validated YAML for reports and docs."""

    id: str
    rule_prefix: str  # "TC" or "AA": the prefix of this profile's own rule ids
    deck: Deck
    hand_size: int
    packet_size: int
    target: int
    set_sizes: tuple[int, ...]
    run_min: int
    run_max: int
    exchange_cards: int  # 0 when the profile has no exchange
    own_fit: str  # "automatic" | "rival_option" | "none"
    onto_rival: bool
    match: dict | None
    data: dict

    @property
    def stock_size(self) -> int:
        return self.deck.size - 2 * self.hand_size


def _check_supported(data: dict, source: str) -> None:
    for path, allowed in SUPPORTED.items():
        value = data
        for key in path:
            value = value[key]
        if value not in allowed:
            raise MalformedInput(
                f"{source}: {'.'.join(path)}",
                f"value {value!r} is valid in a profile but not implemented by the reference engine yet",
            )
    # RUL-1: after every completed turn exposed + hand == hand size, so only a target of hand size + 1
    # can be reached, and a use that empties the hand always reaches it.
    if data["target"] != data["deal"]["hand_size"] + 1:
        raise MalformedInput(f"{source}: target", "the target must be hand_size + 1 (ruling RUL-1)")


def profile_from_data(data: dict, source: str = "profile") -> Profile:
    """Build a Profile from profile data that has the schema's shape (conquian_ref.spec.profiles
    validates files against the schema before calling this)."""
    _check_supported(data, source)
    deck = Deck.from_profile_data(data["deck"])
    melds = data["melds"]
    return Profile(
        id=data["id"],
        rule_prefix=data["rule_prefix"],
        deck=deck,
        hand_size=data["deal"]["hand_size"],
        packet_size=data["deal"]["packet_size"],
        target=data["target"],
        set_sizes=tuple(melds["set_sizes"]),
        run_min=melds["run_min"],
        # No stated maximum means a run may hold every rank of a suit (RUL-2).
        run_max=melds["run_max"] if melds["run_max"] is not None else len(deck.ranks),
        exchange_cards=data["exchange"]["cards"] if data["exchange"] else 0,
        own_fit=data["forcing"]["own_fit"],
        onto_rival=data["forcing"]["onto_rival"],
        match=data["match"],
        data=data,
    )
