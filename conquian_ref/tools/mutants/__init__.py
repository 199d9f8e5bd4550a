"""Deliberately wrong engines, one broken rule each: the mutants of the corpus' mutation analysis.

Each mutant is the reference engine with exactly ONE rule read wrongly, built without touching
the engine modules: a small subclass of `Game` overriding one method (or two that must agree),
a `MutantTable` with a changed list of melds, a copy of a profile with one field changed, or a
`MutantAdapter` changing one answer of the protocol (observation, match); the building blocks
are in `base`. Every mutant is registered with `@mutant(id, rules, description)` (`registry`):
the rule ids it breaks and a one-line description; the comment in its body quotes the rule it
breaks. The mutants live in one module per rule area:

| module | rules |
|---|---|
| `cards_and_melds` | the deck and notation, melds, sets, runs, the arrangement |
| `deal_and_exchange` | the deal, the exchange, the opening |
| `turn` | use and discard, reject and reveal, pass |
| `forcing` | forcing onto the rival, the rival's option, after a force |
| `end_and_reasons` | the end of a deal, turn order, the reason codes and their precedence |
| `observation_and_match` | the observation, the match |

The corpus must catch every mutant: replayed against it (conquian_ref.tools.mutation, `conquian-ref
mutants`), at least one scenario that the reference passes must fail. A mutant that survives
shows a rule that no scenario really pins down.

Each mutant is reachable through the protocol's direct mode as
`python:conquian_ref.tools.mutants:adapter_for_<id with "_" for "-">`, e.g.
`conquian-ref check --impl python:conquian_ref.tools.mutants:adapter_for_run_wraps`.

Mutants that cannot be told apart from the reference by any game (equivalent mutants) are left
out on purpose; docs/mutation.md lists them (for instance the run maximum, RUL-2).
"""

from __future__ import annotations

# The area modules register their mutants when imported, in this order (the report's order).
from . import house_rules as house_rules_area  # noqa: F401  (first: the first hypotheses a diagnosis tries)
from . import cards_and_melds, deal_and_exchange, turn, forcing, end_and_reasons, observation_and_match  # noqa: F401
from .base import MutantAdapter, MutantTable
from .registry import MUTANTS, Mutant, mutant, reachable_mutants

AREAS = (house_rules_area, cards_and_melds, deal_and_exchange, turn, forcing, end_and_reasons, observation_and_match)

__all__ = ["AREAS", "MUTANTS", "Mutant", "MutantAdapter", "MutantTable", "house_rules", "house_rules_named", "mutant",
           "reachable_mutants"]


def house_rules() -> tuple:
    """The library of house rules the diagnosis tries at a divergence (conformance.attribution):
    every mutant that is a variant of the reference, in registration order."""
    return tuple(m.variant for m in MUTANTS.values() if m.variant is not None)


def house_rules_named(known) -> tuple:
    """The house rules that a known-failures file's `house_rule:` entries name, as variants, in the
    file's order; ConquianError (file:line) for a name the library does not know, with the
    nearest name (a typo would otherwise silence nothing and pass unnoticed)."""
    import difflib

    from ...engine.errors import ConquianError

    library = {variant.id: variant for variant in house_rules()}
    named = []
    for entry in known.entries:
        if entry.kind != "house_rule":
            continue
        if entry.value not in library:
            close = difflib.get_close_matches(entry.value, list(library), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else " (docs/mutation.md lists them)"
            raise ConquianError(f"{entry.where}: house_rule: no house rule {entry.value!r} in the library{hint}")
        named.append(library[entry.value])
    return tuple(named)


def __getattr__(name: str):
    """`adapter_for_<id>`: the factory of a mutant's adapter, for `python:MODULE:FACTORY`."""
    for m in MUTANTS.values():
        if m.factory_name == name:
            return m.factory
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
