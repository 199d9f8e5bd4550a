"""The small JavaScript engine of anglo-american-v1, examples/javascript/engine.js (needs `node`).

It is written from the rule documents, independently of the reference engine, and driven through
examples/javascript/conquian-adapter.js (the template with its hooks filled). So:
- its own unit tests (`node --test`) pass;
- with no house rule it passes the whole anglo-american-v1 corpus, with every capability
  declared (nothing skipped), and fuzzed games agree with the reference at every step;
- each house-rule switch really changes it: `check` fails (exit 1), with at least one failing
  scenario that cites the rule the switch breaks, and no errored scenario;
- an engine with two switches fails at least where each of them does;
- an unknown switch stops the adapter with one line and exit status 2;
- set up at any position of a reference game (`setup_position`: the state, the history and the
  opening-card flag), it answers as the reference does there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HERE = REPO / "examples" / "javascript"
ADAPTER = "node examples/javascript/conquian-adapter.js"  # from the repository root, as the README says
NODE = shutil.which("node")
PROFILE = "anglo-american-v1"

pytestmark = pytest.mark.skipif(NODE is None, reason="node (Node.js >= 18) is not on PATH")

# Each switch and the rule it breaks (engine.js, HOUSE_RULES).
SWITCHES = {
    "auto-take": "AA-FORCE-1",
    "no-forcing": "AA-FORCE-1",
    "seven-jack-gap": "C-RUN-2",
    "no-rearrange": "C-ARR-2",
    "reshuffle": "C-TURN-7",
    "loose-reject-pass": "C-TURN-5",
    "reveal-to-rival": "C-TURN-4",
    "offer-back": "C-TURN-3",
    "extension-forcing": "RUL-3",
    "win-at-target": "AA-GOAL-1",
    "discard-into-hand": "C-TURN-3",
}
PAIRS = [("auto-take", "seven-jack-gap"), ("no-rearrange", "reshuffle")]


def _cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "conquian_ref", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=REPO)


_RUNS: dict[str, tuple[int, dict]] = {}


def check(house: str = "") -> tuple[int, dict]:
    """`check` of the engine with these switches on the profile's corpus: (exit status, JSON report)."""
    if house not in _RUNS:
        impl = ADAPTER + (f" --house {house}" if house else "")
        out = Path(os.environ.get("TMPDIR", "/tmp")) / f"js-engine-{os.getpid()}-{house or 'plain'}.json"
        done = _cli("check", "--impl", impl, "--profile", PROFILE, "--max-failures", "0", "--json", str(out))
        assert out.exists(), done.stderr[-2000:]
        _RUNS[house] = (done.returncode, json.loads(out.read_text(encoding="utf-8")))
        out.unlink()
    return _RUNS[house]


def failed(report: dict) -> set[str]:
    return {r["id"] for r in report["results"] if r["status"] in ("failed", "errored")}


