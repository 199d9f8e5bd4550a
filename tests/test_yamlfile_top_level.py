"""`top_level_string`: a top-level key's string read from the event stream (a scenario's id for
the collision check), only where the whole file would read it as that key's string."""

import pytest

from conquian_ref.spec.yamlfile import top_level_string


@pytest.mark.parametrize(
    "text, expected",
    [
        ("id: tc-0001\ntitle: x\n", "tc-0001"),
        ("title: x\nid: 'tc-0001'\n", "tc-0001"),
        ("setup: {hands: [[a, id], [id, b]], id: inner}\nsteps: [id, x]\nid: tc-0002\n", "tc-0002"),
        ("a: [1, [2, {id: no}]]\n? [complex, key]\n: id\nid: yes-this\n", "yes-this"),
        ("id: {a: b}\n", None),  # a mapping is no id
        ("id: [tc-0001]\n", None),
        ("id: !!str tc-0001\n", None),  # loading refuses a tag
        ("x: &a tc-0001\nid: *a\n", None),
        ("title: x\n", None),
        ("- id\n- tc-0001\n", None),  # not a mapping
        ("[x, id, y]\n", None),
        ("just text\n", None),
        ("", None),
        ("id: [unclosed\n", None),  # not YAML
        ("name: id\nother: tc-0001\n", None),  # `id` as a value is no key
    ],
)
def test_top_level_string(text, expected):
    assert top_level_string(text, "id") == expected
