"""The first divergence, causes, honest counts,
several implementations side by side, and reports that stay valid and safe for any string.

The deliberately wrong engine is tests/adapters/auto_take.py: after an accepted `pass` it takes
the revealed card automatically when the seat now to act can use it. Where its take happens is
worked out here independently, by replaying each scenario on the reference and asking, after
every pass, whether the seat to act has a `use`: the diagnosis must name that step.
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conquian_ref.conformance.check import needs, run_check
from conquian_ref.conformance.results import Result, Run
from conquian_ref.conformance.client import Handshake
from conquian_ref.conformance.diagnosis import Cause, Divergence
from conquian_ref.conformance.failures import Crash
from conquian_ref.conformance.reference import Reference
from conquian_ref.conformance.reports import causes, json_report, json_text, junit_report, side_by_side, text_report
from conquian_ref.conformance.judges import Failure
from conquian_ref.engine.errors import ConquianError
from conquian_ref.spec.known import Entry, KnownFailures
from conquian_ref.spec.scenario import corpus_dir, load_scenario
from conquian_ref.spec.schemas import validator

ADAPTERS = Path(__file__).resolve().parent / "adapters"
AUTO_TAKE = "python:auto_take:Adapter"
# Scenarios in which a pass is followed by a card the next seat can use (the auto take strikes),
# and one in which it never does (it passes against the wrong engine too).
STRUCK = ["tc-0131", "tc-0104", "tc-0118", "tc-0133", "tc-0123", "tc-0107", "tc-0112"]
UNTOUCHED = "tc-0001"
HOSTILE_ANSWER = "\x1b[2J\x1b]0;owned\x07\x00\x08\x0b\x1f\x7f\x9b \ufffe\uffff\r"  # tests/adapters/hostile_answers.py


@pytest.fixture(autouse=True)
def adapters_importable(monkeypatch):
    monkeypatch.syspath_prepend(str(ADAPTERS))


def scenario(sid: str):
    found = sorted(corpus_dir().rglob(f"{sid}-*.yaml"))
    assert len(found) == 1, found
    return load_scenario(found[0])


def take_step(s) -> tuple[int, bool] | None:
    """The 1-based step of the first automatic take in `s`, and whether it takes hand cards."""
    ref = Reference()
    ref.setup(s.profile, s.data["setup"])
    for i, step in enumerate(s.steps, 1):
        if "action" not in step:
            continue
        if ref.apply(step["seat"], step["action"])[0] == "accepted" and step["action"]["type"] == "pass":
            for seat in ref.state()["to_act"]:
                uses = [a for a in ref.legal(seat) if a["type"] == "use"]
                if uses:
                    return i, bool(uses[0]["cards"])
    return None


@pytest.fixture(scope="module")
def scenarios():
    return [scenario(sid) for sid in [*STRUCK, UNTOUCHED]]


@pytest.fixture(scope="module")
def auto_run(scenarios):
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(ADAPTERS))
        return run_check(impl=AUTO_TAKE, scenarios=scenarios)


def test_a_house_rule_automatic_take_is_the_first_cause_at_the_step_it_takes(auto_run, scenarios):
    takes = {s.id: take_step(s) for s in scenarios}
    assert takes[UNTOUCHED] is None and all(takes[sid] for sid in STRUCK)  # the selection's premise
    by_id = {r.scenario.id: r for r in auto_run.results}
    assert by_id[UNTOUCHED].status == "passed"
    for sid in STRUCK:
        result = by_id[sid]
        assert result.status == "failed"
        step, takes_hand_cards = takes[sid]
        d = result.divergence
        assert d is not None and d.step == step, (sid, d)
        assert d.kind == "pass"
        # The taken card left `available` and joined the exposed cards; hand cards went with it.
        assert {"available", "exposed"} <= set(d.keys)
        assert ("hands" in d.keys) == takes_hand_cards
        # Without house rules to try, the cause is the rule governing a pass, unexplained.
        assert d.cause.rule == "C-TURN-5" and not d.cause.explained and d.cause.signature.startswith("pass: available, exposed")
        values = {key: (ours, got) for key, ours, got in d.differences}
        assert values["available"][0] is not None and values["available"][1] is None
    # The cause table: the cause of most scenarios first, and it is the auto take's.
    ranked = causes(auto_run)
    assert len(ranked[0][1]) == max(len(rs) for _, rs in ranked)
    assert ranked[0][0].startswith("C-TURN-5: unexplained (pass: available, exposed")
    report = text_report(auto_run)
    table = report[report.index("causes (the rule broken"):].splitlines()
    assert table[1].startswith(f"  1. {ranked[0][0]} — {len(ranked[0][1])} scenarios: ")


def test_the_first_divergence_is_found_at_a_step_no_check_looks_at(auto_run):
    # At least one scenario's first failing check comes after the divergence: the report names
    # the earlier step, which the scenario does not check.
    later = [r for r in auto_run.results if r.failure and r.failure.step is not None and r.failure.step + 1 > r.divergence.step]
    assert later
    for r in later:
        assert f"first divergence from the reference: step {r.divergence.step} " in text_report(auto_run, verbose=True)


def test_the_divergence_is_in_the_json_and_junit_reports_with_steps_one_based(auto_run):
    report = json.loads(json_text(json_report(auto_run)))
    errors = list(validator("report").iter_errors(report))
    assert not errors, errors[0].message
    for entry, result in zip(report["results"], auto_run.results):
        if result.status == "failed":
            assert entry["divergence"]["step"] == result.divergence.step
            assert entry["divergence"]["cause"] == str(result.cause)
            assert entry["failure"]["step"] == result.failure.step + 1  # 1-based, as in the text
    assert [c["cause"] for c in report["causes"]] == [c for c, _ in causes(auto_run)]
    root = ET.fromstring(junit_report(auto_run))
    for case in root.iter("testcase"):
        failure = case.find("failure")
        if failure is not None:
            sid = case.get("name").split()[0]
            result = next(r for r in auto_run.results if r.scenario.id == sid)
            assert failure.get("message").startswith(f"step {result.failure.step + 1}: {result.failure.field}: expected ")
            assert "first divergence from the reference" in failure.text and "annotation:" in failure.text and "rules:" in failure.text


def test_a_cause_names_its_rule_and_house_rule_and_compares_by_value():
    explained = Cause("C-TURN-1", "automatic-take")
    assert str(explained) == "C-TURN-1: house rule automatic-take" and explained.explained
    unexplained = Cause("C-TURN-5", None, "pass: available, exposed")
    assert str(unexplained) == "C-TURN-5: unexplained (pass: available, exposed)" and not unexplained.explained
    assert explained == Cause("C-TURN-1", "automatic-take") and len({explained, Cause("C-TURN-1", "automatic-take")}) == 1
    with pytest.raises(AttributeError):
        explained.rule = "C-TURN-2"  # frozen


def test_an_avalanche_of_one_cause_prints_the_cause_once(auto_run):
    report = text_report(auto_run)
    ranked = causes(auto_run)
    assert report.count("first divergence from the reference: ") == len(ranked) < len(auto_run.results) - 1
    for cause, results in ranked:
        assert report.count(f"): {cause}\n") == 1  # its one full failure
        assert " ".join(r.scenario.id for r in results) in report  # the scenarios, compactly


def test_max_failures_stops_the_run_and_the_rest_is_listed_as_not_run(scenarios):
    run = run_check(impl=AUTO_TAKE, scenarios=scenarios, max_failures=2)
    assert [r.status for r in run.results] == ["failed", "failed"] + ["not_run"] * (len(scenarios) - 2)
    assert run.summary_line() == f"0 passed, 2 failed, 0 errored, 0 xfailed, 0 skipped, {len(scenarios) - 2} not run"
    assert run.stopped_early and not run.ok
    report = json_report(run)
    assert [e["id"] for e in report["results"]] == [s.id for s in scenarios]
    assert report["results"][-1]["reason"] == "not run: stopped early"
    skipped = [c.find("skipped") for c in ET.fromstring(junit_report(run)).iter("testcase")]
    assert [s.get("message") for s in skipped if s is not None] == ["not run: stopped early"] * (len(scenarios) - 2)


def test_max_failures_does_not_count_failures_known_by_cause(auto_run, scenarios):
    # Entries by cause apply after the diagnosis; --max-failures must not count the failures
    # they cover (it did: a run could stop early on failures that all ended as xfail).
    ranked = causes(auto_run)
    every = KnownFailures([Entry("cause", str(cause), "house rule: automatic take", "(test)") for cause, _ in ranked])
    run = run_check(impl=AUTO_TAKE, scenarios=scenarios, known=every, max_failures=1)
    assert not run.stopped_early and run.ok
    assert run.count("xfail") == len(STRUCK) and run.count("passed") == 1
    # Covering only the first cause: the run stops at the first failure of another cause.
    first, first_results = ranked[0]
    assert len(ranked) > 1
    run = run_check(impl=AUTO_TAKE, scenarios=scenarios, known=KnownFailures(every.entries[:1]), max_failures=1)
    assert run.stopped_early and run.count("failed") == 1
    assert {r.scenario.id for r in run.results if r.status == "xfail"} <= {r.scenario.id for r in first_results}
    stopped_on = next(r for r in run.results if r.status == "failed")
    assert stopped_on.cause != first and run.results[-1].status in ("not_run", "failed")


def test_max_failures_zero_never_stops(scenarios, monkeypatch):
    import direct_raising  # raises on every setup: the same failure in every scenario

    monkeypatch.setitem(direct_raising.RAISES, "left", 10_000)
    run = run_check(impl="python:direct_raising:Adapter", scenarios=scenarios * 2, max_failures=0)
    assert not run.stopped_early and run.count("errored") == 2 * len(scenarios) > 5
    # The divergence is at the setup, where it raised; after two replays that failed too, the
    # others are not replayed (a broken adapter costs no more than its run).
    assert [r.divergence.kind for r in run.results[:2]] == ["setup", "setup"]
    assert [r.divergence.cause.rule for r in run.results[:2]] == ["C-DEAL-1", "C-DEAL-1"]
    assert {r.diagnosis for r in run.results[2:]} == {"not diagnosed: the adapter failed the replays too"}
    # One block per cause; a scenario without a cause is shown in full (here: all but the second).
    assert text_report(run).count("\nERRORED ") == len(run.results) - 1


def test_nothing_selected_is_one_line(scenarios):
    with pytest.raises(ConquianError) as info:
        run_check(scenarios=scenarios, profile=scenarios[0].profile + "-typo")
    assert str(info.value).startswith("no scenario selected: no scenario of profile") and "\n" not in str(info.value)
    with pytest.raises(ConquianError, match="^no scenario selected: -k no-such-thing matches no scenario"):
        run_check(scenarios=scenarios, patterns=["no-such-thing"])


def test_every_scenario_skipped_fails_the_run():
    matches = [load_scenario(path) for path in sorted(corpus_dir().glob("*/match/*.yaml"))[:3]]
    matches = [s for s in matches if "match" in needs(s)]
    assert matches
    run = run_check(impl="python:few_capabilities:Adapter", scenarios=matches)
    assert {r.status for r in run.results} == {"skipped"}
    assert not run.ok and run.untested.startswith("nothing was tested: all ")
    assert run.untested in text_report(run)


def test_several_implementations_side_by_side(scenarios):
    runs = [run_check(impl=impl, scenarios=scenarios[-2:]) for impl in ("reference", AUTO_TAKE)]
    table = side_by_side(runs)
    struck, untouched = scenarios[-2].id, scenarios[-1].id
    assert f"| {struck} | pass | FAIL |" in table and f"| {untouched} | pass | pass |" in table
    assert re.search(rf"^  2 {struck}: step \d+: C-TURN-5: unexplained \(pass: available, exposed", table, re.M)
    assert not re.search(r"^  1 ", table, re.M)  # the reference never diverges from itself


# -- reports for hostile strings -------------------------------------------------------------
HOSTILE = "\x1b[31m\x1b]0;pwn\x07\x00\x01\x08\x0b\x0c\x1f\x7f\x85\x9b\udfff\ud800\ufffe\uffff\t\r"


def hostile_run(real) -> Run:
    data = json.loads(json.dumps(real.data))
    data["title"] = data["annotation"] = "title " + HOSTILE
    s = type(real)(data, Path("/tmp/" + HOSTILE + ".yaml"), real.lines)
    handshake = Handshake({"name": HOSTILE, "version": HOSTILE, "language": HOSTILE}, [s.profile], {"state", HOSTILE})
    failure = Failure(0, "expect" + HOSTILE, {"refused": HOSTILE, "n": math.nan}, [math.inf, -math.inf, HOSTILE], HOSTILE)
    adapter = Crash(HOSTILE + "\nsecond line", HOSTILE + "\n" + HOSTILE, "apply")
    divergence = Divergence(1, "state", [(HOSTILE, math.nan, HOSTILE)], Cause(HOSTILE, HOSTILE, HOSTILE), {"type": HOSTILE})
    run = Run(HOSTILE, handshake, corpus=HOSTILE, stopped_early="stopped early: " + HOSTILE)
    run.results = [
        Result(s, "failed", failure, divergence=divergence),
        Result(s, "errored", adapter=adapter, divergence=divergence),
        Result(s, "xpass", reason=HOSTILE),
        Result(s, "skipped", reason=HOSTILE),
        Result(s, "xfail", failure, reason=HOSTILE, diagnosis=HOSTILE),
        Result(s, "not_run", reason=HOSTILE),
    ]
    return run


def _no_constant(name):
    raise AssertionError(f"non-strict JSON constant {name}")


def test_reports_are_valid_and_safe_for_hostile_strings(scenarios):
    run = hostile_run(scenarios[0])
    text = text_report(run, verbose=True)
    assert not [c for c in text if ord(c) < 0x20 and c != "\n"]
    assert not [c for c in text if 0x7F <= ord(c) <= 0x9F or 0xD800 <= ord(c) <= 0xDFFF]
    assert "\\x1b[31m" in text  # shown, escaped
    text.encode("utf-8")  # no lone surrogate left
    root = ET.fromstring(junit_report(run).encode("utf-8"))  # well formed
    messages = [node.get("message") for tag in ("failure", "error") for node in root.iter(tag)]
    assert len(messages) == 3 and not any("\n" in m for m in messages)  # one line each
    written = json_text(json_report(run))
    written.encode("utf-8")
    report = json.loads(written, parse_constant=_no_constant)
    errors = list(validator("report").iter_errors(report))
    assert not errors, errors[0].message
    assert report["results"][0]["failure"]["expected"]["n"] == "NaN"
    assert report["results"][0]["failure"]["got"][:2] == ["Infinity", "-Infinity"]
    assert report["results"][0]["title"] == "title " + HOSTILE  # kept exactly, escaped only in the JSON text


def test_hostile_answers_through_a_real_run_give_valid_escaped_reports(scenarios, tmp_path):
    run = run_check(impl="python:hostile_answers:Answers", scenarios=scenarios)
    assert run.count("failed") >= len(STRUCK)  # every scenario with an action
    text = text_report(run, verbose=True)
    assert not [c for c in text if ord(c) < 0x20 and c != "\n"] and "\\x1b]0;owned\\x07" in text
    text.encode("utf-8")
    ET.fromstring(junit_report(run).encode("utf-8"))
    report = json.loads(json_text(json_report(run)), parse_constant=_no_constant)
    errors = list(validator("report").iter_errors(report))
    assert not errors, errors[0].message
    assert any(d["implementation"] == [HOSTILE_ANSWER]
               for r in report["results"] for d in r.get("divergence", {}).get("differences", []))


def test_a_hostile_handshake_failure_is_one_escaped_line():
    with pytest.raises(ConquianError) as info:
        run_check(impl="python:hostile_answers:Handshake", scenarios=[scenario(UNTOUCHED)])
    message = str(info.value)
    assert "failed the handshake" in message and "\\x1b]0;owned\\x07" in message
    assert not [c for c in message if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or 0xD800 <= ord(c) <= 0xDFFF]


# -- the command line ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory, scenarios) -> Path:
    import shutil

    root = tmp_path_factory.mktemp("corpus")
    for s in scenarios:
        target = root / s.path.relative_to(corpus_dir())
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(s.path, target)
    return root


def cli_run(capsys, *argv: str) -> tuple[int, str, str]:
    from conquian_ref import cli

    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("extra, wording", [
    (("--profile", "typo-of-a-profile"), "no scenario selected: no scenario of profile 'typo-of-a-profile'"),
    (("-k", "matches-nothing"), "no scenario selected: -k matches-nothing matches no scenario"),
])
def test_cli_nothing_selected_exits_2_with_one_line(extra, wording, small_corpus, capsys):
    status, out, err = cli_run(capsys, "check", "--corpus", str(small_corpus), *extra)
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith(f"conquian-ref: error: {wording}")


def test_cli_max_failures_and_several_impls(small_corpus, scenarios, capsys):
    status, out, _ = cli_run(capsys, "check", "--corpus", str(small_corpus), "--impl", AUTO_TAKE, "--max-failures", "1")
    assert status == 1
    assert re.fullmatch(r"\d passed, 1 failed, 0 errored, 0 xfailed, 0 skipped, \d+ not run", out.splitlines()[-1])
    status, out, _ = cli_run(capsys, "check", "--corpus", str(small_corpus), "--impl", "reference", "--impl", AUTO_TAKE)
    assert status == 1
    rows = [line for line in out.splitlines() if line.startswith("| tc-")]
    assert len(rows) == len(scenarios)
    assert out.splitlines()[-2:] == [f"reference: {len(scenarios)} passed, 0 failed, 0 errored, 0 xfailed, 0 skipped",
                                     f"{AUTO_TAKE}: 1 passed, {len(scenarios) - 1} failed, 0 errored, 0 xfailed, 0 skipped"]
    status, out, err = cli_run(capsys, "check", "--corpus", str(small_corpus), "--impl", "reference", "--impl", AUTO_TAKE, "--json", "x.json")
    assert status == 2 and "take a single --impl" in err


def test_a_divergence_at_a_step_without_action_names_its_request():
    s = scenario("tc-0011")
    first = next(i for i, step in enumerate(s.steps, 1) if "legal" in (step.get("check") or {}))
    assert "action" not in s.steps[first - 1]  # the premise: the first legal check has no action
    (result,) = run_check(impl="python:short_legal:Adapter", scenarios=[s]).results
    assert result.status == "failed" and result.failure.field == "check.legal"
    d = result.divergence
    assert (d.step, d.request, d.kind, d.keys) == (first, "legal", "legal", ("legal",))
    assert d.action is None and str(d.cause) == "C-TURN-1: unexplained (legal: legal)"


def test_the_automatic_take_is_one_cause_named_by_its_house_rule_and_its_rule(scenarios):
    """With the house-rule library as hypotheses (what `check` passes), every scenario the
    automatic take strikes has ONE cause: C-TURN-1, explained by the house rule automatic-take;
    the report's first screen says so in one line."""
    from conquian_ref.tools.mutants import house_rules

    run = run_check(impl=AUTO_TAKE, scenarios=scenarios, hypotheses=house_rules())
    failing = [r for r in run.results if r.counts_as_failure]
    assert {r.scenario.id for r in failing} == set(STRUCK)
    assert {r.cause for r in failing} == {Cause("C-TURN-1", "automatic-take")}
    report = text_report(run)
    assert "Your engine departs from the reference in 1 way:" in report
    line = next(line for line in report.splitlines() if line.startswith("  1. "))
    assert "C-TURN-1" in line and "house rule automatic-take" in line and f"{len(STRUCK)} scenarios" in line
    (cause,) = json_report(run)["causes"]
    assert (cause["rule"], cause["house_rule"], cause["scenarios"]) == ("C-TURN-1", "automatic-take", [r.scenario.id for r in failing])


def test_without_setup_position_one_line_says_how_many_scenarios_stopped_at_their_first_divergence():
    # issue 21, item 3: what an engine that cannot be put at a position misses, and what to declare
    without = run_check(impl="python:auto_take:WithoutPositions", profile="anglo-american-v1", hypotheses=())
    stopped = [r for r in without.results if r.counts_as_failure and r.divergence.step < len(r.scenario.data["steps"])]
    assert stopped and all(not r.divergence.later for r in without.results if r.divergence is not None)
    line = f"  {len(stopped)} failing scenarios stopped at their first divergence with steps left: declare the setup_position capability"
    assert any(l.startswith(line) for l in text_report(without).splitlines())
    with_positions = run_check(impl=AUTO_TAKE, profile="anglo-american-v1", hypotheses=())
    assert "declare the setup_position capability" not in text_report(with_positions)
