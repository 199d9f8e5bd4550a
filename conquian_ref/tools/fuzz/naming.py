"""The house rule each divergence of a fuzz run is named by, settled once the run has seen them all.

At a divergence several house rules of the library may explain what the implementation did
equally well (a gap between 7 and J and ranks sorted as text refuse the same run). The campaign
names each divergence at once by the first of them, so that it can tell and shrink a new cause as
it meets one; at the end of the run the names are settled as `check` settles its own
(conquian_ref.conformance.attribution.fewest_house_rules): the fewest house rules that explain
all the run's divergences. A new cause the settling merges into another is dropped, its games
counted under the other; a cause it brings up is reported with its first game, unshrunk.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...conformance.attribution import fewest_house_rules, house_rule_of
from .agent import GameSpec
from .causes import Cause
from .divergence import Divergence


@dataclass
class Seen:
    """One divergence of the run: its cause, the house rules that explain it equally well (none:
    unexplained, or an adapter failure), and the game that showed it."""

    cause: Cause
    explained_by: tuple
    profile_id: str
    game: int
    divergence: Divergence
    spec: GameSpec
    later: bool = False  # seen past its game's first divergence
    whole: GameSpec | None = None  # the whole game (spec is cut at the first divergence, for the shrink)
    finds: int = 0  # how many house rules the run had found when it was diagnosed


def settle(run, known, make_found, echo) -> None:
    """Name every divergence of `run` by the fewest house rules, then recount its causes, its known
    causes and its new ones (`make_found(seen)`: the Found of a cause first met under another name)."""
    explained = [s for s in run.seen if s.explained_by]
    for seen, variant in zip(explained, fewest_house_rules([s.explained_by for s in explained])):
        seen.cause = Cause(house_rule_of(seen.profile_id, variant) or seen.cause.rule, variant.id)
    run.counts = Counter(s.cause for s in run.seen)
    run.known = {}
    found: list = []
    for cause in dict.fromkeys(s.cause for s in run.seen):
        reason = known.match(cause)
        if reason is not None:
            run.known[cause] = reason
            continue
        # A game already reported that shows the cause now (first one shown first: it was shrunk),
        # else the cause's first game.
        same = sorted((f for f in run.found if f.seen.cause == cause), key=lambda f: f.later)
        if same:
            chosen = same[0]
        else:
            chosen = make_found(next(s for s in run.seen if s.cause == cause))
            echo(f"fuzz: {cause}: named when the run's house rules were settled (first seen in game {chosen.game})")
        chosen.cause = cause
        found.append(chosen)
    for dropped in [f for f in run.found if f not in found]:
        echo(f"fuzz: the cause first told in game {dropped.game} is {dropped.seen.cause} (the house rules settled)")
    run.found = found
