"""The one-pass reading of yamlfile (`_built`, from the scan's events) gives exactly what
composing, `_record` and constructing give, and leaves every file it does not read so to them."""

from pathlib import Path

import pytest
import yaml

from conquian_ref.spec import yamlfile
from conquian_ref.spec.yamlfile import YamlError, loads_with_lines

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for folder in ("scenarios", "conquian_ref", "tests", "examples") for p in (ROOT / folder).rglob("*.y*ml"))


def composed_reading(text):
    """The reading `_built` stands for: the node tree, its lines, its constructed data."""
    node = yamlfile._composed(text)
    if node is None:
        return None, {}
    lines = {}
    yamlfile._record(node, (), lines, set())
    loader = yamlfile.Loader("")
    try:
        return loader.construct_document(node), lines
    finally:
        loader.dispose()


def built(text):
    loader = yamlfile.Loader(text)
    try:
        return yamlfile._built(loader, yamlfile._scan(loader))
    finally:
        loader.dispose()


def same(a, b):
    """Equal, and of the same types all the way down (1 == 1.0 == True is not enough)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same, a, b))
    return a == b or (a != a and b != b)  # nan


def test_the_shipped_files_are_read_in_one_pass():
    assert len(FILES) > 400
    for path in FILES:
        try:
            got = built(yamlfile.read_text(path))  # the scan first: a hostile sample may nest deep
            expected = composed_reading(yamlfile.read_text(path))
        except (YamlError, yaml.YAMLError):
            continue  # a hostile sample: tests/test_hostile_files.py reads those
        if got is not None:
            assert same(got[0], expected[0]) and got[1] == expected[1], path


TEXTS = [
    "",
    "---\n",
    "just text\n",
    "- 1\n- [2, {a: 3}]\n- {}\n- []\n",
    "a: 1\nb: -0x1F\nc: 0o17\nd: +12\ne: 1.5\nf: .5\ng: 1e3\nh: -.INF\ni: .NaN\nj: 1.\n",
    "a: true\nb: False\nc: yes\nd: no\ne: on\nf: ~\ng: null\nh:\ni: NULL\nj: ''\nk: '1'\nl: \"true\"\n",
    "<<: merge\n'1': one\n\"null\": x\n2024-01-01: date\n1:20: time\n",
    "a:\n  b:\n    - c: [1, 2, {d: e}]\n      f: g\n  h: |\n    text\n    lines\n",
    "? complex\n: value\nlast: 1\n",
    "{a: 1, b: [x, y], c: {d: {}}}\n",
    "- - - - deep\n",
    "a: 1\n...\n",
]
REFUSED = [
    "a: 1\na: 2\n",  # duplicate key
    "1: one\n",  # not a string
    "null: x\n",
    "[a]: b\n",  # a list as a key
    "a: " + "1" * 101 + "\n",  # too many digits
    "a: 1\n---\nb: 2\n",  # two documents
    "a: &x 1\nb: *x\n",  # anchors: left to the composer
    "a: &x 1\n",
    "a: *nowhere\n",
]


@pytest.mark.parametrize("text", TEXTS)
def test_built_is_the_composed_reading(text):
    got, expected = built(text), composed_reading(text)
    assert got is not None
    assert same(got[0], expected[0]) and got[1] == expected[1]


@pytest.mark.parametrize("text", REFUSED)
def test_what_built_does_not_read_is_read_as_before(text):
    assert built(text) is None
    try:
        expected = composed_reading(text)
    except Exception:
        with pytest.raises(YamlError):
            loads_with_lines(text)
    else:
        got = loads_with_lines(text)
        assert same(got[0], expected[0]) and got[1] == expected[1]
