"""Every profile field the engine does not implement is refused in one clear line naming the
field and the value (conquian_ref.engine.profile.SUPPORTED); nothing is silently ignored.

A copy of a shipped profile with one field changed is written to a file and loaded through
conquian_ref.spec.profiles.load_profile (schema validation, then the engine's own check).
"""

from __future__ import annotations

import copy

import pytest
import yaml

from conquian_ref.engine.errors import MalformedInput
from conquian_ref.engine.profile import RULE_KEYS_ALWAYS, SUPPORTED
from conquian_ref.spec.profiles import PROFILE_IDS, load_profile
from conquian_ref.spec.schemas import load_schema


def shipped(profile_id: str) -> dict:
    return copy.deepcopy(load_profile(profile_id).data)


def write(tmp_path, data: dict, name="changed.yaml"):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return str(path)


def changed(profile_id: str, path: tuple, value) -> dict:
    data = shipped(profile_id)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


UNSUPPORTED = [
    ("torno-cisneros-v1", ("exchange", "cards"), 2),
    ("torno-cisneros-v1", ("exchange", "simultaneous"), False),
    ("anglo-american-v1", ("forcing", "forced_take_hand_cards"), True),
    ("torno-cisneros-v1", ("forcing", "forced_take_hand_cards"), True),
    ("spielanleitung-discard-then-meld-v1", ("deck", "copies"), 2),  # two copies: not with RUL-35 yet
    ("anglo-american-v1", ("rearrangement",), "extend_only"),
]


@pytest.mark.parametrize(("profile_id", "path", "value"), UNSUPPORTED, ids=lambda v: ".".join(v) if isinstance(v, tuple) else None)
def test_an_unimplemented_value_is_refused_naming_field_and_value(tmp_path, profile_id, path, value):
    with pytest.raises(MalformedInput) as info:
        load_profile(write(tmp_path, changed(profile_id, path, value)))
    text = str(info.value)
    assert ".".join(path) in info.value.field and repr(value) in text
    assert "\n" not in text


def test_an_exchange_of_two_cards_is_refused_not_played_as_one(tmp_path):
    with pytest.raises(MalformedInput, match=r"exchange\.cards.*2"):
        load_profile(write(tmp_path, changed("torno-cisneros-v1", ("exchange", "cards"), 2)))


def test_a_profile_without_exchange_needs_no_exchange_values(tmp_path):
    profile = load_profile(write(tmp_path, changed("torno-cisneros-v1", ("exchange",), None)))
    assert profile.exchange_cards == 0


def _policy_leaves(schema: dict, defs: dict, path=()) -> list[tuple]:
    """The paths of every leaf field of the profile schema (objects followed through $ref and oneOf)."""
    if "$ref" in schema and schema["$ref"].startswith("#/$defs/"):
        schema = defs[schema["$ref"].split("/")[-1]]
    options = [s for s in schema.get("oneOf", []) if s.get("type") == "object"]
    if schema.get("type") == "object" and "properties" in schema or options:
        leaves = []
        for option in options or [schema]:
            for key, sub in option.get("properties", {}).items():
                leaves += _policy_leaves(sub, defs, path + (key,))
        return leaves
    return [path]


# Fields the engine reads in full, so every value the schema admits is implemented; or fields
# that are not policies at all (names, sources, the deck's cards, the rule ids).
READ_IN_FULL = {
    ("id",), ("title",), ("version",), ("rule_prefix",), ("sources", "title"), ("sources",),
    ("deck", "notation"), ("deck", "suits"), ("deck", "ranks"), ("deal", "hand_size"), ("target",),
    ("melds", "set_sizes"), ("melds", "run_min"), ("melds", "run_max"),
    ("match", "points_per_win"), ("match", "points_per_draw"), ("match", "points_to_win"),
    ("match", "stake"), ("match", "wins_to_win"), ("match", "units_to_win"),
    ("rules", "rulings"),
}


def test_every_schema_field_is_implemented_in_full_or_listed_in_supported():
    schema = load_schema("profile")
    leaves = set(_policy_leaves(schema, schema["$defs"]))
    unaccounted = sorted(leaves - set(SUPPORTED) - READ_IN_FULL)
    assert not unaccounted, f"profile fields neither read in full nor in SUPPORTED: {unaccounted}"
    assert set(SUPPORTED) <= leaves, sorted(set(SUPPORTED) - leaves)


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
def test_a_missing_rule_id_is_refused_naming_its_key(tmp_path, profile_id):
    for key in RULE_KEYS_ALWAYS:
        data = shipped(profile_id)
        del data["rules"][key]
        with pytest.raises(MalformedInput, match=rf"rules\.{key}"):
            load_profile(write(tmp_path, data, f"{key}.yaml"))
