"""`conquian-ref check`: run the scenario corpus against an implementation and report.

The main job of the project. For each selected scenario: skip it if the implementation does
not support its profile or a capability it needs; otherwise replay it over the protocol
(conquian_ref.conformance.client, .driver) and classify the result:

| status  | meaning                                                                  |
|---------|--------------------------------------------------------------------------|
| passed  | every step and check agreed                                              |
| failed  | the first disagreement is reported (step, field, expected, got)          |
| errored | the adapter misbehaved (crash, timeout, garbage, ...); it is restarted   |
| skipped | profile or capability not supported (the reason says which)             |
| xfail   | failed, and listed in the known-failures file (with its reason)          |
| xpass   | listed as a known failure but passed: reported, and it fails the run     |

The run stops early, with one message, when the handshake fails or when the implementation
fails the same way in `STOP_AFTER` scenarios in a row. Exit status 0 only when nothing failed.
"""

from __future__ import annotations

import fnmatch
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.errors import ConquianError
from .client import DEFAULT_TIMEOUT, REFERENCE, Connection, default_deadline, describe_command
from .driver import ImplementationDriver
from .failures import AdapterFailure
from .protocol import CHECK_CAPABILITIES, DUPLICATE_CARDS, FOUR_SEATS, MATCH, REQUIRED, STAKES
from .progress import progress_bar
from .replay import Failure, replay
from ..spec.profiles import PROFILE_IDS, profile_data
from ..spec.scenario import Scenario, corpus_dir, load_corpus

STOP_AFTER = 5  # identical adapter failures in a row that stop the run


@dataclass
class Result:
    scenario: Scenario
    status: str
    failure: Failure | None = None
    adapter: AdapterFailure | None = None
    reason: str = ""  # why skipped, or the known-failure reason
    seconds: float = 0.0
    skipped_checks: list[str] = field(default_factory=list)  # checks the capabilities did not allow, and why

    @property
    def counts_as_failure(self) -> bool:
        return self.status in ("failed", "errored", "xpass")


@dataclass
class Run:
    impl: str
    handshake: object
    results: list[Result] = field(default_factory=list)
    stopped_early: str = ""
    seconds: float = 0.0
    corpus: str = ""

    def count(self, *statuses: str) -> int:
        return sum(r.status in statuses for r in self.results)

    @property
    def ok(self) -> bool:
        return not self.stopped_early and not any(r.counts_as_failure for r in self.results)

    def summary_line(self) -> str:
        """The closing line: 'N passed, N failed, N skipped' (errored and xpass count as failed;
        known failures as skipped)."""
        return (
            f"{self.count('passed')} passed, {self.count('failed', 'errored', 'xpass')} failed, "
            f"{self.count('skipped', 'xfail')} skipped"
        )


def scenario_has_stakes(scenario: Scenario) -> bool:
    """Whether `scenario`'s profile plays its match for stakes and a pot (`match: {stake: ...}`)."""
    if scenario.profile not in PROFILE_IDS:
        return False
    match = profile_data(scenario.profile)["match"]
    return match is not None and "stake" in match


def table_needs(scenario: Scenario) -> set[str]:
    """The capabilities the profile's table asks of every scenario: four seats, duplicate cards."""
    if scenario.profile not in PROFILE_IDS:
        return set()
    data = profile_data(scenario.profile)
    return ({FOUR_SEATS} if data["players"] == 4 else set()) | ({DUPLICATE_CARDS} if data["deck"]["copies"] > 1 else set())


def needs(scenario: Scenario) -> set[str]:
    """The capabilities a scenario uses (docs/protocol.md, "Capabilities"): those it cannot be
    set up without, and those of its check kinds (protocol.CHECK_CAPABILITIES), which partial
    checking skips one by one (skip_reason)."""
    data = scenario.data
    if "match" in data:
        return ({MATCH, STAKES} if scenario_has_stakes(scenario) else {MATCH}) | table_needs(scenario)
    wanted = set(REQUIRED) | table_needs(scenario)
    for step in data["steps"]:
        wanted.update(cap for kind, cap in CHECK_CAPABILITIES.items() if kind in step.get("check", {}))
    return wanted


def corpus_path(scenario: Scenario) -> str:
    """The scenario's file relative to its corpus: from its profile's folder on
    (`<profile id>/<area>/<file>`), or the file name when it is not in one. -k matches
    this, never the absolute path: the folders above the corpus are the user's own (issue 13)."""
    parts = scenario.path.parts
    if scenario.profile in parts:
        start = len(parts) - 1 - parts[::-1].index(scenario.profile)
        return "/".join(parts[start:])
    return scenario.path.name


def select(scenarios: list[Scenario], profile: str | None, patterns: list[str]) -> list[Scenario]:
    """Filter by profile and by -k patterns (a glob or substring of the id, title or file, the
    file relative to the corpus)."""
    chosen = []
    for s in scenarios:
        if profile and profile != "all" and s.profile != profile:
            continue
        if patterns:
            text = f"{s.id} {s.data['title']} {corpus_path(s)}".lower()
            if not any(p.lower() in text or fnmatch.fnmatch(s.id, p) for p in patterns):
                continue
        chosen.append(s)
    return chosen


