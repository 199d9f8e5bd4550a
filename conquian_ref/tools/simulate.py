"""`conquian-ref simulate`: play many seeded random games of a profile and summarise them.

Every game is reproducible on its own: game `i` of a run with seed `S` is dealt from
`deck.shuffled(game_seed(S, i))` with seat `i % n` dealing (n seats), and its random agent draws from
`random.Random(game_seed(S, i, "agent"))`. The agent picks a seat uniformly among
`game.to_act` (two seats may act during the exchange), then an action uniformly among that
seat's `game.legal(seat)`. Rule tracing is off (`game.trace = False`) for speed; it changes
nothing in the play.

Definitions used in the summary:

* an *action* is one accepted `game.apply` (exchange picks included);
* a *turn* is a stretch of play in which the same seat is active (`game.active`): it begins
  with the opening card and whenever the other seat becomes active (after a discard or a
  pass). A reject followed by the next stock card keeps the turn; so does the rival's discard
  after a force (the forcer moves next, RUL-5);
* a *decision* is a point where the agent chose among `game.legal(seat)`; `choices` is the
  number of legal actions it had there (the branching factor).
"""

from __future__ import annotations

import hashlib
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass, field

from ..engine.game import Game
from ..engine.outcome import HOW
from ..engine.profile import Profile
from ..conformance.progress import progress_bar
from .options import emit

MAX_ACTIONS = 100_000  # a deal is finite (exposed cards only grow, rejects use up the stock); guard anyway
PROGRESS_MIN_GAMES = 2_000  # show a progress bar only for runs at least this long (and on a TTY)


