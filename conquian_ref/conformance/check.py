"""`conquian-ref check`: run the scenario corpus against an implementation and report.

The main job of the project. For each selected scenario: skip it if the implementation does
not support its profile or a capability it needs; otherwise replay it over the protocol
(conquian_ref.conformance.client, .driver) and classify the result: passed, failed, errored,
skipped, xfail, xpass or not_run (conquian_ref.conformance.results.Status says what each means).

Every failing or errored scenario is then diagnosed (conquian_ref.conformance.diagnosis): its
steps replayed side by side on the reference, the first divergence and its cause kept in the
result, and known failures matched by id, cause or rule (conquian_ref.spec.known).

The run stops early, with one message, when the handshake fails, when the implementation
fails the same way in `STOP_AFTER` scenarios in a row, or after `max_failures` failing scenarios
(`max_failures=0`: never). An action the implementation cannot express (an error answer to
`apply`) is a failed scenario, a deviation like any other: no restart, no reason to stop. A run
that tests nothing (no scenario selected, every one skipped) is an error or a failure with one
line. Exit status 0 only when nothing failed.
"""

from __future__ import annotations

import fnmatch
import shlex
import time
from pathlib import Path

from ..engine.errors import ConquianError
from .client import DEFAULT_TIMEOUT, REFERENCE, Connection, default_deadline, describe_command
from .driver import ImplementationDriver
from .attribution import fewest_house_rules
from .diagnosis import broken, diagnose
from .failures import AdapterFailure, Timeout
from .protocol import CHECK_CAPABILITIES, DUPLICATE_CARDS, FOUR_SEATS, MATCH, REQUIRED, STAKES
from .progress import progress_bar
from .replay import replay
from .results import NOT_RUN_DEADLINE, Result, Run, Status
from .transport import safe_text
from ..spec.profiles import PROFILE_IDS, profile_data
from ..spec.known import KnownFailures
from ..spec.scenario import Scenario, corpus_dir, load_corpus

