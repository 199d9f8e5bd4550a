"""The runner against nasty adapters:
every hostile answer shape is an errored result against its scenario, never a traceback; a
handshake that cannot begin a run is one line; a child holding the pipes, a child in a new
session, an adapter that stops reading and one that answers slowly all end in bounded time.

The adapter is tests/adapters/nasty.py, one mode per case. Each run is one or two scenarios
with short timeouts; the time bounds are generous (they catch a hang, not a slow machine)."""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conquian_ref.cli import main
from conquian_ref.conformance.check import run_check
from conquian_ref.conformance.failures import AdapterFailure
from conquian_ref.conformance.reports import json_report, text_report
from conquian_ref.conformance.transport import AdapterProcess
from conquian_ref.engine.errors import ConquianError
from conquian_ref.spec.scenario import load_scenario

REPO = Path(__file__).resolve().parents[1]
NASTY = REPO / "tests" / "adapters" / "nasty.py"
BOUND = 30.0  # seconds: a run over this is a hang, not a slow machine


def scenario(sid: str):
    (path,) = sorted((REPO / "scenarios").glob(f"*/*/{sid}-*.yaml"))
    return load_scenario(path)


DEAL = "tc-0004"  # a deal from a deck order
PERFT = "tc-0006"  # checks perft
LEGAL = "tc-0059"  # checks legal actions


def nasty(mode: str, *args: str) -> str:
    return " ".join(shlex.quote(a) for a in (sys.executable, str(NASTY), mode, *args))


def timed_run(mode: str, ids: list[str], extra=(), **options):
    started = time.monotonic()
    run = run_check(impl=nasty(mode, *extra), scenarios=[scenario(sid) for sid in ids], timeout=options.pop("timeout", 5), **options)
    return run, time.monotonic() - started


# mode -> (scenario, failure kind, words of the one-line message)
ANSWER_MODES = {
    "nested": (DEAL, "garbage", "nested too deeply"),
    "huge_int": (DEAL, "garbage", "not JSON the runner reads"),
    "nan": (DEAL, "garbage", "NaN is not JSON"),
    "surrogate": (DEAL, "garbage", "lone surrogate"),
    "counts_int": (PERFT, "bad_answer", "'counts' is 7, not a list of integers"),
    "actions_string": (LEGAL, "bad_answer", "'actions' is \"pass\", not a list of action objects"),
    "actions_ints": (LEGAL, "bad_answer", "'actions' is [1, 2, 3], not a list of action objects"),
    "setup_not_ok": (DEAL, "bad_answer", "'ok' is false, not true"),
    "result_list": (LEGAL, "bad_answer", "'result' is [\"accepted\"], not 'accepted' or 'refused'"),
    "escapes": (DEAL, "crash", "the adapter exited with status 3"),
}


def concurrently(fn, items) -> dict:
    """{item: fn(item)}, the calls made in threads (each run waits on its own adapter process)."""
    with ThreadPoolExecutor(max_workers=len(items)) as pool:
        return dict(zip(items, pool.map(fn, items)))


@pytest.fixture(scope="module")
def answer_runs() -> dict:
    return concurrently(lambda mode: timed_run(mode, [ANSWER_MODES[mode][0]]), list(ANSWER_MODES))


@pytest.mark.parametrize("mode", ANSWER_MODES)
def test_an_answer_of_the_wrong_shape_is_an_errored_result(mode, answer_runs):
    sid, kind, words = ANSWER_MODES[mode]
    run, seconds = answer_runs[mode]
    assert seconds < BOUND
    (result,) = run.results
    assert result.status == "errored" and result.adapter.kind == kind, result
    assert words in result.adapter.message and "\n" not in result.adapter.message
    assert not run.ok
    # The reports hold it: strict JSON, and a text report naming the scenario.
    json.dumps(json_report(run), allow_nan=False)
    assert sid in text_report(run)


