"""A consumer of the export written from docs/export.md alone (tests/test_export.py runs it).

It knows nothing of the runner: it sends each exported request to an adapter in direct mode
(`handle(request) -> answer`) and compares the answer with the documented comparator only. If
the export left something for the runner's step interpreter to know, this consumer would pass
where `conquian-ref check` fails, or the other way round; the tests compare the two.
"""

from __future__ import annotations

import json


def equal(expected, got, key, comparator) -> bool:
    """The comparator of docs/export.md: fragments, multisets by key, sets of actions, scalars."""
    if isinstance(expected, dict):
        return isinstance(got, dict) and all(k in got and equal(v, got[k], k, comparator) for k, v in expected.items())
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            return False
        if key in comparator["multiset_keys"]:
            return sorted(expected, key=json.dumps) == sorted(got, key=json.dumps)
        if key in comparator["multiset_per_seat_keys"]:
            return all(equal(e, g, "cards", comparator) for e, g in zip(expected, got))
        if key in comparator["set_keys"]:
            return all(any(equal(e, g, None, comparator) and equal(g, e, None, comparator) for g in got) for e in expected)
        return all(equal(e, g, None, comparator) for e, g in zip(expected, got))
    if isinstance(expected, bool) or isinstance(got, bool):
        return expected is got
    return expected == got


def run_scenario(scenario: dict, document: dict, handle, capabilities: set, form: str = "given") -> str | None:
    """None if the adapter passes the scenario, else the first request it fails, as one line;
    `form`: "given", or "other" to send the setup in the form the scenario did not give."""
    comparator = document["comparator"]
    if scenario["setup"] is not None:
        setup = scenario["setup"]
        given = setup["given"] if form == "given" else {"deck": "hands", "hands": "deck"}[setup["given"]]
        fields = {"deck": setup["deck"]} if given == "deck" else {"hands": setup["hands"], "stock": setup["stock"]}
        answer = handle({"seq": 0, "cmd": "setup", "profile": document["profile"]["id"], "dealer": setup["dealer"], **fields})
        if answer.get("ok") is not True:
            return f"setup: {json.dumps(answer)}"
    for seq, request in enumerate(scenario["requests"], 1):
        if request.get("needs", "state") not in capabilities:
            continue
        expect = dict(request["expect"])
        if "reason_codes" not in capabilities:
            expect.pop("reason", None)
        before = handle({"seq": -seq, "cmd": "state"}) if request.get("state_unchanged") else None
        answer = handle({"seq": seq, **request["send"]})
        text = json.dumps(answer)
        if not equal(expect, answer, None, comparator) or any(f'"{c}"' in text for c in request.get("absent", [])):
            return f"step {request['step']} (line {request['line']}): {json.dumps(request['send'])} -> {text[:300]}"
        if before is not None and not equal(before["state"], handle({"seq": -seq, "cmd": "state"})["state"], None, comparator):
            return f"step {request['step']} (line {request['line']}): the state changed after a refusal"
    return None
