"""`conquian-ref lint [PATHS]`: check scenario files, one line per problem.

Runs every check of conquian_ref.spec.scenario (YAML, schema, cards, rule ids, unique ids) and then
replays each valid scenario on the reference engine: a step that does not replay as written is
a problem too, reported at that step's line. A draft is not a scenario yet: the scaffold's
leftovers and unrecorded placeholders are named as such (lint_drafts). Never a traceback: every
problem is a line `file:line: field: message`.

The ids are checked against more than the files given: on the command line, against every other
file of the shipped corpus and of each `--corpus DIR` (the corpus the files belong to), so a
pre-commit hook that sees only the changed files still refuses an id used elsewhere. An id
taken elsewhere is an error, not a warning: reports, known-failures files and `check -k` name
scenarios by id, so two scenarios with one id make each of those ambiguous.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..engine.errors import ConquianError
from ..spec.scenario import Problem, collisions, corpus_dir, load_corpus
from .yamltext import json_text


def lint(paths: list[Path | str], replay_steps: bool = True, against: list[Path | str] = (),
         drafts_done: bool = True) -> tuple[int, list[Problem]]:
    """(number of scenarios read, every problem found); `against`: folders whose other files'
    ids the scenarios must not repeat; `drafts_done`: the scaffold's leftovers are problems
    (lint_drafts.unfinished; record checks a fresh recording without)."""
    from ..conformance.reference import Reference
    from ..conformance.replay import replay
    from .lint_drafts import unfinished, unrecorded_hints

    scenarios, problems = load_corpus(paths)
    problems += unrecorded_hints(problems)
    problems += collisions(scenarios, list(against))
    if drafts_done:
        problems += [p for scenario in scenarios for p in unfinished(scenario)]
    if replay_steps:
        for scenario in scenarios:
            try:
                failure = replay(scenario, Reference()).failure
            except ConquianError as exc:  # e.g. an action the engine reads as malformed
                problems.append(scenario.problem(("steps",), f"does not replay: {exc}"))
                continue
            if failure:
                path = ("steps", failure.step) if failure.step is not None else ("outcome",)
                problems.append(
                    scenario.problem(
                        path,
                        f"does not replay as written: {failure.field}: expected {json_text(failure.expected)}, "
                        f"the reference engine gives {json_text(failure.got)}",
                    )
                )
    return len(scenarios), sorted(problems, key=lambda p: (p.file, p.line, p.field))


def run(paths: list[str], corpora: list[str] = (), json_path: str | None = None, junit_path: str | None = None) -> int:
    targets = paths or [corpus_dir()]
    for p in targets:
        if not Path(p).exists():
            raise ConquianError(f"{p}: no such file or folder")
    for p in corpora:
        if not Path(p).is_dir():
            raise ConquianError(f"--corpus {p}: no such folder")
    read, problems = lint(targets, against=[corpus_dir(), *corpora])
    if not read and not problems:  # a run that checked nothing must not pass
        raise ConquianError(f"{', '.join(map(str, targets))}: no scenario file (*.yaml, *.yml) to lint: nothing was checked")
    from ..spec.corpus_walk import walk_corpus
    from .lint_report import lint_json, lint_junit
    from ..conformance.reports import json_text
    from .options import STDOUT

    found = [str(f) for f in walk_corpus(targets)[0]]
    # The corpus a report names: the one folder linted, else the --corpus the files belong to.
    folder = targets[0] if len(targets) == 1 and Path(targets[0]).is_dir() else (corpora[0] if corpora else None)
    if json_path == STDOUT:  # the JSON instead of the lines
        sys.stdout.write(json_text(lint_json(found, read, problems, folder)))
    else:
        for problem in problems:
            print(problem)
        if json_path:
            Path(json_path).write_text(json_text(lint_json(found, read, problems, folder)), encoding="utf-8")
    if junit_path:
        Path(junit_path).write_text(lint_junit(found, problems), encoding="utf-8")
    files = len({p.file for p in problems})
    print(f"lint: {read} scenario(s) valid, {len(problems)} problem(s) in {files} file(s)", file=sys.stderr)
    return 1 if problems else 0
