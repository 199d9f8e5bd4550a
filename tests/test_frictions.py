"""The frictions a new user hit, each pinned where a test can pin it.

Named after the friction: 6 (machine-readable lint, fuzz and smoke; JUnit totals and ids),
13 (`fuzz --shrink-time 0`), 14 (the version and the corpus fingerprint in every report and in
fuzz reproduce lines). Frictions 2 to 5 are pinned in tests/test_authoring.py and
tests/test_schemas_anywhere.py; 7 to 10 below.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from junitparser import JUnitXml

from conquian_ref import __version__
from conquian_ref.cli import main
from conquian_ref.spec.fingerprint import corpus_fingerprint
from conquian_ref.spec.scenario import corpus_dir
from conquian_ref.spec.schemas import validator

DEAL = corpus_dir() / "torno-cisneros-v1" / "deal"
MUTANT = "python:conquian_ref.tools.mutants:adapter_for_run_wraps"


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


# -- 6: lint, fuzz and smoke as data; JUnit totals and test identity -----------------------------------
def test_friction_6_lint_json_and_junit_name_every_file_and_problem(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text((next(DEAL.glob("*.yaml"))).read_text(encoding="utf-8").replace("dealer: 0", "dealer: 7", 1), encoding="utf-8")
    good = sorted(DEAL.glob("*.yaml"))[1]
    junit = tmp_path / "lint.xml"
    status, out, err = run(capsys, "lint", good, bad, "--json", "-", "--junit", junit)
    report = json.loads(out)
    assert status == 1 and report["tool"] == "lint" and report["version"] == __version__ and report["ok"] is False
    assert report["scenarios"] == 1 and {p["file"] for p in report["problems"]} == {str(bad)}
    suites = JUnitXml.fromfile(str(junit))
    cases = {case.name: case for suite in suites for case in suite}
    assert set(cases) == {str(good), str(bad)} and suites.tests == 2 and suites.failures == 1
    assert cases[str(good)].is_passed and not cases[str(bad)].is_passed


def test_friction_6_smoke_json_is_the_checklist_as_data(capsys):
    status, out, err = run(capsys, "smoke", "--impl", f"{sys.executable} -m conquian_ref.adapter", "--json")
    report = json.loads(out)
    assert status == 0 and report["ok"] and report["passed"] == len(report["items"]) == 6
    assert {"item", "requirement", "passed", "detail"} == set(report["items"][0])


def test_friction_6_fuzz_json_gives_causes_counts_and_seeds_on_stdout_alone(capsys, tmp_path):
    status, out, err = run(capsys, "fuzz", "--impl", MUTANT, "--profile", "torno-cisneros-v1", "--games", "20", "--seed", "1",
                           "--shrink-time", "0", "--out", tmp_path, "--json", "-")
    report = json.loads(out)  # the campaign's lines went to stderr
    assert status == 1 and report["tool"] == "fuzz" and report["seed"] == 1 and report["ok"] is False
    found = report["new_causes"][0]
    assert Path(found["scenario"]).is_file() and report["counts"][0]["cause"] == found["cause"]
    assert "fuzz: reproduce:" in err


def test_friction_6_check_junit_totals_on_testsuites_and_testcases_named_by_id(capsys, tmp_path):
    junit = tmp_path / "check.xml"
    status, out, err = run(capsys, "check", "--profile", "torno-cisneros-v1", "-k", "tc-000", "--junit", junit)
    assert status == 0, err
    suites = JUnitXml.fromfile(str(junit))
    cases = [case for suite in suites for case in suite]
    assert suites.tests == len(cases) > 0 and suites.failures == 0 and suites.errors == 0
    assert all(case.name.startswith("tc-000") and " " not in case.name for case in cases)
    text = junit.read_text(encoding="utf-8")
    assert '<property name="title" value=' in text


# -- 13: --shrink-time 0 means "do not shrink" --------------------------------------------------------
def test_friction_13_fuzz_shrink_time_0_is_accepted_and_does_not_shrink(capsys, tmp_path):
    status, out, err = run(capsys, "fuzz", "--impl", MUTANT, "--profile", "torno-cisneros-v1", "--games", "20", "--seed", "1",
                           "--shrink-time", "0", "--out", tmp_path, "--json", "-")
    assert status == 1 and json.loads(out)["new_causes"][0]["shrunk"].startswith("not shrunk")
    assert run(capsys, "fuzz", "--shrink-time", "-1")[0] == 2


# -- 14: the version and the corpus fingerprint everywhere ----------------------------------------------
def test_friction_14_reports_and_reproduce_lines_name_the_version_and_the_corpus(capsys, tmp_path):
    fingerprint = corpus_fingerprint(corpus_dir())
    json_path, junit = tmp_path / "r.json", tmp_path / "r.xml"
    status, out, err = run(capsys, "check", "-k", "tc-0001", "--json", json_path, "--junit", junit)
    assert status == 0
    assert f"checked by: conquian-ref {__version__}, corpus {fingerprint}" in out
    report = json.loads(json_path.read_text(encoding="utf-8"))
    assert report["conquian_ref_version"] == __version__ and report["corpus_fingerprint"] == fingerprint
    assert list(validator("report.schema.json").iter_errors(report)) == []
    assert f'value="{fingerprint}"' in junit.read_text(encoding="utf-8")
    status, out, err = run(capsys, "fuzz", "--impl", MUTANT, "--profile", "torno-cisneros-v1", "--games", "20", "--seed", "1",
                           "--shrink-time", "0", "--out", tmp_path / "fuzz", "--json", "-")
    assert json.loads(out)["new_causes"][0]["reproduce"].endswith(f"  # conquian-ref {__version__}")


FINGERPRINT = re.compile(r"^sha256:[0-9a-f]{16}$")


def test_friction_14_lint_json_names_the_version_and_the_corpus_linted(capsys, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(DEAL, copy)
    status, out, err = run(capsys, "lint", copy, "--json", "-")
    report = json.loads(out)
    assert status == 0 and report["version"] == __version__ and report["corpus"] == str(copy)
    assert FINGERPRINT.match(report["corpus_fingerprint"]) and report["corpus_fingerprint"] == corpus_fingerprint(copy)
    first = sorted(copy.glob("*.yaml"))[0]
    first.write_text(first.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert json.loads(run(capsys, "lint", copy, "--json", "-")[1])["corpus_fingerprint"] != report["corpus_fingerprint"]
    status, out, err = run(capsys, "lint", first, "--json", "-")  # a file, no corpus folder: none named
    assert json.loads(out)["corpus"] is None and json.loads(out)["corpus_fingerprint"] == "unknown"
    status, out, err = run(capsys, "lint", first, "--corpus", copy, "--json", "-")
    assert json.loads(out)["corpus_fingerprint"] == corpus_fingerprint(copy)


def test_friction_14_smoke_json_names_the_version_and_the_bundled_corpus(capsys):
    import shlex

    status, out, err = run(capsys, "smoke", "--impl", f"{shlex.quote(sys.executable)} -m conquian_ref.adapter", "--json", "-")
    report = json.loads(out)
    assert status == 0 and report["version"] == __version__
    assert FINGERPRINT.match(report["corpus_fingerprint"]) and report["corpus_fingerprint"] == corpus_fingerprint(corpus_dir())


def test_friction_14_fuzz_json_names_the_version_and_the_bundled_corpus(capsys, tmp_path):
    status, out, err = run(capsys, "fuzz", "--impl", "reference", "--profile", "torno-cisneros-v1", "--games", "3", "--seed", "1",
                           "--out", tmp_path, "--json", "-")
    report = json.loads(out)
    assert status == 0 and report["version"] == __version__
    assert FINGERPRINT.match(report["corpus_fingerprint"]) and report["corpus_fingerprint"] == corpus_fingerprint(corpus_dir())


def test_friction_14_the_fingerprint_follows_the_bytes_not_the_place(tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(DEAL, copy)
    assert corpus_fingerprint(copy) == corpus_fingerprint(DEAL)
    first = sorted(copy.glob("*.yaml"))[0]
    first.write_text(first.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert corpus_fingerprint(copy) != corpus_fingerprint(DEAL)


# -- 7: completion for fish, and --profile completing everywhere ---------------------------------------
def test_friction_7_completion_fish_and_every_profile_option_completes_the_ids(capsys):
    from conquian_ref.cli import COMMANDS

    status, out, err = run(capsys, "completion", "fish")
    assert status == 0 and out.startswith("#") and "complete -c conquian-ref" in out
    with_profile = [line for line in out.splitlines() if " -l profile " in line]
    commands = {name for name in COMMANDS if name != "completion" and "--profile" in help_of(capsys, name)}
    assert len(with_profile) == len(commands) >= 5, with_profile
    assert all("torno-cisneros-v1" in line and "all" in line for line in with_profile)
    status, out, err = run(capsys, "completion", "bash")
    assert status == 0 and out.count("torno-cisneros-v1") >= len(commands)


def help_of(capsys, command: str) -> str:
    assert main([command, "--help"]) == 0
    return capsys.readouterr().out


# -- 8: check first; the nearest option and profile ----------------------------------------------------
def test_friction_8_help_lists_check_first(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    listed = [line.split()[0] for line in out.split("commands:")[1].splitlines()[2:] if line.startswith("    ") and line.split()]
    assert listed[0] == "check", listed


@pytest.mark.parametrize("argv, hint, see", [
    (["check", "--proflie", "all"], "did you mean --profile?", "(see 'conquian-ref check --help')"),
    (["chek"], "did you mean check?", "(see 'conquian-ref --help')"),
    (["fuzz", "--profile", "torno-cisneros"], "did you mean torno-cisneros-v1?", ""),
    (["check", "--profile", "torno-cisneros"], "did you mean 'torno-cisneros-v1'?", ""),
    (["simulate", "--profile", "anglo"], "did you mean 'anglo-american-v1'?", ""),
])
def test_friction_8_a_misspelt_option_or_profile_gets_the_nearest_match(capsys, argv, hint, see):
    status, out, err = run(capsys, *argv)
    assert status == 2 and err.count("\n") == 1 and hint in err and see in err, err


# -- 9: the README's adapter command runs as pasted -------------------------------------------------------
def test_friction_9_the_readme_adapter_command_runs_as_pasted(tmp_path):
    import re
    import subprocess

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Checking your own engine")[1]
    command = re.search(r"```sh\n(.*?)```", section, re.S)[1].replace("\\\n", " ")
    venv_bin = str(Path(sys.executable).parent)
    done = subprocess.run(command.replace(".venv/bin", venv_bin), shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["ok"] and (tmp_path / "report.xml").is_file()


# -- 10: the closing line tells the two kinds of skips apart ----------------------------------------------
ONE_PROFILE_NO_MATCH = '''
from conquian_ref.conformance.adapter import ReferenceAdapter


class Adapter(ReferenceAdapter):
    def handle(self, request):
        answer = super().handle(request)
        if isinstance(request, dict) and request.get("cmd") == "start":
            answer["profiles"] = ["anglo-american-v1", "torno-cisneros-v1"]
            answer["capabilities"] = [c for c in answer["capabilities"] if c != "match"]
        return answer
'''


def test_friction_10_the_closing_line_separates_undeclared_profiles_from_missing_capabilities(capsys, tmp_path, monkeypatch):
    (tmp_path / "narrow_adapter.py").write_text(ONE_PROFILE_NO_MATCH, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    status, out, err = run(capsys, "check", "--impl", "python:narrow_adapter:Adapter")
    line = out.strip().splitlines()[-1]
    assert status == 0, out + err
    assert re.search(r"\d+ skipped \(\d+ profile not declared, \d+ capability missing\)$", line), line
