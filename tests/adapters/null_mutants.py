"""Mutants that change nothing: each building block of conquian_ref/tools/mutants/base.py used
with no change at all. The whole corpus must pass against each; otherwise a scenario would
"catch" every mutant built on that block for the harness's sake, not the mutation's
(tests/test_mutants.py)."""

from conquian_ref.tools.mutants.base import MutantAdapter, MutantGame, MutantTable


class SameRefusals(MutantGame):
    def _refusal(self, seat, act):  # overridden, so that legal() lists by the mutants' own path
        return super()._refusal(seat, act)


class SameRefusalsAdapter(MutantAdapter):
    game_class = SameRefusals


class SameTable(MutantGame):
    table_class = MutantTable  # keeps every meld, adds none


class SameTableAdapter(MutantAdapter):
    game_class = SameTable


class SameAdapter(MutantAdapter):
    """The mutant adapter with no profile, observation or match change."""
