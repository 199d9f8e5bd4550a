"""The fuzzer reads an adapter's answers as bytes first (tools/fuzz/lockstep.py, `_expected`;
conformance/client.py, `read_ahead`; conformance/transport.py, `read_expected`).

* The reference adapter writes, byte for byte, the answer lines the fuzzer expects, on every
  profile: the common case needs no parsing.
* Answers in other bytes are read and judged as before: a correct adapter that spells them
  otherwise never diverges (and the fuzzer stops trying bytes with it); a wrong one served as a
  process is found exactly as the same adapter in-process, where no bytes are compared.
* The transport hands whatever did not match to the line reader, and after a timeout the next
  answer is late at once (the wait is not paid twice).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from conquian_ref.conformance.client import Connection
from conquian_ref.conformance.transport import AdapterProcess
from conquian_ref.spec.profiles import PROFILE_IDS, load_profile
from conquian_ref.tools.fuzz import run_fuzz
from conquian_ref.tools.fuzz.report import fuzz_json

REPO = Path(__file__).resolve().parents[1]
ADAPTERS = REPO / "tests" / "adapters"
MUTANTS = REPO / "tests" / "fuzz_adapters"
PYTHON = shlex.quote(sys.executable)


def quiet(line: str) -> None:
    pass


@pytest.fixture
def counted(monkeypatch):
    """Counts the games whose answers were the bytes expected (read_ahead gave None) and the others."""
    counts = {"bytes": 0, "parsed": 0}
    plain = Connection.read_ahead

    def read_ahead(self, ahead, expected=None):
        answers = plain(self, ahead, expected)
        counts["bytes" if answers is None else "parsed"] += 1
        return answers

    monkeypatch.setattr(Connection, "read_ahead", read_ahead)
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    return counts


def test_the_reference_adapter_writes_the_bytes_the_fuzzer_expects_on_every_profile(counted, tmp_path):
    run = run_fuzz(impl=f"{PYTHON} -m conquian_ref.adapter", games=5, seed=3, out=tmp_path, echo=quiet)
    assert run.divergences == 0 and run.games == 5 * len(PROFILE_IDS)
    assert counted == {"bytes": run.games, "parsed": 0}


def test_a_correct_adapter_in_other_bytes_never_diverges_and_bytes_are_no_longer_tried(counted, tmp_path, monkeypatch):
    # padded.py adds a key to every state answer (allowed): each game's bytes differ at its end.
    monkeypatch.setenv("PYTHONPATH", f"{REPO}:{ADAPTERS}")
    run = run_fuzz(impl=f"{PYTHON} {ADAPTERS / 'padded.py'}", profile="anglo-american-v1", games=6, seed=3, out=tmp_path, echo=quiet)
    assert run.divergences == 0 and run.games == 6
    assert counted == {"bytes": 0, "parsed": 6}


def _served(mutant: str) -> str:
    """A fuzz_mutants adapter served as a process (the reference adapter's loop, with its class)."""
    code = (f"import sys; sys.path.insert(0, {str(MUTANTS)!r}); import fuzz_mutants; from conquian_ref.conformance import adapter; "
            f"adapter.ReferenceAdapter = fuzz_mutants.{mutant}; sys.exit(adapter.serve())")
    return f"{PYTHON} -c {shlex.quote(code)}"


# LatePassRefused diverges in every game; RenamedRefusals in some (the others are read as bytes)
@pytest.mark.parametrize("mutant, some_games_agree", [("LatePassRefused", False), ("RenamedRefusals", True)])
def test_a_wrong_adapter_as_a_process_is_found_as_it_is_in_process(mutant, some_games_agree, counted, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(MUTANTS))
    found = {}
    for impl in (_served(mutant), f"python:fuzz_mutants:{mutant}"):
        run = run_fuzz(impl=impl, profile="anglo-american-v1", games=20, seed=1, out=tmp_path / str(len(found)), causes=50,
                       shrink_seconds=0, echo=quiet)
        report = fuzz_json(run)
        found[impl] = {key: report[key] for key in ("games", "actions", "divergences", "counts", "replays")}
        found[impl]["causes"] = [(c["cause"], c["game"], c["shrunk"]) for c in report["new_causes"]]
    process, direct = found.values()
    assert process["divergences"] > 0 and process == direct
    assert (counted["bytes"] > 0) == some_games_agree


def test_the_transport_hands_what_differs_to_the_line_reader():
    lines = b'{"seq":1,"ok":true}\n{"seq":2,"result":"refused"}\n'
    process = AdapterProcess(f"printf '{lines.decode()}'; sleep 30")
    try:
        assert not process.read_expected(b'{"seq":1,"ok":true}\n{"seq":2,"result":"accepted"}\n', 30)
        assert process.read_answer("setup", 30) == {"seq": 1, "ok": True}
        assert process.read_answer("apply", 30) == {"seq": 2, "result": "refused"}
    finally:
        process.kill()
    process = AdapterProcess(f"printf '{lines.decode()}'; sleep 30")
    try:
        assert process.read_expected(lines, 30)
        assert not process.read_expected(b"x", 0.2)  # nothing more comes: a timeout
        # ... and the answer it waited for is late at once (with a timeout, 30 s, the test would notice)
        assert process.read_line(30) == ("timeout", b"")
    finally:
        process.kill()


def test_a_batch_the_fuzzer_did_not_send_ahead_is_read_as_before(tmp_path, counted):
    # every step checked: the batch is larger than a pipe holds, sent and read by request_many
    profile = load_profile("anglo-american-v1")
    run = run_fuzz(impl=f"{PYTHON} -m conquian_ref.adapter", profile=profile.id, games=2, seed=12, out=tmp_path, every_step=True,
                   echo=quiet)
    assert run.divergences == 0 and counted["bytes"] == 0


def test_the_requests_written_from_the_fuzzers_own_text_are_the_connections_bytes(tmp_path, monkeypatch):
    """Lockstep._texts writes each request's fields itself (an action's text once per run): the
    bytes sent are the ones the connection writes from the fields."""
    from conquian_ref.conformance.transport import AdapterProcess
    from conquian_ref.tools.fuzz.lockstep import Lockstep

    monkeypatch.setenv("PYTHONPATH", str(REPO))
    plain_send, plain_texts = AdapterProcess.send, Lockstep._texts
    written: list[bytes] = []

    def send(self, data, cmd="", timeout=10.0):
        written.append(data)
        return plain_send(self, data, cmd, timeout)

    monkeypatch.setattr(AdapterProcess, "send", send)
    runs = []
    without_members = lambda self, pairs, steps, profile: (None, plain_texts(self, pairs, steps, profile)[1])  # noqa: E731
    for texts in (plain_texts, without_members):
        monkeypatch.setattr(Lockstep, "_texts", texts)
        written.clear()
        run_fuzz(impl=f"{PYTHON} -m conquian_ref.adapter", games=3, seed=5, out=tmp_path, echo=quiet)
        runs.append(list(written))
    assert runs[0] == runs[1] and len(runs[0]) > 3 * len(PROFILE_IDS)


def test_a_game_prepared_before_a_restart_is_sent_as_the_capabilities_declared_after_it(monkeypatch):
    """A campaign prepares game g + 1 before it finishes game g, which may restart the adapter:
    the requests sent follow the capabilities the adapter declares when they are sent."""
    import random

    from conquian_ref.tools.fuzz.agent import AgentSource
    from conquian_ref.tools.fuzz.lockstep import Lockstep, plan

    monkeypatch.setenv("PYTHONPATH", str(REPO))
    profile = load_profile("anglo-american-v1")
    conn = Connection(f"{PYTHON} -m conquian_ref.adapter")
    conn.start()
    try:
        lockstep = Lockstep(conn)
        declared = set(lockstep.caps)
        lockstep.caps = declared - {"setup_deck"}  # as declared before a restart: deals are set up by hands
        deck = profile.deck.shuffled(3)
        game = plan(profile, deck, 0, AgentSource(random.Random(3)), False, lockstep.caps, ())
        ready = lockstep.prepare(profile, deck, 0, game, [])
        assert "hands" in ready.requests[0][1]
        lockstep.caps = declared  # and after it
        sent = lockstep.send(ready)
        assert "deck" in sent.requests[0][1] and "hands" not in sent.requests[0][1]
        trace = lockstep.finish(sent)
        assert trace.divergence is None and trace.applied == len(game.steps) > 0
    finally:
        conn.close()