def game_seed(seed: int, index: int, purpose: str = "deck") -> int:
    """A 64-bit seed for game `index` of a run seeded with `seed`, independent across games and
    purposes ("deck" for the shuffle, "agent" for the random agent)."""
    digest = hashlib.sha256(f"conquian-ref/{purpose}/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def new_game(profile: Profile, seed: int, index: int) -> Game:
    """Game `index` of a run seeded with `seed`: seeded deck, dealer `index % seats`, tracing off."""
    game = Game.from_seed(profile, game_seed(seed, index), dealer=index % len(profile.seats))
    game.trace = False
    return game


@dataclass
class Played:
    """What one random game came to."""

    actions: int
    turns: int
    decisions: int
    choices: int  # sum of the number of legal actions over the decisions
    max_choices: int


def play_random(game: Game, rng: random.Random) -> Played:
    """Play `game` to its end with uniformly random legal actions."""
    choice = rng.choice
    legal = game.legal
    apply = game.apply
    actions = turns = choices = max_choices = 0
    active = None
    while True:
        to_act = game.to_act
        if not to_act:
            break
        seat = to_act[0] if len(to_act) == 1 else choice(to_act)
        if game.phase != "exchange" and game.active != active:
            active = game.active
            turns += 1
        options = legal(seat)
        n = len(options)
        choices += n
        if n > max_choices:
            max_choices = n
        apply(seat, choice(options))
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError(f"a game did not end after {MAX_ACTIONS} actions (engine bug)")
    return Played(actions, turns, actions, choices, max_choices)


@dataclass
class Summary:
    """The tally of one profile's run; `to_json` is deterministic apart from its `timing` key."""

    profile: str
    games: int
    seed: int
    seats: int = 2
    wins_by_seat: list[int] = field(default_factory=list)
    wins_by_dealer: int = 0
    wins_by_non_dealer: int = 0
    draws: int = 0
    endings: dict[str, int] = field(default_factory=lambda: {how: 0 for how in HOW})
    actions: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    decisions: int = 0
    choices: int = 0
    max_choices: int = 0
    seconds: float = 0.0

    def __post_init__(self):
        self.wins_by_seat = self.wins_by_seat or [0] * self.seats

    def add(self, game: Game, played: Played) -> None:
        outcome = game.outcome
        if outcome.result == "draw":
            self.draws += 1
        else:
            self.wins_by_seat[outcome.winner] += 1
            if outcome.winner == game.dealer:
                self.wins_by_dealer += 1
            else:
                self.wins_by_non_dealer += 1
        self.endings[outcome.how] += 1
        self.actions.append(played.actions)
        self.turns.append(played.turns)
        self.decisions += played.decisions
        self.choices += played.choices
        self.max_choices = max(self.max_choices, played.max_choices)

    def to_json(self) -> dict:
        return {
            "profile": self.profile,
            "games": self.games,
            "seed": self.seed,
            "wins": {f"seat_{seat}": wins for seat, wins in enumerate(self.wins_by_seat)},
            "wins_by_role": {"dealer": self.wins_by_dealer, "non_dealer": self.wins_by_non_dealer},
            "draws": self.draws,
            "endings": dict(self.endings),
            "actions": _distribution(self.actions),
            "turns": _distribution(self.turns),
            "choices_per_decision": {
                "mean": round(self.choices / self.decisions, 3) if self.decisions else 0,
                "max": self.max_choices,
            },
            "timing": {
                "seconds": round(self.seconds, 4),
                "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
            },
        }


def _distribution(values: list[int]) -> dict:
    if not values:
        return {"mean": 0, "median": 0, "min": 0, "max": 0}
    return {
        "mean": round(statistics.fmean(values), 3),
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
    }


def simulate(profile: Profile, games: int, seed: int, progress: bool | None = None) -> Summary:
    """Play `games` random games of `profile` from `seed`. `progress`: None shows a bar on stderr
    for long runs on a TTY; True / False force it on or off."""
    if progress is None:
        progress = games >= PROGRESS_MIN_GAMES and sys.stderr.isatty()
    summary = Summary(profile.id, games, seed, seats=len(profile.seats))
    bar = progress_bar(games, "game", progress, desc=profile.id)
    start = time.perf_counter()
    try:
        for i in range(games):
            game = new_game(profile, seed, i)
            summary.add(game, play_random(game, random.Random(game_seed(seed, i, "agent"))))
            bar.update(1)
    finally:
        bar.close()
    summary.seconds = time.perf_counter() - start
    return summary


# -- output ------------------------------------------------------------------------------------
def _pct(n: int, total: int) -> str:
    return f"{n} ({100 * n / total:.1f}%)" if total else str(n)


def format_summary(s: Summary) -> str:
    """The human-readable summary; only its last line (speed) depends on timing."""
    data = s.to_json()
    a, t, c = data["actions"], data["turns"], data["choices_per_decision"]
    n = s.games
    endings = "   ".join(f"{how} {_pct(k, n)}" for how, k in s.endings.items())
    timing = data["timing"]
    rate = f"{timing['games_per_second']:,.0f} games/s" if timing["games_per_second"] else "n/a"
    return "\n".join(
        [
            f"{s.profile}: {n} random games, seed {s.seed} (dealer alternates; random legal actions)",
            "  wins      " + "   ".join(f"seat {seat}: {_pct(w, n)}" for seat, w in enumerate(s.wins_by_seat)) + f"   draws: {_pct(s.draws, n)}",
            f"  by role   dealer: {_pct(s.wins_by_dealer, n)}   non-dealer: {_pct(s.wins_by_non_dealer, n)}",
            f"  endings   {endings}",
            f"  actions   mean {a['mean']:.1f}   median {a['median']:g}   min {a['min']}   max {a['max']}",
            f"  turns     mean {t['mean']:.1f}   median {t['median']:g}   min {t['min']}   max {t['max']}",
            f"  choices   mean {c['mean']:.2f} legal actions per decision, max {c['max']}",
            f"  speed     {timing['seconds']:.2f} s, {rate}",
        ]
    )


def run(profiles: list[Profile], games: int, seed: int, json_path: str | None = None, out=None) -> int:
    """The `simulate` command: one summary per profile, as text or as one JSON document (--json)."""
    summaries = [simulate(p, games, seed) for p in profiles]
    emit(
        json_path,
        lambda: {"games": games, "seed": seed, "profiles": [s.to_json() for s in summaries]},
        lambda: "\n\n".join(format_summary(s) for s in summaries),
        out,
    )
    return 0
