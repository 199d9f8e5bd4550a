"""`conquian-ref check` against deliberately faulty adapters (tests/adapters/*.py).

Each faulty adapter wraps the reference adapter and misbehaves in one way (see the docstring of
tests/adapters/_faulty.py for the options). The runner must report the failure kind against
the scenario where it happened, with the adapter's stderr, restart the adapter and go on; stop
early with one message when the same failure repeats in 5 scenarios in a row; refuse a failed
handshake with one line; and always finish in bounded time. The reports (JSON, JUnit) and the
known-failures file are checked on the same runs.

The corpus is a copy of 8 scenarios of the bundled one (torno-cisneros-v1) in a temporary
folder, parsed once; the adapters that hang get a 1.5 s timeout and their runs are made
concurrently, so the whole file runs in well under a minute.

The runner bugs these tests found (the stop-early streak, stderr tails read too early, reader
threads dying noisily on kill, a crash on unexpected passes, in-process exceptions escaping)
are fixed; each test pins its fix.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations
from pathlib import Path

import pytest

from conquian_ref.conformance.check import STOP_AFTER, needs, run_check
from conquian_ref.engine.errors import ConquianError
from conquian_ref.spec.known import load_known_failures
from conquian_ref.conformance.reports import json_report, junit_report, text_report
from conquian_ref.spec.scenario import load_corpus
from conquian_ref.spec.schemas import validator

# The runner's pipe readers die noisily when a restart closes their pipes (see
# test_restarts_leave_no_reader_thread_tracebacks): keep that out of the other tests' output.
pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")

REPO = Path(__file__).resolve().parents[1]
ADAPTERS = REPO / "tests" / "adapters"
# Per-message timeouts: small for the adapters that hang (each of their failures costs one), and
# comfortable for the others, whose answers come at once (so a loaded machine cannot make them
# time out; the handshake of each restart waits at least client.START_TIMEOUT).
HANG_TIMEOUT = 3.0  # long enough for a restarted adapter to start on a loaded machine
TIMEOUT = 10.0
BOUND = 40.0  # seconds: no single run may take longer (a generous bound, not a timing claim)

# Sorted by path these run in the order tc-0004, tc-0005 (deal/), tc-0001, tc-0003 (deck/),
# tc-0009, tc-0013, tc-0015, tc-0016 (exchange/). tc-0003 and tc-0013 check legal actions;
# tc-0013, tc-0015 and tc-0016 expect refusals.
IDS = ["tc-0004", "tc-0005", "tc-0001", "tc-0003", "tc-0009", "tc-0013", "tc-0015", "tc-0016"]
NEEDS_LEGAL = {"tc-0003", "tc-0013"}
REFUSING = {"tc-0013", "tc-0015", "tc-0016"}


# -- fixtures and helpers ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("corpus")
    source = REPO / "scenarios"
    for sid in IDS:
        found = sorted(source.rglob(f"{sid}-*.yaml"))
        assert len(found) == 1, f"expected one file for {sid} in {source}, found {found}"
        target = root / found[0].relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(found[0], target)
    return root


@pytest.fixture(scope="module", autouse=True)
def corpus_loaded_once():
    """Every run_check of this file reads the same small corpus: parse it once (not under test here)."""
    import conquian_ref.conformance.check

    cache: dict = {}
    real = conquian_ref.conformance.check.load_corpus

    def cached(paths):
        key = tuple(str(p) for p in paths)
        if key not in cache:
            cache[key] = real(paths)
        return cache[key]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(conquian_ref.conformance.check, "load_corpus", cached)
        yield


@pytest.fixture(scope="module")
def order(corpus) -> list[str]:
    """Scenario ids in the order the runner runs them."""
    scenarios, problems = load_corpus([corpus])
    assert not problems, problems
    ids = [s.id for s in scenarios]
    assert sorted(ids) == sorted(IDS)
    # What the tests below rely on; if the corpus changed, pick other scenarios for IDS.
    assert {s.id for s in scenarios if "legal_actions" in needs(s)} == NEEDS_LEGAL
    assert {s.id for s in scenarios if any(isinstance(st.get("expect"), dict) for st in s.steps)} == REFUSING
    assert all(needs(s) <= {"state", "legal_actions"} for s in scenarios)
    return ids


def impl(name: str, *args: str) -> str:
    """The --impl command of tests/adapters/<name>.py with options."""
    return " ".join(shlex.quote(a) for a in (sys.executable, str(ADAPTERS / f"{name}.py"), *args))


def bounded(fn, limit: float = BOUND):
    """Run fn() in a thread; fail (instead of hanging the suite) if it takes over `limit` s."""
    box: dict = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as exc:  # re-raised in the test's thread
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(limit)
    assert not thread.is_alive(), f"the run did not finish within {limit:g} s"
    if "error" in box:
        raise box["error"]
    return box["value"]


def check(adapter: str, corpus: Path, *args: str, timeout: float = TIMEOUT, **kwargs):
    return bounded(lambda: run_check(impl=impl(adapter, *args), corpus=corpus, timeout=timeout, **kwargs))


# The adapters that hang spend their runs waiting for timeouts: their runs (one-off and
# persistent) are made concurrently, once, to keep the file fast.
HANGING = ("hang", "partial_hang")
ONE_OFF_ARGS = ("--setup", "3")  # the fault strikes in the third scenario


@pytest.fixture(scope="module")
def hanging_runs(corpus, tmp_path_factory) -> dict:
    markers = tmp_path_factory.mktemp("markers")
    jobs = {}
    for adapter in HANGING:
        jobs[(adapter, "persistent")] = ()
        jobs[(adapter, "one-off")] = (*ONE_OFF_ARGS, "--once", str(markers / adapter))
    with ThreadPoolExecutor(len(jobs)) as pool:
        futures = {key: pool.submit(check, key[0], corpus, *args, timeout=HANG_TIMEOUT) for key, args in jobs.items()}
        return {key: future.result() for key, future in futures.items()}


def faulty_run(request, adapter: str, mode: str, corpus: Path, tmp_path: Path):
    if adapter in HANGING:
        return request.getfixturevalue("hanging_runs")[(adapter, mode)]
    args = (*ONE_OFF_ARGS, "--once", str(tmp_path / "struck")) if mode == "one-off" else ()
    return check(adapter, corpus, *args)


def by_id(run) -> dict:
    return {r.scenario.id: r for r in run.results}


def statuses(run) -> dict[str, str]:
    return {r.scenario.id: r.status for r in run.results}


# -- the baseline ----------------------------------------------------------------------------------
def test_reference_adapter_as_a_process_passes_the_small_corpus(corpus, order):
    run = bounded(lambda: run_check(impl=f"{shlex.quote(sys.executable)} -m conquian_ref.conformance.adapter", corpus=corpus, timeout=5))
    assert statuses(run) == dict.fromkeys(order, "passed")
    assert run.ok and not run.stopped_early


# -- one-off faults: reported against the right scenario, then the run goes on -----------------
# (adapter, the kind the runner reports, a line the report must show from the adapter's stderr)
ONE_OFF = [
    ("crash", "crash", None),
    ("hang", "timeout", None),
    ("garbage", "garbage", None),
    ("partial_exit", "partial", None),
    ("partial_hang", "timeout", None),  # no complete line: a timeout, not `partial`
    ("wrong_seq", "wrong_seq", None),
    ("too_large", "too_large", None),
    ("bad_answer", "bad_answer", None),
    ("stderr_crash", "crash", "engine: assertion failed: stock is empty in deal()"),
]


@pytest.mark.parametrize("adapter, kind, stderr_line", ONE_OFF, ids=[a for a, _, _ in ONE_OFF])
def test_one_off_fault_is_reported_and_the_run_goes_on(adapter, kind, stderr_line, corpus, order, tmp_path, request):
    # The fault strikes once, in the third scenario; the adapter is restarted and the others pass.
    run = faulty_run(request, adapter, "one-off", corpus, tmp_path)
    target = order[2]
    assert statuses(run) == {sid: ("errored" if sid == target else "passed") for sid in order}, run.stopped_early
    result = by_id(run)[target]
    assert result.adapter.kind == kind, result.adapter
    assert result.failure is None
    assert not run.stopped_early and not run.ok
    report = text_report(run)
    assert f"ERRORED {target}" in report
    assert f"adapter {kind}: " in report
    if stderr_line:
        assert stderr_line in result.adapter.stderr
        assert "adapter stderr (last lines):" in report and stderr_line in report


# -- persistent faults: the same failure 5 times in a row stops the run ---------------------------
PERSISTENT = [
    pytest.param("crash", "crash", id="crash"),
    pytest.param("hang", "timeout", id="hang"),
    pytest.param("garbage", "garbage", id="garbage"),
    pytest.param("partial_exit", "partial", id="partial_exit"),
    pytest.param("partial_hang", "timeout", id="partial_hang"),
    pytest.param("wrong_seq", "wrong_seq", id="wrong_seq"),
    pytest.param("too_large", "too_large", id="too_large"),
    pytest.param("bad_answer", "bad_answer", id="bad_answer"),
    pytest.param("stderr_crash", "crash", id="stderr_crash"),
]


@pytest.mark.parametrize("adapter, kind", PERSISTENT)
def test_persistent_fault_stops_the_run_early(adapter, kind, corpus, order, tmp_path, request):
    run = faulty_run(request, adapter, "persistent", corpus, tmp_path)
    # The first scenario gets the failure, with its kind ...
    first = run.results[0]
    assert first.scenario.id == order[0] and first.status == "errored" and first.adapter.kind == kind
    # ... and the run stops after STOP_AFTER identical failures, with one message.
    # The scenarios not reached are still in the results, as not run.
    assert [r.status for r in run.results] == ["errored"] * STOP_AFTER + ["not_run"] * (len(order) - STOP_AFTER), run.stopped_early
    assert {r.adapter.kind for r in run.results[:STOP_AFTER]} == {kind}
    assert {r.reason for r in run.results[STOP_AFTER:]} == {"not run: stopped early"}
    assert run.stopped_early.startswith("stopped early:") and "\n" not in run.stopped_early
    assert f"{STOP_AFTER} scenarios in a row" in run.stopped_early
    assert not run.ok
    assert text_report(run).count("stopped early") == 1


def test_skipped_scenarios_do_not_reset_the_stop_early_streak(corpus, order):
    # Without legal_actions, tc-0003 and tc-0013 are run with their legal checks skipped
    # (partial checking): they crash like the others.
    run = check("crash", corpus, "--drop", "legal_actions")
    assert not any(r.status == "skipped" for r in run.results)
    assert run.count("errored") == STOP_AFTER
    assert run.stopped_early


# -- a fault in one scenario only -------------------------------------------------------------------
def _distinguishing_cards(hands: dict[str, set], target: str) -> list[str]:
    """One or two cards of `target`'s seat-0 hand that no other seat-0 hand holds together."""
    others = [h for sid, h in hands.items() if sid != target]
    for size in (1, 2):
        for cards in combinations(sorted(hands[target]), size):
            if not any(set(cards) <= h for h in others):
                return list(cards)
    return []


