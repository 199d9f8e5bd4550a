"""The `yaml-language-server` modeline of a new draft: the schema path an editor resolves from
where the draft is written (docs/editors.md).

Always a path relative to the draft, so the draft works on any machine it is copied to: to
`schema/scenario.schema.json` when a folder above the draft has one (this repository, or a
project that keeps a copy), else to `scenario.bundled.schema.json` in a folder above (the
single-file schema, no `$ref` to follow). When neither is there, `new --corpus DIR` first copies
the bundled schema into DIR (`provide_schema`), where it is kept with the corpus: an absolute
`file://` path into one machine's installation breaks everywhere else (issue 22, friction 4).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

PREFIX = "# yaml-language-server: $schema="
SCHEMA = Path("schema") / "scenario.schema.json"


def _bundled_name() -> str:
    from ...spec.schemas import BUNDLED

    return BUNDLED[SCHEMA.name]


def _schema_above(folder: Path) -> Path | None:
    for above in (folder, *folder.parents):
        for candidate in (above / SCHEMA, above / _bundled_name()):
            if candidate.is_file():
                return candidate
    return None


def provide_schema(path: Path, corpus: Path) -> Path | None:
    """Copy the bundled schema into `corpus` if no schema is above `path`; the copy, or None."""
    from ...spec.schemas import schema_file

    if _schema_above(Path(path).resolve().parent) is not None:
        return None
    target = Path(corpus) / _bundled_name()
    shutil.copyfile(schema_file(_bundled_name()), target)
    return target


def modeline(path: Path) -> str:
    """The modeline for a scenario file to be written at `path` (after provide_schema)."""
    folder = Path(path).resolve().parent
    found = _schema_above(folder)
    if found is None:  # provide_schema was not called: the copy it would make, beside the file
        return PREFIX + _bundled_name()
    return PREFIX + Path(os.path.relpath(found, folder)).as_posix()
