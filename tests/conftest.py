"""Shared pytest configuration of the engine tests.

Hypothesis settings profiles
----------------------------
Two profiles are registered here; pick one with the environment variable HYPOTHESIS_PROFILE:

* ``ci`` (the default): few examples per property, no deadline, so the whole suite stays quick
  (the random-games file runs in well under a minute). Used by ``.ci/run`` and plain ``pytest``.
  When the environment variable CI is set (as ``.ci/run`` and CI services do), it is also
  derandomised and keeps no example database, so a CI run always tries the same examples; it
  replaces Hypothesis's own built-in "ci" profile.
* ``deep``: 16 times as many examples (random games, arrangement cross-checks, observation
  checks), for a long local run (some ten minutes) before a release or after touching the
  engine::

      HYPOTHESIS_PROFILE=deep python -m pytest -q tests

Hypothesis keeps its example database in ``.hypothesis/`` (git-ignored). Every random game inside
a test is driven by a seed drawn by Hypothesis, so a failure is reported with the seed (and the
profile and dealer) that reproduce it.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

from hypothesis import HealthCheck, settings

# The corpus cache (conquian_ref/spec/corpus_cache.py) of a test run goes into a folder of the
# run's own, never into the user's cache; each pytest-xdist worker has its own, removed at exit.
_CACHE_HOME = tempfile.mkdtemp(prefix="conquian-ref-tests-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE_HOME
atexit.register(shutil.rmtree, _CACHE_HOME, ignore_errors=True)

IN_CI = bool(os.environ.get("CI"))

settings.register_profile(
    "ci",
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
    **({"derandomize": True, "database": None} if IN_CI else {}),
)
settings.register_profile(
    "deep",
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def built_book(tmp_path_factory):
    """The book of the whole bundled corpus, built once for the session (test_book and
    test_book_browser read the same files; each build takes seconds)."""
    from conquian_ref.tools.book import build

    out = tmp_path_factory.mktemp("book")
    return out, build(out)
