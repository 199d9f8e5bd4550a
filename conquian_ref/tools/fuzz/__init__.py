"""`conquian-ref fuzz`: differential fuzzing of an implementation against the reference engine.

Random deals are played in lockstep on the reference engine and on the implementation under
test, compared by the capabilities the implementation declared; each new cause of divergence is
shrunk with Hypothesis to a minimal game and written as its own draft scenario to review
(docs/fuzzing.md). One module a job:

* agent.py: what a game is (deck, dealer, step choices) and how a choice becomes an action;
* divergence.py: what a divergence is, its description;
* causes.py: the cause of a divergence (its stable signature);
* known.py: the known failures that apply to random games (by cause, by rule id);
* compare.py: the comparison of one step, per capability;
* planning.py: a game as the reference plays it, step by step;
* lockstep.py: one game played on both sides (planned, then pipelined);
* texts.py: the request bytes the fuzzer writes and the answer bytes it expects;
* shrink.py: the Hypothesis shrink;
* draft.py: the draft scenario, its id and its YAML text;
* campaign.py: a run over many games (shards, causes), its report and the reproduction command;
* command.py: the command-line options.
"""

from .campaign import FuzzRun, reproduce_command, run_fuzz, shard_games
from .causes import Cause, cause_of
from .command import configure, parse_shard
from .known import read_known

__all__ = ["Cause", "FuzzRun", "cause_of", "configure", "parse_shard", "read_known", "reproduce_command", "run_fuzz", "shard_games"]