def test_crash_on_one_deal_errors_that_scenario_only(corpus, order):
    # The adapter crashes on the setup whose seat-0 hand holds the cards given; pick them so that
    # this is one scenario in the middle of the run (deck setups reach it as a deck, not hands).
    scenarios = {s.id: s for s in load_corpus([corpus])[0]}
    hands = {sid: set(scenarios[sid].data["setup"].get("hands", [[]])[0]) for sid in order}
    target = next(sid for sid in order[1:-1] if hands[sid] and _distinguishing_cards(hands, sid))
    cards = _distinguishing_cards(hands, target)
    run = check("crash_on_card", corpus, *[arg for card in cards for arg in ("--card", card)])
    assert statuses(run) == {sid: ("errored" if sid == target else "passed") for sid in order}
    result = by_id(run)[target]
    assert result.adapter.kind == "crash" and "status 9" in result.adapter.message
    assert f"engine: cannot deal {' '.join(cards)} to seat 0" in result.adapter.stderr
    assert not run.stopped_early


# -- a rule deviation is a failure, not an error ----------------------------------------------------
def test_wrong_rule_answer_is_failed_not_errored(corpus, order):
    run = check("accept_all", corpus)
    assert statuses(run) == {sid: ("failed" if sid in REFUSING else "passed") for sid in order}
    for sid in REFUSING:
        result = by_id(run)[sid]
        assert result.adapter is None
        assert result.failure.field == "expect" and result.failure.got == "accepted"
        assert set(result.failure.expected) == {"refused"}
    assert not run.stopped_early and not run.ok
    report = text_report(run)
    assert "FAILED tc-0013" in report and "expected: {\"refused\": \"must_exchange\"}" in report


