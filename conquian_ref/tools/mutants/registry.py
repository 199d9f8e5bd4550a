"""The registry of mutants: `@mutant(id, rules, description)` registers one, `MUTANTS` holds
them all in registration order, `reachable_mutants` the ones a scenario can catch."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.game import Game
from ...engine.melds import MeldTable
from .base import MutantAdapter, MutantGame, MutantTable

@dataclass(frozen=True)
class Mutant:
    id: str
    rules: tuple[str, ...]
    description: str
    adapter_class: type
    source: type  # the class as written below (a Game, MutantTable or adapter subclass)
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
        if issubclass(self.source, MutantTable):
            return "meld table"
        if issubclass(self.source, Game):
            return "game"
        if self.source.change_profile is not MutantAdapter.change_profile:
            return "profile"
        return "adapter"


MUTANTS: dict[str, Mutant] = {}


def mutant(id: str, rules: list[str], description: str, unreachable: str = ""):
    """Register the decorated class as the mutant `id` breaking `rules`: a MutantTable subclass
    (wrapped in a MutantGame), a Game subclass (wrapped in a MutantAdapter) or an adapter.
    `unreachable` says why no scenario can catch it; such a mutant is documented, not run."""

    def register(cls):
        assert id not in MUTANTS, f"duplicate mutant id {id}"
        game = cls
        if issubclass(cls, MeldTable):
            game = type(cls.__name__ + "Game", (MutantGame,), {"table_class": cls, "__module__": cls.__module__})
        adapter = cls
        if issubclass(game, Game):
            adapter = type(cls.__name__ + "Adapter", (MutantAdapter,), {"game_class": game, "__module__": cls.__module__})
        MUTANTS[id] = Mutant(id, tuple(rules), description, adapter, cls, unreachable)
        return cls

    return register

def reachable_mutants() -> list[Mutant]:
    """The mutants a scenario can catch: the ones mutation analysis runs by default."""
    return [m for m in MUTANTS.values() if not m.unreachable]

