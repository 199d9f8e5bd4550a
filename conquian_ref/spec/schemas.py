"""The project's JSON Schemas (profile, scenario, ...), loaded by name and ready to validate.

The canonical schema files live in `schema/` at the repository root. An installed package
carries copies of them as `conquian_ref/_schema/*.json` (pyproject.toml maps `schema/` onto the
data-only sub-package `conquian_ref._schema`). Lookup order: the package's `_schema/` first,
then `../schema/` next to the package, which is where they are in a source checkout and in an
editable install.

- `load_schema(name)`: the parsed schema (tests check each against the 2020-12 meta-schema). `name` is
  a file name ("profile.schema.json") or its short form ("profile").
- `validator(name)`: a `jsonschema.Draft202012Validator` for that schema whose `$ref`s resolve
  through `registry()`, so schemas refer to one another by `$id` (for example
  "common.schema.json#/$defs/card" inside https://conquian-ref.example/schema/...).
- `registry()`: a `referencing.Registry` holding every shipped schema under its `$id`.

Everything is loaded once and cached; the returned objects are shared, so do not mutate them.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

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


@cache
def registry() -> Registry:
    """Every shipped schema, registered under its `$id`."""
    resources_by_id = []
    for file_name in schema_names():
        schema = load_schema(file_name)
        if "$id" not in schema:
            raise ValueError(f"schema {file_name} has no $id")
        resources_by_id.append((schema["$id"], Resource.from_contents(schema, default_specification=DRAFT202012)))
    return Registry().with_resources(resources_by_id).crawl()


def validator(name: str) -> Draft202012Validator:
    """A Draft 2020-12 validator for schema `name`, resolving `$ref`s between schemas by `$id`."""
    return _validator(_file_name(name))


@cache
def _validator(file_name: str) -> Draft202012Validator:
    return Draft202012Validator(_bundled(file_name), registry=registry())


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
def definition_validator(name: str, pointer: str) -> Draft202012Validator:
    """A validator for one definition inside schema `name`, e.g. ("protocol", "/$defs/requests/setup")."""
    schema_id = _load(_file_name(name))["$id"]
    return Draft202012Validator({"$ref": f"{schema_id}#{pointer}"}, registry=registry())
