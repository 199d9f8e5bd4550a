"""`conquian-ref export`, the corpus as plain data for any language.

The export is a build artifact, not kept in the repository: these tests regenerate it and pin
that it is deterministic, valid against schema/export.schema.json, and complete: a consumer
that knows only docs/export.md (tests/export_consumer.py) passes on the reference where `check`
passes and fails a mutant on exactly the scenarios `check` fails it on. The Node consumer of
examples/node-consumer/ runs on one profile where Node is present.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conquian_ref.cli import main
from conquian_ref.conformance.adapter import ReferenceAdapter
from conquian_ref.conformance.check import run_check
from conquian_ref.conformance.protocol import CAPABILITIES
from conquian_ref.spec.schemas import validator
from conquian_ref.spec.scenario import corpus_dir
from conquian_ref.tools.mutants import MUTANTS

from export_consumer import run_scenario

ROOT = Path(__file__).resolve().parent.parent
ALL = set(CAPABILITIES)


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("export")
    assert main(["export", "--out", str(out)]) == 0
    return out


def documents(folder: Path) -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))}


def test_export_writes_one_file_per_profile_holding_every_scenario(exported):
    docs = documents(exported)
    ids = [s["id"] for d in docs.values() for s in d["scenarios"]]
    corpus = sorted(corpus_dir().rglob("*.yaml"))
    assert len(ids) == len(set(ids)) == len(corpus)
    assert all(s["file"].startswith(name + "/") for name, d in docs.items() for s in d["scenarios"])


def test_export_is_valid_against_its_schema(exported):
    check = validator("export.schema.json")
    for name, document in documents(exported).items():
        errors = [f"{name}: {list(e.absolute_path)}: {e.message}" for e in check.iter_errors(document)]
        assert errors == []


def test_export_is_deterministic_byte_for_byte(exported, tmp_path):
    assert main(["export", "--out", str(tmp_path)]) == 0
    first = {p.name: p.read_bytes() for p in exported.glob("*.json")}
    assert first == {p.name: p.read_bytes() for p in tmp_path.glob("*.json")}


@pytest.mark.parametrize("form", ["given", "other"])
def test_every_exported_scenario_passes_on_the_reference_with_the_documented_comparator_alone(exported, form):
    # "other": the setup sent in the form the scenario did not give, so both forms are pinned.
    failed = []
    for document in documents(exported).values():
        for scenario in document["scenarios"]:
            problem = run_scenario(scenario, document, ReferenceAdapter().handle, ALL, form)
            failed += [f"{scenario['id']}: {problem}"] if problem else []
    assert failed == []


# An even sample of the mutants (every area's: refusals, legal actions, observations, matches,
# dealing), each run whole by check (no early stop) and by the export's consumer.
MUTANT_SAMPLE = 8


def test_the_export_fails_each_mutant_on_exactly_the_scenarios_check_fails(exported):
    docs = documents(exported)
    by_id = {s["id"]: (s, d) for d in docs.values() for s in d["scenarios"]}
    sample = list(MUTANTS.values())[:: max(1, len(MUTANTS) // MUTANT_SAMPLE)]
    for mutant in sample:
        run = run_check(impl=f"python:conquian_ref.tools.mutants:{mutant.factory_name}", max_failures=0)
        by_check = {r.scenario.id for r in run.results if r.counts_as_failure}
        caps = set(run.handshake.capabilities)
        by_export = {
            sid for sid, (s, d) in by_id.items()
            if d["profile"]["id"] in run.handshake.profiles and set(s["needs"]) <= caps
            and run_scenario(s, d, mutant.factory().handle, caps) is not None
        }
        assert by_check and by_export == by_check, mutant.id


def test_export_refuses_an_out_path_that_is_a_file_in_one_line(tmp_path, capsys):
    target = tmp_path / "a-file"
    target.write_text("x")
    assert main(["export", "--out", str(target)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a folder" in err[0]


def test_export_without_out_is_a_usage_error(capsys):
    assert main(["export"]) == 2
    assert "--out" in capsys.readouterr().err


def test_export_of_a_broken_corpus_names_the_file_and_exports_nothing(tmp_path, capsys):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "bad.yaml").write_text("id: tc-0001\n")
    assert main(["export", "--out", str(tmp_path / "out"), "--corpus", str(corpus)]) == 2
    assert "bad.yaml" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
def test_the_node_consumer_passes_on_one_profile_against_the_reference_adapter(exported):
    consumer = ROOT / "examples" / "node-consumer" / "consumer.test.mjs"
    env = {"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin", "CONQUIAN_EXPORT": str(exported / "anglo-american-v1.json"),
           "CONQUIAN_ADAPTER": f"{sys.executable} -m conquian_ref.adapter"}
    done = subprocess.run([NODE, "--test", str(consumer)], capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    count = len(documents(exported)["anglo-american-v1"]["scenarios"])
    assert f"# pass {count}\n" in done.stdout and "# fail 0\n" in done.stdout and "# skipped 0\n" in done.stdout


def test_export_of_a_corpus_without_scenarios_is_an_error_not_an_empty_success(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["export", "--out", str(tmp_path / "out"), "--corpus", str(tmp_path / "empty")]) == 2
    assert "no scenario files to export" in capsys.readouterr().err


def test_the_exported_comparator_keys_are_the_official_comparators():
    # docs/protocol.md "How answers are compared" is conformance/compare.py; the export states the
    # same keys as data, so a change of one without the other fails here.
    from conquian_ref.conformance.compare import PER_SEAT_SET_LISTS, SET_LISTS
    from conquian_ref.tools.export import COMPARATOR

    assert set(COMPARATOR["multiset_keys"]) == SET_LISTS
    assert set(COMPARATOR["multiset_per_seat_keys"]) == PER_SEAT_SET_LISTS
