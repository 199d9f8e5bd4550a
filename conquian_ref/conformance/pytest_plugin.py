"""Run the conformance corpus inside another project's pytest suite, in one of two ways.

The plugin (registered through the `pytest11` entry point by conquian_ref.pytest_plugin, which
adds the options and registers `CorpusPlugin` only when `--conquian-impl` is given):

    pytest --conquian-impl "python:my_engine.adapter:Adapter" --conquian-profile <profile id> \
        --conquian-known-failures conquian-known.yaml --conquian-validate-messages

collects one item per scenario, named by its id (`conquian::tc-0101`, so `-k tc-0101` picks it),
and shows a failure exactly as `conquian-ref check` does (file and line, step, expected against
got, rules, annotation, the reproduction command), with no Python traceback. As check, it shows
each cause once: the first failure of a cause in full, the later ones in two lines naming it (in
full with -v), and at the end of the session check's first screen ("Your engine departs from
the reference in N ways", reports.departure_lines) and its causes, each with its scenarios
(reports.cause_lines). Under pytest-xdist each worker keeps its own failures, and
no summary is printed.

The factory, in a test module of your project:

    from conquian_ref.pytest_plugin import conformance

    test_conquian = conformance("python:my_engine.adapter:Adapter")   # or a command line
    # optional: profile=<a profile id>, known_failures="conquian-known.yaml", corpus="my/cases"

pytest then collects one test per scenario, named by its id (`test_conquian[tc-0101]`).

In both, a scenario the implementation cannot run (profile or capability) is skipped with the
reason. A known failure listed by id is a strict xfail, so a fixed deviation is noticed; entries
by rule or by cause (conquian_ref.spec.known) apply as `conquian-ref check` applies them, to a
failing scenario once its first divergence is known, which then xfails with the entry's reason.
`python:MODULE:FACTORY` runs in-process: FACTORY() must return an object whose
`handle(request) -> answer` speaks docs/protocol.md with dicts instead of lines.

The plugin checks its options as `check` does before anything runs (`checked_options`: an
unknown profile, a corpus that is no folder, an unreadable known-failures file are usage
errors), and a selection of no scenario is a collection error: a run that tests nothing never
passes. Any --conquian-* option without --conquian-impl is a usage error too (pytest may have
skipped the ini file that gives it: conquian_ref.pytest_plugin). In both ways a failed
handshake ends the session with its one line (exit status 2, as check), never one failure per
scenario.
"""

from __future__ import annotations

import atexit
from pathlib import Path

import pytest

from .check import select
from .client import Connection
from .failures import AdapterFailure
from .results import Status
from ..engine.errors import ConquianError
from ..spec.known import KnownFailures
from ..spec.scenario import corpus_dir, load_corpus


def conformance(impl: str, profile: str | None = None, known_failures: str | None = None, corpus: str | None = None, timeout: float = 10.0,
                hypotheses: tuple = ()):
    """A parametrized pytest test function: one test per scenario of the corpus; `hypotheses`:
    the house rules that may explain a failure (conquian_ref.pytest_plugin passes the library)."""
    from ..spec.known import load_known_failures

    scenarios, problems = load_corpus([Path(corpus) if corpus else corpus_dir()])
    if problems:
        raise RuntimeError(f"the scenario corpus has problems; first: {problems[0]}")
    scenarios = select(scenarios, profile, [])
    known = load_known_failures(known_failures) if known_failures else KnownFailures()
    shared: dict[str, Connection] = {}

    def connection() -> Connection:
        if "conn" not in shared:
            conn = Connection(impl, timeout)
            try:
                conn.start()
            except AdapterFailure as exc:  # one session-level error, not one failure per scenario
                conn.close()
                pytest.exit(f"conquian: the implementation {impl} failed the handshake: {exc}{_stderr(exc)}",
                            returncode=pytest.ExitCode.INTERRUPTED)
            atexit.register(conn.close)
            shared["conn"] = conn
        return shared["conn"]

    params = [
        pytest.param(s, id=s.id, marks=[pytest.mark.xfail(strict=True, reason=known[s.id])] if s.id in known else [])
        for s in scenarios
    ]

    @pytest.mark.parametrize("scenario", params)
    def test_scenario(scenario):
        from .check import run_one

        conn = connection()
        handshake = conn.handshake
        result = run_one(conn, scenario, handshake, KnownFailures())  # by id: the xfail marks
        if result.status == Status.SKIPPED:
            pytest.skip(result.reason)
        if result.status == Status.ERRORED or not conn.in_sync:
            shared.pop("conn").close()  # the next scenario starts a fresh adapter (check.run_check)
        if result.status != Status.PASSED:
            text = check_runner_text(impl, handshake, corpus or corpus_dir(), result, connection(), known, hypotheses)
            xfail_if_known_by_rule_or_cause(result)
            pytest.fail(text, pytrace=False)

    return test_scenario


