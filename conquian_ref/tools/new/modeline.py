"""The `yaml-language-server` modeline of a new draft: the schema path an editor resolves from
where the draft is written (docs/editors.md).

Inside a folder that has `schema/scenario.schema.json` above it (this repository, or a project
that keeps a copy), the relative path to that schema, as the corpus' own files have it. Anywhere
else, the bundled single-file schema shipped inside the installed package, as a `file://` URI: it
has no `$ref` to follow, so it works however the editor resolves references.
"""

from __future__ import annotations

import os
from pathlib import Path

PREFIX = "# yaml-language-server: $schema="
SCHEMA = Path("schema") / "scenario.schema.json"


def modeline(path: Path) -> str:
    """The modeline for a scenario file to be written at `path`."""
    from ...spec.schemas import BUNDLED, schema_file

    folder = Path(path).resolve().parent
    for above in (folder, *folder.parents):
        if (above / SCHEMA).is_file():
            return PREFIX + Path(os.path.relpath(above / SCHEMA, folder)).as_posix()
    return PREFIX + schema_file(BUNDLED[SCHEMA.name]).resolve().as_uri()
