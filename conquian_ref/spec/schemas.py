"""The project's JSON Schemas (profile, scenario, ...), loaded by name and ready to validate.

The canonical schema files live in `schema/` at the repository root. An installed package
carries copies of them as `conquian_ref/_schema/*.json` (pyproject.toml maps `schema/` onto the
data-only sub-package `conquian_ref._schema`). Lookup order: the package's `_schema/` first,
then `../schema/` next to the package, which is where they are in a source checkout and in an
editable install.

The files carry no `$id`, and refer to one another by relative reference
("common.schema.json#/$defs/card"): a reference resolves beside the file that holds it, wherever
that file is read from (docs/editors.md says why), so any validator or editor given the file's
path follows it. Here every schema is registered under its file name, which is the same thing.

- `load_schema(name)`: the parsed schema (tests check each against the 2020-12 meta-schema).
  `name` is a file name ("profile.schema.json") or its short form ("profile"). It, `schema_file`,
  `schema_names` and the bundling are spec/schema_files.py's, which imports no validator.
- `validator(name)`: a `jsonschema.Draft202012Validator` for that schema, on its bundled form.
  Its `items` and `properties` keywords first ask a check compiled from the schema (spec/schema_check.py:
  True exactly where jsonschema finds no error) and leave to jsonschema only the values that
  check does not find valid, so the errors are jsonschema's (the corpus validates nine times
  faster).
- `bundled(name)`: the schema as one self-contained document, every `$ref` inlined; for the
  scenario schema it is also shipped as `scenario.bundled.schema.json` (`python -m
  conquian_ref.spec.schemas` writes it again; tests/test_schemas_anywhere.py keeps it in sync).
- `registry()`: a `referencing.Registry` holding every shipped schema under its file name.

Everything is loaded once and cached; the returned objects are shared, so do not mutate them.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator, validators
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .schema_check import Unsure, check_of
from .schema_files import BUNDLED, SUFFIX, _bundled, _file_name, _load, bundled, load_schema, schema_file, schema_names

__all__ = ["BUNDLED", "SUFFIX", "bundled", "bundled_text", "definition_validator", "load_schema", "registry",
           "schema_file", "schema_names", "validator"]


@cache
def registry() -> Registry:
    """Every shipped schema, registered under its file name (the base its references resolve against)."""
    resources = [(name, Resource.from_contents(load_schema(name), default_specification=DRAFT202012)) for name in schema_names()]
    return Registry().with_resources(resources).crawl()


def validator(name: str) -> Draft202012Validator:
    """A Draft 2020-12 validator for schema `name` (its bundled form: the same meaning)."""
    return _validator(_file_name(name))


@cache
def _validator(file_name: str) -> Draft202012Validator:
    return _Fast(_bundled(file_name), registry=registry())


def _fast_items(validator, items, instance, schema):
    """`items` with a shortcut: when the compiled check (spec/schema_check.py) finds every item valid, there
    is nothing to report; otherwise the standard keyword runs, so the errors are exactly
    jsonschema's. jsonschema's walk (a validator evolved for every keyword of every item) cost
    most of the time of reading the corpus: its steps, their actions, and every list of cards."""
    check = check_of(items) if "prefixItems" not in schema else None
    if check is not None and isinstance(instance, list) and _holds(check, instance):
        return
    yield from _items(validator, items, instance, schema)


def _fast_properties(validator, properties, instance, schema):
    """`properties` with the same shortcut for each property: only those whose value the compiled
    check does not find valid are walked (each error is a property's own: the others give none)."""
    if isinstance(instance, dict):
        properties = {
            name: subschema
            for name, subschema in properties.items()
            if name in instance and not _holds(check_of(subschema), [instance[name]])
        }
    yield from _properties_keyword(validator, properties, instance, schema)


def _holds(check, values: list) -> bool:
    """`check` (if any) holds for every value; False where it does not judge one."""
    if check is None:
        return False
    try:
        return all(check(value) for value in values)
    except Unsure:
        return False


_items = Draft202012Validator.VALIDATORS["items"]
_properties_keyword = Draft202012Validator.VALIDATORS["properties"]
_Fast = validators.extend(Draft202012Validator, {"items": _fast_items, "properties": _fast_properties})


def bundled_text(name: str) -> str:
    """The text of the bundled file of schema `name`, as written to `BUNDLED[...]`."""
    file_name = _file_name(name)
    schema = {
        "$schema": _load(file_name)["$schema"],
        "$comment": f"Generated from {file_name} and the schemas it refers to, every $ref inlined, by "
        "`python -m conquian_ref.spec.schemas`: edit the source, not this file.",
        **{k: v for k, v in bundled(file_name).items() if k != "$schema"},
    }
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


@cache
def definition_validator(name: str, pointer: str) -> Draft202012Validator:
    """A validator for one definition inside schema `name`, e.g. ("protocol", "/$defs/requests/setup")."""
    return Draft202012Validator({"$ref": f"{_file_name(name)}#{pointer}"}, registry=registry())


def main() -> None:
    """Write the bundled files (`BUNDLED`) into schema/ of this source checkout."""
    target = Path(__file__).resolve().parents[2] / "schema"
    for source, bundle in BUNDLED.items():
        (target / bundle).write_text(bundled_text(source), encoding="utf-8")
        print(f"wrote {target / bundle}")


if __name__ == "__main__":
    main()