def check_runner_text(impl: str, handshake, corpus, result, conn: Connection, known: KnownFailures | None = None,
                      hypotheses: tuple = (), earlier: list | None = None) -> str:
    """A failing scenario as `conquian-ref check` reports it: its first divergence from the
    reference (replayed side by side on `conn`, restarted first), its causes named by the house
    rules among `hypotheses` (those of the session's `earlier` failures first, and settled with
    them), then the report's block. The known failures are applied as check applies them (the
    result may become an xfail)."""
    from .check import diagnose_failures
    from .results import Run
    from .reports import failure_block
    from .transport import safe_text

    run = Run(impl, handshake, corpus=str(corpus))
    run.results = [*(earlier or []), result]
    diagnose_failures(conn, run, known or KnownFailures(), hypotheses)
    return safe_text("\n".join(failure_block(run, result)))


def xfail_if_known_by_rule_or_cause(result) -> None:
    """An xfail for a failure that an entry by rule or by cause covers (one listed by id already
    carries its strict xfail mark, which the failure satisfies)."""
    entry = result.known
    if entry is not None and entry.kind != "id":
        pytest.xfail(f"known failure ({entry}, {entry.where}): {entry.reason}")


# -- the plugin ---------------------------------------------------------------------------------------
class ScenarioFailed(Exception):
    """A scenario failed or its adapter misbehaved; the text is the check runner's."""


def checked_options(config) -> KnownFailures:
    """The --conquian-* options checked as `conquian-ref check` checks its own, before anything
    runs: an unknown profile, a corpus that is no folder, a known-failures file that cannot be
    read, a timeout that is not a positive number are each a pytest.UsageError of one line (a
    run that would test nothing never passes). Returns the known failures read."""
    from ..spec.known import load_known_failures
    from ..spec.profiles import PROFILE_IDS

    option = config.getoption
    profile, corpus, timeout = option("conquian_profile"), option("conquian_corpus"), option("conquian_timeout")
    if profile is not None and profile != "all" and profile not in PROFILE_IDS:
        raise pytest.UsageError(f"--conquian-profile: unknown profile {profile!r} (known: {', '.join(PROFILE_IDS)}; or all)")
    if corpus is not None and not Path(corpus).is_dir():
        raise pytest.UsageError(f"--conquian-corpus: {corpus}: no such folder")
    if timeout is not None and not timeout > 0:  # NaN too
        raise pytest.UsageError(f"--conquian-timeout: {timeout:g} is not a positive number of seconds")
    try:
        return load_known_failures(option("conquian_known_failures")) if option("conquian_known_failures") else KnownFailures()
    except ConquianError as exc:
        raise pytest.UsageError(f"--conquian-known-failures: {exc}") from None


class CorpusPlugin:
    """Registered when `--conquian-impl` is given: adds the corpus' items, holds the connection."""

    def __init__(self, config, hypotheses: tuple = ()):
        self.config = config
        self.hypotheses = tuple(hypotheses)  # the house rules that may explain a failure (check's library)
        self.impl = config.getoption("conquian_impl")
        self.conn: Connection | None = None
        self.handshake = None
        self.known = checked_options(config)  # the known failures, read by the corpus collector
        self.failed: list = []  # the results of the failing and known-failing scenarios, diagnosed

    def seen_cause(self, result) -> str | None:
        """The id of an earlier failing scenario of `result`'s cause, if there is one."""
        cause = result.cause
        return next((r.scenario.id for r in self.failed if cause is not None and str(r.cause) == str(cause)), None)

    def pytest_terminal_summary(self, terminalreporter):
        """The causes of the session's failures, grouped as `conquian-ref check` groups them."""
        from .reports import cause_lines, departure_lines
        from .results import Run
        from .transport import safe_text

        run = Run(self.impl, self.handshake, results=self.failed)
        departs, grouped = departure_lines(run), cause_lines(run)
        lines = departs + [""] * bool(departs and grouped) + grouped
        if lines:
            terminalreporter.section("conquian: causes")
            for line in lines:
                terminalreporter.write_line(safe_text(line))

    @pytest.hookimpl(tryfirst=True)  # before -k and -m deselect: the scenarios are items like any other
    def pytest_collection_modifyitems(self, session, config, items):
        # genitems reports the collection as pytest's own does, so the counts and --collect-only hold.
        items.extend(session.genitems(Corpus.from_parent(session, name="conquian", nodeid="conquian", plugin=self)))

    def pytest_collection_finish(self, session):
        """The handshake, once the items are chosen (-k, -m): when it fails, the session ends
        with its one line instead of one failure per scenario. Not for --collect-only."""
        if session.config.option.collectonly or not any(isinstance(item, ScenarioItem) for item in session.items):
            return
        try:
            self.connection()
        except ScenarioFailed as exc:
            pytest.exit(f"conquian: {exc}", returncode=pytest.ExitCode.INTERRUPTED)  # check exits 2 too

    def connection(self) -> Connection:
        """The shared connection, started (and its handshake made) on first use."""
        if self.conn is None:
            from .client import DEFAULT_TIMEOUT
            from .protocol import MessageValidator

            validate = MessageValidator() if self.config.getoption("conquian_validate_messages") else None
            conn = Connection(self.impl, self.config.getoption("conquian_timeout") or DEFAULT_TIMEOUT, on_message=validate)
            try:
                self.handshake = conn.start()
            except AdapterFailure as exc:
                conn.close()
                raise ScenarioFailed(f"the implementation {self.impl} failed the handshake: {exc}{_stderr(exc)}") from None
            self.conn = conn
        return self.conn

    def drop(self) -> None:
        """Close the connection: the next scenario starts a fresh adapter (as check restarts it)."""
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def pytest_unconfigure(self, config):
        self.drop()


