"""`conquian-ref bench` over the protocol: the bundled corpus loaded, replayed in-process and run
through the reference adapter (in-process and as a separate process), and `conquian-ref fuzz`
against the adapter process, with each side's CPU time per game; and their Markdown tables.
"""

from __future__ import annotations

import sys
import time

from ..engine.melds import meld_table
from .bench import BENCH_SEED, drop_tables


def bench_conformance(repeats: int, profile_ids: list[str] | None = None) -> dict:
    """The bundled corpus (the scenarios of `profile_ids`, all by default): loading it, replaying
    it in-process on the reference engine, and running it over the protocol (in-process adapter,
    and the adapter as a separate process). The replays exclude the loading, which every path
    shares. Best of `repeats`."""
    from ..conformance.check import run_check
    from ..conformance.reference import Reference
    from ..conformance.replay import replay
    from ..spec.scenario import corpus_dir, load_corpus

    def best(work) -> tuple[float, object]:
        """The best time of `repeats` runs of `work`, and what it returned."""
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            result = work()
            times.append(time.perf_counter() - started)
        return min(times), result

    from ..conformance.client import Connection
    from ..spec.profiles import PROFILE_IDS, load_profile

    adapter = f"{sys.executable} -m conquian_ref.conformance.adapter"

    def start_adapter() -> None:
        # What a run pays once per adapter process: starting Python, the handshake, and the
        # first deal of each profile (which loads and validates the profile, builds its melds).
        conn = Connection(adapter)
        conn.start()
        for profile_id in chosen:
            conn.request("setup", profile=profile_id, dealer=0, deck=load_profile(profile_id).deck.shuffled(0))
        conn.close()

    chosen = list(profile_ids or PROFILE_IDS)
    folders = [corpus_dir() / p for p in chosen] if profile_ids else [corpus_dir()]
    load, (scenarios, _) = best(lambda: load_corpus(folders))
    in_process, _ = best(lambda: [replay(s, Reference()) for s in scenarios])
    direct, _ = best(lambda: run_check(impl="reference", scenarios=scenarios))
    process, _ = best(lambda: run_check(impl=adapter, scenarios=scenarios))
    start, _ = best(start_adapter)
    return {
        "scenarios": len(scenarios),
        "load_seconds": load,
        "in_process_seconds": in_process,
        "protocol_direct_seconds": direct,
        "protocol_process_seconds": process,
        "adapter_start_seconds": start,
        "process_over_in_process": process / in_process,
        "process_after_start_over_in_process": max(process - start, 0.0) / in_process,
    }


def conformance_markdown(c: dict) -> str:
    return "\n".join(
        [
            "| corpus | load + validate | in-process replay | protocol, in-process adapter | protocol, adapter process "
            "(of which adapter start-up) | process / in-process | after start-up / in-process |",
            "|---:|---:|---:|---:|---:|---:|---:|",
            f"| {c['scenarios']} scenarios | {c['load_seconds']:.2f} s | {c['in_process_seconds']:.2f} s | "
            f"{c['protocol_direct_seconds']:.2f} s | {c['protocol_process_seconds']:.2f} s ({c['adapter_start_seconds']:.2f} s) | "
            f"{c['process_over_in_process']:.1f}x | {c['process_after_start_over_in_process']:.1f}x |",
        ]
    )


FUZZ_GAMES = (1_000, 20)
BASE_GAMES = 1  # the short run whose CPU is taken away from each side's: start-up, handshake, ending


def bench_fuzz(profile_ids: list[str], games: int, repeats: int) -> list[dict]:
    """`conquian-ref fuzz` against the reference adapter as a separate process, per profile: games
    per second (best of `repeats`; the playing only, after the handshake), and the CPU time per
    game of each side (this process plans and judges, the adapter answers: on two free cores the
    slower side sets the pace). A side's CPU per game is the difference between a run of `games`
    and one of BASE_GAMES, over the games between: what either spends once (the adapter's
    interpreter and imports, about 0.07 s, a tenth of its CPU over 1,000 light games) is in
    neither figure."""
    from ..spec.profiles import load_profile

    rows = []
    for profile_id in profile_ids:
        best = None
        profile = load_profile(profile_id)
        for _ in range(repeats):
            run, fuzzer, adapter = _fuzz_run(profile, games)
            _, fuzzer_base, adapter_base = _fuzz_run(profile, BASE_GAMES)
            played = run.games - BASE_GAMES
            row = {
                "profile": profile_id,
                "games": run.games,
                "actions": run.actions,
                "games_per_second": round(run.games / run.seconds, 1),
                "fuzzer_cpu_ms_per_game": _per_game(fuzzer - fuzzer_base, played),
                # None when the adapter was killed before it exited (it had STOP_GRACE to exit
                # on stop): a process killed that way may leave no CPU time to this one.
                "adapter_cpu_ms_per_game": _per_game(adapter - adapter_base, played) if adapter > 0.01 and adapter_base > 0.01 else None,
            }
            best = row if best is None or row["games_per_second"] > best["games_per_second"] else best
        rows.append(best)
    return rows


def _fuzz_run(profile, games: int):
    """One fuzz run of `games` against the adapter process: the run, this process's CPU seconds
    and the adapter's (start-up included)."""
    import resource  # POSIX only: imported where the fuzz benchmark needs it

    from .fuzz import run_fuzz

    # As a `conquian-ref fuzz` run starts: the profile's meld table built, its memos empty, no
    # other profile's table alive. Memos warmed by the engine's workloads earlier in this process
    # had made planning look cheaper (on two decks by about a third of the fuzzer's CPU per game),
    # and the other profiles' memos more expensive (the garbage collector walks them;
    # docs/performance.md).
    drop_tables()
    meld_table(profile)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time()
    run = run_fuzz(impl=f"{sys.executable} -m conquian_ref.conformance.adapter", profile=profile.id, games=games, seed=BENCH_SEED, echo=lambda line: None)
    cpu = time.process_time() - cpu
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return run, cpu, after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime


def _per_game(seconds: float, games: int) -> float | None:
    """Milliseconds per game, or None where the difference measures nothing (a quick run)."""
    return round(seconds / games * 1e3, 2) if games > 0 and seconds > 0 else None


def fuzz_markdown(rows: list[dict]) -> str:
    lines = [
        "| profile | fuzz games/s (adapter process) | fuzzer CPU ms/game | adapter CPU ms/game |",
        "|---|---:|---:|---:|",
    ]
    for r in rows:
        fuzzer, adapter = (
            "not measured" if r[side] is None else f"{r[side]:.2f}" for side in ("fuzzer_cpu_ms_per_game", "adapter_cpu_ms_per_game")
        )
        lines.append(f"| {r['profile']} | {r['games_per_second']:,.0f} | {fuzzer} | {adapter} |")
    return "\n".join(lines)
