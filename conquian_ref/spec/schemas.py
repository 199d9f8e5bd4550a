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

- `load_schema(name)`: the parsed schema (tests check each against the 2020-12 meta-schema). `name` is
  a file name ("profile.schema.json") or its short form ("profile").
- `validator(name)`: a `jsonschema.Draft202012Validator` for that schema, on its bundled form.
  Its `items` and `properties` keywords first ask a check compiled from the schema (`_compiled`:
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
import numbers
import re
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator, validators
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
    """`items` with a shortcut: when a compiled check (`_compiled`) finds every item valid, there
    is nothing to report; otherwise the standard keyword runs, so the errors are exactly
    jsonschema's. jsonschema's walk (a validator evolved for every keyword of every item) cost
    most of the time of reading the corpus: its steps, their actions, and every list of cards."""
    check = _check_of(items) if "prefixItems" not in schema else None
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
            if name in instance and not _holds(_check_of(subschema), [instance[name]])
        }
    yield from _properties_keyword(validator, properties, instance, schema)


def _holds(check, values: list) -> bool:
    """`check` (if any) holds for every value; False where it does not judge one."""
    if check is None:
        return False
    try:
        return all(check(value) for value in values)
    except _Unsure:
        return False


_items = Draft202012Validator.VALIDATORS["items"]
_properties_keyword = Draft202012Validator.VALIDATORS["properties"]
_Fast = validators.extend(Draft202012Validator, {"items": _fast_items, "properties": _fast_properties})


# -- the compiled check ----------------------------------------------------------------------------
# Written here rather than taken from a library, and only as a shortcut for jsonschema, never in
# its place: fastjsonschema (which compiles schemas the same way) implements drafts 4 to 7, not
# 2020-12; jsonschema-rs would judge with its own regular-expression dialect and number rules,
# so a file could pass the shortcut and fail jsonschema. This check only says "valid" where
# jsonschema would (tests/test_schemas_anywhere.py compares the two on the corpus and on mutated
# values); every other value, and every error message, is jsonschema's.
class _Unsure(Exception):
    """An instance the compiled check does not judge (uniqueItems over items that are not strings):
    jsonschema judges it."""


_CHECKS: dict[int, tuple[object, object]] = {}  # id(schema) -> (schema, its check or None); the schemas are cached


def _check_of(schema):
    """The compiled check of `schema`, compiled once (None: it has a keyword the compiler does not know)."""
    if id(schema) not in _CHECKS:
        _CHECKS[id(schema)] = (schema, _compiled(schema))
    return _CHECKS[id(schema)][1]


def _compiled(schema):
    """A function of an instance: True exactly where Draft 2020-12 validation against `schema`
    finds no error (as jsonschema's Draft202012Validator implements each keyword, its type
    checker included), for the keywords of `_KEYWORDS` (those of the shipped schemas); None if
    the schema has another keyword ($ref, format, unevaluated*, ...)."""
    if isinstance(schema, bool):
        return lambda instance: schema
    if not isinstance(schema, dict):
        return None
    checks = []
    for keyword, value in schema.items():
        if keyword in _ANNOTATIONS:
            continue
        check = _KEYWORDS[keyword](value, schema) if keyword in _KEYWORDS else None
        if check is None:
            return None
        checks.append(check)
    return checks[0] if len(checks) == 1 else _every(checks)


# The hot checks are loops: all() over a generator cost a third more.
def _every(checks):
    def every(instance):
        for check in checks:
            if not check(instance):
                return False
        return True

    return every


def _all_compiled(schemas):
    checks = [_compiled(each) for each in schemas]
    return None if None in checks else checks


def _is_integer(instance) -> bool:
    if isinstance(instance, bool):
        return False
    return isinstance(instance, int) or (isinstance(instance, float) and instance.is_integer())


def _is_number(instance) -> bool:
    return not isinstance(instance, bool) and isinstance(instance, numbers.Number)


_TYPES = {  # jsonschema's Draft 2020-12 type checker
    "array": lambda instance: isinstance(instance, list),
    "boolean": lambda instance: isinstance(instance, bool),
    "integer": _is_integer,
    "null": lambda instance: instance is None,
    "number": _is_number,
    "object": lambda instance: isinstance(instance, dict),
    "string": lambda instance: isinstance(instance, str),
}
# Keywords that do not validate (`then` and `else` are read by `if`).
_ANNOTATIONS = {"$schema", "$comment", "$defs", "title", "description", "default", "examples", "deprecated", "then", "else"}


def _type(names, schema):
    names = [names] if isinstance(names, str) else names
    if not all(name in _TYPES for name in names):
        return None
    tests = [_TYPES[name] for name in names]
    return tests[0] if len(tests) == 1 else lambda instance: any(test(instance) for test in tests)