def run_check(
    impl: str = REFERENCE,
    corpus: Path | None = None,
    profile: str | None = None,
    patterns: list[str] | None = None,
    known: dict[str, str] | None = None,
    timeout: float | None = None,
    progress: bool = False,
    validate_messages: bool = False,
    scenarios: list[Scenario] | None = None,
    deadline: float | None = None,
) -> Run:
    """Run the corpus against `impl`; ConquianError (one line) if nothing can be run at all.
    `scenarios` skips loading the corpus (the benchmark times the replay alone)."""
    corpus = Path(corpus) if corpus else corpus_dir()
    chosen = select(scenarios if scenarios is not None else _load(corpus), profile, patterns or [])
    known = known or {}
    trace = None
    if validate_messages:
        from .protocol import MessageValidator

        trace = MessageValidator()
    seconds = deadline if deadline is not None else default_deadline(len(chosen))
    conn = Connection(impl, timeout or DEFAULT_TIMEOUT, trace=trace, deadline=time.monotonic() + seconds)
    started = time.perf_counter()
    try:
        handshake = conn.start()
    except AdapterFailure as exc:
        conn.close()
        raise ConquianError(_one_line(f"the implementation {describe_command(impl)} failed the handshake: {exc}{_tail(exc.stderr)}")) from None
    run = Run(impl, handshake, corpus=str(corpus))
    bar = progress_bar(len(chosen), "scenario", progress)
    streak: list[str] = []
    try:
        for scenario in chosen:
            if conn.past_deadline:
                run.stopped_early = f"stopped: the run deadline of {seconds:g} s passed (check --deadline)"
                break
            result = _run_one(conn, scenario, handshake, known)
            run.results.append(result)
            bar.update(1)
            if result.status == "errored" and conn.past_deadline:
                run.stopped_early = f"stopped: the run deadline of {seconds:g} s passed (check --deadline) in {scenario.id}"
                break
            if result.status == "errored":
                streak.append(result.adapter.signature)
                if len(streak) >= STOP_AFTER and len(set(streak[-STOP_AFTER:])) == 1:
                    run.stopped_early = (
                        f"stopped early: the implementation failed the same way ({streak[-1]}) in {STOP_AFTER} "
                        f"scenarios in a row; the last: {result.adapter}"
                    )
                    break
                try:
                    handshake = conn.restart()
                except AdapterFailure as exc:
                    run.stopped_early = _one_line(f"stopped early: the implementation could not be restarted: {exc}{_tail(exc.stderr)}")
                    break
            elif result.status != "skipped":  # a skipped scenario says nothing about the adapter
                streak.clear()
    finally:
        bar.close()
        conn.close()
    run.seconds = time.perf_counter() - started
    return run


def _load(corpus: Path) -> list[Scenario]:
    if not corpus.exists():
        raise ConquianError(f"{corpus}: no such corpus folder")
    scenarios, problems = load_corpus([corpus])
    if problems:
        raise ConquianError(f"the corpus has {len(problems)} problem(s); first: {problems[0]} (run conquian-ref lint)")
    return scenarios


def skip_reason(scenario: Scenario, handshake) -> str | None:
    """Why an implementation cannot run `scenario` at all (its profile, or a capability it cannot
    be set up or judged without), or None. A missing check capability is no reason: the scenario
    runs, and the checks it skips are listed on its result (Result.skipped_checks)."""
    if scenario.profile not in handshake.profiles:
        return f"profile {scenario.profile} not supported"
    lacking = needs(scenario) - set(CHECK_CAPABILITIES.values()) - handshake.capabilities
    if lacking:
        return f"needs capability {', '.join(sorted(lacking))}"
    return None


def _run_one(conn, scenario, handshake, known) -> Result:
    reason = skip_reason(scenario, handshake)
    if reason:
        return Result(scenario, "skipped", reason=reason)
    started = time.perf_counter()
    try:
        outcome = replay(scenario, ImplementationDriver(conn), reasons="reason_codes" in handshake.capabilities,
                         capabilities=handshake.capabilities)
    except AdapterFailure as exc:
        return Result(scenario, "errored", adapter=exc, seconds=time.perf_counter() - started)
    seconds, skipped = time.perf_counter() - started, outcome.skipped_checks
    if scenario.id in known:
        status = "xfail" if outcome.failure else "xpass"
        return Result(scenario, status, outcome.failure, reason=known[scenario.id], seconds=seconds, skipped_checks=skipped)
    return Result(scenario, "failed" if outcome.failure else "passed", outcome.failure, seconds=seconds, skipped_checks=skipped)


def _one_line(text: str) -> str:
    return " | ".join(part.strip() for part in text.splitlines() if part.strip())


def _tail(stderr: str) -> str:
    text = " | ".join(line for line in stderr.strip().splitlines()[-20:])
    return f" (adapter stderr: {text})" if text else ""


def reproduce_command(run: Run, result: Result) -> str:
    impl = "" if run.impl == REFERENCE else f" --impl {shlex.quote(run.impl)}"
    corpus = "" if Path(run.corpus) == corpus_dir() else f" --corpus {shlex.quote(run.corpus)}"
    return f"conquian-ref check{impl}{corpus} -k {result.scenario.id}"
