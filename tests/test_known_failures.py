"""Known failures by scenario id, rule id or cause signature, with a reason.

Unknown ids and rule ids and duplicate entries are errors (one line, file and line);
`--known-failures` is repeatable and the files are merged; an entry that matched nothing is
reported as stale; `check --write-known-failures FILE` writes today's failures as a file that,
given back, makes the same run pass. The failing engine is tests/adapters/auto_take.py on a
small copied corpus (see tests/test_diagnosis.py for what it does wrong).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conquian_ref import cli
from conquian_ref.conformance.check import run_check
from conquian_ref.conformance.reports import causes, text_report
from conquian_ref.engine.errors import ConquianError
from conquian_ref.spec.known import load_known_failures
from conquian_ref.spec.scenario import corpus_dir, load_corpus

ADAPTERS = Path(__file__).resolve().parent / "adapters"
AUTO_TAKE = "python:auto_take:Adapter"
FAILING = ["tc-0104", "tc-0118", "tc-0133", "tc-0107"]  # the auto take strikes in these
PASSING = ["tc-0001"]


@pytest.fixture(autouse=True)
def adapters_importable(monkeypatch):
    monkeypatch.syspath_prepend(str(ADAPTERS))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("corpus")
    for sid in FAILING + PASSING:
        (found,) = sorted(corpus_dir().rglob(f"{sid}-*.yaml"))
        target = root / found.relative_to(corpus_dir())
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(found, target)
    return root


@pytest.fixture(scope="module")
def scenarios(corpus):
    found, problems = load_corpus([corpus])
    assert not problems
    return found


@pytest.fixture(scope="module")
def plain_run(scenarios):
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(ADAPTERS))
        return run_check(impl=AUTO_TAKE, scenarios=scenarios)


def known_file(tmp_path: Path, text: str, name: str = "known.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def statuses(run) -> dict[str, str]:
    return {r.scenario.id: r.status for r in run.results}


def test_without_known_failures_the_auto_take_engine_fails_where_it_strikes(plain_run):
    assert statuses(plain_run) == {**dict.fromkeys(FAILING, "failed"), **dict.fromkeys(PASSING, "passed")}


def test_a_known_failure_by_cause_covers_every_scenario_with_it(plain_run, scenarios, tmp_path):
    cause, results = causes(plain_run)[0]
    path = known_file(tmp_path, f'- cause: "{cause}"\n  reason: "house rule: a usable card is taken at once"\n')
    run = run_check(impl=AUTO_TAKE, scenarios=scenarios, known=load_known_failures(path))
    covered = {r.scenario.id for r in results}
    assert {sid for sid, status in statuses(run).items() if status == "xfail"} == covered
    for r in run.results:
        if r.scenario.id in covered:
            assert r.reason == "house rule: a usable card is taken at once" and r.known.kind == "cause"
            assert r.known.where == f"{path}:1"
    assert not run.stale


def test_a_known_failure_by_rule_covers_the_scenarios_citing_it(scenarios, tmp_path):
    by_id = {s.id: s for s in scenarios}
    rule = by_id[FAILING[0]].rules[0]
    citing = {sid for sid in FAILING if rule in by_id[sid].rules}
    path = known_file(tmp_path, f"- rule: {rule}\n  reason: a house rule about {rule}\n")
    run = run_check(impl=AUTO_TAKE, scenarios=scenarios, known=load_known_failures(path))
    xfailed = {sid for sid, status in statuses(run).items() if status == "xfail"}
    assert citing <= xfailed and xfailed <= set(FAILING)
    # Known failures are kept apart from new ones in the rule table.
    row = next(line for line in text_report(run).splitlines() if f"| {rule} |" in line)
    new, known = (int(n) for n in row.split("|")[3:5])
    assert known == sum(rule in by_id[sid].rules and sid in xfailed for sid in FAILING) and known >= 1
    assert new == sum(rule in by_id[sid].rules and sid not in xfailed for sid in FAILING)


def test_known_failures_files_are_merged(scenarios, tmp_path):
    one = known_file(tmp_path, f"- id: {FAILING[0]}\n  reason: first file\n", "one.yaml")
    two = known_file(tmp_path, f"- id: {FAILING[1]}\n  reason: second file\n", "two.yaml")
    run = run_check(impl=AUTO_TAKE, scenarios=scenarios, known=load_known_failures(one, two))
    got = {r.scenario.id: r.reason for r in run.results if r.status == "xfail"}
    assert got == {FAILING[0]: "first file", FAILING[1]: "second file"}


@pytest.mark.parametrize("files, line, wording", [
    (["- id: tc-0001\n  reason: one\n- rule: C-TURN-5\n  reason: two\n- id: tc-0001\n  reason: three\n"], 5, "listed twice"),
    (["- rule: C-TURN-5\n  reason: one\n", "- id: tc-0001\n  reason: two\n- rule: C-TURN-5\n  reason: three\n"], 3, "listed twice"),
])
def test_duplicate_known_failure_entries_are_one_line_errors(files, line, wording, tmp_path):
    paths = [known_file(tmp_path, text, f"k{i}.yaml") for i, text in enumerate(files)]
    with pytest.raises(ConquianError) as info:
        load_known_failures(*paths)
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{paths[-1]}:{line}: ") and wording in message


@pytest.mark.parametrize("text, line", [
    ("- id: tc-0001\n  reason: fine\n- id: tc-9999\n  reason: no such scenario\n", 3),
    ("- rule: C-NOPE-99\n  reason: no such rule\n", 1),
])
def test_known_failures_naming_unknown_ids_are_one_line_errors(text, line, scenarios, tmp_path):
    path = known_file(tmp_path, text)
    with pytest.raises(ConquianError) as info:
        run_check(impl=AUTO_TAKE, scenarios=scenarios, known=load_known_failures(path))
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{path}:{line}: ") and "no " in message


def test_a_known_failure_entry_with_two_names_is_refused(tmp_path):
    path = known_file(tmp_path, "- id: tc-0001\n  rule: C-TURN-5\n  reason: which one?\n")
    with pytest.raises(ConquianError, match=re.escape(f"{path}:1: ")):
        load_known_failures(path)


def test_stale_known_failure_entries_are_reported(scenarios, tmp_path):
    path = known_file(tmp_path, '- cause: "use: hands [C-NOPE-1]"\n  reason: an old house rule, since fixed\n')
    run = run_check(impl=AUTO_TAKE, scenarios=scenarios, known=load_known_failures(path))
    assert [(e.kind, e.where) for e in run.stale] == [("cause", f"{path}:1")]
    assert f"stale known failure: {path}:1: cause use: hands [C-NOPE-1] matched no failure" in text_report(run)


def test_written_known_failures_make_the_next_run_pass(corpus, tmp_path, capsys):
    written = tmp_path / "today.yaml"
    args = ["check", "--impl", AUTO_TAKE, "--corpus", str(corpus)]
    assert cli.main([*args, "--write-known-failures", str(written)]) == 1
    text = written.read_text(encoding="utf-8")
    assert "reason:" in text
    entries = load_known_failures(written).entries
    assert entries and {e.kind for e in entries} <= {"id", "cause", "house_rule"}
    capsys.readouterr()
    # Given back twice would be duplicates; once, and with a second file, the run passes.
    other = known_file(tmp_path, "[]\n", "empty.yaml")
    assert cli.main([*args, "--known-failures", str(written), "--known-failures", str(other)]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1] == f"{len(PASSING)} passed, 0 failed, 0 errored, {len(FAILING)} xfailed, 0 skipped"
