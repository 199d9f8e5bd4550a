"""The version of an installed distribution, read cheaply: the package's own (`__version__`)
and those the corpus cache is keyed on.

`importlib.metadata.version` gives the answer, but importing importlib.metadata (email, csv,
zipfile) costs a short command such as `check -k ID` about a sixth of its time. An installed
distribution's version is also in the name of its `.dist-info` folder (`<name>-<version>.dist-info`,
the wheel and the installation specifications), which one listing of each `sys.path` folder finds,
in the order importlib.metadata searches them. Wherever that is not clear-cut (an `.egg-info`, two
candidates in one folder, none at all), importlib.metadata answers, as before.
"""

from __future__ import annotations

import os
import re
import sys


def version_of(distribution: str) -> str | None:
    """The installed version of `distribution`, or None when it is not installed."""
    wanted = _normalised(distribution)
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        found = [name for name in names if name.endswith((".dist-info", ".egg-info")) and _project(name) == wanted]
        if not found:
            continue
        if len(found) == 1 and found[0].endswith(".dist-info") and "-" in found[0]:
            return found[0].removesuffix(".dist-info").split("-", 1)[1]
        break  # an .egg-info, or two candidates: importlib.metadata knows which it means
    return _from_metadata(distribution)


def _project(name: str) -> str:
    """The normalised distribution name of a metadata folder `<name>[-<version>].<dist|egg>-info`."""
    return _normalised(name.rsplit(".", 1)[0].split("-", 1)[0])


def _normalised(name: str) -> str:
    """A distribution name as the metadata folder names it (runs of -, _ and . as one _, lower case)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _from_metadata(distribution: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return None

