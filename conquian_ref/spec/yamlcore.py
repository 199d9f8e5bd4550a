"""The YAML 1.2 core schema, as PyYAML's safe loader reads it here, and the one error of reading
a YAML file (`YamlError`: a line and a message).

Booleans are only true/false (any case of those), null is null/~/empty, integers are decimal,
0o octal or 0x hex, and at most MAX_INT_DIGITS digits long (Python itself refuses 4,300 and more,
with a ValueError rather than a line); `yes`, `no`, `on`, `off`, `1:20`, `2024-01-01` and the
merge key `<<` are strings, as every editor and JSON Schema validator reads them (docs/authoring.md
says why). conquian_ref.spec.yamlfile reads every file with this `Loader`.
"""

from __future__ import annotations

import re

import yaml

MAX_INT_DIGITS = 100
"""The most digits in an integer."""


class YamlError(Exception):
    """A file that is not YAML; `line` is 1-based (0 when unknown)."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


# libyaml's parser when PyYAML was built with it (it usually is): the same safe loading, faster.
_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.nan|\.NaN|\.NAN")
_BOOL = re.compile(r"true|True|TRUE|false|False|FALSE")
_NULL = re.compile(r"~|null|Null|NULL|")

# The implicit resolvers of the YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution),
# with the first characters each can start with (PyYAML's lookup key).
_CORE = (
    ("tag:yaml.org,2002:bool", _BOOL, "tTfF"),
    ("tag:yaml.org,2002:int", _INT, "-+0123456789"),
    ("tag:yaml.org,2002:float", _FLOAT, "-+.0123456789"),
    ("tag:yaml.org,2002:null", _NULL, ["~", "n", "N", ""]),
)


class Loader(_Base):
    """PyYAML's safe loader with the YAML 1.2 core schema's resolvers and bounded integers."""

    yaml_implicit_resolvers: dict = {}


for _tag, _regexp, _first in _CORE:
    # PyYAML calls regexp.match: anchor the end, so that `12ab` is a string.
    Loader.add_implicit_resolver(_tag, re.compile(f"(?:{_regexp.pattern})\\Z"), list(_first))


def _int(text: str, line: int) -> int:
    digits = text.lstrip("+-")
    if len(digits) > MAX_INT_DIGITS:
        raise YamlError(line, f"an integer of {len(digits):,} digits (at most {MAX_INT_DIGITS})")
    base = {"0o": 8, "0x": 16}.get(digits[:2], 10)
    return int(text if base == 10 else text[2:], base)


def _float(text: str) -> float:
    text = text.lower()
    if text.endswith("inf"):
        return float("-inf") if text.startswith("-") else float("inf")
    return float("nan") if text == ".nan" else float(text)


def _bool(text: str) -> bool:
    return text.lower() == "true"


Loader.add_constructor("tag:yaml.org,2002:int", lambda loader, node: _int(node.value, node.start_mark.line + 1))
Loader.add_constructor("tag:yaml.org,2002:float", lambda loader, node: _float(node.value))
Loader.add_constructor("tag:yaml.org,2002:bool", lambda loader, node: _bool(node.value))


STR = "tag:yaml.org,2002:str"
SCALARS = {  # a resolved tag of the core schema -> its value from the text and line (yamlfile builds data with it)
    STR: lambda text, line: text,
    "tag:yaml.org,2002:int": _int,
    "tag:yaml.org,2002:float": lambda text, line: _float(text),
    "tag:yaml.org,2002:bool": lambda text, line: _bool(text),
    "tag:yaml.org,2002:null": lambda text, line: None,
}
