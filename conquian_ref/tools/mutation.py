"""Mutation analysis of the scenario corpus: does the corpus catch every deliberately wrong engine?

Each mutant of conquian_ref.tools.mutants breaks one rule. Here each one is run against the corpus
through the conformance protocol in direct mode (`python:conquian_ref.tools.mutants:adapter_for_<id>`,
the same path `conquian-ref check --impl ...` takes), and the scenarios that catch it are
recorded. A scenario *catches* a mutant when the reference engine passes it and the mutant
fails it (a disagreement) or errors on it (the adapter misbehaves). A mutant is *caught* when at
least one scenario catches it; a *survivor* means that no scenario pins down the rule it breaks,
so the corpus is missing a case.

The corpus is loaded once, then every mutant is replayed over it. By default a mutant stops
at the first scenario that catches it, the scenarios citing a rule it breaks tried first (they
were written to pin that rule): the verdict, caught or survived, is the same as with every
scenario replayed, in a fraction of the time. `--all` replays every scenario against every
mutant and counts all that catch it (the figures of docs/mutation.md).

    conquian-ref mutants [--only ID ...] [--all] [--json] [--corpus DIR]

Exit status: 0 when every mutant is caught, 1 when one survived (or the reference itself fails
a scenario, which would make the analysis meaningless), 2 for a usage error.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.errors import ConquianError
from .options import add_cache_option, add_corpus_option, add_json_option, emit, positive_int

FIRST_IDS = 5  # scenario ids shown per mutant in the text report


@dataclass
class MutantResult:
    id: str
    rules: tuple[str, ...]
    description: str
    kind: str
    caught_by: list[str] = field(default_factory=list)  # scenario ids, corpus order
    first_failure: str = ""  # how the first catching scenario disagreed
    seconds: float = 0.0

    @property
    def caught(self) -> bool:
        return bool(self.caught_by)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "rules": list(self.rules),
            "description": self.description,
            "kind": self.kind,
            "caught": self.caught,
            "caught_by": self.caught_by,
            "first_failure": self.first_failure,
            "seconds": round(self.seconds, 3),
        }


@dataclass
class MutationReport:
    corpus: str
    scenarios: int
    reference_failures: list[str]  # scenario ids the reference itself fails (should be none)
    results: list[MutantResult]
    seconds: float = 0.0
    not_run: list[str] = field(default_factory=list)  # unreachable mutants left out (conquian_ref.tools.mutants)
    every: bool = True  # every scenario replayed against every mutant (--all), or stopped at the first catch

    @property
    def caught(self) -> list[MutantResult]:
        return [r for r in self.results if r.caught]

    @property
    def survived(self) -> list[MutantResult]:
        return [r for r in self.results if not r.caught]

    @property
    def ok(self) -> bool:
        return not self.survived and not self.reference_failures

    def summary_line(self) -> str:
        return f"{len(self.caught)} caught, {len(self.survived)} survived"

    def to_json(self) -> dict:
        return {
            "corpus": self.corpus,
            "scenarios": self.scenarios,
            "reference_failures": self.reference_failures,
            "mutants": [r.to_json() for r in self.results],
            "caught": len(self.caught),
            "survived": len(self.survived),
            "not_run": self.not_run,
            "all_scenarios": self.every,
            "seconds": round(self.seconds, 3),
        }

    def text(self) -> str:
        lines = [
            f"mutation analysis of {self.corpus}: {len(self.results)} mutant(s) against {self.scenarios} scenario(s)"
            + ("" if self.every else " (each until the first that catches it; --all counts every one)"),
            "",
            "| mutant | rules broken | caught by | first scenarios |" if self.every else "| mutant | rules broken | first caught by |",
            "|---|---|---|---|" if self.every else "|---|---|---|",
        ]
        for r in self.results:
            first = ", ".join(r.caught_by[:FIRST_IDS]) + (", ..." if len(r.caught_by) > FIRST_IDS else "")
            count = f" {len(r.caught_by)} |" if self.every else ""
            lines.append(f"| {r.id} | {', '.join(r.rules)} |{count} {first or 'SURVIVED'} |")
        for r in self.survived:
            lines.append(f"\nsurvivor {r.id} ({', '.join(r.rules)}): {r.description}; no scenario catches it")
        if self.not_run:
            lines.append(f"\nnot run (no scenario can express them, see docs/mutation.md): {', '.join(self.not_run)}")
        if self.reference_failures:
            lines.append(f"\nthe reference itself fails: {', '.join(self.reference_failures)} (fix these first)")
        lines += ["", self.summary_line()]
        return "\n".join(lines)


def load_scenarios(corpus: Path | str | None = None) -> tuple[str, list]:
    """(corpus folder, scenarios); ConquianError if the corpus has problems (run lint)."""
    from ..spec.scenario import corpus_dir, load_corpus

    folder = Path(corpus) if corpus else corpus_dir()
    if not folder.exists():
        raise ConquianError(f"{folder}: no such corpus folder")
    scenarios, problems = load_corpus([folder])
    if problems:
        raise ConquianError(f"the corpus has {len(problems)} problem(s); first: {problems[0]} (run conquian-ref lint)")
    return str(folder), scenarios


def replay_all(impl: str, scenarios: list, stop_at_first: bool = False, skip: frozenset = frozenset()) -> dict[str, str]:
    """Replay `scenarios` against `impl` over the protocol; {scenario id: failure text} for those
    that failed or errored (`skip`: ids not to run; `stop_at_first`: stop at the first failure)."""
    from ..conformance.check import run_one  # the runner's own classification (skipped, failed, errored)
    from ..conformance.client import Connection
    from ..conformance.failures import AdapterFailure

    conn = Connection(impl)
    failures: dict[str, str] = {}
    try:
        handshake = conn.start()
        for scenario in scenarios:
            if scenario.id in skip:
                continue
            try:
                result = run_one(conn, scenario, handshake, {})
                status = result.status
                text = result.failure.describe(scenario) if result.failure else (f"errored: {result.adapter}" if result.adapter else "")
            except Exception as exc:  # a mutant that raises inside `handle`: it errored
                status, text = "errored", f"errored: {type(exc).__name__}: {exc}"
            if status in ("failed", "errored"):
                failures[scenario.id] = text
                if stop_at_first:
                    break
            if status == "errored":
                try:
                    handshake = conn.restart()
                except AdapterFailure as exc:
                    failures.setdefault("(restart)", str(exc))
                    break
    finally:
        conn.close()
    return failures


def run_mutant(mutant, scenarios: list, reference_failures=(), stop_at_first: bool = False) -> MutantResult:
    """Replay the corpus against one mutant (a conquian_ref.tools.mutants.Mutant); with
    `stop_at_first`, until the first scenario that catches it, those citing a rule it breaks
    first (in corpus order, then the others in corpus order: the same order in any process)."""
    started = time.perf_counter()
    if stop_at_first:
        scenarios = citing_first(scenarios, mutant.rules)
    failures = replay_all(mutant.impl, scenarios, stop_at_first, frozenset(reference_failures))
    result = MutantResult(mutant.id, mutant.rules, mutant.description, mutant.kind, seconds=time.perf_counter() - started)
    result.caught_by = [sid for sid in failures if sid != "(restart)"]
    if result.caught_by:
        result.first_failure = failures[result.caught_by[0]]
    return result


def citing_first(scenarios: list, rules) -> list:
    """The scenarios citing any of `rules` first, then the others, each part in its given order."""
    wanted = set(rules)
    citing = [s for s in scenarios if wanted.intersection(s.rules)]
    return citing + [s for s in scenarios if not wanted.intersection(s.rules)]


def run_mutants(names: list[str] | None = None, corpus: Path | str | None = None, scenarios: list | None = None,
                jobs: int = 1, progress: bool = False, every: bool = True) -> MutationReport:
    """Run the selected mutants (all by default) against the corpus and report what caught them.
    `scenarios` may be given already loaded (the tests do); else the corpus folder is loaded.
    `jobs`: the processes the mutants are shared among (each mutant's replay is independent);
    the report is the same whatever the number, in the registry's order. `every`: replay every
    scenario against each mutant (else stop at the first that catches it: the same verdicts)."""
    from ..conformance.client import REFERENCE
    from .mutants import MUTANTS, reachable_mutants

    unknown = [n for n in names or [] if n not in MUTANTS]
    if unknown:
        raise ConquianError(f"unknown mutant(s): {', '.join(unknown)} (known: {', '.join(MUTANTS)})")
    started = time.perf_counter()
    if scenarios is None:
        folder, scenarios = load_scenarios(corpus)
    else:
        folder = str(corpus) if corpus else "(given scenarios)"
    reference = replay_all(REFERENCE, scenarios)
    chosen = [MUTANTS[n] for n in names] if names else reachable_mutants()
    results = _run_all(chosen, scenarios, reference, max(1, jobs), progress, not every)
    report = MutationReport(folder, len(scenarios), sorted(reference), results, time.perf_counter() - started, every=every)
    report.not_run = [m.id for m in MUTANTS.values() if m.unreachable and m not in chosen]
    return report


_WORKER: dict = {}  # in a worker process: the scenarios and the reference's failures


def _start_worker(scenarios: list, reference: dict) -> None:
    _WORKER.update(scenarios=scenarios, reference=reference)


def _run_in_worker(mutant_id: str, stop_at_first: bool) -> MutantResult:
    from .mutants import MUTANTS

    return run_mutant(MUTANTS[mutant_id], _WORKER["scenarios"], _WORKER["reference"], stop_at_first)


def _run_all(chosen: list, scenarios: list, reference: dict, jobs: int, progress: bool, stop_at_first: bool) -> list[MutantResult]:
    """Each mutant's result, in the order chosen: in this process, or shared among `jobs`
    processes (the corpus is sent to each once)."""
    from ..conformance.progress import progress_bar

    bar = progress_bar(len(chosen), "mutant", progress)
    try:
        if jobs == 1 or len(chosen) < 2:
            results = []
            for mutant in chosen:
                results.append(run_mutant(mutant, scenarios, reference, stop_at_first))
                bar.update(1)
            return results
        with ProcessPoolExecutor(max_workers=min(jobs, len(chosen)), initializer=_start_worker, initargs=(scenarios, reference)) as pool:
            futures = [pool.submit(_run_in_worker, m.id, stop_at_first) for m in chosen]
            for future in futures:
                future.add_done_callback(lambda _: bar.update(1))
            return [future.result() for future in futures]
    finally:
        bar.close()


def default_jobs() -> int:
    """Every core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def configure(parser):
    """Options of `conquian-ref mutants`; returns the runner (see conquian_ref.cli)."""
    parser.add_argument("--only", nargs="+", action="extend", default=[], metavar="ID", help="run only these mutants (ids as listed in docs/mutation.md)")
    add_corpus_option(parser, "the scenario folder that must catch the mutants")
    add_cache_option(parser)
    add_json_option(parser, "the report")
    parser.add_argument("--jobs", type=positive_int, default=None, metavar="N",
                        help="processes to share the mutants among (default: every core)")
    parser.add_argument("--all", dest="every", action="store_true",
                        help="replay every scenario against every mutant and count all that catch it "
                        "(default: stop at the first, the scenarios citing a rule it breaks tried first; the same verdicts)")

    def run(args) -> int:
        report = run_mutants(args.only or None, args.corpus, jobs=args.jobs or default_jobs(), progress=True, every=args.every)
        emit(args.json_path, report.to_json, report.text)
        return 0 if report.ok else 1

    return run

