"""The games of a fuzz run, planned on the reference, in a second process when the run is long.

A fuzzed game is played on the reference engine first (`lockstep.plan`), then sent to the
implementation in one batch. Planning is most of the fuzzer's own work, and over the protocol
the fuzzer process is the slower of the two (docs/performance.md, "Fuzzing over the protocol"):
while it plans, judges and writes, the adapter waits. So a long run plans its games in a worker
process, a few chunks ahead, while this process only sends and judges: the planner, the fuzzer
and the adapter share the machine's cores.

The plan of game g is a pure function of the profile, the run seed, g, the depth of checking
and the adapter's capabilities (`planned`), so the worker's plans are exactly the ones this
process would make (tests/test_fuzz.py compares them). Short runs (fewer than `WORKER_MIN_GAMES`
games), a machine with one core, or a worker that cannot start or dies: the games are planned
here, in order, with the same function.

The worker is a fork of this process, made before the adapter is started (`Planner` is opened
first), so it holds none of the adapter's pipes.
"""

from __future__ import annotations

import multiprocessing
import os
import random
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Iterable, Iterator

from ..simulate import game_seed
from .agent import AgentSource, GameSpec
from .lockstep import Plan, plan

WORKER_MIN_GAMES = 200  # a shorter run plans in-process: a worker would not pay for itself
CHUNK = 16  # games per task sent to the worker
AHEAD = 4  # chunks planned ahead of the game being sent (bounded memory, whatever the run's length)


def planned(profile_id: str, seed: int, g: int, every_step: bool, caps: frozenset[str]) -> tuple[GameSpec, Plan]:
    """Game `g` of a run seeded `seed` under a profile: its deal and agent (campaign.py,
    "Reproducibility"), played on the reference."""
    from ...spec.profiles import load_profile

    prof = load_profile(profile_id)
    spec = GameSpec(profile_id, prof.deck.shuffled(game_seed(seed, g, f"fuzz-deck/{profile_id}")), g % 2)
    source = AgentSource(random.Random(game_seed(seed, g, f"fuzz-agent/{profile_id}")))
    game = plan(prof, spec.deck, spec.dealer, source, every_step, set(caps))
    spec.choices = source.choices[: len(game.steps)]
    return spec, game


def _plan_chunk(profile_id: str, seed: int, games: list[int], every_step: bool, caps: frozenset[str]) -> list:
    return [planned(profile_id, seed, g, every_step, caps) for g in games]


class Planner:
    """Plans games in order (`games`), in a worker process once opened for a long run."""

    def __init__(self, total_games: int):
        self._pool: ProcessPoolExecutor | None = None
        if total_games >= WORKER_MIN_GAMES and (os.cpu_count() or 1) > 1 and "fork" in multiprocessing.get_all_start_methods():
            try:
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"))
                self._pool.submit(int).result()  # fork now, before the adapter's pipes exist
            except (OSError, BrokenProcessPool):
                self._pool = None

    def __enter__(self) -> "Planner":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def _give_up(self) -> None:
        """Plan here from now on; the broken worker is not waited for."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    @property
    def in_worker(self) -> bool:
        return self._pool is not None

    def games(self, profile_id: str, seed: int, games: Iterable[int], every_step: bool, caps: set[str]) -> Iterator[tuple[int, GameSpec, Plan]]:
        """(g, spec, plan) for each game g, in order."""
        caps = frozenset(caps)
        games = list(games)
        chunks = deque(games[i : i + CHUNK] for i in range(0, len(games), CHUNK))
        outstanding: deque[tuple[list[int], Future]] = deque()
        while chunks or outstanding:
            while self._pool is not None and chunks and len(outstanding) < AHEAD:
                chunk = chunks.popleft()
                try:
                    outstanding.append((chunk, self._pool.submit(_plan_chunk, profile_id, seed, chunk, every_step, caps)))
                except (RuntimeError, BrokenProcessPool):  # the worker is gone: plan here
                    chunks.appendleft(chunk)
                    self._give_up()
            if outstanding:
                chunk, future = outstanding.popleft()
                try:
                    results = future.result()
                except Exception:  # the worker died or failed: this chunk and the rest are planned here
                    results = _plan_chunk(profile_id, seed, chunk, every_step, caps)
                    chunks.extendleft(reversed([c for c, _ in outstanding]))
                    outstanding.clear()
                    self._give_up()
            else:  # planned here one at a time, so that each is planned while the adapter answers the one before
                chunk = [chunks[0].pop(0)]
                if not chunks[0]:
                    chunks.popleft()
                results = _plan_chunk(profile_id, seed, chunk, every_step, caps)
            for g, (spec, game) in zip(chunk, results):
                yield g, spec, game
