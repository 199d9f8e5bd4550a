"""Rule profiles: every variable policy of a Conquian game, as a data file.

A profile is a YAML file in `conquian_ref/spec/profiles/`, validated by `schema/profile.schema.json`
and loaded by conquian_ref.spec.profiles; this module only turns its data into a `Profile`.
The engine never subclasses per profile: it reads these fields. The schema admits the
"Spielanleitung" variations (52 cards, two decks, four players, ...); `SUPPORTED` lists what
the reference engine implements today, and loading anything else fails with one clear line.

The profile's own rule ids (TC-GOAL-1, AA-DEAL-1, ...) are profile data too (`rules:`), read
through `Profile.rule(concept)`, so the engine cites them without naming a profile in code.
RUL-1 (target = hand size + 1, or + 2 where an emptied hand passes the turn, RUL-43) is checked here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .cards import Deck
from .errors import MalformedInput
from .policies import EmptyHand, ForcingFit, MeldTiming, OpeningStyle, OwnFit, SetSuits

# Every policy field of schema/profile.schema.json with the values the engine implements (a policy
# with behaviour: its enum, whose members conquian_ref.engine.policies maps to that behaviour); the
# schema allows more (see docs/rules/rulings.md, "Seed-002 variations not yet profiled"). A field
# missing here is one the engine reads in full (sizes, ranks, points), so any valid value works.
SUPPORTED: dict[tuple[str, ...], set] = {
    ("deck", "copies"): {1, 2},  # two copies: not with meld_timing: discard_then_meld (below)
    ("deck", "jokers"): {0},
    ("players",): {2, 4},
    ("partnerships",): {False, True},
    ("deal", "packet_size"): {1, 2},
    ("deal", "first_to"): {"non_dealer"},
    ("deal", "first_dealer"): {"chosen_by_setup"},
    ("deal", "dealer_rotation"): {"alternate"},
    ("melds", "ace"): {"low"},
    ("melds", "wrap"): {False},
    ("melds", "set_suits"): set(SetSuits),
    ("rearrangement",): {"full"},
    ("meld_timing",): set(MeldTiming),
    ("empty_hand",): set(EmptyHand),  # turn_passes: two players only (below)
    ("exchange", "cards"): {1},  # only read when the profile has an exchange
    ("exchange", "simultaneous"): {True},
    ("opening", "style"): set(OpeningStyle),
    ("forcing", "own_fit"): set(OwnFit),
    ("forcing", "onto_rival"): {True, False},
    ("forcing", "forced_take_hand_cards"): {False},
    ("forcing", "fit"): set(ForcingFit),
    ("stock_exhaustion",): {"draw_on_reject"},
    ("rejected_cards",): {"out_of_play"},
    ("going_rummy",): {True, False},
    ("match", "draw"): {"carry_pot"},  # only read when the match has stakes
    ("match", "rummy_bonus"): {"none"},
}
# The fields that may be absent, with everything under them: no exchange, no match, or a match
# of the other form (points or stakes).
_OPTIONAL_PARENTS = ("exchange", "match")

# The rule-id keys of `rules:` the engine reads, always or under one policy value.
RULE_KEYS_ALWAYS = ("deck", "deal", "opening", "goal", "run_length", "stock_exhaustion", "match")
RULE_KEYS_BY_POLICY: dict[tuple[tuple[str, ...], object], tuple[str, ...]] = {
    (("going_rummy",), True): ("rummy",),
    (("melds", "set_suits"), "any"): ("set_suits",),
    (("forcing", "fit"), "extension"): ("force_fit",),
    (("forcing", "own_fit"), "automatic"): ("fitting_card_taken",),
    (("forcing", "own_fit"), "rival_option"): ("force_option", "forced_card_alone"),
    (("forcing", "onto_rival"), True): ("force_onto_rival", "force_available_only"),
    (("forcing", "onto_rival"), False): ("no_onto_rival",),
    (("empty_hand",), "turn_passes"): ("empty_hand",),
}
RULE_KEYS_WITH_EXCHANGE = ("exchange", "exchange_privacy")
RULE_KEYS_WITH_STAKES = ("pot_carry", "session", "misdeal", "dealer")  # and rummy_bonus with going rummy
# Keys a profile may name to cite its own restatement of a core rule where the engine checks
# that core rule (e.g. `discard_after_meld` beside C-TURN-3); a profile without them cites the
# core rule alone. Read with `Profile.own_rules(key)`.
RULE_KEYS_OPTIONAL = (
    "starter", "take_discard", "drawn_card", "discard_after_meld", "arrangement", "no_forcing",
    "next_seat", "pooled_melds", "partner_hidden",
)


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one object per loaded profile
class Profile:
    """A loaded rule profile. `data` keeps the validated YAML for reports and docs."""

    id: str
    rule_prefix: str  # the prefix of this profile's own rule ids
    deck: Deck
    hand_size: int
    packet_size: int
    target: int
    set_sizes: tuple[int, ...]
    run_min: int
    run_max: int
    set_suits: SetSuits  # distinct (C-SET-1) | any: identical cards allowed in a set (RUL-33)
    exchange_cards: int  # 0 when the profile has no exchange
    own_fit: OwnFit  # a card fitting one's own melds (policies.OWN_FITS)
    onto_rival: bool
    forcing_fit: ForcingFit  # `forcing.fit`: what fits for forcing (policies.FITS): any arrangement (RUL-3) or extension (RUL-22)
    opening_style: OpeningStyle  # (policies.OPENINGS) RUL-7 or RUL-20
    meld_timing: MeldTiming  # (policies.TIMINGS) with the take, or placed first (RUL-35)
    empty_hand: EmptyHand  # (policies.EMPTY_HANDS) a discard, or the turn passes (RUL-43)
    going_rummy: bool  # a win with nothing exposed before is recorded as how: rummy (RUL-24)
    match: dict | None
    seats: tuple[int, ...]  # the seats in playing order: (0, 1), or (0, 1, 2, 3) (RUL-36)
    teams: int  # the number of teams; seat s plays for team s % teams (partners opposite, RUL-36)
    rules: dict[str, str]  # concept -> this profile's own rule id, e.g. "goal" -> its GOAL-1 rule
    rulings: frozenset[str]  # the rulings (RUL-n) this profile follows
    data: dict

    @property
    def stock_size(self) -> int:
        return self.deck.size - len(self.seats) * self.hand_size

    @property
    def partnerships(self) -> bool:
        """Whether seats play in teams of two (four seats, RUL-36): then exposed cards are pooled
        per team, a partner's hand is hidden too, and a take must leave a card to discard."""
        return self.teams < len(self.seats)

    def team_of(self, seat: int) -> int:
        """The team a seat plays for: the seat itself with two players; with four, seats n and
        n + 2 are partners (RUL-36)."""
        return seat % self.teams

    def next_seat(self, seat: int) -> int:
        """The next seat in playing order: the rival with two players, the next opponent with
        four (RUL-36, RUL-39)."""
        return (seat + 1) % len(self.seats)

    def rule(self, concept: str) -> str:
        """This profile's own rule id for `concept` (a key of the profile's `rules:`)."""
        return self.rules[concept]

    def own_rules(self, *concepts: str) -> tuple[str, ...]:
        """This profile's rule ids for those of `concepts` it names (RULE_KEYS_OPTIONAL): the
        profile's own restatements of a core rule, cited beside it. Memoised: the engine asks at
        every action."""
        return _own_rules(self, concepts)

    def following(self, *rule_ids: str) -> tuple[str, ...]:
        """Those of `rule_ids` that apply under this profile: for rulings that settle one
        question differently for different profiles (RUL-14 and RUL-23: when the rival decides)."""
        return tuple(r for r in rule_ids if self.cites(r))

    def cites(self, rule_id: str) -> bool:
        """Whether `rule_id` applies under this profile: a core rule, one of its rulings, or one of
        its own rules."""
        return rule_id.startswith("C-") or rule_id in self.rulings or rule_id in self.rules.values()


