"""A fuzz run: connect, play the games of each profile, and report each cause of divergence.

Reproducibility: game `g` of a run seeded with `S` under profile `P` is dealt from
`deck.shuffled(game_seed(S, g, "fuzz-deck/P"))` with dealer `g % 2`, and its agent draws from
`random.Random(game_seed(S, g, "fuzz-agent/P"))`; `--game G --games 1` replays game G alone
(`reproduce_command`), and a game is the same whichever shard plays it (`--shard K/N` plays
the games g with g % N == K - 1, `shard_games`).

The run keeps going after a divergence: each divergence has a cause, named as `check` names one
(diagnose.py: the house rule of the library that plays as the implementation does, or the rule
that governs what differs), and where the implementation can be put at a position, the game is
followed past each divergence, so a known cause never hides a later one. The first game of a new
cause is shrunk (shrink.py) and written as its own draft scenario (draft.py) to `--out`; a cause
seen past a game's first divergence is written unshrunk, with a note. A cause already found or
listed in `--known-failures` (known.py) is only counted; a house rule listed there is played by
the reference itself (lockstep.py), so everything else is checked exactly. The run stops once
`--causes N` new causes are found, or when the games are played.
"""

from __future__ import annotations

import random
import secrets
import shlex
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ...conformance.client import DEFAULT_TIMEOUT, REFERENCE, Connection, describe_command
from ...conformance.failures import AdapterFailure
from ...conformance.progress import progress_bar
from ...engine.errors import ConquianError
from ...engine.ruleset import Variant
from ..simulate import game_seed
from .agent import AgentSource, GameSpec
from .causes import Cause
from .divergence import Divergence
from .draft import free_id, scenario_data, scenario_text
from .known import FuzzKnown
from .lockstep import Lockstep, Pending
from .planning import plan
from .diagnose import look_again, seen_in_game
from .naming import Seen, settle
from .shrink import Shrunk, shrink

DEFAULT_OUT = "fuzz-out"
DEFAULT_SHRINK_SECONDS = 60.0
STUB = (
    "NEEDS REVIEW: recorded from the reference engine by conquian-ref fuzz (seed {seed}, game {game}); "
    "a person must check each expectation against the rules before this scenario joins the corpus."
)


@dataclass
class Found:
    """A new cause: the first game that showed it, shrunk and written as a draft."""

    cause: Cause
    profile_id: str
    game: int
    divergence: Divergence  # as first found
    original: GameSpec
    seen: Seen  # the divergence it was first told by (naming.py)
    shrunk: Shrunk | None = None
    scenario: Path | None = None
    problems: list = field(default_factory=list)  # lint problems of the written scenario (none expected)
    reproduce: str = ""

    @property
    def later(self) -> bool:
        """Seen past its game's first divergence (not shrunk: its game shows another cause first)."""
        return self.seen.later


@dataclass
class FuzzRun:
    impl: str
    seed: int
    profiles: list[str]
    first_game: int
    games_per_profile: int
    shard: tuple[int, int] = (1, 1)
    games: int = 0  # games played
    actions: int = 0  # actions applied
    found: list[Found] = field(default_factory=list)  # the new causes, in the order found
    counts: Counter = field(default_factory=Counter)  # divergences per cause, new and known
    known: dict[Cause, str] = field(default_factory=dict)  # the known causes seen, with their entry's reason
    replays: int = 0  # games played again with every step checked (to find a first divergence)
    house_rules: list = field(default_factory=list)  # the house rules found so far: tried first at every divergence
    seen: list[Seen] = field(default_factory=list)  # every divergence, with its cause (naming.py)
    seconds: float = 0.0  # wall-clock time of playing the games (after the handshake; shrinks included)

    # The first new cause, under the names of a run that stopped at its first divergence.
    @property
    def divergence(self) -> Divergence | None:
        return self.found[0].divergence if self.found else None

    @property
    def scenario(self) -> Path | None:
        return self.found[0].scenario if self.found else None

    @property
    def shrunk(self) -> Shrunk | None:
        return self.found[0].shrunk if self.found else None

    @property
    def game(self) -> int | None:
        return self.found[0].game if self.found else None

    @property
    def divergences(self) -> int:
        return sum(self.counts.values())

    @property
    def exit_status(self) -> int:
        return 1 if self.found else 0

    def summary_line(self) -> str:
        head = f"fuzz: {self.games} game{'s' * (self.games != 1)}, {self.actions} actions"
        n = self.divergences
        if not n:
            return f"{head}, 0 divergences"
        known = sum(self.counts[c] for c in self.known)
        written = [str(f.scenario) for f in self.found if f.scenario]
        drafts = f" (draft{'s' * (len(written) != 1)}: {', '.join(written)})" if written else ""
        return (
            f"{head}, {n} divergence{'s' * (n != 1)}: {len(self.found)} new cause{'s' * (len(self.found) != 1)}{drafts}, "
            f"{known} known ({len(self.known)} known cause{'s' * (len(self.known) != 1)})"
        )


