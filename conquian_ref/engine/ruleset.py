"""The rules a deal is played by, as named rows; a house rule is a row replaced.

A `RuleSet` gathers every table of behaviour of one profile under one name per row:
- `steps`: what happens (conquian_ref.engine.transitions): the transition of each (phase, action
  type), named `phase.action`, and the steps they run (`take`, `reveal`, `reject_card`, ...),
  each with the rule ids it applies;
- `refusals`: why an action is refused, in the order of precedence (conquian_ref.engine.refusals);
- `phases`: what each phase admits and who acts (conquian_ref.engine.phases);
- `policies`: the entries of the policy tables for the profile's values (conquian_ref.engine.policies):
  `fit`, `own_fit`, `opening`, `timing`, `empty_hand`;
- `melds`: the meld table (the rule "what is a meld" and its solver), `deal` (the dealing of a
  deck order), `observe` (what a seat may know), `match` (the scoring of a match).

A `Variant` is a named house rule: its id, the rule id it changes, one sentence, and the rows or
entries it replaces (`replaces`, by name: `steps.play.reject`, `refusals.card_does_not_fit` (None
removes it), `phases.exchange`, `policies.own_fit` (whatever the profile's value) or
`policies.fit.extension` (the entry of one value), `melds`, `deal`, `observe`, `match`; a
`steps.<phase>.<action type>` the reference lacks adds a transition), or the profile fields it
changes (`profile`). `ruleset_for(profile, variants)` applies them in order. The reference with a
house rule is one line: `Game.from_deck(profile, deck, dealer, variants=[variant])`.

The rule trace is derived from the rows: running a step records its rules (`resolve`), a refusal
records the rules of the row that refused (refusals.traced_rules). A rule tuple holds rule ids
and keys of the profile's `rules:` (lowercase); `resolve` keeps the core rules, the rulings the
profile follows, and the profile's own id for each key it names.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Mapping

from .errors import MalformedInput
from .profile import Profile


@dataclass(frozen=True)
class Step:
    """One unit of behaviour: `run(game, ...)` does it; `rules` are the rules it applies (the
    trace records them whenever it runs). `about_the_card`: it also applies the profile's own rule
    for the kind of available card at hand (the opening card, a drawn card, a discard);
    `policies`: it consults these entries of the rule set's policies, and applies their rules."""

    name: str
    run: Callable
    rules: tuple[str, ...] = ()
    about_the_card: bool = False
    policies: tuple[str, ...] = ()  # the policy entries it consults, whose rules it applies too


@dataclass(frozen=True)
class Variant:
    """A house rule: one rule of the reference changed. `replaces` maps a row's name in the rule
    set (`steps.<name>`, `refusals.<code>`, `phases.<phase>`, `policies.<name>`, `melds`, `deal`,
    `observe`, `match`) to its replacement (None removes a refusal row); `profile` maps fields of the
    `Profile` to new values (a policy value, the target, the packet size), or is a function of
    the profile giving them (a house rule that changes a policy only where the profile has it)."""

    id: str
    rule: str  # the rule id it changes
    text: str  # one sentence, in the words of an engine author
    replaces: Mapping[str, object] = field(default_factory=dict)
    profile: Mapping[str, object] | Callable[[Profile], Mapping[str, object]] = field(default_factory=dict)

    def __hash__(self) -> int:  # by identity: a variant is defined once, at import
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other


@dataclass(frozen=True, eq=False)
class RuleSet:
    """The rows one deal is played by (see the module docstring). Built by `ruleset_for`."""

    profile: Profile
    steps: Mapping[str, Step]
    refusals: tuple  # of refusals.Refusal, in the order of precedence
    phases: Mapping  # Phase -> phases.PhaseRule
    policies: Mapping[str, object]
    melds: object  # the meld table
    deal: Callable
    observe: Callable
    match: type  # the match of several deals (conquian_ref.engine.match.Match)
    variants: tuple[Variant, ...] = ()
    refusals_by_slot: Mapping = field(default_factory=dict)  # (phase, action type) -> the rows to try
    listing_by_slot: Mapping = field(default_factory=dict)  # phase -> action type -> the same rows, split for listings
    runs: Mapping = field(default_factory=dict)  # {step name: its function}: what Game.run calls without the trace
    # {step name: the rule ids it records (`step_rules`)}: resolved once per rule set, where the
    # trace resolved the row's rules and its policies' at every step it ran
    traced: Mapping = field(default_factory=dict)


def resolve(profile: Profile, rules: tuple[str, ...]) -> tuple[str, ...]:
    """The rule ids a row's `rules` stand for under `profile`: core rules and the profile's own
    ids kept, a ruling only where the profile follows it (where two rulings settle one question
    for different profiles, RUL-14 and RUL-23, a row names both), a key of `rules:` (lowercase)
    replaced by the profile's id for it, or dropped where the profile names none."""
    return _resolve(profile, rules)


