"""Naming the rule an implementation breaks at a divergence, and the house rule that explains it.

At the first step where an implementation departs from the reference (conquian_ref.conformance
.diagnosis), two questions are asked, in this order:

1. **Which known house rule explains it?** Each hypothesis is a `Variant` of the reference (a
   house rule as rows of the rule set replaced, conquian_ref.engine.ruleset): the scenario is
   replayed on the reference with it, together with the house rules already found in the run's
   earlier scenarios. One whose answers agree with the implementation's at every step up to the
   diverging one explains it; among several, the one that also agrees with most of the steps
   after it (the implementation's answers are all there: the requests were pipelined), then the
   first in the library's order.
2. **Otherwise, which rule governs what differs?** `GOVERNING`: an action's answer and what it
   changes are governed by the rule of that action (a use by C-TURN-2, a reject by C-TURN-4, ...);
   an action the reference refuses, by the rule of the refusal row that refused it (reasons.md);
   a listed action the reference refuses, likewise; an observation by C-OBS-1. Such a cause is
   marked unexplained and keeps its signature (the action and the differing keys), so that
   unrelated unexplained deviations do not merge.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import ConquianError
from ..engine.refusals import BY_CODE
from ..engine.ruleset import Variant, resolve
from ..spec.profiles import load_profile
from .reference import Reference

# The rule that governs each action type's answer and what it changes (keys of the profile's
# `rules:` stand for its own id), and the requests that are not actions.
GOVERNING: dict[str, tuple[str, ...]] = {
    "use": ("C-TURN-2",),
    "discard": ("C-TURN-3",),
    "reject": ("C-TURN-4",),
    "pass": ("C-TURN-5",),
    "force": ("force_onto_rival", "forced_card_alone", "C-FORCE-1"),
    "decline": ("force_option",),
    "exchange": ("exchange",),
    "observation": ("C-OBS-1",),
    "setup": ("C-DEAL-1",),
    "match": ("match",),
    "perft": ("C-TURN-1",),
    "state": ("C-TURN-1",),
    "legal": ("C-TURN-1",),
}


# What an action the engine cannot express stands for (an error answer to `apply`,
# docs/implementers.md section 10): the part of the game the engine lacks and the rule of it,
# named once whatever the step (an engine without forcing has neither force nor decline).
UNSUPPORTED: dict[str, tuple[str, tuple[str, ...]]] = {
    "force": ("forcing", ("C-FORCE-1",)),
    "decline": ("forcing", ("C-FORCE-1",)),
    "exchange": ("the exchange", ("exchange", "C-TURN-6")),
    "use": ("a use", ("C-TURN-2",)),
    "discard": ("a discard", ("C-TURN-3",)),
    "reject": ("a reject", ("C-TURN-4",)),
    "pass": ("a pass", ("C-TURN-5",)),
}
CANNOT_EXPRESS = "cannot express "  # the signature of a cause of an unsupported action


@dataclass(frozen=True)
class Cause:
    """What an implementation does differently, named by the one rule it breaks: `rule` (an id of
    the profile's rules, or None where none could be named), `house_rule` (the id of the known
    house rule that explains it, or None: unexplained) and, for an unexplained cause, its
    `signature` (the diverging action or request and the differing keys; "" when explained). Two
    divergences are one cause when these three are equal: one house rule is one cause, whatever
    step or scenario shows it."""

    rule: str | None
    house_rule: str | None = None
    signature: str = ""

    @property
    def explained(self) -> bool:
        return self.house_rule is not None

    @property
    def unexplained(self) -> bool:
        """No house rule explains it, and it is no action the implementation cannot express (that
        is no house rule's)."""
        return not self.explained and not self.unsupported

    @property
    def unsupported(self) -> bool:
        """An action the implementation cannot express (its `apply` answered an error)."""
        return self.signature.startswith(CANNOT_EXPRESS)

    def __str__(self) -> str:
        rule = self.rule or "no rule named"
        if self.house_rule:
            return f"{rule}: house rule {self.house_rule}"
        if self.unsupported:
            return f"{rule}: your engine {self.signature}"
        return f"{rule}: unexplained ({self.signature})"


def unsupported_cause(profile_id: str, action_type: str) -> Cause:
    """The cause of an action type the implementation cannot express (UNSUPPORTED)."""
    name, rules = UNSUPPORTED.get(action_type, (action_type, ("C-TURN-6",)))
    named = resolve(load_profile(profile_id), rules)
    return Cause(named[0] if named else None, None, CANNOT_EXPRESS + name)


def governing_rule(profile_id: str, request: str, action: object, refused_by: str | None) -> str | None:
    """The rule that governs what differs, where no house rule explains it: the refusal row's
    rule when the reference refused the action (`refused_by`: its reason code), else the rule of
    the action type, else of the request."""
    profile = load_profile(profile_id)
    if refused_by in BY_CODE:
        rules = tuple(r for r in BY_CODE[refused_by].rules if profile.cites(r))
        if rules:
            return rules[0]
    kind = action.get("type") if isinstance(action, dict) and request in ("apply", "state") else request
    rules = resolve(profile, GOVERNING.get(str(kind), ()))
    return rules[0] if rules else None


def reference_answers(reference: Reference, planned: list[tuple]) -> list:
    """The reference's answers to a step's requests (`(name, *args)`, a Reference method each);
    a request the rules refuse as malformed is answered by its one-line error."""
    answers = []
    for name, *args in planned:
        try:
            answers.append(getattr(reference, name)(*args))
        except ConquianError as exc:
            answers.append(f"error: {exc}")
    return answers


def explaining(scenario, plans: list, theirs: list[list], step: int, hypotheses: tuple[Variant, ...], found: tuple[Variant, ...],
               compare, request: str = "apply", position: dict | None = None, base: tuple[Variant, ...] = (),
               horizon: int | None = None) -> tuple[Variant, ...]:
    """The house rules among `found` (the run's earlier finds, first) and `hypotheses`, each
    played alone or with the house rules `found` so far, whose replay of `scenario` agrees with
    the implementation's answers `theirs` at every step up to `step` (1-based) and then the
    longest: all those that agree equally long, in the order tried (none: nothing explains it).
    When a house rule already found agrees with every answer, the others are not tried (the
    run's finds explain it; trying the whole library at every divergence is most of the cost).
    `compare(planned, ours, got)` lists a step's differences (diagnosis._differences). With a
    `position` (the reference's, where the implementation was put back after an earlier
    divergence), the replays start there, and `plans` and `theirs` are the steps after it. With
    `base` (house rules the reference itself plays: fuzz's known failures), every replay plays
    them too, and a position is one reached under them. With a `horizon`, the replays look no
    further than that many steps past `step` (a fuzzed game runs to hundreds of steps: those that
    agree that far all explain it, and the run's fewest house rules settle between them)."""
    if horizon is not None:
        plans, theirs = plans[: step + horizon], theirs[: step + horizon]
    def agreeing(variants: tuple[Variant, ...]) -> int:
        return _agreeing_steps(scenario, plans, theirs, (*base, *variants), compare, step, request == "perft", position, base)

    without: dict[tuple, int] = {}  # how far the other house rules found agree on their own
    best, best_reach = [], step - 1
    for n, variant in enumerate(dict.fromkeys((*found, *hypotheses))):
        if n == len(found) and best and best_reach == len(plans):
            break  # a house rule already found agrees with every answer: the run's earlier finds explain it
        reach = agreeing((variant,))
        others = tuple(v for v in found if v is not variant)
        if others:
            # Played with the others found, it explains the divergence only where they alone do
            # not: a house rule is never credited with what another one does.
            if others not in without:
                without[others] = agreeing(others)
            with_others = agreeing((*others, variant))
            if with_others > without[others]:
                reach = max(reach, with_others)
        if reach > best_reach:
            best, best_reach = [variant], reach
        elif reach == best_reach and best:
            best.append(variant)
    return tuple(best)


def fewest_house_rules(candidates: list[tuple[Variant, ...]]) -> list[Variant | None]:
    """One house rule for each divergence, from the house rules that explain it equally well,
    so that the fewest explain them all (a greedy set cover: the house rule that explains most
    divergences first, then the library's order): one house rule of an engine is one cause, even
    where another variant happens to explain a few of its scenarios as well."""
    chosen: list[Variant | None] = [None] * len(candidates)
    left = {i for i, explain in enumerate(candidates) if explain}
    order = {v: n for n, v in enumerate(dict.fromkeys(v for explain in candidates for v in explain))}
    while left:
        counts: dict[Variant, int] = {}
        for i in left:
            for variant in candidates[i]:
                counts[variant] = counts.get(variant, 0) + 1
        best = max(counts, key=lambda v: (counts[v], -order[v]))
        for i in [i for i in left if best in candidates[i]]:
            chosen[i] = best
            left.discard(i)
    return chosen


def house_rule_of(profile_id: str, variant: Variant) -> str | None:
    """The rule a house rule changes, as an id of the profile's rules (a key of `rules:` on the
    variant stands for the profile's own id), or None where the profile has no such rule."""
    rules = resolve(load_profile(profile_id), (variant.rule,))
    return rules[0] if rules else None


def _agreeing_steps(scenario, plans: list, theirs: list[list], variants: tuple[Variant, ...], compare, step: int,
                    perft_too: bool = False, position: dict | None = None, reached_by: tuple[Variant, ...] = ()) -> int:
    """How many steps from the first the reference with `variants` answers as the implementation
    did. The perft counts are left out (but at the diverging `step` when the divergence is a
    perft count, `perft_too`): they count whole trees of play, which an implementation may
    compute apart from its moves (an adapter that adds a house rule to a reference's moves but
    not to its perft), and they cost the most to compute."""
    reference = Reference(variants=variants, trace=False)
    try:
        if position is None:
            reference.setup(scenario.profile, scenario.data["setup"])
        else:
            reference.setup_position(scenario.profile, position, reached_by)
    except ConquianError:
        return 0
    for i, (planned, got) in enumerate(zip(plans, theirs)):
        if i + 1 != step or perft_too is False:  # the perft counts left out: not even computed (they change no state)
            kept = [k for k, (name, *_) in enumerate(planned) if name != "perft"]
            planned, got = [planned[k] for k in kept], [got[k] for k in kept]
        try:
            ours = reference_answers(reference, planned)
        except Exception:  # a house rule that breaks on this deal explains nothing here
            return i
        if all(_plainly_equal(o, g) for o, g in zip(ours, got)):
            continue  # equal as they are: no comparator needed (most steps of most replays)
        if compare(planned, ours, got):
            return i
    return len(plans)


def _plainly_equal(ours: object, got: object) -> bool:
    """Equal without the comparator: the same value, or an object holding every key of ours with
    the same value (an implementation may answer more keys; the comparator ignores them too)."""
    if isinstance(ours, dict) and isinstance(got, dict):
        return all(key in got and got[key] == value for key, value in ours.items())
    return ours == got or (isinstance(ours, tuple) and list(ours) == got)