def shard_games(first_game: int, games: int, shard: tuple[int, int]) -> range:
    """The games of shard K of N among games first_game .. first_game + games - 1: those g with
    g % N == K - 1. The N shards partition the range, and a game is the same in every shard."""
    k, n = shard
    start = first_game + (k - 1 - first_game) % n
    return range(start, first_game + games, n)


def reproduce_command(impl: str, profile: str, seed: int, game: int, out: str | None, timeout: float | None) -> str:
    """The command line that replays game `game` of the run alone, with the version it needs."""
    from ... import __version__

    parts = ["conquian-ref fuzz", f"--impl {shlex.quote(impl)}", f"--profile {profile}", f"--seed {seed}", f"--game {game}", "--games 1"]
    if out is not None and out != DEFAULT_OUT:
        parts.append(f"--out {shlex.quote(str(out))}")
    if timeout is not None and timeout != DEFAULT_TIMEOUT:
        parts.append(f"--timeout {timeout:g}")
    # A seed plays the same game only under the same version (issue 22, friction 14): said as a
    # shell comment, so the line still runs as pasted.
    return " ".join(parts) + f"  # conquian-ref {__version__}"


def run_fuzz(
    impl: str = REFERENCE,
    profile: str = "all",
    games: int = 100,
    seed: int | None = None,
    first_game: int = 0,
    out: Path | str = DEFAULT_OUT,
    timeout: float | None = None,
    shrink_seconds: float = DEFAULT_SHRINK_SECONDS,
    progress: bool = False,
    echo: Callable[[str], None] = print,
    causes: int = 1,
    known: FuzzKnown | None = None,
    shard: tuple[int, int] = (1, 1),
    every_step: bool = False,
    hypotheses: tuple[Variant, ...] = (),
) -> FuzzRun:
    """Fuzz `impl` against the reference until `causes` new causes of divergence are found (each
    shrunk and written to `out`) or the games are played; `known` causes are counted only.
    `hypotheses`: the house rules that may explain a divergence (the CLI passes the library).
    ConquianError (one line) when the implementation cannot be fuzzed at all."""
    if seed is None:
        seed = secrets.randbelow(2**32)
    known = known or FuzzKnown()
    conn = _connect(impl, timeout)
    try:
        handshake = conn.handshake
        chosen = _profiles_to_fuzz(profile, handshake.profiles, impl)
        run = FuzzRun(impl, seed, chosen, first_game, games, shard)
        span = f"games {first_game}..{first_game + games - 1}" + (f" (shard {shard[0]}/{shard[1]})" if shard[1] > 1 else "")
        echo(
            f"fuzz: {describe_command(impl)} ({handshake.name}); seed {seed}; profiles {', '.join(chosen)}; "
            f"{span}; capabilities {', '.join(sorted(handshake.capabilities))}"
        )
        if known.by_id:
            echo(f"fuzz: {known.by_id} known-failure entr{'ies' if known.by_id != 1 else 'y'} by scenario id left aside (they do not apply to random games)")
        lockstep = Lockstep(conn, known.variants)
        if known.variants:
            echo(f"fuzz: the reference plays the known house rule(s) {', '.join(v.id for v in known.variants)}")
        report = lambda found: _report(run, found, lockstep, out, timeout, shrink_seconds, echo)  # noqa: E731
        started = time.perf_counter()
        _play_games(run, lockstep, known, causes, every_step, report, progress, tuple(hypotheses))
        if hypotheses:
            look_again(run, lockstep, tuple(hypotheses))
        settle(run, known, lambda seen: _found(run, seen, timeout, out), echo)
        for found in run.found:
            _write_draft(run, found, lockstep, handshake, out, echo)
        run.seconds = time.perf_counter() - started
        run.replays = lockstep.replays
        for cause, n in run.counts.most_common():
            status = f"known: {run.known[cause]}" if cause in run.known else "new"
            echo(f"fuzz: {n:6d} x {cause} ({status})")
        echo(run.summary_line())
        return run
    finally:
        conn.close()