def test_engine_unit_tests_pass():
    done = subprocess.run([NODE, "--test", str(HERE / "engine.test.js")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout


def test_engine_passes_the_whole_profile_corpus():
    status, report = check()
    summary = report["summary"]
    assert status == 0, [r["id"] for r in report["results"] if r["status"] != "passed"]
    assert report["implementation"]["name"] == "conquian-js"
    assert summary["failed"] == summary["errored"] == summary["skipped"] == summary["not_run"] == 0
    assert summary["passed"] == len(report["results"]) > 100
    assert {"legal_actions", "observation", "perft", "match", "reason_codes", "setup_deck"} <= set(report["capabilities"])


def test_fuzzed_games_agree_with_the_reference_at_every_step(tmp_path):
    done = _cli("fuzz", "--impl", ADAPTER, "--profile", PROFILE, "--games", "25", "--seed", "21", "--every-step",
                "--out", str(tmp_path))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "25 games" in done.stdout and " 0 divergences" in done.stdout, done.stdout[-2000:]


def test_the_engine_is_taken_up_at_every_position_of_reference_games():
    """`setup_position` at each position of a few reference games, the opening card still on
    offer among them: the engine's state, legal actions and observations are the reference's
    there; a flag the position cannot have is an error answer, not a deal."""
    import random

    from conquian_ref.engine.game import Game
    from conquian_ref.spec.profiles import load_profile

    profile = load_profile(PROFILE)
    lines, expected, flags = [json.dumps({"seq": 0, "cmd": "start", "version": 1})], [], []

    def ask(request, answer):
        lines.append(json.dumps({"seq": len(lines), **request}))
        expected.append((len(lines) - 1, answer))

    for seed in range(6):
        rng = random.Random(seed)
        deck = [profile.deck.name(c) for c in range(profile.deck.size)]
        rng.shuffle(deck)
        game = Game.from_deck(profile, deck, seed % 2)
        while True:
            position = game.position()
            flags.append(position["opening_card"])
            ask({"cmd": "setup_position", "profile": PROFILE, "position": position}, {"ok": True})
            ask({"cmd": "state"}, {"state": game.state_json()})
            for seat in (0, 1):
                ask({"cmd": "legal", "seat": seat}, {"actions": sorted(game.legal_actions(seat), key=json.dumps)})
                ask({"cmd": "observation", "seat": seat}, {"observation": game.observation(seat)})
            if game.phase == "over":
                break
            seat = game.state_json()["to_act"][0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    late = {**game.position(), "opening_card": True}
    lines.append(json.dumps({"seq": len(lines), "cmd": "setup_position", "profile": PROFILE, "position": late}))
    done = subprocess.run([NODE, str(HERE / "conquian-adapter.js")], input="\n".join(lines) + "\n", capture_output=True,
                          text=True, timeout=120)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(lines), done.stderr[-2000:]
    assert True in flags and False in flags  # the opening card on offer, and taken or rejected
    for seq, answer in expected:
        got = {k: v for k, v in answers[seq].items() if k != "seq"}
        if "actions" in answer:
            got = {"actions": sorted(got.get("actions", []), key=json.dumps)}
        if "state" in answer:
            got = {"state": {k: v for k, v in got.get("state", {}).items() if k != "melds"}}
        assert got == answer, (json.loads(lines[seq]), got, answer)
    assert "opening_card" in answers[-1]["error"]["message"]


def test_the_switches_tested_are_the_engine_s():
    script = "console.log(JSON.stringify(Object.fromEntries(Object.entries(require('./engine.js').HOUSE_RULES)" \
             ".map(([k, v]) => [k, v.rule]))))"
    done = subprocess.run([NODE, "-e", script], capture_output=True, text=True, timeout=30, cwd=HERE)
    assert json.loads(done.stdout) == SWITCHES


@pytest.mark.parametrize("house", sorted(SWITCHES))
def test_each_switch_makes_check_fail_on_its_rule(house):
    status, report = check(house)
    assert status == 1
    assert report["implementation"]["name"] == f"conquian-js+{house}"
    broken = [r for r in report["results"] if r["status"] == "failed"]
    assert broken, "the switch changed nothing the corpus sees"
    assert report["summary"]["errored"] == 0  # a house rule is a rule disagreement, never an adapter error
    # The switch's rule is cited by a failing scenario, or named by a cause of the report (the goal
    # is never cited where no win happens: a use of eleven cards forming no melds is refused).
    cited = {rule for r in broken for rule in r["rules"]} | {cause["rule"] for cause in report["causes"]}
    assert SWITCHES[house] in cited, f"no failing scenario cites {SWITCHES[house]} and no cause names it"


@pytest.mark.parametrize("pair", PAIRS, ids=["+".join(p) for p in PAIRS])
def test_two_switches_fail_where_each_does(pair):
    status, both = check(",".join(pair))
    assert status == 1
    assert both["implementation"]["name"] == "conquian-js+" + "+".join(sorted(pair))
    each = set().union(*(failed(check(house)[1]) for house in pair))
    assert each and each <= failed(both), sorted(each - failed(both))


def test_unknown_switch_stops_the_adapter_with_one_line():
    done = subprocess.run([NODE, str(HERE / "conquian-adapter.js"), "--house", "auto-take,nope"], input="",
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert 'unknown house rule "nope"' in done.stderr and done.stdout == ""


def test_switches_by_environment_variable():
    start = json.dumps({"seq": 1, "cmd": "start", "version": 1}) + "\n"
    done = subprocess.run([NODE, str(HERE / "conquian-adapter.js")], input=start, capture_output=True, text=True,
                          timeout=30, env={**os.environ, "CONQUIAN_HOUSE": "seven-jack-gap,auto-take"})
    assert json.loads(done.stdout)["implementation"]["name"] == "conquian-js+auto-take+seven-jack-gap"


def test_readme_lists_every_switch():
    readme = (HERE / "README.md").read_text(encoding="utf-8")
    for house, rule in SWITCHES.items():
        assert f"`{house}`" in readme and rule in readme, house