# -- the in-process (direct) mode ----------------------------------------------------------------------
def test_direct_adapter_that_raises_errors_one_scenario(corpus, order, monkeypatch):
    monkeypatch.syspath_prepend(str(ADAPTERS))
    import direct_raising

    monkeypatch.setitem(direct_raising.RAISES, "left", 1)
    run = bounded(lambda: run_check(impl="python:direct_raising:Adapter", corpus=corpus))
    assert statuses(run) == {sid: ("errored" if sid == order[0] else "passed") for sid in order}
    assert "engine bug: the deal lost a card" in run.results[0].adapter.message


# -- the handshake ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "mode",
    [
        "error",
        "exit",
        "multiline",
    ],
)
def test_failed_handshake_is_one_line_with_the_stderr_tail(mode, corpus):
    with pytest.raises(ConquianError) as info:
        check("bad_handshake", corpus, "--mode", mode)
    message = str(info.value)
    assert "\n" not in message
    assert "failed the handshake" in message
    assert "engine: no rule table for protocol version 1" in message


# -- the runner's own hygiene around crashes ---------------------------------------------------------
@pytest.fixture(scope="module")
def flood_run(corpus):
    """A verbose adapter that crashes in every scenario, and every exception of a thread during
    the run (the runner's pipe readers)."""
    crashed: list[str] = []
    saved = threading.excepthook
    threading.excepthook = lambda args: crashed.append(f"{args.exc_type.__name__}: {args.exc_value}")
    try:
        run = check("stderr_flood", corpus)
        time.sleep(0.5)  # let the reader threads of the last process finish
    finally:
        threading.excepthook = saved
    return run, crashed


