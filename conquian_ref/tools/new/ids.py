"""The scenario id a new draft takes, and its file name.

An id is the profile's rule prefix lower-cased, a dash and four digits (`rule_prefix` in the
profile file). The next free id is one more than the highest id of the profile found anywhere:
in the bundled corpus, in each --corpus folder, in the output folder, in file names and in
`id:` fields, and in a RETIRED file at the top of any of those folders (any text; every id in
it counts). A gap is never filled: it may be the id of a withdrawn scenario, and ids are not
reused.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from ...engine.errors import ConquianError
from ...spec.ids import SCENARIO_ID, SCENARIO_ID_IN_TEXT


def id_prefix(profile) -> str:
    """The scenario id prefix of a profile: its rule prefix, lower-cased."""
    return profile.rule_prefix.lower()


def used_ids(folders: list[Path]) -> set[str]:
    """Every scenario id named in these folders: file names, `id:` fields, RETIRED files."""
    pattern = SCENARIO_ID_IN_TEXT  # the one grammar of scenario ids (spec/ids.py)
    found: set[str] = set()
    for folder in folders:
        if not folder.is_dir():
            continue
        retired = folder / "RETIRED"
        if retired.is_file():
            found |= {f"{p}-{n}" for p, n in pattern.findall(retired.read_text(encoding="utf-8", errors="replace"))}
        for file in folder.rglob("*.y*ml"):
            if file.suffix not in (".yaml", ".yml"):
                continue
            found |= {f"{p}-{n}" for p, n in pattern.findall(file.name)}
            try:
                head = file.read_text(encoding="utf-8", errors="replace")[:4000]
            except OSError:
                continue
            match = re.search(r"^id:\s*['\"]?([a-z]+-[0-9]+)", head, flags=re.M)
            if match and SCENARIO_ID.match(match.group(1)):
                found.add(match.group(1))
    return found


def next_id(prefix: str, folders: list[Path]) -> str:
    """One more than the highest id with this prefix in `folders` (see the module docstring)."""
    numbers = [int(i[len(prefix) + 1 :]) for i in used_ids(folders) if i.startswith(prefix + "-")]
    number = max(numbers, default=0) + 1
    if number > 9999:
        raise ConquianError(f"new: no {prefix} id left (ids have four digits)")
    return f"{prefix}-{number:04d}"


def slug_of(title: str, limit: int = 60) -> str:
    """The file-name part of a title: lower-case ASCII words joined by dashes, at most `limit` long."""
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode().lower()
    words = [w for w in re.split(r"[^a-z0-9]+", text) if w]
    slug = ""
    for word in words:
        if slug and len(slug) + 1 + len(word) > limit:
            break
        slug = f"{slug}-{word}" if slug else word[:limit]
    return slug or "scenario"