def _enum(members, schema):
    # jsonschema's equality, for members that are strings or integers: ==, except that a bool is
    # not a number (True is not 1); other members are left to it
    if not all(isinstance(member, (str, int)) and not isinstance(member, bool) for member in members):
        return None
    members = frozenset(members)

    def is_member(instance):
        if isinstance(instance, (str, int, float)) and not isinstance(instance, bool):
            return instance in members
        if instance is None or isinstance(instance, (bool, list, dict)):
            return False
        raise _Unsure  # another type (a Decimal): its == is its own

    return is_member


def _unique(instance) -> bool:
    if not all(isinstance(item, str) for item in instance):
        raise _Unsure  # jsonschema's equality (1 is not True, but 1 is 1.0) is its own
    return len(set(instance)) == len(instance)


def _properties(properties, schema):
    checks = _all_compiled(properties.values())
    if checks is None:
        return None
    pairs = list(zip(properties, checks))

    def each_property(instance):
        if isinstance(instance, dict):
            for name, check in pairs:
                if name in instance and not check(instance[name]):
                    return False
        return True

    return each_property


def _additional(additional, schema):
    check = _compiled(additional)
    if check is None or "patternProperties" in schema:
        return None
    known = schema.get("properties", {})
    return lambda instance: not isinstance(instance, dict) or all(check(value) for name, value in instance.items() if name not in known)


def _items_of(items, schema):
    check = _compiled(items)
    if check is None or "prefixItems" in schema:
        return None

    def each_item(instance):
        if isinstance(instance, list):
            for item in instance:
                if not check(item):
                    return False
        return True

    return each_item


def _if(condition, schema):
    checks = _all_compiled([condition, schema.get("then", True), schema.get("else", True)])
    if checks is None:
        return None
    when, then, else_ = checks
    return lambda instance: then(instance) if when(instance) else else_(instance)


def _combined(keyword):
    def compile_(schemas, schema):
        checks = _all_compiled(schemas)
        if checks is None:
            return None
        if keyword == "allOf":
            return _every(checks)
        if keyword == "anyOf":
            return lambda instance: any(check(instance) for check in checks)
        return lambda instance: sum(1 for check in checks if check(instance)) == 1  # oneOf

    return compile_


def _not(not_schema, schema):
    check = _compiled(not_schema)
    return None if check is None else lambda instance: not check(instance)


def _sized(kind, at_least: bool):
    """minItems and the like: a bound on len() of the instances of one type."""

    def compile_(bound, schema):
        if at_least:
            return lambda instance: not isinstance(instance, kind) or len(instance) >= bound
        return lambda instance: not isinstance(instance, kind) or len(instance) <= bound

    return compile_


_KEYWORDS = {
    "type": _type,
    "enum": _enum,
    "const": lambda const, schema: _enum([const], schema),
    "pattern": lambda pattern, schema: (lambda instance, search=re.compile(pattern).search: not isinstance(instance, str) or search(instance) is not None),
    "minLength": _sized(str, True),
    "maxLength": _sized(str, False),
    "minItems": _sized(list, True),
    "maxItems": _sized(list, False),
    "minProperties": _sized(dict, True),
    # `not <`, as jsonschema tests it (nan is no less than anything)
    "minimum": lambda bound, schema: (lambda instance: not _is_number(instance) or not instance < bound),
    "maximum": lambda bound, schema: (lambda instance: not _is_number(instance) or not instance > bound),
    "uniqueItems": lambda unique, schema: (lambda instance: not unique or not isinstance(instance, list) or _unique(instance)),
    "required": lambda names, schema: (lambda instance: not isinstance(instance, dict) or all(name in instance for name in names)),
    "dependentRequired": lambda dependencies, schema: (
        lambda instance: not isinstance(instance, dict)
        or all(name in instance for key, names in dependencies.items() if key in instance for name in names)
    ),
    "properties": _properties,
    "additionalProperties": _additional,
    "items": _items_of,
    "if": _if,
    "allOf": _combined("allOf"),
    "anyOf": _combined("anyOf"),
    "oneOf": _combined("oneOf"),
    "not": _not,
}


def bundled(name: str) -> dict:
    """Schema `name` as one self-contained document: every `$ref` inlined (except where a
    definition refers back to itself; no shipped schema does), no `$defs` left to refer to."""
    schema = _bundled(_file_name(name))
    body = {k: v for k, v in schema.items() if k != "$defs"}
    # A recursive definition would stay behind its $ref, with the $defs it needs.
    return schema if '"$ref"' in json.dumps(body) else body


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
    return Draft202012Validator({"$ref": f"{_file_name(name)}#{pointer}"}, registry=registry())


def main() -> None:
    """Write the bundled files (`BUNDLED`) into schema/ of this source checkout."""
    target = Path(__file__).resolve().parents[2] / "schema"
    for source, bundle in BUNDLED.items():
        (target / bundle).write_text(bundled_text(source), encoding="utf-8")
        print(f"wrote {target / bundle}")


if __name__ == "__main__":
    main()