def _connect(impl: str, timeout: float | None) -> Connection:
    """A started connection to the implementation; ConquianError if the handshake fails."""
    conn = Connection(impl, timeout or DEFAULT_TIMEOUT)
    try:
        conn.start()
    except AdapterFailure as exc:
        conn.close()
        tail = " | ".join(exc.stderr.strip().splitlines()[-3:])
        tail = f" (adapter stderr: {tail})" if tail else ""
        raise ConquianError(f"the implementation {describe_command(impl)} failed the handshake: {exc}{tail}") from None
    return conn


def _profiles_to_fuzz(profile: str, supported: list[str], impl: str) -> list[str]:
    """The profiles named by --profile that the implementation supports; ConquianError if none."""
    from ...spec.profiles import PROFILE_IDS, unknown_profile

    if profile != "all" and profile not in PROFILE_IDS:
        raise ConquianError(unknown_profile(profile, ", or 'all'"))
    wanted = list(PROFILE_IDS) if profile == "all" else [profile]
    chosen = [p for p in wanted if p in supported]
    if not chosen:
        raise ConquianError(
            f"the implementation {describe_command(impl)} supports {', '.join(supported) or 'no profile'}, "
            f"not {profile if profile != 'all' else ' or '.join(PROFILE_IDS)}"
        )
    return chosen


def _play_games(run: FuzzRun, lockstep: Lockstep, known: FuzzKnown, causes: int, every_step: bool, report, progress: bool,
                hypotheses: tuple[Variant, ...] = ()) -> None:
    """Play the run's games, profile by profile, until `causes` new causes are found. Game g + 1
    is planned on the reference and its requests prepared while the adapter answers game g
    (Lockstep.prepare, finish, send)."""
    from ...spec.profiles import load_profile

    per_profile = shard_games(run.first_game, run.games_per_profile, run.shard)
    bar = progress_bar(len(per_profile) * len(run.profiles), "game", progress)
    pending: tuple[Pending, GameSpec, int] | None = None
    try:
        for profile_id in run.profiles:
            prof = load_profile(profile_id)
            for g in per_profile:
                spec = GameSpec(profile_id, prof.deck.shuffled(game_seed(run.seed, g, f"fuzz-deck/{profile_id}")), g % 2)
                source = AgentSource(random.Random(game_seed(run.seed, g, f"fuzz-agent/{profile_id}")))
                game = plan(prof, spec.deck, spec.dealer, source, every_step, lockstep.caps, lockstep.variants)
                spec.choices = source.choices[: len(game.steps)]
                ready = lockstep.prepare(prof, spec.deck, spec.dealer, game, spec.choices)
                if pending and _finished(run, lockstep, pending, known, causes, report, bar, hypotheses):
                    return
                pending = (lockstep.send(ready), spec, g)
        if pending:
            _finished(run, lockstep, pending, known, causes, report, bar, hypotheses)
    except AdapterFailure as exc:  # a restart failed
        raise ConquianError(f"the implementation {describe_command(run.impl)} could not be restarted: {exc}") from None
    finally:
        bar.close()


def _finished(run: FuzzRun, lockstep: Lockstep, pending, known: FuzzKnown, causes: int, report, bar,
              hypotheses: tuple[Variant, ...] = ()) -> bool:
    """Read and judge a game sent; count each of its divergences by cause, report each new one.
    True: enough causes."""
    sent, spec, g = pending
    trace = lockstep.finish(sent)
    run.games += 1
    run.actions += trace.applied
    bar.update(1)
    if trace.divergence is None:
        return False
    whole = GameSpec(spec.profile_id, spec.deck, spec.dealer, list(spec.choices))  # every action, past the divergence too
    spec.choices = trace.choices or spec.choices  # up to the first divergence: what is shrunk
    for seen in seen_in_game(run, lockstep, spec, whole, g, trace.divergence, hypotheses):
        cause, divergence = seen.cause, seen.divergence
        run.seen.append(seen)
        run.counts[cause] += 1
        if run.counts[cause] > 1:
            continue
        reason = known.match(cause)
        if reason is not None:
            run.known[cause] = reason
            continue
        found = Found(cause, spec.profile_id, g, divergence, seen.spec, seen)
        run.found.append(found)
        report(found)
        if len(run.found) >= causes:
            return True
    return False


