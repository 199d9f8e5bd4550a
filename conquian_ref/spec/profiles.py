"""The rule profiles as files: which exist, and loading one.

A profile is a YAML file in `profiles/` beside this module; the set of profiles is whatever
files are there (no profile id is written in code). A file is read by conquian_ref.spec.yamlfile
(plain data within its limits; a FIFO or a device is refused, never opened for reading), validated against
`schema/profile.schema.json` (a file given by path at every load; the shipped ones once, by the
test suite) and handed to conquian_ref.engine.profile, which refuses in one line any policy the
engine does not implement. `profile_data` gives a shipped profile's data without the engine.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from ..engine.errors import MalformedInput
from ..engine.profile import Profile, profile_from_data
from .yamlfile import YamlError, line_of, load_with_lines, loads_with_lines, path_text

_PROFILES = resources.files(__package__) / "profiles"

PROFILE_IDS: tuple[str, ...] = tuple(
    sorted(entry.name.removesuffix(".yaml") for entry in _PROFILES.iterdir() if entry.name.endswith(".yaml"))
)
"""The id of every shipped profile, sorted: the stems of the files in `profiles/`."""


def unknown_profile(name: object, also: str = "") -> str:
    """The one line for a profile id that names no shipped profile: the nearest ids first, if
    any is close (issue 22, friction 8), then every id known (and `also`)."""
    import difflib

    close = [p for p in PROFILE_IDS if str(name) and p.startswith(str(name))][:2] or difflib.get_close_matches(str(name), PROFILE_IDS, n=2)
    hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
    return f"unknown profile {name!r}{hint} (known: {', '.join(PROFILE_IDS)}{also})"


@cache
def profile_data(profile_id: str) -> dict:
    """The data of a shipped profile file, as read (not yet handed to the engine).

    Spec tools that only need a profile's data (its `rule_prefix`, its deck) read it here, so a
    profile the engine does not implement yet is still known to lint and the rulebook."""
    if profile_id not in PROFILE_IDS:
        raise MalformedInput("profile", unknown_profile(profile_id))
    text = (_PROFILES / f"{profile_id}.yaml").read_text(encoding="utf-8")
    return _parse(lambda: loads_with_lines(text), f"{profile_id}.yaml")


@cache  # asked once per scenario by lint and the rulebook: read the file once, not each time
def rule_prefix(profile_id: str) -> str:
    """The prefix of a shipped profile's own rule ids (its `rule_prefix`, e.g. "TC")."""
    return profile_data(profile_id)["rule_prefix"]


@cache
def load_profile(name: str) -> Profile:
    """A shipped profile by id (one of PROFILE_IDS), or a profile YAML file by path."""
    if name in PROFILE_IDS:
        # The shipped profiles are validated against the schema by the test suite
        # (tests/test_profile_schema.py); skipping it here keeps an adapter's start-up short.
        return profile_from_data(profile_data(name), f"{name}.yaml")
    path = Path(name)
    if not path.exists():
        raise MalformedInput("profile", unknown_profile(name, ", or a path"))
    data, lines = _parse_with_lines(lambda: load_with_lines(path), str(path))
    validate_profile_data(data, str(path), lines)
    return profile_from_data(data, str(path))


def _parse(load, source: str) -> dict:
    """The data `load()` reads (yamlfile's (data, lines)), which must be a mapping; MalformedInput
    naming `source` and the line if not."""
    return _parse_with_lines(load, source)[0]


def _parse_with_lines(load, source: str) -> tuple[dict, dict]:
    """`_parse`, with the line of each field."""
    try:
        data, lines = load()
    except YamlError as exc:
        raise MalformedInput(f"{source}:{exc.line}", exc.message) from None
    if not isinstance(data, dict):
        raise MalformedInput(source, "a profile is a YAML mapping")
    return data, lines


def validate_profile_data(data: dict, source: str, lines: dict | None = None) -> None:
    """Raise MalformedInput naming the first field of `data` that the profile schema refuses
    (with its line when `lines` are given): within a `oneOf` (the match's scoring), the deepest
    error, which names the field itself rather than the whole alternative."""
    from .schemas import validator

    errors = sorted(validator("profile.schema.json").iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        err = errors[0]
        while err.context:
            err = min(err.context, key=lambda e: (-len(e.absolute_path), str(e.message)))
        path = tuple(err.absolute_path)
        field = path_text(path)
        where = f"{source}:{line_of(lines, path)}" if lines is not None else source
        raise MalformedInput(f"{where}: {field}", err.message)


__all__ = ["PROFILE_IDS", "Profile", "load_profile", "profile_data", "rule_prefix", "validate_profile_data"]
