"""The first divergence: a failing scenario replayed side by side on the reference engine.

A scenario's first failing check may come steps after the real cause (an automatic move that no
check covers, issue 11). So for every failing or errored scenario the runner replays the same
steps on the reference (conquian_ref.conformance.reference.Reference) and on the implementation,
and compares, step by step, every answer and the canonical state after it (when the
implementation has the `state` capability), whatever the scenario checks there.

`diagnose(scenario, driver, capabilities, reasons)` returns the first `Divergence` (None when
both agree on everything asked): its step (1-based; None for the setup or a match), each
differing key with both values, and its `Cause`.

Its `Cause` names the one rule the implementation breaks there, and the known house rule that
explains it when one does (conquian_ref.conformance.attribution: the hypotheses are house rules
played on the reference, `diagnose(..., hypotheses=...)`); an unexplained cause keeps its
signature, the diverging action (or request) and the sorted differing top-level keys. Known
failures may name a cause by its rule, its house rule or its text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.errors import ConquianError
from ..engine.ruleset import Variant
from .attribution import Cause, explaining, governing_rule, house_rule_of, reference_answers, unsupported_cause
from .compare import compare_actions, mismatches
from .failures import AdapterFailure, Unsupported
from .protocol import CHECK_CAPABILITIES, match_answer
from .reference import Reference

SETUP = "setup"  # the request kind of a divergence at the setup
# The key of a difference in an answer that is not the state: (request kind) -> prefix.
ANSWER_KEY = {"observation": "observation", "legal": "legal", "perft": "perft"}


@dataclass
class Divergence:
    """Where the implementation first departs from the reference, and how."""

    step: int | None  # 1-based; None for the setup or a match
    request: str  # the request whose answer differs ("apply", "state", ...)
    differences: list[tuple[str, object, object]]  # (key, the reference's value, the implementation's)
    cause: Cause
    action: object = None  # the step's action, when it has one
    house_rule: Variant | None = None  # the known house rule that explains it
    kind: str = ""  # the diverging action's type, or the request's kind when the step has none
    keys: tuple[str, ...] = ()  # the differing top-level keys
    explained_by: tuple[Variant, ...] = ()  # every house rule that explains it equally well
    later: list = field(default_factory=list)  # the divergences after it, the implementation put back at the reference's position each time

    def every(self) -> list["Divergence"]:
        """This divergence and the ones seen past it."""
        return [self, *self.later]

    def name_house_rule(self, profile_id: str, variant: Variant) -> None:
        """Name `variant` (one of `explained_by`) as the house rule behind this divergence, with
        the rule it changes (or the rule that governs what differs, where the profile has not
        that rule)."""
        self.house_rule = variant
        self.cause = Cause(house_rule_of(profile_id, variant) or self.cause.rule, variant.id)

    def where(self) -> str:
        return self.request if self.step is None else f"step {self.step}"

    def to_json(self) -> dict:
        return {
            "step": self.step,
            "request": self.request,
            "action": self.action,
            "cause": str(self.cause),
            "differences": [{"key": k, "reference": r, "implementation": i} for k, r, i in self.differences],
        }


def diagnose(scenario, driver, capabilities: set[str], reasons: bool = True,
             hypotheses: tuple[Variant, ...] = (), found: tuple[Variant, ...] = (),
             variants: tuple[Variant, ...] = (), horizon: int | None = None) -> Divergence | None:
    """The first divergence of `driver` (the implementation) from the reference on `scenario`,
    its cause named by the house rules among `hypotheses` and `found` (the ones already found in
    the run) or by the rule that governs what differs. With `variants` (house rules the caller
    knows the implementation plays: fuzz's known failures), the reference plays them, and so does
    every replay of a hypothesis. An AdapterFailure of the implementation is itself a divergence
    (at the step it struck); the caller restarts the adapter when `driver` raised one (see `broken`)."""
    if "match" in scenario.data:
        return _diagnose_match(scenario, driver)
    data, profile_id = scenario.data, scenario.profile
    reference = Reference(variants=variants, trace=False)  # only its answers are compared
    reference.setup(profile_id, data["setup"])
    try:
        driver.setup(profile_id, data["setup"])
    except (AdapterFailure, ConquianError) as exc:
        cause = Cause(governing_rule(profile_id, SETUP, None, None), None, "setup: setup")
        return Divergence(None, SETUP, [("setup", "ok", _error(exc))], cause, kind=SETUP, keys=("setup",))
    plans = [_requests(step, capabilities) for step in data["steps"]]
    divergences: list[Divergence] = []
    start, position = 0, None  # the steps from `start` on are asked of the implementation at once
    while start < len(plans):
        answers = iter(driver.batch([request for planned in plans[start:] for request in planned]))
        theirs = [[next(answers, None) for _ in planned] for planned in plans[start:]]
        divergence = None
        for offset, (planned, got) in enumerate(zip(plans[start:], theirs)):
            mine = reference_answers(reference, planned)
            differences = _differences(planned, mine, got, reasons)
            if differences:
                divergence = _divergence(scenario, start + offset + 1, planned, mine, got, differences, reasons,
                                         plans[start:], theirs, offset + 1, hypotheses, found, position, variants, horizon)
                break
        if divergence is None:
            break
        if position is not None and divergence.cause.unsupported:
            # An error answer at a position the implementation was put at: it may refuse the
            # position's premise as much as lack the action. Ambiguous, so not reported: stop here.
            break
        divergences.append(divergence)
        # See past it: put the implementation at the reference's position and go on, when it can
        # take a position up (the `setup_position` capability) and is not broken.
        if "setup_position" not in capabilities or broken(divergence) or divergence.step >= len(plans):
            break
        position = reference.position()
        try:
            driver.setup_position(profile_id, position)
        except (AdapterFailure, ConquianError):
            break
        start = divergence.step
    if not divergences:
        return None
    first = divergences[0]
    first.later = divergences[1:]
    return first


def _divergence(scenario, i, planned, mine, got, differences, reasons, plans, theirs, step, hypotheses, found, position,
                base=(), horizon=None) -> Divergence:
    """The divergence at step `i` (1-based in the scenario; `step` in `plans`, the steps asked
    since the implementation was last put at the reference's position), with its cause."""
    profile_id, action = scenario.profile, scenario.data["steps"][i - 1].get("action")
    request = _first_kind(planned, mine, got, reasons)
    kind = str(action.get("type", "?")) if isinstance(action, dict) else request  # no action: the request's kind
    unsupported = [d for d in differences if d[0] == "unsupported"]
    if unsupported:  # an action the engine cannot express: that is the whole deviation
        return Divergence(i, "apply", unsupported, unsupported_cause(profile_id, kind), action, None, kind, ("unsupported",))
    keys = tuple(sorted({key for key, _, _ in differences}))
    signature = f"{kind}: {', '.join(keys)}"
    compare = lambda planned, ours, got: _differences(planned, ours, got, reasons)  # noqa: E731
    refused_by = mine[0][1] if planned and planned[0][0] == "apply" and isinstance(mine[0], tuple) else None
    divergence = Divergence(i, request, differences, Cause(governing_rule(profile_id, request, action, refused_by), None, signature),
                            action, None, kind, keys)
    divergence.explained_by = explaining(scenario, plans, theirs, step, hypotheses, found, compare, request, position, base, horizon)
    if divergence.explained_by:
        divergence.name_house_rule(profile_id, divergence.explained_by[0])
    return divergence


def broken(divergence: Divergence | None) -> bool:
    """Whether the implementation failed at the protocol level during the diagnosis (it is then
    restarted before anything else is asked of it)."""
    return divergence is not None and any(isinstance(i, str) and i.startswith("adapter ") for _, _, i in divergence.differences)


def _requests(step: dict, capabilities: set[str]) -> list[tuple]:
    """What is asked of both sides at a step: the action, the state after it, then the step's
    own checks that are not the state (observation, legal actions, perft) the implementation can answer."""
    planned: list[tuple] = [("apply", step["seat"], step["action"])] if "action" in step else []
    planned += [("state",)] if "state" in capabilities else []
    check = step.get("check") or {}
    for kind, capability in CHECK_CAPABILITIES.items():
        if kind in check and capability in capabilities:
            value = check[kind]
            planned.append((kind, len(value)) if kind == "perft" else (kind, value["seat"]))
    return planned


def _differences(planned, mine, theirs, reasons: bool) -> list[tuple[str, object, object]]:
    """The step's differences: of the action's answer and the state when they differ (the
    answers of the step's checks then follow from them, and would only split one cause into
    several), else of the checks' answers."""
    found = {"core": [], "checks": []}
    for (name, *_), ours, got in zip(planned, mine, theirs):
        found["core" if name in ("apply", "state") else "checks"] += _compare(name, ours, got, reasons)
    return found["core"] or found["checks"]


def _first_kind(planned, mine, theirs, reasons: bool) -> str:
    return next(name for (name, *_), ours, got in zip(planned, mine, theirs) if _compare(name, ours, got, reasons))


def _compare(name: str, ours: object, got: object, reasons: bool) -> list[tuple[str, object, object]]:
    """The differing keys of one answer: top-level keys of a state or observation, `result` and
    `reason` of an action, the whole answer of the others."""
    if got is None:
        return [(name, _plain(ours), "(no answer)")]
    if isinstance(got, Unsupported):  # an action the engine cannot express: a deviation, the adapter is not broken
        return [("unsupported", _plain(ours), got.deviation)]
    if isinstance(got, Exception):
        return [(name, _plain(ours), _error(got))]
    if name == "apply":
        keys = ("result", "reason") if reasons else ("result",)
        return [(k, o, g) for k, o, g in zip(keys, ours, got) if o != g]
    if name == "state" or name == "observation":
        prefix = "" if name == "state" else "observation."
        if not isinstance(got, dict) or not isinstance(ours, dict):
            return [(name, ours, got)] if ours != got else []
        tops = sorted({_top(path) for path, _, _ in mismatches(ours, got)})
        return [(prefix + key, ours.get(key), got.get(key, "(missing)")) for key in tops]
    if name == "legal":
        try:
            missing, extra = compare_actions(ours, got)
        except (TypeError, AttributeError):
            return [("legal", ours, got)]
        return [("legal", {"missing": missing}, {"extra": extra})] if missing or extra else []
    return [(ANSWER_KEY.get(name, name), ours, got)] if ours != got else []


def _top(path: str) -> str:
    return path.split(".", 1)[0].split("[", 1)[0]


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def _error(exc: Exception) -> str:
    if isinstance(exc, AdapterFailure):
        return f"adapter {exc.kind}: {exc.message}"
    return f"error: {exc}"


def _diagnose_match(scenario, driver) -> Divergence | None:
    match = scenario.data["match"]
    args = (scenario.profile, match["first_dealer"], match["deals"])
    try:
        ours = match_answer(Reference().match(*args))  # what the protocol answers
    except ConquianError as exc:
        ours = _error(exc)
    try:
        got = driver.match(*args)
    except (AdapterFailure, ConquianError) as exc:
        got = exc
    differences = _compare("state", ours, got, True) if not isinstance(got, Exception) else _compare("match", ours, got, True)
    if not differences:
        return None
    keys = tuple(sorted({k for k, _, _ in differences}))
    cause = Cause(governing_rule(scenario.profile, "match", None, None), None, f"match: {', '.join(keys)}")
    return Divergence(None, "match", differences, cause, kind="match", keys=keys)