@lru_cache(maxsize=8192)
def _resolve(profile: Profile, rules: tuple[str, ...]) -> tuple[str, ...]:
    out = []
    for rule in rules:
        if rule.islower():
            rule = profile.rules.get(rule)
        elif rule.startswith("RUL-") and rule not in profile.rulings:
            rule = None
        if rule is not None and rule not in out:
            out.append(rule)
    return tuple(out)


def step_rules(step: Step, policies: Mapping[str, object], profile: Profile) -> tuple[str, ...]:
    """The rule ids running `step` records under `profile` (the profile's own rule for the kind
    of available card aside, which depends on the card: Game.card_rules): its rules, and those
    of the policy entries it consults and of the entries they consult in turn (the fit)."""
    rules = step.rules
    for key in step.policies:
        policy = policies[key]
        rules += policy.rules
        for consulted in getattr(policy, "consults", ()):  # a policy that asks another (the fit)
            rules += policies[consulted].rules
    return resolve(profile, rules)


def ruleset_for(profile: Profile, variants: tuple[Variant, ...] = ()) -> RuleSet:
    """The rule set of `profile` with `variants` applied in order (memoised: one per pair)."""
    return _ruleset_for(profile, tuple(variants))


def forget_rulesets() -> None:
    """Forget every rule set built so far, and the meld tables they hold (a benchmark measures
    each profile as a run of it alone: tools/bench.py)."""
    _ruleset_for.cache_clear()


@lru_cache(maxsize=512)
def _ruleset_for(profile: Profile, variants: tuple[Variant, ...]) -> RuleSet:
    # Imported here: the tables import the game's helpers, and the game imports this module.
    from .dealing import deal
    from .match import Match
    from .melds import meld_table
    from .observation import observe
    from .phases import PHASES
    from .policies import EMPTY_HANDS, FITS, OPENINGS, OWN_FITS, TIMINGS
    from .refusals import REFUSALS, listing_slots, slots
    from .transitions import STEPS

    for variant in variants:
        changes = variant.profile(profile) if callable(variant.profile) else variant.profile
        if changes:
            profile = dataclasses.replace(profile, **changes)
    # The policy tables, one entry per value (a variant may replace the entry of one value).
    policy_tables = {
        "fit": (dict(FITS), profile.forcing_fit),
        "own_fit": (dict(OWN_FITS), profile.own_fit),
        "opening": (dict(OPENINGS), profile.opening_style),
        "timing": (dict(TIMINGS), profile.meld_timing),
        "empty_hand": (dict(EMPTY_HANDS), profile.empty_hand),
    }
    tables = {"steps": dict(STEPS), "refusals": {row.code: row for row in REFUSALS}, "phases": dict(PHASES), "policies": {}}
    singles = {"melds": meld_table(profile), "deal": deal, "observe": observe, "match": Match}
    for variant in variants:
        for name, row in variant.replaces.items():
            table, _, key = name.partition(".")
            policy, _, value = key.partition(".")
            if table in singles and not key:
                singles[table] = row(profile) if table == "melds" else row
            elif table == "policies" and policy in policy_tables and value in _keys(policy_tables[policy][0]):
                entries = policy_tables[policy][0]
                entries[_key(entries, value)] = row
            elif table == "policies" and policy in policy_tables and not value:
                tables["policies"][policy] = row
            elif table in tables and table != "policies" and key in _keys(tables[table]):
                tables[table][_key(tables[table], key)] = row
            elif table == "steps" and key in _TRANSITION_NAMES:  # a transition the reference has not: an action a house rule admits
                tables["steps"][key] = row
            else:
                raise MalformedInput(f"variant {variant.id}: replaces", f"no row named {name!r} in the rule set")
    for policy, (entries, value) in policy_tables.items():
        tables["policies"].setdefault(policy, entries[value])
    refusals = tuple(row for row in tables["refusals"].values() if row is not None)
    by_slot = slots(refusals, profile, tables["policies"])
    return RuleSet(
        profile=profile,
        steps=tables["steps"],  # plain dicts, read at every step: a RuleSet is never changed
        refusals=refusals,
        phases=tables["phases"],
        policies=tables["policies"],
        variants=variants,
        refusals_by_slot=by_slot,
        listing_by_slot=listing_slots(by_slot, tables["phases"], tables["policies"]),
        runs={name: step.run for name, step in tables["steps"].items()},
        traced={
            name: step_rules(step, tables["policies"], profile)
            for name, step in tables["steps"].items()
            if all(key in tables["policies"] for key in step.policies)  # else asked when it runs (and fails there)
        },
        **singles,
    )


def _transition_names() -> set[str]:
    from .actions import FIELDS
    from .phases import Phase

    return {f"{phase}.{action_type}" for phase in Phase for action_type in FIELDS}


_TRANSITION_NAMES = _transition_names()


def _keys(table: dict) -> set[str]:
    return {str(key) for key in table}


def _key(table: dict, name: str):
    return next(key for key in table if str(key) == name)
