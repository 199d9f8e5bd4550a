"""The rule profiles as files: which exist, and loading one.

A profile is a YAML file in `profiles/` beside this module; the set of profiles is whatever
files are there (no profile id is written in code). A file is read safely, validated against
`schema/profile.schema.json` and handed to conquian_ref.engine.profile, which refuses in one
line any policy the engine does not implement.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

import yaml

from ..engine.errors import MalformedInput
from ..engine.profile import Profile, profile_from_data

_PROFILES = resources.files(__package__) / "profiles"

PROFILE_IDS: tuple[str, ...] = tuple(
    sorted(entry.name.removesuffix(".yaml") for entry in _PROFILES.iterdir() if entry.name.endswith(".yaml"))
)
"""The id of every shipped profile, sorted: the stems of the files in `profiles/`."""


@cache
def load_profile(name: str) -> Profile:
    """A shipped profile by id (e.g. "torno-cisneros-v1"), or a profile YAML file by path."""
    if name in PROFILE_IDS:
        text = (_PROFILES / f"{name}.yaml").read_text(encoding="utf-8")
        source = f"{name}.yaml"
    else:
        path = Path(name)
        if not path.is_file():
            raise MalformedInput("profile", f"unknown profile {name!r} (known: {', '.join(PROFILE_IDS)}, or a path)")
        text, source = path.read_text(encoding="utf-8"), str(path)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise MalformedInput(source, f"not valid YAML: {exc}".splitlines()[0]) from None
    if not isinstance(data, dict):
        raise MalformedInput(source, "a profile is a YAML mapping")
    # The shipped profiles are validated against the schema by the test suite
    # (tests/test_profile_schema.py); skipping it here keeps an adapter's start-up short.
    if name not in PROFILE_IDS:
        validate_profile_data(data, source)
    return profile_from_data(data, source)


def validate_profile_data(data: dict, source: str) -> None:
    """Raise MalformedInput naming the first field of `data` that the profile schema refuses."""
    from .schemas import validator

    errors = sorted(validator("profile.schema.json").iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        err = errors[0]
        field = ".".join(str(p) for p in err.absolute_path) or "(top)"
        raise MalformedInput(f"{source}: {field}", err.message)


__all__ = ["PROFILE_IDS", "Profile", "load_profile", "validate_profile_data"]