def test_no_control_character_from_the_adapter_is_kept_raw(answer_runs):
    run, _ = answer_runs["escapes"]
    stderr, name = run.results[0].adapter.stderr, run.handshake.name
    assert "a crash" in stderr and "\\x1b]0;owned\\x07" in stderr
    assert not any(c in stderr + name for c in "\x1b\x07\x00")
    assert name.startswith("\\x1b]0;owned\\x07\\x1b[2Jengine")


def test_an_errored_scenario_names_its_step_and_line(answer_runs):
    run, _ = answer_runs["counts_int"]
    failure = run.results[0].adapter
    s = scenario(PERFT)
    at = next(i for i, step in enumerate(s.steps) if "perft" in step.get("check", {}))
    assert failure.step == at + 1  # 1-based
    assert failure.line == s.line("steps", at)
    assert s.path.read_text(encoding="utf-8").splitlines()[failure.line - 1].lstrip().startswith("-")


def test_a_setup_failure_names_the_setup_line(answer_runs):
    run, _ = answer_runs["setup_not_ok"]
    failure = run.results[0].adapter
    s = scenario(DEAL)
    assert failure.step is None and failure.line == s.line("setup")


# mode -> words of the one line
HANDSHAKE_MODES = {
    "profiles_int": "'profiles' is 5, not a list of profile ids",
    "caps_unhashable": "'capabilities' is [[\"state\"]",
    "impl_string": "'implementation' is \"mine\", not an object",
    "impl_null": "'implementation' is null, not an object",
    "version2": "it declares protocol version 2; the runner speaks 1",
    "no_state": "it lacks the required capability 'state'",
    "no_setup": "it declares neither setup capability",
    "unknown_profile": "it declares unknown profile(s) anglo-american",
    "name_surrogate": "lone surrogate",
}


def _handshake_error(mode: str) -> tuple[object, float]:
    started = time.monotonic()
    try:
        run_check(impl=nasty(mode), scenarios=[scenario(DEAL)], timeout=5)
    except ConquianError as exc:
        return exc, time.monotonic() - started
    return None, time.monotonic() - started


@pytest.fixture(scope="module")
def handshake_errors() -> dict:
    return concurrently(_handshake_error, list(HANDSHAKE_MODES))


@pytest.mark.parametrize("mode", HANDSHAKE_MODES)
def test_a_handshake_that_cannot_begin_a_run_is_one_line(mode, handshake_errors):
    error, seconds = handshake_errors[mode]
    assert seconds < BOUND and error is not None, "the run began"
    text = str(error)
    assert "failed the handshake" in text and HANDSHAKE_MODES[mode] in text and "\n" not in text


def test_a_version_2_handshake_fails_the_command(tmp_path, capsys):
    s = scenario(DEAL)
    corpus = tmp_path / s.profile
    corpus.mkdir()
    (corpus / s.path.name).write_text(s.path.read_text(encoding="utf-8"), encoding="utf-8")
    status = main(["check", "--impl", nasty("version2"), "--corpus", str(tmp_path), "--timeout", "5"])
    err = capsys.readouterr().err
    assert status != 0 and "Traceback" not in err
    assert err.count("\n") == 1 and "protocol version 2" in err


@pytest.fixture(scope="module")
def child_runs(tmp_path_factory) -> dict:
    """The runs of the two modes whose adapter leaves a child behind, made together."""
    pidfile = tmp_path_factory.mktemp("setsid") / "child.pid"
    runs = concurrently(lambda args: timed_run(*args[:1], [DEAL], timeout=3, extra=args[1:]), [("orphan",), ("setsid", str(pidfile))])
    return {args[0]: run for args, run in runs.items()} | {"pidfile": pidfile}


def test_a_child_holding_stdout_does_not_hold_the_run(child_runs):
    run, seconds = child_runs["orphan"]
    assert seconds < BOUND
    assert run.results[0].status == "errored" and run.results[0].adapter.kind == "timeout"


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie is dead, waiting for init to reap it


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="finding pipe holders needs /proc")
def test_a_child_in_a_new_session_does_not_survive_the_run(child_runs):
    run, _ = child_runs["setsid"]
    assert run.results[0].status == "errored"
    pid = int(child_runs["pidfile"].read_text())
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid)


