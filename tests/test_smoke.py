"""`conquian-ref smoke --impl CMD`: the checklist of a new adapter's protocol
basics, against the reference adapter as a process (every item passes) and against a lax one
(tests/adapters/nasty.py lax: accepts any version, answers an unknown command as fine, dies on
a line that is not JSON), whose three faults are each named and fail the command."""

from __future__ import annotations

import shlex
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conquian_ref.cli import main
from conquian_ref.tools.smoke import CHECKS, checklist, run_smoke

NASTY = Path(__file__).resolve().parent / "adapters" / "nasty.py"
REFERENCE = f"{shlex.quote(sys.executable)} -m conquian_ref.adapter"
LAX = f"{shlex.quote(sys.executable)} {shlex.quote(str(NASTY))} lax"
ITEMS = [item for item, _, _ in CHECKS]


@pytest.fixture(scope="module")
def results() -> dict:
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(("reference", "lax"), pool.map(lambda cmd: run_smoke(cmd, timeout=10), (REFERENCE, LAX))))


def test_smoke_checks_the_six_items_in_order():
    assert ITEMS == ["handshake", "version refusal", "unknown command", "non-JSON line", "seq echo", "stop"]


def test_smoke_passes_the_reference_adapter(results):
    assert [(item, ok) for item, ok, _ in results["reference"]] == [(item, True) for item in ITEMS]
    text = checklist(REFERENCE, results["reference"])
    assert text.splitlines()[-1] == f"{len(ITEMS)} of {len(ITEMS)} passed"


def test_smoke_names_each_fault_of_a_lax_adapter(results):
    got = {item: (ok, detail) for item, ok, detail in results["lax"]}
    assert {item for item, (ok, _) in got.items() if not ok} == {"version refusal", "unknown command", "non-JSON line"}
    assert "start with version 999 was answered without an error" in got["version refusal"][1]
    assert "an unknown command was answered without an error" in got["unknown command"][1]
    assert got["non-JSON line"][1].startswith("crash: the adapter exited")
    assert "JSONDecodeError" in got["non-JSON line"][1]  # the adapter's last stderr line
    text = checklist(LAX, results["lax"])
    assert text.count("\n  FAIL  ") == 3 and text.splitlines()[-1].startswith(f"3 of {len(ITEMS)} passed")


def test_smoke_exits_non_zero_when_an_item_fails(capsys):
    # An adapter that cannot even start: every item fails, the command says so and exits 1.
    status = main(["smoke", "--impl", "exit 3", "--timeout", "5"])
    out = capsys.readouterr().out
    assert status == 1 and out.count("\n  FAIL  ") == len(ITEMS) and "Traceback" not in out


def test_smoke_refuses_a_timeout_that_is_not_positive(capsys):
    assert main(["smoke", "--impl", "true", "--timeout", "0"]) == 2
    assert "expected a number of seconds greater than 0" in capsys.readouterr().err
