"""The comparator's fast verdict (`compare.agrees`, asked first) is the full comparison's: for
any expectation and answer, `agrees` holds exactly when the path-building comparison finds no
mismatch, over the corners the rules name (fragments, multiset card lists, bool against number,
int against float)."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from conquian_ref.conformance import compare

KEYS = st.sampled_from(["hand", "cards", "hands", "exposed", "stock", "score", "ok"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from([0.0, 1.0, -1.0]), st.sampled_from(["5C", "KH", "AS", "1"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)), max_leaves=12)


def _perturbed(value: object, rng: random.Random) -> object:
    """`value` with some of the changes the rules tell apart or not: lists shuffled, keys added
    or dropped, 1 for True or 1.0, a scalar swapped."""
    if isinstance(value, dict):
        out = {k: _perturbed(v, rng) if rng.random() < 0.5 else v for k, v in value.items()}
        if out and rng.random() < 0.2:
            out.pop(rng.choice(list(out)))
        if rng.random() < 0.3:
            out["extra"] = 1
        return out
    if isinstance(value, list):
        out = [_perturbed(v, rng) if rng.random() < 0.3 else v for v in value]
        if rng.random() < 0.4:
            rng.shuffle(out)
        return out
    return _swapped(value, rng) if rng.random() < 0.5 else value


def _swapped(value: object, rng: random.Random) -> object:
    """A scalar for `value`: the same number as another type (True for 1, 1.0 for 1), or another."""
    if isinstance(value, bool):
        return rng.choice([int(value), not value])
    if isinstance(value, int | float):
        return rng.choice([float(value), int(value), bool(value), value + 1])
    return rng.choice(["KH", 0, None])


def _retyped(value: object) -> object:
    """`value` with each bool as the int Python finds equal to it, each int as a float: equal to
    `value` under Python's `==`, where the comparator tells a bool from a number."""
    if isinstance(value, dict):
        return {k: _retyped(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_retyped(v) for v in value]
    return int(value) if isinstance(value, bool) else float(value) if isinstance(value, int) else value


def _slow(expected: object, got: object, key: object = None) -> bool:
    return compare._mismatches(expected, got, "", key) == []


@settings(max_examples=300)
@given(VALUES, st.randoms(use_true_random=False), st.one_of(st.none(), KEYS))
def test_the_fast_verdict_is_the_full_comparisons(expected, rng, key):
    for got in (expected, _retyped(expected), _perturbed(expected, rng), _perturbed(_perturbed(expected, rng), rng)):
        assert compare.agrees(expected, got, key) == _slow(expected, got, key), (expected, got, key)
        assert (compare.mismatches(expected, got, key=key) == []) == _slow(expected, got, key)


def test_a_bool_is_not_the_number_one_and_a_card_list_is_a_multiset():
    assert not compare.agrees([True, 2], [1, 2]) and not compare.agrees({"ok": 1}, {"ok": True})
    assert compare.agrees([1, 2], [1.0, 2]) and compare.agrees({"hand": ["5C", "KH"]}, {"hand": ["KH", "5C"], "x": 0})
    assert not compare.agrees({"stock": ["5C", "KH"]}, {"stock": ["KH", "5C"]})
    assert compare.mismatches({"ok": 1}, {"ok": True}) == [("ok", 1, True)]
