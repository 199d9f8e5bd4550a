"""`conquian-ref lint` on deliberately broken samples: each problem is one precise line.

Every file in tests/samples/broken/ is the valid tests/samples/valid/tc-9000-base.yaml with
one thing wrong; its first line says what lint must report (`# expect: LINE: FIELD: TEXT`).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conquian_ref.cli import main
from conquian_ref.tools.lint import lint

SAMPLES = Path(__file__).parent / "samples"
BROKEN = sorted((SAMPLES / "broken").glob("*.yaml"))
LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): (?P<field>\S+): (?P<message>.+)$")


def _expected(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0] if path.read_text(encoding="utf-8") else ""
    assert first.startswith("# expect: "), f"{path.name} must start with '# expect: '"
    return first[len("# expect: ") :]


def test_valid_base_sample_is_clean():
    read, problems = lint([SAMPLES / "valid"])
    assert (read, problems) == (1, [])


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_broken_sample_reports_one_precise_line(path):
    read, problems = lint([path])
    assert len(problems) == 1, "\n".join(map(str, problems))
    text = str(problems[0])
    assert text.startswith(f"{path}:"), text
    assert text[len(f"{path}:") :].startswith(_expected(path)), text


def test_duplicate_ids_across_files_are_reported(tmp_path):
    base = (SAMPLES / "valid" / "tc-9000-base.yaml").read_text(encoding="utf-8")
    (tmp_path / "a.yaml").write_text(base, encoding="utf-8")
    (tmp_path / "b.yaml").write_text(base, encoding="utf-8")
    read, problems = lint([tmp_path])
    assert [p.field for p in problems] == ["id"]
    assert "already used by" in problems[0].message and problems[0].line == 2


def test_lint_command_prints_one_line_per_problem_and_fails(capsys):
    status = main(["lint", str(SAMPLES / "broken")])
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert status == 1
    assert len(lines) == len(BROKEN)
    assert all(LINE.match(line) for line in lines), lines
    assert "Traceback" not in out + err


def test_lint_command_without_traceback_in_a_real_process():
    run = subprocess.run(
        [sys.executable, "-m", "conquian_ref", "lint", str(SAMPLES / "broken")],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 1
    assert "Traceback" not in run.stdout + run.stderr
    assert len(run.stdout.splitlines()) == len(BROKEN)


def test_lint_of_a_missing_path_is_one_line_error(capsys):
    assert main(["lint", "no/such/folder"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err


def _hook_argv(config: Path, hook_id: str) -> list[str]:
    """The arguments after `lint` in a pre-commit hook's entry, read from the hook file."""
    import yaml

    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    hooks = data if isinstance(data, list) else [h for repo in data["repos"] for h in repo["hooks"]]
    entry = next(h["entry"] for h in hooks if h["id"] == hook_id).split()
    return entry[entry.index("lint") :]


@pytest.mark.parametrize("config", [".pre-commit-config.yaml", ".pre-commit-hooks.yaml"])
def test_pre_commit_lint_hook_refuses_an_id_used_elsewhere_in_the_corpus(config, tmp_path, monkeypatch, capsys):
    # A commit that adds one file: the hook is given that file only, as pre-commit does.
    base = (SAMPLES / "valid" / "tc-9000-base.yaml").read_text(encoding="utf-8")
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "tc-9000-old.yaml").write_text(base, encoding="utf-8")
    added = tmp_path / "scenarios" / "tc-9000-new.yaml"
    added.write_text(base.replace("title: Base sample", "title: A newer sample"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    argv = _hook_argv(Path(__file__).parent.parent / config, "conquian-lint") + ["scenarios/tc-9000-new.yaml"]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert out == "scenarios/tc-9000-new.yaml:2: id: id tc-9000 is already used by scenarios/tc-9000-old.yaml\n"
    added.write_text(base.replace("id: tc-9000", "id: tc-9001"), encoding="utf-8")  # a fresh id passes
    assert main(argv) == 0