def test_crash_report_keeps_the_last_stderr_line_of_a_verbose_adapter(flood_run):
    run, _ = flood_run
    ran = [r for r in run.results if r.status != "not_run"]
    assert ran and all(r.status == "errored" for r in ran)
    for result in ran:
        assert "engine: FATAL: the stock ran out in deal()" in result.adapter.stderr


def test_restarts_leave_no_reader_thread_tracebacks(flood_run):
    _, crashed = flood_run
    assert crashed == []


# -- known failures and reports --------------------------------------------------------------------------


def _known(tmp_path_factory, text: str) -> dict:
    path = tmp_path_factory.mktemp("known") / "known.yaml"
    path.write_text(text, encoding="utf-8")
    return load_known_failures(path)


@pytest.fixture(scope="module")
def mixed_run(corpus, tmp_path_factory):
    """passed, failed and xfail in one run: accept_all without legal_actions (tc-0003 and tc-0013
    run without their legal checks), tc-0015 (fails) listed as a known failure."""
    known = _known(tmp_path_factory, "- id: tc-0015\n  reason: 'house rule: a second exchange is allowed'\n")
    return check("accept_all", corpus, "--drop", "legal_actions", known=known)


@pytest.fixture(scope="module")
def xpass_run(corpus, tmp_path_factory):
    """The mixed run, with tc-0001 (which passes) listed as a known failure too."""
    known = _known(
        tmp_path_factory,
        "- id: tc-0015\n  reason: 'house rule: a second exchange is allowed'\n"
        "- id: tc-0001\n  reason: 'once failed, fixed since'\n  issue: https://example.org/issues/1\n",
    )
    return check("accept_all", corpus, "--drop", "legal_actions", known=known)


@pytest.fixture(scope="module")
def errored_run(corpus, tmp_path_factory):
    """One scenario errored (a one-off crash in the second), the others passed."""
    marker = tmp_path_factory.mktemp("marker") / "struck"
    return check("stderr_crash", corpus, "--setup", "2", "--once", str(marker))


def test_known_failure_that_fails_is_xfail(mixed_run):
    assert statuses(mixed_run) == {
        "tc-0004": "passed", "tc-0005": "passed", "tc-0001": "passed", "tc-0003": "passed",
        "tc-0009": "passed", "tc-0013": "failed", "tc-0015": "xfail", "tc-0016": "failed",
    }
    result = by_id(mixed_run)["tc-0015"]
    assert result.reason == "house rule: a second exchange is allowed"
    assert result.failure is not None and not result.counts_as_failure
    skipped = by_id(mixed_run)["tc-0003"].skipped_checks  # partial checking
    assert skipped and all("check.legal (needs capability legal_actions)" in line for line in skipped)
    assert not mixed_run.ok  # tc-0016 failed
    assert "xfail tc-0015: house rule: a second exchange is allowed" in text_report(mixed_run, verbose=True)


