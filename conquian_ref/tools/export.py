"""`conquian-ref export --out DIR`: the corpus as self-contained JSON, one file per profile.

Each file, `DIR/<profile id>.json` (format: docs/export.md, schema: schema/export.schema.json),
holds every scenario of that profile as the protocol requests to send and the answer fragments
to expect, with nothing left for a consumer to work out: both setup forms (the deck order and the
hands plus stock, whichever the scenario gave, converted through the profile's dealing pattern),
every default made explicit (an action is `accepted` unless refused), the state read after a
refusal flagged, the deal's outcome read from a last `state` request, and the card lists that
compare as multisets written in deck order. What the step interpreter (conformance.steps) plans
and judges, the export writes down as data; a consumer needs only the comparator of
docs/export.md.

The export is a build artifact: it is not kept in the repository, and the same corpus always
gives the same bytes (tests/test_export.py).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..conformance.check import corpus_path, needs
from ..conformance.protocol import CHECK_CAPABILITIES, PROTOCOL_VERSION
from ..engine.dealing import deal, undeal
from ..spec.fingerprint import corpus_fingerprint
from ..spec.profiles import PROFILE_IDS, load_profile, profile_data
from ..spec.scenario import Scenario, corpus_dir, load_corpus

FORMAT = 1
# The comparator of docs/export.md, as data: the keys whose card lists are multisets (the list
# itself, or each list inside it), and the key whose list is a set of actions.
COMPARATOR = {
    "multiset_keys": ["cards", "hand"],
    "multiset_per_seat_keys": ["exposed", "hands"],
    "set_keys": ["actions"],
}
# The capability each request beyond `state`, `apply` and `setup` needs (docs/protocol.md).
CHECK_NEEDS = {"observation": CHECK_CAPABILITIES["observation"], "legal": CHECK_CAPABILITIES["legal"],
               "perft": CHECK_CAPABILITIES["perft"]}


def configure(parser: argparse.ArgumentParser):
    """Options of `conquian-ref export`; returns its runner (args -> exit status)."""
    from .options import add_cache_option, add_corpus_option

    parser.add_argument("--out", required=True, metavar="DIR", help="the folder to write <profile id>.json into (created if missing)")
    add_corpus_option(parser, "the scenario folder exported")
    add_cache_option(parser)

    def run(args: argparse.Namespace) -> int:
        return run_export(Path(args.out), Path(args.corpus) if args.corpus else None)

    return run


def run_export(out: Path, corpus: Path | None = None) -> int:
    """Write the export of `corpus` (default: the bundled one) into `out`; print one line per file."""
    from ..engine.errors import ConquianError

    corpus = corpus or corpus_dir()
    scenarios, problems = load_corpus([corpus])
    if problems:
        raise ConquianError(f"the corpus has {len(problems)} problem(s); first: {problems[0]} (run conquian-ref lint)")
    if not scenarios:
        raise ConquianError(f"{corpus}: no scenario files to export")
    if out.exists() and not out.is_dir():
        raise ConquianError(f"{out}: not a folder")
    out.mkdir(parents=True, exist_ok=True)
    for profile_id, document in export_documents(scenarios, corpus_fingerprint(corpus)).items():
        path = out / f"{profile_id}.json"
        path.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"{path}: {len(document['scenarios'])} scenarios")
    return 0


def export_documents(scenarios: list[Scenario], fingerprint: str) -> dict[str, dict]:
    """{profile id: its export document}, for the profiles that have scenarios, in id order."""
    from .. import __version__

    by_profile: dict[str, list[Scenario]] = {}
    for scenario in sorted(scenarios, key=lambda s: s.id):
        by_profile.setdefault(scenario.profile, []).append(scenario)
    return {
        profile_id: {
            "format": FORMAT,
            "protocol": PROTOCOL_VERSION,
            "generator": f"conquian-ref {__version__}",
            "corpus_fingerprint": fingerprint,
            "profile": _profile(profile_id),
            "comparator": COMPARATOR,
            "scenarios": [scenario_entry(s) for s in by_profile[profile_id]],
        }
        for profile_id in sorted(by_profile, key=lambda p: (p not in PROFILE_IDS, p))
    }


def _profile(profile_id: str) -> dict:
    data, profile = profile_data(profile_id), load_profile(profile_id)
    return {
        "id": profile_id,
        "players": data["players"],
        "hand_size": profile.hand_size,
        "copies": data["deck"]["copies"],
        "cards": profile.deck.names(profile.deck.ordered()),
    }


def scenario_entry(scenario: Scenario) -> dict:
    """One scenario as plain data: what it is, what it needs, its setup and its requests."""
    data, profile = scenario.data, load_profile(scenario.profile)
    entry = {
        "id": scenario.id,
        "title": data["title"],
        "file": corpus_path(scenario),
        "rules": data["rules"],
        "tags": data.get("tags", []),
        "annotation": data["annotation"].strip(),
        "needs": sorted(needs(scenario) - set(CHECK_NEEDS.values())),
    }
    if "match" in data:
        match = data["match"]
        send = {"cmd": "match", "profile": scenario.profile, "first_dealer": match["first_dealer"], "deals": match["deals"]}
        entry["setup"] = None
        entry["requests"] = [{"step": 0, "line": scenario.line("match"), "send": send, "expect": {"match": match["expect"]}}]
        return entry
    entry["setup"] = _setup(profile, data["setup"])
    entry["requests"] = [r for i, step in enumerate(data["steps"]) for r in _step_requests(scenario, profile, i, step)]
    entry["requests"].append({
        "step": None, "line": scenario.line("outcome") if "outcome" in data else scenario.line("steps"),
        "send": {"cmd": "state"}, "expect": {"state": {"outcome": data.get("outcome")}},
    })
    return entry


def _setup(profile, setup: dict) -> dict:
    """Both forms of the deal: the one given and the other one through the dealing pattern."""
    dealer = setup["dealer"]
    if "deck" in setup:
        hands, stock = deal(profile, setup["deck"], dealer)
        return {"given": "deck", "dealer": dealer, "deck": setup["deck"], "hands": hands, "stock": stock}
    deck = undeal(profile, setup["hands"], setup["stock"], dealer)
    return {"given": "hands", "dealer": dealer, "deck": deck, "hands": setup["hands"], "stock": setup["stock"]}


def _step_requests(scenario: Scenario, profile, i: int, step: dict) -> list[dict]:
    """The requests of step i (0-based), in the order the step interpreter makes them."""
    where = {"step": i + 1, "line": scenario.line("steps", i)}
    found = []
    if "action" in step:
        expect = step.get("expect", "accepted")
        answer = {"result": "accepted"} if expect == "accepted" else {"result": "refused", "reason": expect["refused"]}
        request = {**where, "send": {"cmd": "apply", "seat": step["seat"], "action": step["action"]}, "expect": answer}
        if expect != "accepted":
            request["state_unchanged"] = True
        found.append(request)
    check = step.get("check") or {}
    if "state" in check:
        found.append({**where, "send": {"cmd": "state"}, "expect": {"state": _normal(profile, check["state"])}})
    if "observation" in check:
        seen = check["observation"]
        found.append({**where, "needs": CHECK_NEEDS["observation"], "send": {"cmd": "observation", "seat": seen["seat"]},
                      "expect": {"observation": _normal(profile, seen["match"])}, "absent": seen.get("absent", [])})
    if "legal" in check:
        # A set: each action once (as compare.compare_actions reads it), in a stable order.
        unique = {json.dumps(a, sort_keys=True): a for a in (_normal(profile, a) for a in check["legal"]["actions"])}
        actions = [unique[key] for key in sorted(unique)]
        found.append({**where, "needs": CHECK_NEEDS["legal"], "send": {"cmd": "legal", "seat": check["legal"]["seat"]},
                      "expect": {"actions": actions}})
    if "perft" in check:
        found.append({**where, "needs": CHECK_NEEDS["perft"], "send": {"cmd": "perft", "depth": len(check["perft"])},
                      "expect": {"counts": check["perft"]}})
    return found


def _normal(profile, value: object, key: object = None) -> object:
    """`value` with every multiset card list in deck order (COMPARATOR), recursively."""
    if isinstance(value, dict):
        return {k: _normal(profile, v, k) for k, v in value.items()}
    if isinstance(value, list):
        if key in COMPARATOR["multiset_keys"]:
            return _deck_order(profile, value)
        if key in COMPARATOR["multiset_per_seat_keys"]:
            return [_deck_order(profile, v) if isinstance(v, list) else v for v in value]
        return [_normal(profile, v) for v in value]
    return value


def _deck_order(profile, cards: list) -> list:
    return profile.deck.names(profile.deck.parse_list(cards, "cards"))