@lru_cache(maxsize=4096)
def _own_rules(profile: Profile, concepts: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(profile.rules[c] for c in concepts if c in profile.rules)


# The optional fields, with the value their absence means (the behaviour before they existed).
DEFAULTS: dict[tuple[str, ...], object] = {("empty_hand",): EmptyHand.DISCARD}


def _value(data: dict, path: tuple[str, ...]):
    """The value at `path` (its default where an optional field is absent), or None when a step
    of it is null (e.g. `exchange: null`)."""
    if path in DEFAULTS and path[-1] not in data:
        return DEFAULTS[path]
    for key in path:
        if data is None:
            return None
        data = data.get(key)
    return data


def _check_supported(data: dict, source: str) -> None:
    for path, allowed in SUPPORTED.items():
        value = _value(data, path)
        if value is None and path[0] in _OPTIONAL_PARENTS:
            continue  # no exchange, no match, or a match of the other form: nothing to implement
        if value not in allowed:
            raise MalformedInput(
                f"{source}: {'.'.join(path)}",
                f"value {value!r} is valid in a profile but not implemented by the reference engine yet",
            )
    if data["deck"]["copies"] > 1 and data["meld_timing"] != MeldTiming.WITH_TAKE:
        raise MalformedInput(
            f"{source}: deck.copies",
            f"value {data['deck']['copies']!r} is not implemented together with meld_timing {data['meld_timing']!r} yet",
        )
    if data["players"] == 4 and not data["partnerships"]:
        raise MalformedInput(f"{source}: partnerships", "four players are implemented only in two partnerships")
    if data["players"] == 4 and data["exchange"]:
        raise MalformedInput(f"{source}: exchange", "the exchange is implemented only for two players")
    turn_passes = _value(data, ("empty_hand",)) == EmptyHand.TURN_PASSES
    if data["players"] == 4 and turn_passes:
        raise MalformedInput(f"{source}: empty_hand", "turn_passes is implemented only for two players")
    # RUL-1: after every completed turn a team's exposed cards plus its hands hold the hand size
    # per member, so only a target of one more can be reached (RUL-37 for partnerships); where an
    # emptied hand passes the turn with no discard (RUL-43) the player gains one card more
    # without a take, and the target is the hand size + 2, the twice-around's 13 and 15.
    per_team = data["deal"]["hand_size"] * (2 if data["partnerships"] else 1)
    reach = per_team + (2 if turn_passes else 1)
    if data["target"] != reach:
        how = "the hand size + 2 (rulings RUL-1, RUL-43)" if turn_passes else "the hand size per team + 1 (ruling RUL-1)"
        raise MalformedInput(f"{source}: target", f"the target must be {reach}: {how}")


def _check_rules(data: dict, source: str) -> None:
    """Every rule id the engine will cite under this profile's policies is given in `rules:`."""
    rules = data.get("rules") or {}
    needed = list(RULE_KEYS_ALWAYS) + (list(RULE_KEYS_WITH_EXCHANGE) if data["exchange"] else [])
    if data["match"] is not None and "stake" in data["match"]:
        needed += RULE_KEYS_WITH_STAKES + (("rummy_bonus",) if data["going_rummy"] else ())
    forcing = data["forcing"]["own_fit"] != OwnFit.NONE or data["forcing"]["onto_rival"]
    for (path, value), keys in RULE_KEYS_BY_POLICY.items():
        if path == ("forcing", "fit") and not forcing:
            continue  # without any forcing, what "fits" for forcing is never asked
        if _value(data, path) == value:
            needed += keys
    needed.append("rulings")
    for key in needed:
        if key not in rules:
            raise MalformedInput(f"{source}: rules.{key}", "the profile must name its rule id for this (see docs/rules)")


def profile_from_data(data: dict, source: str = "profile") -> Profile:
    """Build a Profile from profile data that has the schema's shape (conquian_ref.spec.profiles
    validates files against the schema before calling this)."""
    _check_supported(data, source)
    _check_rules(data, source)
    deck = Deck.from_profile_data(data["deck"])
    melds = data["melds"]
    rules = dict(data["rules"])
    rulings = frozenset(rules.pop("rulings"))
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
        set_suits=SetSuits(melds["set_suits"]),
        exchange_cards=data["exchange"]["cards"] if data["exchange"] else 0,
        own_fit=OwnFit(data["forcing"]["own_fit"]),
        onto_rival=data["forcing"]["onto_rival"],
        forcing_fit=ForcingFit(data["forcing"]["fit"]),
        opening_style=OpeningStyle(data["opening"]["style"]),
        meld_timing=MeldTiming(data["meld_timing"]),
        empty_hand=EmptyHand(_value(data, ("empty_hand",))),
        going_rummy=data["going_rummy"],
        match=data["match"],
        seats=tuple(range(data["players"])),
        teams=2,  # two players, or two partnerships of two (RUL-36)
        rules=rules,
        rulings=rulings,
        data=data,
    )
