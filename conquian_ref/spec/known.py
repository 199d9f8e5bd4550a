"""Known-failures files: scenarios an implementation is known to fail, each with its reason.

A YAML list validated by schema/known-failures.schema.json:

    - id: tc-0104
      reason: "house rule: a forced card never wins for the receiver (deviates from RUL-6)"
      issue: https://example.org/my-engine/issues/12     # optional

A listed scenario that fails is reported as `xfail` and does not fail the run; one that passes
is an unexpected pass (`xpass`) and fails the run, so a fixed deviation is noticed and the
entry removed (the idea of toml-test's -skip-must-err and jsonschema's known failures).
"""

from __future__ import annotations

from pathlib import Path

from ..engine.errors import ConquianError
from .yamlfile import YamlError, line_of, load_with_lines, path_text


def load_known_failures(path: str | Path) -> dict[str, str]:
    """{scenario id: reason}; ConquianError naming file:line: field on any problem."""
    from .schemas import validator

    path = Path(path)
    if not path.is_file():
        raise ConquianError(f"{path}: no such known-failures file")
    try:
        data, lines = load_with_lines(path)
    except YamlError as exc:
        raise ConquianError(f"{path}:{exc.line}: (file): {exc.message}") from None
    data = [] if data is None else data
    for err in validator("known-failures.schema.json").iter_errors(data):
        where = tuple(err.absolute_path)
        raise ConquianError(f"{path}:{line_of(lines, where)}: {path_text(where)}: {err.message}")
    known: dict[str, str] = {}
    for i, entry in enumerate(data):
        if entry["id"] in known:
            raise ConquianError(f"{path}:{line_of(lines, (i, 'id'))}: [{i}].id: {entry['id']} is listed twice")
        known[entry["id"]] = entry["reason"] + (f" ({entry['issue']})" if entry.get("issue") else "")
    return known