def test_a_write_to_an_adapter_that_stopped_reading_times_out():
    process = AdapterProcess("sleep 30")
    try:
        started = time.monotonic()
        with pytest.raises(AdapterFailure) as caught:
            process.send(b"x" * (4 << 20), "setup", timeout=1)  # far more than a pipe holds
        assert caught.value.kind == "timeout" and time.monotonic() - started < BOUND
    finally:
        process.kill()


def test_a_slow_adapter_is_ended_by_the_run_deadline():
    ids = [DEAL, PERFT, LEGAL, "tc-0005", "tc-0001"]
    run, seconds = timed_run("slow", ids, deadline=2)
    assert seconds < BOUND
    assert "deadline" in run.stopped_early and "\n" not in run.stopped_early
    assert not run.ok and len(run.results) == len(ids)  # every selected scenario is reported
    not_run = [r for r in run.results if r.status == "not_run"]
    assert not_run and {r.reason for r in not_run} == {"not run: the run deadline passed"}


def test_the_default_deadline_is_proportionate_to_the_corpus():
    from conquian_ref.conformance.client import default_deadline

    assert default_deadline(10) < default_deadline(100) and default_deadline(0) > 0


def _no_constant(name: str):
    raise ValueError(f"{name} is not strict JSON")


def test_an_all_hostile_adapter_run_ends_within_its_deadline_with_valid_reports(tmp_path):
    # The whole case end to end: a run against an adapter whose every answer is hostile, through the
    # command line as a user runs it, ends within its deadline, and both reports are valid.
    import subprocess
    import xml.etree.ElementTree as ET

    from conquian_ref.spec.schemas import validator

    corpus = tmp_path / "corpus"
    for sid in (DEAL, PERFT, LEGAL, "tc-0005", "tc-0001", "tc-0013"):
        s = scenario(sid)
        (corpus / s.profile).mkdir(parents=True, exist_ok=True)
        (corpus / s.profile / s.path.name).write_text(s.path.read_text(encoding="utf-8"), encoding="utf-8")
    report, junit = tmp_path / "report.json", tmp_path / "junit.xml"
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "conquian_ref", "check", "--impl", nasty("every"), "--corpus", str(corpus),
         "--timeout", "3", "--deadline", "20", "--max-failures", "0", "--json", str(report), "--junit", str(junit)],
        capture_output=True, text=True, timeout=BOUND + 30, cwd=REPO,
    )
    assert time.monotonic() - started < BOUND
    assert done.returncode == 1 and "Traceback" not in done.stderr
    shown = done.stdout + done.stderr
    assert not [c for c in shown if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F]
    data = json.loads(report.read_text(encoding="utf-8"), parse_constant=_no_constant)
    assert not list(validator("report").iter_errors(data))
    assert len(data["results"]) == 6 and {r["status"] for r in data["results"]} <= {"errored", "failed", "not_run"}
    ET.fromstring(junit.read_bytes())


def test_ending_one_adapter_spares_another_connections_adapter_holding_its_pipe():
    # Runs in threads (as this file's fixtures make them) start adapters while another adapter is
    # killed: a child of this process caught between fork and exec holds every pipe open here.
    # The pipe-holder sweep of kill() must end the adapter's own escaped children, never a child
    # of the runner itself (the bug: a concurrent run's fresh adapter was killed at its start).
    import subprocess

    ended = AdapterProcess(f"{shlex.quote(sys.executable)} -c 'import time; time.sleep(30)'")
    other = subprocess.Popen(["sleep", "30"], pass_fds=(ended._out,))  # ours, holding its stdout pipe
    try:
        ended.kill()
        assert other.poll() is None, "a child of the runner was killed"
        assert ended.proc.poll() is not None
    finally:
        other.kill()
        other.wait()
