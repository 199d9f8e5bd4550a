"""Small rooms: no module of the spec and tools floors is over 400 lines, and each says its job.

A module that grows past 400 lines is split along its jobs (the way yamlfile, schemas, bench and
record were), each new module with a docstring naming its job. The engine and conformance floors
are held to the same size by their own tests once they are split (tests/test_mutants.py does it
for the mutants).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import conquian_ref

PACKAGE = Path(conquian_ref.__file__).parent
MODULES = sorted(p for floor in ("spec", "tools") for p in (PACKAGE / floor).rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_a_module_of_spec_or_tools_is_at_most_400_lines_with_a_docstring_naming_its_job(path):
    text = path.read_text(encoding="utf-8")
    assert text.count("\n") <= 400, f"{path.relative_to(PACKAGE)} has {text.count(chr(10))} lines: split it along its jobs"
    if path.name != "__init__.py" or text.strip():
        assert ast.get_docstring(ast.parse(text)), f"{path.relative_to(PACKAGE)} has no docstring naming its job"