def test_known_failure_that_passes_is_xpass_and_fails_the_run(xpass_run):
    assert statuses(xpass_run)["tc-0001"] == "xpass"
    result = by_id(xpass_run)["tc-0001"]
    assert result.reason == "once failed, fixed since (https://example.org/issues/1)"
    assert result.counts_as_failure
    assert not xpass_run.ok
    assert "3 failed" in xpass_run.summary_line()  # tc-0013, tc-0016 and tc-0001


def test_known_failures_covering_every_failure_pass_the_run(corpus, tmp_path_factory):
    known = _known(tmp_path_factory, "".join(f"- id: {sid}\n  reason: accepts everything\n" for sid in sorted(REFUSING)))
    run = check("accept_all", corpus, known=known)
    assert {sid for sid, status in statuses(run).items() if status == "xfail"} == REFUSING
    assert run.ok


def test_text_report_of_an_unexpected_pass(xpass_run):
    report = text_report(xpass_run)
    assert "XPASS tc-0001" in report and "passed, but listed as a known failure" in report


def test_cli_reports_an_unexpected_pass_without_a_traceback(corpus, tmp_path):
    path = tmp_path / "known.yaml"
    path.write_text("- id: tc-0001\n  reason: a house rule\n", encoding="utf-8")
    done = _cli("check", "--corpus", str(corpus), "--known-failures", str(path), "-k", "tc-0001")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1 and "XPASS tc-0001" in done.stdout


REPORT_RUNS = ["mixed_run", "errored_run", "xpass_run"]


@pytest.mark.parametrize("run_name", ["mixed_run", "errored_run", "xpass_run"])
def test_json_report_validates_and_has_reproduce_commands(run_name, request):
    run = request.getfixturevalue(run_name)
    report = json.loads(json.dumps(json_report(run)))  # as written to disk
    errors = sorted(validator("report").iter_errors(report), key=lambda e: list(e.path))
    assert not errors, errors[0].message
    assert report["summary"] == {s: run.count(s) for s in ("passed", "failed", "errored", "skipped", "xfail", "xpass", "not_run")}
    assert report["ok"] is False
    for entry in report["results"]:
        if entry["status"] in ("failed", "errored", "xpass", "xfail"):
            command = shlex.split(entry["reproduce"])
            assert command[:2] == ["conquian-ref", "check"]
            assert command[command.index("--impl") + 1] == run.impl
            assert command[command.index("--corpus") + 1] == run.corpus
            assert command[command.index("-k") + 1] == entry["id"]
        else:
            assert "reproduce" not in entry
        if entry["status"] == "errored":
            assert entry["adapter_failure"]["kind"] == "crash"
            assert "engine: assertion failed" in entry["adapter_failure"]["stderr"]
        if entry["status"] in ("failed", "xfail"):
            assert entry["failure"]["field"] == "expect" and entry["failure"]["line"] > 0


def _cli(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "conquian_ref", *args], capture_output=True, text=True,
                          timeout=BOUND, env=env, cwd=cwd)


def test_reproduce_command_reruns_just_that_scenario(mixed_run, tmp_path):
    entry = next(e for e in json_report(mixed_run)["results"] if e["status"] == "failed")
    command = shlex.split(entry["reproduce"])
    assert command[:2] == ["conquian-ref", "check"]
    out = tmp_path / "again.json"
    done = _cli(*command[1:], "--timeout", "5", "--json", str(out))
    assert done.returncode == 1, done.stderr
    again = json.loads(out.read_text(encoding="utf-8"))
    assert [(r["id"], r["status"]) for r in again["results"]] == [(entry["id"], "failed")]


