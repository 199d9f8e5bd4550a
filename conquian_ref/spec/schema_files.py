"""The project's JSON Schema files as data: found, read, bundled (every `$ref` inlined), with
no validator behind them, so that reading a schema never imports jsonschema (conquian_ref.spec.schemas
builds the validators on these; its docstring says where the files live and how they refer to one
another).

- `load_schema(name)`, `schema_file(name)`, `schema_names()`: a shipped schema, parsed; its path;
  every schema's file name.
- `bundled(name)`: the schema as one self-contained document.
- `definition(name, pointer)`: one definition of a schema as a self-contained schema, every `$ref`
  inlined: what spec/schema_check.py compiles into a check that says "valid" exactly where
  jsonschema would, so that a valid value is judged without jsonschema at all.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from .shipped import shipped_dir

SUFFIX = ".schema.json"


def _schema_dir() -> Path:
    found = shipped_dir("_schema", "schema")
    if not found.is_dir():
        raise FileNotFoundError(f"no schema directory: looked for conquian_ref/_schema and {found}")
    return found


def _file_name(name: str) -> str:
    return name if name.endswith(".json") else name + SUFFIX


def schema_names() -> list[str]:
    """File names of all shipped schemas, sorted."""
    return sorted(p.name for p in _schema_dir().iterdir() if p.name.endswith(".json"))


BUNDLED = {"scenario.schema.json": "scenario.bundled.schema.json"}
"""The schemas also shipped as one self-contained file (for editors and validators that do not
follow references between files, such as ajv without `-r`), and that file's name."""


def schema_file(name: str) -> Path:
    """The path of the shipped schema file `name` (in the installed package, or in schema/)."""
    return _schema_dir() / _file_name(name)


def load_schema(name: str) -> dict:
    """The schema `name` ("profile" or "profile.schema.json"), parsed and meta-schema checked."""
    return _load(_file_name(name))


@cache
def _load(file_name: str) -> dict:
    path = _schema_dir() / file_name
    if not path.is_file():
        raise FileNotFoundError(f"unknown schema {file_name!r} (known: {', '.join(schema_names())})")
    # Not checked against the meta-schema here: that costs more than the rest of a start-up, and
    # tests/test_profile_schema.py checks every shipped schema once.
    return json.loads(path.read_text(encoding="utf-8"))


def _bundled(file_name: str) -> dict:
    """The schema with the definitions it takes from other schema files copied in, and its
    `$ref`s to them made local. Same meaning, but validation no longer crosses resources for
    every reference, which makes it about twice as fast (it runs once per scenario file)."""
    schema = json.loads(json.dumps(_load(file_name)))
    imported: dict[str, object] = {}

    def localise(node):
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#") and "#/$defs/" in ref:
                other, _, name = ref.partition("#/$defs/")
                other = other.rsplit("/", 1)[-1]  # "common.schema.json", relative or by full $id
                local = f"{other.removesuffix(SUFFIX)}__{name}"
                if local not in imported:
                    imported[local] = None  # reserve before descending: definitions may nest
                    imported[local] = localise(json.loads(json.dumps(_load(other)["$defs"][name])))
                node = {**node, "$ref": f"#/$defs/{local}"}
            return {k: localise(v) for k, v in node.items()}
        if isinstance(node, list):
            return [localise(v) for v in node]
        return node

    schema = localise(schema)
    schema.setdefault("$defs", {}).update(imported)
    return _inlined(schema)


def _inlined(schema: dict) -> dict:
    """The schema with every local `{"$ref": "#/$defs/X"}` replaced by a copy of X (a `$ref`
    beside other keywords becomes an `allOf` member), except where X refers back to itself.
    Same meaning; but jsonschema resolves each `$ref` through the referencing registry on every
    use, which cost a third of the time of validating the corpus (about 2 s for 430 files)."""
    defs = schema.get("$defs", {})

    def inline(node, seen: tuple[str, ...]):
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/") and "/" not in ref[len("#/$defs/") :]:
                name = ref[len("#/$defs/") :]
                if name in defs and name not in seen:
                    target = inline(defs[name], seen + (name,))
                    rest = {k: inline(v, seen) for k, v in node.items() if k != "$ref"}
                    return {**rest, "allOf": [*rest.get("allOf", []), target]} if rest else target
            return {k: inline(v, seen) for k, v in node.items()}
        if isinstance(node, list):
            return [inline(v, seen) for v in node]
        return node

    return {**inline({k: v for k, v in schema.items() if k != "$defs"}, ()), "$defs": defs}



@cache
def definition(name: str, pointer: str) -> dict:
    """The definition at `pointer` ("/$defs/outcome") of schema `name`, self-contained: the
    schema's bundled definitions inlined into it (cached: spec/schema_check.py compiles a schema
    once per object)."""
    return _self_contained(_inlined({"$ref": f"#{pointer}", "$defs": _bundled(_file_name(name)).get("$defs", {})}))


def bundled(name: str) -> dict:
    """Schema `name` as one self-contained document: every `$ref` inlined (except where a
    definition refers back to itself; no shipped schema does), no `$defs` left to refer to."""
    return _self_contained(_bundled(_file_name(name)))


def _self_contained(schema: dict) -> dict:
    """An inlined schema without its `$defs`, once nothing refers to them; a recursive
    definition stays behind its `$ref`, with the `$defs` it needs."""
    body = {k: v for k, v in schema.items() if k != "$defs"}
    return schema if '"$ref"' in json.dumps(body) else body
