"""Rule coverage of the corpus, and the rules documents' own consistency.

Pins the guarantees of scenarios/README.md: every rule id of each profile is cited by a
scenario; every cited rule is checked by the reference engine while that scenario replays,
unless it holds by construction there (reported apart) or is a worked example;
every reason code is produced by some scenario, and every reason code a profile gives in random
play by a scenario of that profile; every reason code is documented in the order
the engine applies them.
"""

from __future__ import annotations

import random
import re

import pytest

from conquian_ref.tools.coverage import measure
from conquian_ref.tools.simulate import new_game
from conquian_ref.engine.actions import FIELDS
from conquian_ref.engine.cards import cards_of
from conquian_ref.engine.errors import IllegalAction
from conquian_ref.engine.refusals import REASONS
from conquian_ref.spec.profiles import PROFILE_IDS, load_profile, rule_prefix
from conquian_ref.spec.rulebook import load_rules, rules_dir, rules_for
from conquian_ref.spec.scenario import corpus_dir


@pytest.fixture(scope="module")
def coverage():
    return measure([corpus_dir()])


@pytest.mark.parametrize("profile", PROFILE_IDS)
def test_every_rule_of_the_profile_is_cited(coverage, profile):
    assert coverage.uncited[profile] == []


def test_every_cited_rule_fires_while_its_scenario_replays(coverage):
    assert coverage.not_fired == []


def test_rules_by_construction_are_reported_apart_never_as_checked(coverage):
    from conquian_ref.engine.trace import rules_by_construction
    from conquian_ref.spec.profiles import load_profile

    for profile in PROFILE_IDS:
        built = rules_by_construction(load_profile(profile))
        assert "C-DECK-1" in coverage.by_construction[profile]
        assert set(coverage.by_construction[profile]) >= {r for r in built if coverage.cited[profile].get(r)}


def test_the_json_report_keeps_by_construction_apart(coverage):
    data = coverage.to_json()
    assert set(data["by_construction"]) == set(PROFILE_IDS)
    assert data["cited_but_not_fired"] == []


def test_every_reason_code_is_produced_by_a_scenario(coverage):
    assert coverage.reasons_missing == []


def _attempts(game):
    """Actions to try in a position: every action type for every seat, with a card of its hand,
    a card it does not hold, no card, one or two hand cards: each either listed legal or refused."""
    name = game.deck.name
    for seat in game.profile.seats:
        hand = [name(c) for c in cards_of(game.hands[seat])]
        others = [name(c) for c in game.stock[:1]] + ([name(game.available)] if game.available is not None else [])
        for kind, fields in FIELDS.items():
            if fields == ("card",):
                for card in hand[:1] + others:
                    yield seat, {"type": kind, "card": card}
            elif fields == ("cards",):
                for cards in ([], hand[:1], hand[:2], hand[-2:], others[:1]):
                    yield seat, {"type": kind, "cards": cards}
            else:
                yield seat, {"type": kind}


@pytest.mark.parametrize("profile", PROFILE_IDS)
def test_every_reason_code_the_profile_gives_in_random_play_is_produced_by_its_own_scenarios(coverage, profile):
    # Each profile's corpus produces every refusal reason the profile can
    # produce, not only the corpus as a whole. What the profile can produce is found by playing:
    # 30 seeded random games, every position offered every action of _attempts.
    prefix = rule_prefix(profile).lower() + "-"
    produced = {code for code, ids in coverage.reasons.items() if any(i.startswith(prefix) for i in ids)}
    reached = set()
    for index in range(30):
        game = new_game(load_profile(profile), 7, index)
        agent = random.Random(index)
        while True:
            legal = {seat: game.legal_actions(seat) for seat in game.profile.seats}
            for seat, action in _attempts(game):
                if action not in legal[seat]:
                    with pytest.raises(IllegalAction) as refused:
                        game.apply(seat, action)
                    reached.add(refused.value.reason)
            if game.is_over:
                break
            seat = agent.choice(game.to_act)
            game.apply(seat, agent.choice(game.legal(seat)))
    assert len(reached) >= 10, reached  # the attempts do reach the refusals
    assert reached - produced == set(), f"{profile}: reason codes no scenario of the profile produces"


def test_every_scenario_passes_on_the_reference(coverage):
    assert coverage.failing == []


def test_rule_ids_are_unique_across_documents():
    seen = {}
    for path in sorted(rules_dir().glob("*.md")):
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.match(r"^### (\S+) — ", line)
            if m:
                assert m.group(1) not in seen, f"{m.group(1)} in {path.name} and {seen[m.group(1)]}"
                seen[m.group(1)] = path.name
    assert set(seen) == set(load_rules())


@pytest.mark.parametrize("rule_id", sorted(load_rules()))
def test_every_rule_has_a_source_and_an_example(rule_id):
    rule = load_rules()[rule_id]
    if rule_id.startswith("RUL-"):
        for part in ("Question", "Alternatives", "Decision", "Reason"):
            assert part in rule.text, f"{rule_id} lacks its {part}"
    else:
        assert "Source:" in rule.text and "Example:" in rule.text, rule_id


def test_each_profile_has_its_own_rules():
    for profile in PROFILE_IDS:
        prefix = rule_prefix(profile) + "-"
        assert any(r.startswith(prefix) for r in rules_for(profile))


def test_reason_codes_are_documented_in_precedence_order():
    text = (rules_dir() / "reasons.md").read_text(encoding="utf-8")
    table = re.findall(r"^\| `([a-z_]+)` \|", text, flags=re.M)
    assert sorted(table) == sorted(REASONS)
    precedence = text[text.index("## Precedence") :]
    order = sorted(REASONS, key=lambda code: precedence.index(f"`{code}`"))
    assert order == list(REASONS), "docs/rules/reasons.md precedence differs from refusals.REASONS order"


def test_every_rule_cited_by_a_reason_code_exists():
    known = load_rules()
    for code, rule_ids in REASONS.items():
        for rid in rule_ids:
            assert rid in known, f"{code} cites unknown rule {rid}"


def test_reason_code_rules_match_the_documented_table():
    text = (rules_dir() / "reasons.md").read_text(encoding="utf-8")
    rows = {m.group(1): [r.strip() for r in m.group(2).split(",")] for m in re.finditer(r"^\| `([a-z_]+)` \|.*\| ([A-Z0-9, -]+) \|$", text, flags=re.M)}
    assert rows == {code: list(rules) for code, rules in REASONS.items()}
