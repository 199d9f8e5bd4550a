"""Where the data shipped with the engine lives: the schemas, the scenario corpus and the rules
documents. An installed package carries copies inside it (pyproject.toml maps `schema/`,
`scenarios/` and `docs/rules/` onto `conquian_ref/_schema`, `_corpus` and `_rules`); a source
checkout or an editable install reads them where they are in the repository."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def shipped_dir(packaged: str, source: str) -> Path:
    """`conquian_ref/<packaged>` when installed, else `<repository>/<source>`."""
    inside = Path(str(resources.files("conquian_ref") / packaged))
    if inside.is_dir():
        return inside
    return Path(__file__).resolve().parents[2] / source
