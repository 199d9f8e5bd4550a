"""conquian_ref/spec/installed.py: the version read from the metadata folder's name is the one
importlib.metadata gives, and importlib.metadata answers wherever the name is not clear-cut."""

from __future__ import annotations

import sys
from importlib.metadata import version

import pytest

import conquian_ref
from conquian_ref.spec.installed import version_of


@pytest.mark.parametrize("name", ["conquian-ref", "conquian_ref", "jsonschema", "PyYAML", "pyyaml", "MarkupSafe", "pytest-xdist"])
def test_the_version_is_importlib_metadatas(name):
    assert version_of(name) == version(name)


def test_the_package_version_and_an_unknown_distribution():
    assert conquian_ref.__version__ == version("conquian-ref")
    assert version_of("no-such-distribution-here") is None


def test_the_first_folder_on_the_path_wins_and_an_egg_info_defers(tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    (first / "Some_Thing-1.2.3.dist-info").mkdir(parents=True)
    (second / "some_thing-9.9.dist-info").mkdir(parents=True)
    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing"), str(first), str(second)])
    assert version_of("some-thing") == "1.2.3"
    (first / "some.thing.egg-info").mkdir()  # ambiguous for a folder name: importlib.metadata decides
    assert version_of("some-thing") == version("some-thing")
