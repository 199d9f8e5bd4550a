"""A progress bar on stderr for long runs (tqdm), shown only on a terminal."""

from __future__ import annotations

import sys


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, unit: str, enabled: bool = True, desc: str | None = None):
    """A tqdm bar, or an object with the same `update`/`close` doing nothing."""
    if not enabled or not sys.stderr.isatty():
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, desc=desc, file=sys.stderr, leave=False)
