"""The draft scenario of a failing game: its data, its id, and its YAML text.

Every action up to the divergence is written with the reference engine's answer, then at the
diverging step a legal check (before the action) and a state check (after it); `rules` are the
rules the reference applied on that step. The expectations are the reference's, not the
rules': the scenario is tagged `needs-review` and a person must check each one against the
rules before it may join the corpus (docs/fuzzing.md).
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from ...engine.errors import ConquianError, IllegalAction
from ...engine.game import Game
from ...engine.profile import Profile
from ...engine.ruleset import Variant
from ..yamltext import flow
from .agent import GameSpec, ListSource, decode
from .divergence import Divergence

ID_RANGE = range(9900, 10000)  # scenario ids of fuzz drafts: <prefix>-99NN
HEADER = "# Drafted by `conquian-ref fuzz` from the reference engine's answers: NEEDS REVIEW (see the annotation).\n"


def scenario_data(spec: GameSpec, divergence: Divergence, caps: set[str], scenario_id: str, annotation: str,
                  variants: tuple[Variant, ...] = ()) -> dict:
    """The scenario of a failing game, its expectations recorded from the reference engine (with
    `variants`, the known house rules the fuzzer played the game with)."""
    from ...spec.profiles import load_profile
    from ...spec.rulebook import rules_for

    game = Game.from_deck(load_profile(spec.profile_id), spec.deck, spec.dealer, variants)
    setup_rules = list(game.fired_last)
    source = ListSource(spec.choices)
    steps: list[dict] = []
    last_rules: list[str] = setup_rules
    for _ in range(divergence.actions_before):
        steps.append(_play(game, *decode(game, source.next())))
        last_rules = list(game.fired_last)
    if divergence.where in ("setup", "legal"):
        steps.append({"check": _check_before(game, divergence, caps)})
        rules = setup_rules if divergence.where == "setup" else _legal_rules(game, divergence) or last_rules
    else:
        steps += _diverging_steps(game, *decode(game, source.next()), caps)
        rules = list(game.fired_last)
    applicable = rules_for(spec.profile_id)
    cited = [r for r in dict.fromkeys(rules) if r in applicable]
    if not cited:
        cited = [r for r in sorted(game.rules_fired) if r in applicable]
    return {
        "id": scenario_id,
        "title": divergence.title(),
        "profile": spec.profile_id,
        "rules": cited,
        "tags": ["fuzz", "needs-review"],
        "annotation": annotation,
        "setup": {"dealer": spec.dealer, "deck": list(spec.deck)},
        "steps": steps,
        "outcome": None if game.outcome is None else game.outcome.to_json(),
    }


def _play(game: Game, seat: int, action: dict) -> dict:
    """A step applying `action`, with the reference's answer when it refuses."""
    step: dict = {"seat": seat, "action": action}
    try:
        game.apply(seat, action)
    except IllegalAction as exc:
        step["expect"] = {"refused": exc.reason}
    return step


def _check_before(game: Game, divergence: Divergence, caps: set[str]) -> dict:
    """For a divergence right after the setup or in the legal actions: the legal actions of the
    seat concerned and the state, as far as the implementation declares them (at least one)."""
    check: dict = {}
    if divergence.where == "legal" and "legal_actions" in caps:
        seat = divergence.seat if divergence.seat is not None else 0
        check["legal"] = {"seat": seat, "actions": game.legal_actions(seat)}
    if "state" in caps or not check:
        check["state"] = game.state_json()
    return check


def _diverging_steps(game: Game, seat: int, action: dict, caps: set[str]) -> list[dict]:
    """The diverging action: a legal check before it, the action, a state check after it."""
    steps = []
    if "legal_actions" in caps:
        steps.append({"check": {"legal": {"seat": seat, "actions": game.legal_actions(seat)}}})
    step = _play(game, seat, action)
    if "state" in caps:
        step["check"] = {"state": game.state_json()}
    steps.append(step)
    return steps


def _legal_rules(game: Game, divergence: Divergence) -> list[str]:
    """The rules the reference applies to the actions the two lists disagree on: the missing
    ones are played (accepted), the extra ones tried (refused), on copies of the game."""
    rules: list[str] = []
    for action in list(divergence.expected or []) + list(divergence.got or []):
        trial = game.clone()
        try:
            trial.apply(divergence.seat, action)
        except IllegalAction:
            pass
        except ConquianError:  # an extra action the reference cannot even read
            continue
        rules += trial.fired_last
    return rules


def free_id(profile: Profile, out: Path) -> str:
    """The first <prefix>-99NN used neither in the bundled corpus nor in `out` (the prefix: the
    profile's rule prefix, lower-cased)."""
    from ...spec.scenario import corpus_dir, find_scenario_files

    prefix = profile.rule_prefix.lower()
    used = set()
    for folder in (corpus_dir(), out):
        if not Path(folder).is_dir():
            continue
        for file in find_scenario_files([folder]):
            used.update(re.findall(rf"\b{prefix}-\d{{4}}\b", file.name))
            try:
                text = file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            used.update(re.findall(rf"(?m)^id:\s*['\"]?({prefix}-\d{{4}})", text))
    for number in ID_RANGE:
        candidate = f"{prefix}-{number:04d}"
        if candidate not in used:
            return candidate
    raise ConquianError(f"no free scenario id left in {prefix}-9900..{prefix}-9999 (corpus and {out})")


# -- the YAML text ------------------------------------------------------------------------------------
# A small writer in the corpus' style: block mappings for the structure, flow style for
# actions, card lists and small objects, a folded block for the annotation.
def _is_block(path: tuple, value: object) -> bool:
    if not isinstance(value, (dict, list)) or not value:
        return False
    n = len(path)
    return (
        n == 0
        or path in (("setup",), ("steps",))
        or (n == 2 and path[0] == "steps")
        or (n == 3 and path[2] == "check")
        or (n == 4 and path[3] in ("state", "legal"))
        or (n == 5 and path[3] == "legal" and path[4] == "actions")
    )


def _lines(value: object, path: tuple = ()) -> list[str]:
    out: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            sub = path + (key,)
            if path == () and key == "annotation":
                out.append("annotation: >-")
                out += ["  " + line for line in textwrap.wrap(item, 96, break_long_words=False, break_on_hyphens=False)]
            elif _is_block(sub, item):
                out.append(f"{key}:")
                out += ["  " + line for line in _lines(item, sub)]
            else:
                out.append(f"{key}: {flow(item)}")
    else:
        for i, item in enumerate(value):
            sub = path + (i,)
            if _is_block(sub, item):
                inner = _lines(item, sub)
                out.append("- " + inner[0])
                out += ["  " + line for line in inner[1:]]
            else:
                out.append("- " + flow(item))
    return out


def scenario_text(data: dict) -> str:
    """The YAML text of a scenario's data, read back to make sure it says the same."""
    import yaml

    data = dict(data, annotation=" ".join(data["annotation"].split()))
    text = HEADER + "\n".join(_lines(data)) + "\n"
    if yaml.safe_load(text) != data:  # the writer is small; make sure it wrote what it meant
        raise AssertionError("fuzz: the scenario YAML does not read back as written")
    return text
