"""The one official comparator: how an expected fragment is matched against an answer.

Rules (also stated in docs/protocol.md, "How answers are compared"):
* A mapping in the expectation is a fragment: every key it gives must be present and match;
  keys it does not give are not compared.
* Card lists whose order means nothing are compared as multisets: `hand`, `cards`, and each
  seat's list in `hands` and `exposed` must hold the same cards the same number of times, in any
  order (with one copy of each card that is comparing them as sets; with two copies, RUL-34, a
  list that differs only in how many copies of a card it names is a difference). Every other
  list (the stock, out-of-play cards, to_act, perft counts) is compared in order, element by
  element, and must have the same length, so it counts copies too.
* Legal actions are compared as a set of actions, each action with its `cards` as a multiset.
* Everything else compares by equality (numbers, strings, booleans, null).
"""

from __future__ import annotations

import json

SET_LISTS = {"hand", "cards"}
PER_SEAT_SET_LISTS = {"hands", "exposed"}


def _normal(key: object, value: object) -> object:
    # A multiset of card names is its sorted list: equal exactly when the same names occur the
    # same number of times (the length is compared with the elements).
    if key in SET_LISTS and isinstance(value, list):
        return sorted(value, key=str)
    if key in PER_SEAT_SET_LISTS and isinstance(value, list):
        return [sorted(v, key=str) if isinstance(v, list) else v for v in value]
    return value


def mismatches(expected: object, got: object, path: str = "", key: object = None) -> list[tuple[str, object, object]]:
    """Where `got` differs from the fragment `expected`: a list of (path, expected, got)."""
    if agrees(expected, got, key):
        return []
    return _mismatches(expected, got, path, key)


# The JSON scalar types a list may hold for `==` to be the comparator's own verdict on it: a
# bool is left out, since Python's True == 1 where the comparator sees a difference.
_PLAIN = frozenset({str, int, float, type(None)})


def agrees(expected: object, got: object, key: object = None) -> bool:
    """Whether `got` matches the fragment `expected`, by the rules above: exactly when
    `mismatches` finds nothing (tests/test_compare.py holds the two together). Hand-written,
    and asked first, because almost every comparison of a run agrees and this one builds no
    paths: a list of plain scalars equal in order is decided by one `==` (a multiset list in
    the same order too), the rest element by element as `mismatches` does."""
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return False
        for k, v in expected.items():
            if k not in got or not agrees(v, got[k], k):
                return False
        return True
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            return False
        if expected == got and not {*map(type, expected), *map(type, got)} - _PLAIN:
            return True
        expected, got = _normal(key, expected), _normal(key, got)
        return all(agrees(e, g) for e, g in zip(expected, got))
    return expected == got and (type(expected) is type(got) or _same_number(expected, got))


def _mismatches(expected: object, got: object, path: str, key: object) -> list[tuple[str, object, object]]:
    expected, got = _normal(key, expected), _normal(key, got)
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return [(path or "(top)", expected, got)]
        found = []
        for k, v in expected.items():
            sub = f"{path}.{k}" if path else str(k)
            if k not in got:
                found.append((sub, v, "(missing)"))
            else:
                found.extend(_mismatches(v, got[k], sub, k))
        return found
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            return [(path or "(top)", expected, got)]
        found = []
        for i, (e, g) in enumerate(zip(expected, got)):
            found.extend(_mismatches(e, g, f"{path}[{i}]", None))
        return found
    if expected != got or type(expected) is not type(got) and not _same_number(expected, got):
        return [(path or "(top)", expected, got)]
    return []


def _same_number(a: object, b: object) -> bool:
    return isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool)


def action_key(action: dict) -> str:
    """An action's identity for set comparison: its cards as a multiset (a sorted list)."""
    return json.dumps(_normal("cards", {k: _normal(k, v) for k, v in action.items()}), sort_keys=True)


def compare_actions(expected: list[dict], got: list[dict]) -> tuple[list[dict], list[dict]]:
    """(missing, extra): expected actions not listed, and listed actions not expected."""
    want = {action_key(a): a for a in expected}
    have = {action_key(a): a for a in got}
    return [a for k, a in want.items() if k not in have], [a for k, a in have.items() if k not in want]
