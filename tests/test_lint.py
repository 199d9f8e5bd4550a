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
