"""The registry of mutants: `mutant(id, rules, description, ...)` registers one as a house rule
(`Variant`) of the reference, `MUTANTS` holds them all in registration order,
`reachable_mutants` the ones a scenario can catch."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

from ...conformance.adapter import ReferenceAdapter
from ...conformance.reference import Reference
from ...engine.ruleset import Variant

# What a mutant replaces, by the first part of a row's name in the rule set (the report's `kind`).
KINDS = {
    "steps": "transition",
    "refusals": "refusal",
    "phases": "phase",
    "policies": "policy",
    "melds": "meld table",
    "deal": "deal",
    "observe": "observation",
    "match": "match",
}


@dataclass(frozen=True)
class Mutant:
    id: str
    rules: tuple[str, ...]
    description: str
    variant: Variant | None  # None: an adapter mutant (`adapter` changes a protocol answer)
    adapter: type | None = None  # a MutantAdapter subclass, for the adapter mutants only
    unreachable: str = ""  # why no scenario can catch it (the corpus format cannot say it); "" if it can

    @property
    def factory_name(self) -> str:
        return "adapter_for_" + self.id.replace("-", "_")

    @property
    def impl(self) -> str:
        """The --impl value that runs this mutant in direct mode."""
        return f"python:{__package__}:{self.factory_name}"

    @property
    def kind(self) -> str:
        if self.variant is None:
            return "adapter"
        if self.variant.profile:
            return "profile"
        return KINDS[next(iter(self.variant.replaces)).partition(".")[0]]

    def factory(self) -> ReferenceAdapter:
        """A protocol adapter over the reference with this mutant's house rule."""
        if self.adapter is not None:
            return self.adapter()
        return ReferenceAdapter(Reference(variants=(self.variant,), trace=False))


MUTANTS: dict[str, Mutant] = {}


def mutant(
    id: str,
    rules: list[str],
    description: str,
    *,
    replaces: Mapping[str, object] | None = None,
    profile: Mapping[str, object] | Callable | None = None,
    adapter: type | None = None,
    unreachable: str = "",
    rule: str | None = None,
) -> Mutant:
    """Register the mutant `id` breaking `rules` (the first is the rule it changes): a variant
    replacing rows of the rule set (`replaces`) or fields of the profile (`profile`: a mapping, or
    a function of the loaded profile giving the fields to change, {} to change none), or an
    `adapter` changing one protocol answer. `unreachable` says why no scenario can catch it; such
    a mutant is documented, not run. `rule`: the rule the variant changes where it is not the
    first of `rules` (a key of the profile's `rules:`, for a house rule whose rule differs by
    profile)."""
    assert id not in MUTANTS, f"duplicate mutant id {id}"
    variant = None
    if adapter is None:
        variant = Variant(id, rule or rules[0], description, replaces=replaces or {}, profile=profile or {})
    MUTANTS[id] = Mutant(id, tuple(rules), description, variant, adapter, unreachable)
    return MUTANTS[id]


def reachable_mutants() -> list[Mutant]:
    """The mutants a scenario can catch: the ones mutation analysis runs by default."""
    return [m for m in MUTANTS.values() if not m.unreachable]