STOP_AFTER = 5  # identical adapter failures in a row that stop the run


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
    known: KnownFailures | dict[str, str] | None = None,
    timeout: float | None = None,
    progress: bool = False,
    validate_messages: bool = False,
    scenarios: list[Scenario] | None = None,
    deadline: float | None = None,
    max_failures: int | None = None,
    hypotheses: tuple = (),
) -> Run:
    """Run the corpus against `impl`; ConquianError (one line) if nothing can be run at all.
    `scenarios` skips loading the corpus (the benchmark times the replay alone). `max_failures`:
    stop after that many failing scenarios; 0 never stops early (not even on a streak). `deadline`:
    the seconds the whole run may take (default: client.default_deadline of the selection); the
    scenarios it leaves are reported as not run. `hypotheses`: the house rules (engine Variants)
    the diagnosis tries to explain each divergence with (conquian_ref.conformance.attribution)."""
    corpus = Path(corpus) if corpus else corpus_dir()
    everything = scenarios if scenarios is not None else _load(corpus)
    chosen = select(everything, profile, patterns or [])
    if not chosen:
        raise ConquianError(nothing_selected(everything, profile, patterns or []))
    known = KnownFailures.of_ids(known) if isinstance(known, dict) else (known or KnownFailures())
    if known:
        from ..spec.rulebook import load_rules

        known.check_names({s.id for s in everything}, set(load_rules()))
    on_message = None
    if validate_messages:
        from .protocol import MessageValidator

        on_message = MessageValidator()
    seconds = deadline if deadline is not None else default_deadline(len(chosen))
    conn = Connection(impl, timeout or DEFAULT_TIMEOUT, on_message=on_message, deadline=time.monotonic() + seconds)
    started = time.perf_counter()
    try:
        handshake = conn.start()
    except AdapterFailure as exc:
        conn.close()
        raise ConquianError(_one_line(f"the implementation {describe_command(impl)} failed the handshake: {exc}{_tail(exc.stderr)}")) from None
    run = Run(impl, handshake, corpus=str(corpus))
    bar = progress_bar(len(chosen), "scenario", progress)
    streak: list[str] = []
    failing = 0
    try:
        for scenario in chosen:
            if conn.past_deadline:
                run.stopped_early = f"stopped: the run deadline of {seconds:g} s passed (check --deadline)"
                run.not_run_reason = NOT_RUN_DEADLINE
                break
            result = run_one(conn, scenario, handshake, known)
            run.results.append(result)
            bar.update(1)
            if result.status == Status.ERRORED and conn.past_deadline:
                run.stopped_early = f"stopped: the run deadline of {seconds:g} s passed (check --deadline) in {scenario.id}"
                run.not_run_reason = NOT_RUN_DEADLINE
                break
            failing += result.status in (Status.FAILED, Status.ERRORED)
            if max_failures and failing >= max_failures and known:
                # Entries by cause or rule apply after the diagnosis: make it now for the failures
                # so far, so that a failure they turn into an xfail does not count towards the limit.
                diagnose_failures(conn, run, known, hypotheses)
                failing = run.count(Status.FAILED, Status.ERRORED)
            if max_failures and failing >= max_failures:
                run.stopped_early = f"stopped early: {failing} failing scenarios (--max-failures {max_failures})"
                break
            if result.status == Status.ERRORED:
                streak.append(result.adapter.signature)
                if max_failures != 0 and len(streak) >= STOP_AFTER and len(set(streak[-STOP_AFTER:])) == 1:
                    run.stop_signature = streak[-1]
                    run.stopped_early = (
                        f"stopped early: the implementation failed the same way ({streak[-1]}) in {STOP_AFTER} "
                        f"scenarios in a row; the last: {result.adapter}"
                    )
                    break
            elif result.status != Status.SKIPPED:  # a skipped scenario says nothing about the adapter
                streak.clear()
            # Restarted after an adapter failure, and after a failed scenario whose later answers
            # may still come (a time-out after its first failure), so the next reads none of them.
            if result.status == Status.ERRORED or not conn.in_sync:
                try:
                    handshake = conn.restart()
                except AdapterFailure as exc:
                    run.stopped_early = _one_line(f"stopped early: the implementation could not be restarted: {exc}{_tail(exc.stderr)}")
                    break
        diagnose_failures(conn, run, known, hypotheses)
    finally:
        bar.close()
        conn.close()
    run.results += [Result(s, Status.NOT_RUN, reason=run.not_run_reason) for s in chosen[len(run.results) :]]
    used = {entry for r in run.results if r.known is not None for entry in (r.known, *r.also_known)}
    ran = {r.scenario.id for r in run.results if r.status != Status.NOT_RUN}
    run.stale = [e for e in known.entries if e not in used and (e.kind != "id" or e.value in ran)]
    if all(r.status == Status.SKIPPED for r in run.results):
        run.untested = f"nothing was tested: all {len(run.results)} selected scenarios were skipped (the first: {run.results[0].reason})"
    run.seconds = time.perf_counter() - started
    return run


