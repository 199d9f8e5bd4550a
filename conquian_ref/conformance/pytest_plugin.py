"""Run the conformance corpus inside another project's pytest suite.

In a test module of your project:

    from conquian_ref.pytest_plugin import conformance

    test_conquian = conformance("python:my_engine.adapter:Adapter")   # or a command line
    # optional: profile=<a profile id>, known_failures="conquian-known.yaml", corpus="my/cases"

pytest then collects one test per scenario, named by its id (`test_conquian[tc-0101]`). A
failure shows the scenario's file and line, the step, expected against got, the rules and the
annotation; a scenario the implementation cannot run (profile or capability) is skipped with
the reason; a listed known failure is a strict xfail, so a fixed deviation is noticed.
`python:MODULE:FACTORY` runs in-process: FACTORY() must return an object whose
`handle(request) -> answer` speaks docs/protocol.md with dicts instead of lines.
"""

from __future__ import annotations

import atexit
from pathlib import Path

import pytest

from .check import select, skip_reason
from .client import Connection
from .driver import ImplementationDriver
from .failures import AdapterFailure
from .replay import replay
from ..spec.scenario import corpus_dir, load_corpus


def conformance(impl: str, profile: str | None = None, known_failures: str | None = None, corpus: str | None = None, timeout: float = 10.0):
    """A parametrized pytest test function: one test per scenario of the corpus."""
    from ..spec.known import load_known_failures

    scenarios, problems = load_corpus([Path(corpus) if corpus else corpus_dir()])
    if problems:
        raise RuntimeError(f"the scenario corpus has problems; first: {problems[0]}")
    scenarios = select(scenarios, profile, [])
    known = load_known_failures(known_failures) if known_failures else {}
    shared: dict[str, Connection] = {}

    def connection() -> Connection:
        if "conn" not in shared:
            conn = Connection(impl, timeout)
            conn.start()
            atexit.register(conn.close)
            shared["conn"] = conn
        return shared["conn"]

    params = [
        pytest.param(s, id=s.id, marks=[pytest.mark.xfail(strict=True, reason=known[s.id])] if s.id in known else [])
        for s in scenarios
    ]

    @pytest.mark.parametrize("scenario", params)
    def test_scenario(scenario):
        conn = connection()
        handshake = conn.handshake
        reason = skip_reason(scenario, handshake)
        if reason:
            pytest.skip(reason)
        try:
            result = replay(scenario, ImplementationDriver(conn), reasons="reason_codes" in handshake.capabilities,
                            capabilities=handshake.capabilities)
        except AdapterFailure as exc:
            shared.pop("conn").close()  # the next scenario starts a fresh adapter
            pytest.fail(f"{scenario.path}: {scenario.id}: adapter {exc}\n{exc.stderr}", pytrace=False)
        if result.failure:
            pytest.fail(
                result.failure.describe(scenario)
                + f"\n  rules: {', '.join(scenario.rules)}"
                + "\n  annotation: " + " ".join(scenario.data["annotation"].split()),
                pytrace=False,
            )

    return test_scenario
