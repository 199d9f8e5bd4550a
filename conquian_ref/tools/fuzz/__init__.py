"""`conquian-ref fuzz`: differential fuzzing of an implementation against the reference engine.

Random deals are played in lockstep on the reference engine and on the implementation under
test, compared at every step by the capabilities the implementation declared; the first
divergence is shrunk with Hypothesis to a minimal game and written as a draft scenario to
review (docs/fuzzing.md). One module a job:

* agent.py: what a game is (deck, dealer, step choices) and how a choice becomes an action;
* divergence.py: what a divergence is, its shrinking signature, its description;
* compare.py: the comparison of one step, per capability;
* lockstep.py: one game played on both sides;
* shrink.py: the Hypothesis shrink;
* draft.py: the draft scenario, its id and its YAML text;
* campaign.py: a run over many games, its report and the reproduction command;
* command.py: the command-line options.
"""

from .campaign import FuzzRun, reproduce_command, run_fuzz
from .command import configure

__all__ = ["FuzzRun", "configure", "reproduce_command", "run_fuzz"]