@pytest.mark.parametrize("run_name", REPORT_RUNS)
def test_junit_report_parses_with_the_right_counts(run_name, request):
    junitparser = pytest.importorskip("junitparser", reason="pip install junitparser (the test extra)")
    run = request.getfixturevalue(run_name)
    xml = junitparser.JUnitXml.fromstring(junit_report(run))
    suites = list(xml) if isinstance(xml, junitparser.JUnitXml) else [xml]
    assert [s.name for s in suites] == ["torno-cisneros-v1"]
    suite = suites[0]
    assert suite.tests == len(run.results)
    assert suite.failures == run.count("failed", "xpass")
    assert suite.errors == run.count("errored")
    assert suite.skipped == run.count("skipped", "xfail")
    seen = set()
    for case in suite:
        sid = case.name.split()[0]
        seen.add(sid)
        status = by_id(run)[sid].status
        expected = {"passed": set(), "failed": {"Failure"}, "xpass": {"Failure"}, "errored": {"Error"},
                    "skipped": {"Skipped"}, "xfail": {"Skipped"}}[status]
        kinds = {type(r).__name__ for r in case.result}
        assert kinds == expected, (sid, status, kinds)
        if status in ("failed", "xpass", "errored"):
            assert "reproduce: conquian-ref check --impl" in case.result[0].text
    assert seen == {r.scenario.id for r in run.results}


# -- malformed known-failures files --------------------------------------------------------------------
BAD_KNOWN = [
    ("missing-reason", "- id: tc-0001\n  reason: fine\n- id: tc-0003\n", 3),
    ("bad-id", "- id: tc-0001\n  reason: fine\n- id: TC-3\n  reason: a house rule\n", 3),
    ("not-yaml", "- id: tc-0001\n  reason: [unclosed\n", None),
    ("listed-twice", "- id: tc-0001\n  reason: one\n- id: tc-0001\n  reason: two\n", 3),
]


@pytest.mark.parametrize("text, line", [(t, n) for _, t, n in BAD_KNOWN], ids=[n for n, _, _ in BAD_KNOWN])
def test_malformed_known_failures_file_is_one_line_naming_file_and_line(text, line, tmp_path):
    path = tmp_path / "known.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConquianError) as info:
        load_known_failures(path)
    message = str(info.value)
    assert "\n" not in message
    found = re.match(re.escape(str(path)) + r":(\d+): ", message)
    assert found, message
    if line is not None:
        assert int(found.group(1)) == line, message


def test_malformed_known_failures_file_on_the_command_line(tmp_path):
    path = tmp_path / "known.yaml"
    path.write_text("- id: tc-0001\n", encoding="utf-8")
    done = _cli("check", "--known-failures", str(path), "-k", "tc-0001")
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"conquian-ref: error: {path}:1: "), done.stderr


def test_k_matches_the_path_within_the_corpus_not_the_folders_above_it(tmp_path):
    # A bug: `check -k h6` selected every scenario because the checkout lived in a folder of
    # that name. A pattern is matched against the id, the title and the file relative to the
    # corpus (from the profile's folder on), never against the folders above the corpus.
    from conquian_ref.conformance.check import corpus_path, select
    from conquian_ref.spec.scenario import corpus_dir, load_corpus

    source = corpus_dir() / "anglo-american-v1" / "deal"
    copy = tmp_path / "zz-checkout-h6" / "corpus" / "anglo-american-v1" / "deal"
    copy.mkdir(parents=True)
    for path in source.glob("*.yaml"):
        (copy / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    scenarios, problems = load_corpus([tmp_path / "zz-checkout-h6" / "corpus"])
    assert scenarios and not problems
    assert select(scenarios, None, ["zz-checkout"]) == []
    assert corpus_path(scenarios[0]).startswith("anglo-american-v1/deal/")
    assert select(scenarios, None, ["anglo-american-v1/deal"]) == scenarios
    assert [s.id for s in select(scenarios, None, ["aa-0004"])] == ["aa-0004"]


def test_one_escaper_for_reports_and_adapter_text():
    # reports.safe_text and transport.printable were two escapers with different sets (one let
    # tabs and lone surrogates through, the other U+FFFE and U+FFFF): one set now serves both.
    from conquian_ref.conformance import reports, transport

    assert reports.safe_text is transport.safe_text
    unsafe = "".join(map(chr, [*range(0x00, 0x0A), *range(0x0B, 0x20), *range(0x7F, 0xA0), 0xD800, 0xDFFF, 0xFFFE, 0xFFFF]))
    shown = transport.safe_text(unsafe + "\nkept é ✓")
    assert shown.endswith("\nkept é ✓") and shown.count("\n") == 1
    assert all(0x20 <= ord(c) < 0x7F for c in shown[: -len("\nkept é ✓")]), shown
    assert shown.startswith("\\x00\\x01") and "\\x09\\x0b" in shown and shown[: -len("\nkept é ✓")].endswith("\\ud800\\udfff\\ufffe\\uffff")
