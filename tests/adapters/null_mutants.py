"""Mutants that change nothing: each building block of conquian_ref/tools/mutants/base.py used
with no change at all. The whole corpus must pass against each; otherwise a scenario would
"catch" every mutant built on that block for the harness's sake, not the mutation's
(tests/test_mutants.py). Each rule set below replaces rows by themselves, so the engine takes the
paths a house rule takes (a replaced refusal row is asked for every candidate, a replaced phase
row's candidates are checked in full)."""

from conquian_ref.conformance.adapter import ReferenceAdapter
from conquian_ref.conformance.reference import Reference
from conquian_ref.engine.match import Match
from conquian_ref.engine.phases import PHASES
from conquian_ref.engine.refusals import REFUSALS
from conquian_ref.engine.ruleset import Variant
from conquian_ref.engine.transitions import STEPS
from conquian_ref.tools.mutants.base import MutantAdapter, MutantTable, observation, phase, reference_step, refusal, step, table

SAME_ROWS = Variant("same-rows", "C-TURN-1", "every step, refusal and phase row replaced by itself", replaces={
    **{f"steps.{name}": step(name, reference_step(name)) for name in STEPS},
    **{f"refusals.{row.code}": refusal(row.code, lambda game, seat, act, reference: reference(game, seat, act)) for row in REFUSALS if row.condition},
    **{f"phases.{name}": phase(name) for name in PHASES},
})
SAME_TABLE = Variant("same-table", "C-MELD-1", "the meld table rebuilt with every meld, none added", replaces={"melds": table(MutantTable)})
SAME_ANSWERS = Variant("same-answers", "C-OBS-1", "the observation and the match unchanged", replaces={
    "observe": observation(lambda game, obs: None), "match": Match,
})


def SameRowsAdapter():
    return ReferenceAdapter(Reference(variants=(SAME_ROWS,)))


def SameTableAdapter():
    return ReferenceAdapter(Reference(variants=(SAME_TABLE,)))


def SameAnswersAdapter():
    return ReferenceAdapter(Reference(variants=(SAME_ANSWERS,)))


class SameAdapter(MutantAdapter):
    """The mutant adapter with no variant and no answer changed."""
