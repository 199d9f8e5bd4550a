"""A fuzz run: connect, play the games of each profile, and report the first divergence.

Reproducibility: game `g` of a run seeded with `S` under profile `P` is dealt from
`deck.shuffled(game_seed(S, g, "fuzz-deck/P"))` with dealer `g % 2`, and its agent draws from
`random.Random(game_seed(S, g, "fuzz-agent/P"))`; `--game G --games 1` replays game G alone
(`reproduce_command`). At the first divergence the run stops, the game is shrunk (shrink.py)
and written as a draft scenario (draft.py) to `--out`.
"""

from __future__ import annotations

import random
import secrets
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ...conformance.client import DEFAULT_TIMEOUT, REFERENCE, Connection, describe_command
from ...conformance.failures import AdapterFailure
from ...conformance.progress import progress_bar
from ...engine.errors import ConquianError
from ..simulate import game_seed
from .agent import AgentSource, GameSpec
from .divergence import Divergence
from .draft import free_id, scenario_data, scenario_text
from .lockstep import Lockstep
from .shrink import Shrunk, shrink

DEFAULT_OUT = "fuzz-out"
DEFAULT_SHRINK_SECONDS = 60.0
STUB = (
    "NEEDS REVIEW: recorded from the reference engine by conquian-ref fuzz (seed {seed}, game {game}); "
    "a person must check each expectation against the rules before this scenario joins the corpus."
)


@dataclass
class FuzzRun:
    impl: str
    seed: int
    profiles: list[str]
    first_game: int
    games_per_profile: int
    games: int = 0  # games played
    actions: int = 0  # actions applied
    profile: str | None = None  # where the divergence was found
    game: int | None = None
    divergence: Divergence | None = None  # as first found
    original: GameSpec | None = None
    shrunk: Shrunk | None = None
    scenario: Path | None = None
    problems: list = field(default_factory=list)  # lint problems of the written scenario (none expected)
    reproduce: str = ""

    @property
    def exit_status(self) -> int:
        return 1 if self.divergence else 0

    def summary_line(self) -> str:
        head = f"fuzz: {self.games} game{'s' * (self.games != 1)}, {self.actions} actions"
        if not self.divergence:
            return f"{head}, 0 divergences"
        where = f"scenario written to {self.scenario}" if self.scenario else "no scenario written"
        return f"{head}, 1 divergence: {where}"


def reproduce_command(impl: str, profile: str, seed: int, game: int, out: str | None, timeout: float | None) -> str:
    """The command line that replays game `game` of the run alone."""
    parts = ["conquian-ref fuzz", f"--impl {shlex.quote(impl)}", f"--profile {profile}", f"--seed {seed}", f"--game {game}", "--games 1"]
    if out is not None and out != DEFAULT_OUT:
        parts.append(f"--out {shlex.quote(str(out))}")
    if timeout is not None:
        parts.append(f"--timeout {timeout:g}")
    return " ".join(parts)


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
) -> FuzzRun:
    """Fuzz `impl` against the reference; stop at the first divergence, shrink it and write its
    scenario to `out`. ConquianError (one line) when the implementation cannot be fuzzed at all."""
    if seed is None:
        seed = secrets.randbelow(2**32)
    conn = _connect(impl, timeout)
    try:
        handshake = conn.handshake
        chosen = _profiles_to_fuzz(profile, handshake.profiles, impl)
        run = FuzzRun(impl, seed, chosen, first_game, games)
        echo(
            f"fuzz: {describe_command(impl)} ({handshake.name}); seed {seed}; profiles {', '.join(chosen)}; "
            f"games {first_game}..{first_game + games - 1}; capabilities {', '.join(sorted(handshake.capabilities))}"
        )
        lockstep = Lockstep(conn)
        _play_games(run, lockstep, progress)
        if run.divergence:
            _report(run, lockstep, handshake, out, timeout, shrink_seconds, echo)
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
    from ...spec.profiles import PROFILE_IDS

    if profile != "all" and profile not in PROFILE_IDS:
        raise ConquianError(f"unknown profile {profile!r} (fuzz knows: {', '.join(PROFILE_IDS)}, or 'all')")
    wanted = list(PROFILE_IDS) if profile == "all" else [profile]
    chosen = [p for p in wanted if p in supported]
    if not chosen:
        raise ConquianError(
            f"the implementation {describe_command(impl)} supports {', '.join(supported) or 'no profile'}, "
            f"not {profile if profile != 'all' else ' or '.join(PROFILE_IDS)}"
        )
    return chosen


