"""The public face (conquian_ref/__init__.py): its names exist, its example runs, and importing
the engine floor pulls in no third-party package (the engine imports only the
standard library)."""

from __future__ import annotations

import doctest
import subprocess
import sys

import conquian_ref


def test_every_public_name_exists():
    for name in conquian_ref.__all__:
        assert getattr(conquian_ref, name) is not None, name


def test_the_docstring_example_runs():
    failures, tried = doctest.testmod(conquian_ref)
    assert tried > 0 and failures == 0


def test_importing_the_engine_loads_no_third_party_package():
    code = (
        "import sys, conquian_ref, conquian_ref.engine.game, conquian_ref.engine.observation;"
        "g = conquian_ref.Game;"
        "print(sorted(m for m in ('yaml', 'jsonschema', 'referencing', 'tqdm', 'hypothesis') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
