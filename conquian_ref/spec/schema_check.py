"""The compiled check of a JSON Schema: a function of an instance, True exactly where Draft
2020-12 validation (as jsonschema implements it) finds no error.

conquian_ref.spec.schemas asks it before jsonschema for each list item and each property, and
leaves to jsonschema only what it does not find valid, so every error message stays jsonschema's
while the corpus validates about nine times faster. `compiled(schema)` is None for a schema with
a keyword not in `KEYWORDS` ($ref, format, unevaluated*, ...); `check_of` compiles each schema
once; a check raises `Unsure` on an instance it does not judge (jsonschema judges it).
"""

from __future__ import annotations

import numbers
import re

# Written here rather than taken from a library, and only as a shortcut for jsonschema, never in
# its place: fastjsonschema (which compiles schemas the same way) implements drafts 4 to 7, not
# 2020-12; jsonschema-rs would judge with its own regular-expression dialect and number rules,
# so a file could pass the shortcut and fail jsonschema. This check only says "valid" where
# jsonschema would (tests/test_schemas_anywhere.py compares the two on the corpus and on mutated
# values); every other value, and every error message, is jsonschema's.
class Unsure(Exception):
    """An instance the compiled check does not judge (uniqueItems over items that are not strings):
    jsonschema judges it."""


_CHECKS: dict[int, tuple[object, object]] = {}  # id(schema) -> (schema, its check or None); the schemas are cached


def check_of(schema):
    """The compiled check of `schema`, compiled once (None: it has a keyword the compiler does not know)."""
    if id(schema) not in _CHECKS:
        _CHECKS[id(schema)] = (schema, compiled(schema))
    return _CHECKS[id(schema)][1]


def compiled(schema):
    """A function of an instance: True exactly where Draft 2020-12 validation against `schema`
    finds no error (as jsonschema's Draft202012Validator implements each keyword, its type
    checker included), for the keywords of `KEYWORDS` (those of the shipped schemas); None if
    the schema has another keyword ($ref, format, unevaluated*, ...)."""
    if isinstance(schema, bool):
        return lambda instance: schema
    if not isinstance(schema, dict):
        return None
    checks = []
    for keyword, value in schema.items():
        if keyword in _ANNOTATIONS:
            continue
        check = KEYWORDS[keyword](value, schema) if keyword in KEYWORDS else None
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
    checks = [compiled(each) for each in schemas]
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
        raise Unsure  # another type (a Decimal): its == is its own

    return is_member


def _unique(instance) -> bool:
    if not all(isinstance(item, str) for item in instance):
        raise Unsure  # jsonschema's equality (1 is not True, but 1 is 1.0) is its own
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
    check = compiled(additional)
    if check is None or "patternProperties" in schema:
        return None
    known = schema.get("properties", {})
    return lambda instance: not isinstance(instance, dict) or all(check(value) for name, value in instance.items() if name not in known)


def _items_of(items, schema):
    check = compiled(items)
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
    check = compiled(not_schema)
    return None if check is None else lambda instance: not check(instance)


def _sized(kind, at_least: bool):
    """minItems and the like: a bound on len() of the instances of one type."""

    def compile_(bound, schema):
        if at_least:
            return lambda instance: not isinstance(instance, kind) or len(instance) >= bound
        return lambda instance: not isinstance(instance, kind) or len(instance) <= bound

    return compile_


KEYWORDS = {
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