class Corpus(pytest.Collector):
    """The corpus as a collector: one ScenarioItem per selected scenario."""

    def __init__(self, *, plugin: CorpusPlugin, **kwargs):
        super().__init__(**kwargs)
        self.plugin = plugin

    def collect(self):
        from ..spec.rulebook import load_rules
        from .check import nothing_selected

        option = self.config.getoption
        corpus = Path(option("conquian_corpus")) if option("conquian_corpus") else corpus_dir()
        scenarios, problems = load_corpus([corpus])
        if problems:
            raise ConquianError(f"the corpus has {len(problems)} problem(s); first: {problems[0]} (run conquian-ref lint)")
        known = self.plugin.known
        known.check_names({s.id for s in scenarios}, set(load_rules()))  # as check: unknown ids and rules are errors
        chosen = select(scenarios, option("conquian_profile"), [])
        if not chosen:  # as check: a run that tests nothing is an error, never a pass
            raise ConquianError(nothing_selected(scenarios, option("conquian_profile"), []))
        for scenario in chosen:
            item = ScenarioItem.from_parent(self, name=scenario.id, scenario=scenario, plugin=self.plugin)
            if scenario.id in known:
                item.add_marker(pytest.mark.xfail(strict=True, reason=known[scenario.id], raises=ScenarioFailed))
            yield item

    def repr_failure(self, excinfo, style=None):
        if excinfo.errisinstance(ConquianError):  # a bad option or corpus: its one line
            return f"conquian: {excinfo.value}"
        return super().repr_failure(excinfo, style=style)


class ScenarioItem(pytest.Item):
    """One scenario, named by its id; its failure text is the check runner's."""

    def __init__(self, *, scenario, plugin: CorpusPlugin, **kwargs):
        super().__init__(**kwargs)
        self.scenario = scenario
        self.plugin = plugin

    def runtest(self):
        from .check import run_one

        try:
            conn = self.plugin.connection()
        except ScenarioFailed as exc:  # a restart's handshake failed: this item fails, and the session stops
            self.session.shouldstop = f"conquian: {exc}"
            raise
        # Known failures by id are the items' xfail markers: the runner classifies without them.
        result = run_one(conn, self.scenario, self.plugin.handshake, KnownFailures())
        if result.status == Status.SKIPPED:
            pytest.skip(result.reason)
        if result.status == Status.ERRORED or not conn.in_sync:
            self.plugin.drop()  # restarted for the next scenario, as check restarts it
        if result.status == Status.PASSED:
            return
        corpus = self.config.getoption("conquian_corpus") or corpus_dir()
        text = check_runner_text(self.plugin.impl, self.plugin.handshake, corpus, result, self.plugin.connection(), self.plugin.known,
                                 self.plugin.hypotheses, self.plugin.failed)
        earlier = self.plugin.seen_cause(result)
        self.plugin.failed.append(result)
        if earlier is not None and not self.config.option.verbose > 0:  # as check: each cause in full once
            text = "\n".join(text.splitlines()[:2] + [f"  the same cause as {earlier}: {result.cause} (the causes are listed at the end; -v shows each in full)"])
        xfail_if_known_by_rule_or_cause(result)
        raise ScenarioFailed(text)

    def repr_failure(self, excinfo, style=None):
        if excinfo.errisinstance(ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.scenario.path, 0, f"conquian: {self.scenario.id}"


def _stderr(exc: AdapterFailure) -> str:
    tail = " | ".join(exc.stderr.strip().splitlines()[-3:])
    return f" (adapter stderr: {tail})" if tail else ""