def _found(run: FuzzRun, seen: Seen, timeout, out) -> Found:
    """The Found of a cause first met under another name (naming.settle): reported unshrunk."""
    found = Found(seen.cause, seen.profile_id, seen.game, seen.divergence, seen.spec, seen)
    found.reproduce = reproduce_command(run.impl, found.profile_id, run.seed, found.game, str(out), timeout)
    found.shrunk = Shrunk(seen.spec, seen.divergence, "not shrunk: named when the run's house rules were settled")
    return found


def _report(run: FuzzRun, found: Found, lockstep: Lockstep, out, timeout, shrink_seconds, echo) -> None:
    """Tell a new cause and shrink its game (keeping the cause); its draft is written at the end
    of the run, once the causes are settled (`_write_draft`)."""
    from ...spec.profiles import load_profile

    div, spec = found.divergence, found.original
    found.reproduce = reproduce_command(run.impl, found.profile_id, run.seed, found.game, str(out), timeout)
    echo(f"fuzz: cause {len(run.found)}: {found.cause}")
    echo(f"fuzz: divergence in {found.profile_id} game {found.game} ({div.kind}): {div.describe()}")
    echo(f"fuzz: reproduce: {found.reproduce}")
    profile = load_profile(found.profile_id)
    if found.later:  # its game shows another cause first: a smaller game would not keep this one
        shrunk = found.shrunk = Shrunk(spec, div, f"not shrunk: seen past the game's first divergence, at action {div.actions_before + 1}, "
                                                  "the implementation put at the reference's position")
    else:
        if shrink_seconds > 0:
            echo(f"fuzz: shrinking with Hypothesis (at most {shrink_seconds:g} s) ...")
        shrunk = found.shrunk = shrink(lockstep, profile, spec, div, run.seed, found.game, shrink_seconds)
    final = shrunk.divergence
    if shrunk.spec is not spec:
        echo(
            f"fuzz: {shrunk.note}: {div.steps} -> {final.steps} action(s) in {shrunk.seconds:.1f} s "
            f"({shrunk.trials} games tried): {final.describe()}"
        )
    else:
        echo(f"fuzz: {shrunk.note}")


def _write_draft(run: FuzzRun, found: Found, lockstep: Lockstep, handshake, out, echo) -> None:
    """Write the draft scenario of a new cause to `out` (then lint it)."""
    from ...spec.profiles import load_profile
    from ..lint import lint

    profile, div, shrunk = load_profile(found.profile_id), found.divergence, found.shrunk
    final = shrunk.divergence
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    scenario_id = free_id(profile, out)
    detail = f" {final.message}" if final.message and final.kind not in ("adapter", "unsupported") else ""  # describe() says it
    annotation = (
        STUB.format(seed=run.seed, game=found.game)
        + f" Implementation: {describe_command(run.impl)} ({handshake.name}), profile {found.profile_id}."
        + f" Cause: {found.cause}."
        + f" What diverged ({final.kind}): {final.describe()}{detail}."
        + " The expected values are the reference engine's; 'got' is the implementation's."
        + f" Found after {div.steps} action(s), shrunk to {final.steps} ({shrunk.note})."
        + f" Reproduce the original game: {found.reproduce}"
    )
    if lockstep.variants:
        annotation += (f" The reference played the known house rule(s) {', '.join(v.id for v in lockstep.variants)}:"
                       " the expectations follow them.")
    data = scenario_data(shrunk.spec, final, lockstep.caps, scenario_id, annotation, lockstep.variants)
    path = out / f"{scenario_id}.yaml"
    path.write_text(scenario_text(data), encoding="utf-8")
    found.scenario = path
    if lockstep.variants:  # lint replays on the reference without the house rules its expectations follow
        return
    _, found.problems = lint([path])
    for problem in found.problems:  # should never happen: the steps are the reference's own answers
        echo(f"fuzz: warning: {problem}")