def nothing_selected(scenarios: list[Scenario], profile: str | None, patterns: list[str]) -> str:
    """The one line saying why no scenario was selected."""
    if profile and profile != "all" and not any(s.profile == profile for s in scenarios):
        import difflib

        known = sorted({s.profile for s in scenarios})
        close = difflib.get_close_matches(profile, known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        return f"no scenario selected: no scenario of profile {profile!r} in the corpus{hint} (its profiles: {', '.join(known)})"
    return f"no scenario selected: -k {' -k '.join(patterns)} matches no scenario" + (f" of profile {profile}" if profile and profile != "all" else "")


def diagnose_failures(conn: Connection, run: Run, known: KnownFailures, hypotheses: tuple = ()) -> None:
    """Replay every failing or errored scenario side by side on the reference (see
    conquian_ref.conformance.diagnosis), then apply the known failures by cause and rule.
    The adapter is restarted first, so that the replays start from a fresh process. Not asked
    again, so that a broken adapter costs no more than its run (each line is the diagnosis kept):
    an adapter that timed out (the replay would wait as long once more), the failure that
    stopped the run early, and any errored scenario once two replays in a row failed too."""
    todo = [r for r in run.results if r.status in _DIAGNOSED and not _diagnosed(r)]
    # The house rules found so far in this run: tried first, and with each new hypothesis.
    found = list(dict.fromkeys(d.house_rule for r in run.results if r.divergence for d in r.divergence.every() if d.house_rule))
    finds_then: dict[int, int] = {}  # id(result) -> how many house rules were found when it was diagnosed
    handshake, broken_in_a_row, dead = None, 0, False
    for result in todo:
        finds_then[id(result)] = len(found)
        if conn.past_deadline:  # the diagnosis runs within the run deadline too
            result.diagnosis = "not diagnosed: the run deadline passed"
            _apply_known(result, known)
            continue
        failure = result.adapter
        if failure is not None:
            skip = (
                "not diagnosed: the adapter timed out" if isinstance(failure, Timeout)
                else "not diagnosed: the failure that ended the run" if failure.signature == run.stop_signature
                else "not diagnosed: the adapter failed the replays too" if broken_in_a_row >= 2
                else ""
            )
            if skip:
                result.diagnosis = skip
                _apply_known(result, known)
                continue
        if handshake is None and not dead:
            try:
                handshake = conn.restart()
            except AdapterFailure:
                dead = True
        if dead:
            result.diagnosis = "not diagnosed: the adapter could not be restarted"
            _apply_known(result, known)
            continue
        caps = handshake.capabilities
        try:
            result.divergence = diagnose(result.scenario, ImplementationDriver(conn), caps, "reason_codes" in caps, tuple(hypotheses), tuple(found))
            for d in result.divergence.every() if result.divergence is not None else ():
                if d.house_rule and d.house_rule not in found:
                    found.append(d.house_rule)
        except AdapterFailure as exc:  # a match answer, or the batch itself
            result.diagnosis = f"not diagnosed: adapter {exc.kind}: {exc.message}"
        except ConquianError as exc:  # the reference refuses what the scenario gives (a hostile corpus)
            result.diagnosis = f"not diagnosed: the reference refuses it: {exc}"
        except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as exc:
            # An answer of a shape nothing compares (issue 12: never a traceback); the run's
            # own verdict on the scenario stands.
            result.diagnosis = f"not diagnosed: the answers could not be compared ({type(exc).__name__}: {exc})"
        if result.divergence is None and not result.diagnosis:
            result.diagnosis = "no divergence from the reference in the answers compared"
        failed_again = broken(result.divergence) or result.diagnosis.startswith("not diagnosed: adapter")
        broken_in_a_row = broken_in_a_row + 1 if failed_again else 0
        if failed_again or not conn.in_sync:  # out of step: a late answer of this replay may still come
            handshake = None  # restarted before the next replay, if there is one
    if hypotheses and not dead:
        _look_again(conn, [r for r in todo if finds_then.get(id(r), len(found)) < len(found) and _unexplained(r.divergence)],
                    hypotheses, found, handshake)
    # One house rule per divergence, the fewest for the whole run; then the known failures.
    explained = [(r, d) for r in run.results if r.divergence is not None for d in r.divergence.every() if d.explained_by]
    for (result, divergence), variant in zip(explained, fewest_house_rules([d.explained_by for _, d in explained])):
        divergence.name_house_rule(result.scenario.profile, variant)
    for result in todo:
        _apply_known(result, known)


def _look_again(conn: Connection, results: list[Result], hypotheses: tuple, found: list, handshake) -> None:
    """Diagnose again, with every house rule the run found, the scenarios with an unexplained
    divergence that were diagnosed before some of them were found: where a step shows two house
    rules at once, neither explains it alone, and the library is tried one new house rule at a
    time (attribution.explaining), so the two together explain it only once both are found. The
    new diagnosis is kept where it leaves fewer divergences unexplained."""
    for result in results:
        if conn.past_deadline:  # within the run deadline, as the first look
            return
        if handshake is None:
            try:
                handshake = conn.restart()
            except AdapterFailure:
                return
        caps = handshake.capabilities
        try:
            again = diagnose(result.scenario, ImplementationDriver(conn), caps, "reason_codes" in caps, tuple(hypotheses), tuple(found))
        except (AdapterFailure, ConquianError, TypeError, ValueError, KeyError, AttributeError, RecursionError):
            handshake = None
            continue
        if again is not None and _unexplained(again) < _unexplained(result.divergence):
            result.divergence = again
        if broken(again) or not conn.in_sync:
            handshake = None


def _unexplained(divergence) -> int:
    """How many divergences, the first and those seen past it, no house rule explains (an
    action the implementation cannot express is no house rule's: not counted)."""
    if divergence is None:
        return 0
    return sum(d.cause.unexplained for d in divergence.every())


# The statuses a diagnosis is made for (and known failures by cause or rule applied to).
_DIAGNOSED = (Status.FAILED, Status.ERRORED, Status.XFAIL)


def _diagnosed(result: Result) -> bool:
    """Whether `diagnose_failures` has already been through this result (it always leaves a
    divergence or a diagnosis line)."""
    return result.divergence is not None or bool(result.diagnosis)


def _apply_known(result: Result, known: KnownFailures) -> None:
    """A failing scenario covered by known-failures entries becomes xfail (with the first one's
    reason): every cause it shows, the first and those seen past it, must be covered, so a known
    house rule never hides another deviation in the same scenario (it stays failed, for that one)."""
    if result.status not in _DIAGNOSED or result.status == Status.XFAIL and result.known:
        return
    entries = [known.match(result.scenario.id, tuple(result.scenario.rules), cause) for cause in result.causes or [None]]
    if all(entries):
        result.status, result.reason, result.known = Status.XFAIL, entries[0].reason, entries[0]
        result.also_known = list(dict.fromkeys(entries[1:]))


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


def run_one(conn, scenario, handshake, known) -> Result:
    """One scenario run and classified (skipped, passed, failed, errored, xfail, xpass): the
    check runner's, the mutants' and the pytest plugin's one way of running a scenario."""
    reason = skip_reason(scenario, handshake)
    if reason:
        return Result(scenario, Status.SKIPPED, reason=reason)
    started = time.perf_counter()
    try:
        outcome = replay(scenario, ImplementationDriver(conn), reasons="reason_codes" in handshake.capabilities,
                         capabilities=handshake.capabilities)
    except AdapterFailure as exc:
        return Result(scenario, Status.ERRORED, adapter=exc, seconds=time.perf_counter() - started)
    seconds, skipped = time.perf_counter() - started, outcome.skipped_checks
    if isinstance(known, dict):  # the plain {id: reason} form (tools/mutation.py passes {})
        known = KnownFailures.of_ids(known)
    entry = known.by_id(scenario.id)
    if entry is not None:  # the entries by cause and rule are matched after the diagnosis
        status = Status.XFAIL if outcome.failure else Status.XPASS
        return Result(scenario, status, outcome.failure, reason=entry.reason, seconds=seconds, known=entry, skipped_checks=skipped)
    return Result(scenario, Status.FAILED if outcome.failure else Status.PASSED, outcome.failure, seconds=seconds, skipped_checks=skipped)


def _one_line(text: str) -> str:
    """One line for a terminal: the lines joined, control characters escaped (issue 12)."""
    return safe_text(" | ".join(part.strip() for part in text.splitlines() if part.strip()))


def _tail(stderr: str) -> str:
    text = " | ".join(line for line in stderr.strip().splitlines()[-20:])
    return f" (adapter stderr: {text})" if text else ""


def reproduce_command(run: Run, result: Result) -> str:
    impl = "" if run.impl == REFERENCE else f" --impl {shlex.quote(run.impl)}"
    corpus = "" if Path(run.corpus) == corpus_dir() else f" --corpus {shlex.quote(run.corpus)}"
    return f"conquian-ref check{impl}{corpus} -k {result.scenario.id}"