def _play_games(run: FuzzRun, lockstep: Lockstep, progress: bool) -> None:
    """Play the run's games, profile by profile, until the first divergence (kept in `run`)."""
    from ...spec.profiles import load_profile

    bar = progress_bar(run.games_per_profile * len(run.profiles), "game", progress)
    try:
        for profile_id in run.profiles:
            prof = load_profile(profile_id)
            for g in range(run.first_game, run.first_game + run.games_per_profile):
                spec = GameSpec(profile_id, prof.deck.shuffled(game_seed(run.seed, g, f"fuzz-deck/{profile_id}")), g % 2)
                source = AgentSource(random.Random(game_seed(run.seed, g, f"fuzz-agent/{profile_id}")))
                trace = lockstep.run(prof, spec.deck, spec.dealer, source)
                run.games += 1
                run.actions += trace.applied
                bar.update(1)
                if trace.divergence:
                    spec.choices = source.choices
                    run.profile, run.game, run.divergence, run.original = profile_id, g, trace.divergence, spec
                    return
    except AdapterFailure as exc:  # a restart failed
        raise ConquianError(f"the implementation {describe_command(run.impl)} could not be restarted: {exc}") from None
    finally:
        bar.close()


def _report(run: FuzzRun, lockstep: Lockstep, handshake, out, timeout, shrink_seconds, echo) -> None:
    """Tell the divergence, shrink it, and write its draft scenario to `out` (then lint it)."""
    from ...spec.profiles import load_profile
    from ..lint import lint

    div, spec = run.divergence, run.original
    run.reproduce = reproduce_command(run.impl, run.profile, run.seed, run.game, str(out), timeout)
    echo(f"fuzz: divergence in {run.profile} game {run.game} ({div.kind}): {div.describe()}")
    echo(f"fuzz: reproduce: {run.reproduce}")
    profile = load_profile(run.profile)
    if shrink_seconds > 0:
        echo(f"fuzz: shrinking with Hypothesis (at most {shrink_seconds:g} s) ...")
    shrunk = run.shrunk = shrink(lockstep, profile, spec, div, run.seed, run.game, shrink_seconds)
    final = shrunk.divergence
    if shrunk.spec is not spec:
        echo(
            f"fuzz: {shrunk.note}: {div.steps} -> {final.steps} action(s) in {shrunk.seconds:.1f} s "
            f"({shrunk.trials} games tried): {final.describe()}"
        )
    else:
        echo(f"fuzz: {shrunk.note}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    scenario_id = free_id(profile, out)
    detail = f" {final.message}" if final.message and final.kind != "adapter" else ""
    annotation = (
        STUB.format(seed=run.seed, game=run.game)
        + f" Implementation: {describe_command(run.impl)} ({handshake.name}), profile {run.profile}."
        + f" What diverged ({final.kind}): {final.describe()}{detail}."
        + " The expected values are the reference engine's; 'got' is the implementation's."
        + f" Found after {div.steps} action(s), shrunk to {final.steps} ({shrunk.note})."
        + f" Reproduce the original game: {run.reproduce}"
    )
    data = scenario_data(shrunk.spec, final, lockstep.caps, scenario_id, annotation)
    path = out / f"{scenario_id}.yaml"
    path.write_text(scenario_text(data), encoding="utf-8")
    run.scenario = path
    _, run.problems = lint([path])
    for problem in run.problems:  # should never happen: the steps are the reference's own answers
        echo(f"fuzz: warning: {problem}")
