"""`conquian-ref bench`: time the engine on fixed seeded workloads, per profile.

Four measurements, each with `time.perf_counter`, in this order (the first three on one core):

1. **Arrangement checks** (`MeldTable.arrangeable`, the solver behind every use, force and
   fit test). Distinct card masks of realistic sizes (3 cards up to the target), half drawn
   uniformly from the deck and half built from random disjoint melds plus up to two stray
   cards (the shape of exposed cards + taken card + hand cards). Timed once with the solver's
   cache cleared first ("cold": sub-results found for one mask still help the next, as in play)
   and once more on the same masks ("memoised": every answer is a cache hit).
2. **Legal-action listing** (`game.legal(seat)`). The positions (decision points) of a few
   hundred random games are collected first, by cloning the game before each decision. Then,
   with every meld-table cache cleared, `legal` is timed call by call on each position in game
   order ("first listing", what a simulation pays), and once more ("repeat"). Median, 90th and
   99th percentile in microseconds; the median over play-phase positions only (the ones that ask
   the solver) is given too.
3. **Random complete games** (the `simulate` workload: seeded deal, uniformly random legal
   actions, tracing off, caches cleared first). Games per second and microseconds per action
   (all the time divided by the actions applied; this includes the random agent's own work).
   The JSON output also gives games per CPU second (`time.process_time`): when it is much
   higher than games per second, other work took the core away during the run.

4. **Fuzzing over the protocol** (`conquian-ref fuzz` against `python -m
   conquian_ref.conformance.adapter`, as a separate process): games per second, and each
   side's CPU time per game.

Every measurement is repeated (arrangement checks and listings three times, the games five
times; once each with --quick) and the best kept: on a shared machine the least disturbed run
is the closest to the engine's own speed. For the listing times that is the best per position.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import random
import statistics
import sys
import time

from ..engine.cards import count
from ..engine.melds import meld_table
from ..engine.profile import Profile
from .options import emit
from .simulate import game_seed, new_game, simulate

# Workload sizes: (full run, --quick)
ARRANGE_MASKS = (20_000, 2_000)
POSITION_GAMES = (300, 8)
GAMES = (1_000, 15)
REPEATS = (3, 1)  # each measurement is repeated and the best kept (shared machines are noisy)
GAME_REPEATS = (5, 1)
BENCH_SEED = 20240601  # fixed: the workloads are the same on every run


def clear_caches(profile: Profile) -> None:
    """Empty every memo of the profile's meld table, so a measurement starts cold."""
    table = meld_table(profile)
    for name in ("arrangeable", "use_options", "_hand_melds", "extends", "placeable"):
        memo = getattr(table, name, None)
        if hasattr(memo, "cache_clear"):
            memo.cache_clear()


# -- 1. arrangement checks ---------------------------------------------------------------------
def arrangement_masks(profile: Profile, n: int, seed: int = BENCH_SEED) -> list[int]:
    """`n` distinct masks of 3..target cards, half uniform, half built from melds."""
    table = meld_table(profile)
    rng = random.Random(seed)
    size = profile.deck.size
    masks: list[int] = []
    seen: set[int] = set()
    while len(masks) < n:
        k = rng.randint(3, profile.target)
        if len(masks) % 2 == 0:
            mask = sum(1 << c for c in rng.sample(range(size), k))
        else:
            mask = 0
            for _ in range(20):
                meld = rng.choice(table.melds)
                if not meld & mask and count(mask | meld) <= k:
                    mask |= meld
            strays = rng.randint(0, 2)
            while count(mask) < k and strays:
                mask |= 1 << rng.randrange(size)
                strays -= 1
            if count(mask) < 3:
                continue
        if mask not in seen:
            seen.add(mask)
            masks.append(mask)
    return masks


def bench_arrangement(profile: Profile, n: int, repeats: int) -> dict:
    table = meld_table(profile)
    masks = arrangement_masks(profile, n)
    clock = time.perf_counter
    cold, warm = [], []
    for _ in range(repeats):
        clear_caches(profile)
        check = table.arrangeable
        start = clock()
        yes = 0
        for mask in masks:
            if check(mask):
                yes += 1
        cold.append(clock() - start)
        start = clock()
        for mask in masks:
            check(mask)
        warm.append(clock() - start)
    return {
        "masks": n,
        "repeats": repeats,
        "arrangeable_share": round(yes / n, 3),
        "checks_per_second_cold": round(n / min(cold)),
        "checks_per_second_memoised": round(n / min(warm)),
    }


# -- 2. legal-action listing -------------------------------------------------------------------
def collect_positions(profile: Profile, games: int, seed: int = BENCH_SEED) -> list[tuple]:
    """(game clone, seat) before every decision of `games` random games."""
    positions = []
    for i in range(games):
        game = new_game(profile, seed, i)
        rng = random.Random(game_seed(seed, i, "agent"))
        while game.to_act:
            to_act = game.to_act
            seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
            positions.append((game.clone(), seat))
            game.apply(seat, rng.choice(game.legal(seat)))
    return positions


def _percentile(sorted_values: list[float], q: float) -> float:
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


def _time_listings(positions: list[tuple]) -> list[float]:
    clock = time.perf_counter
    times = []
    for game, seat in positions:
        start = clock()
        game.legal(seat)
        times.append((clock() - start) * 1e6)
    return times


def bench_legal(profile: Profile, games: int, repeats: int) -> dict:
    positions = collect_positions(profile, games)
    first: list[float] = []
    repeat: list[float] = []
    for _ in range(repeats):  # per position, the best of the repetitions
        clear_caches(profile)
        once, twice = _time_listings(positions), _time_listings(positions)
        first = once if not first else [min(a, b) for a, b in zip(first, once)]
        repeat = twice if not repeat else [min(a, b) for a, b in zip(repeat, twice)]
    play = sorted(t for t, (game, _) in zip(first, positions) if game.phase == "play")
    first_sorted, repeat_sorted = sorted(first), sorted(repeat)
    return {
        "games": games,
        "positions": len(positions),
        "repeats": repeats,
        "median_us": round(statistics.median(first_sorted), 2),
        "p90_us": round(_percentile(first_sorted, 0.9), 2),
        "p99_us": round(_percentile(first_sorted, 0.99), 2),
        "mean_us": round(statistics.fmean(first_sorted), 2),
        "max_us": round(first_sorted[-1], 1),
        "play_phase_median_us": round(statistics.median(play), 2) if play else None,
        "play_phase_p90_us": round(_percentile(play, 0.9), 2) if play else None,
        "repeat_median_us": round(statistics.median(repeat_sorted), 2),
        "repeat_p90_us": round(_percentile(repeat_sorted, 0.9), 2),
    }


# -- 3. random complete games ------------------------------------------------------------------
def bench_games(profile: Profile, games: int, repeats: int) -> dict:
    runs = []
    for _ in range(repeats):
        clear_caches(profile)
        cpu = time.process_time()
        summary = simulate(profile, games, BENCH_SEED, progress=False)
        cpu = time.process_time() - cpu
        runs.append((summary.seconds, cpu, sum(summary.actions)))
    seconds, _, actions = min(runs)  # the least disturbed repetition
    cpu = min(r[1] for r in runs)
    return {
        "games": games,
        "repeats": repeats,
        "actions": actions,
        "games_per_second": round(games / seconds, 1),
        "us_per_action": round(seconds / actions * 1e6, 2),
        # CPU time of this process only: close to the wall-clock figures on an idle machine;
        # much better than them when other work took the core away (load above the core count).
        "games_per_cpu_second": round(games / cpu, 1) if cpu > 0 else None,
    }


# -- the machine -------------------------------------------------------------------------------
def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine(quick: bool = False) -> dict:
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = os.cpu_count()
    return {
        "platform": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "date": _dt.date.today().isoformat(),
        "load_average": _load_average(),
        "calibration_ms": calibration_ms(1 if quick else CALIBRATION_REPEATS),
    }


CALIBRATION_REPEATS = 7
CALIBRATION_STEPS = 200_000


def calibration_ms(repeats: int) -> float:
    """Milliseconds for a fixed pure-Python loop that runs none of this package's code (integer
    bit operations, dict stores, calls: the kind of work the engine does), best of `repeats`.

    The same virtual machine has run the same engine code three times faster on one day than
    on another (docs/performance.md); no change of this package moves this figure, so two
    bench runs are compared through it: where it moved, the machine did."""
    clock = time.perf_counter
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        _calibration_loop(CALIBRATION_STEPS)
        best = min(best, clock() - start)
    return round(best * 1e3, 2)


def _calibration_loop(steps: int) -> int:
    memo: dict[int, int] = {}
    total = 0
    for i in range(steps):
        key = (i * 2654435761) & 0xFFFFF
        total += _low_bits(key)
        memo[key & 0xFFF] = total
    return total + len(memo)


def _low_bits(mask: int) -> int:
    return (mask & -mask).bit_length() + mask.bit_count()


def _load_average() -> float | None:
    """The 1-minute load average when the run starts: other work on the machine slows it."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


# -- the command -------------------------------------------------------------------------------
def bench_profile(profile: Profile, quick: bool) -> dict:
    k = 1 if quick else 0
    return {
        "profile": profile.id,
        "arrangement": bench_arrangement(profile, ARRANGE_MASKS[k], REPEATS[k]),
        "legal": bench_legal(profile, POSITION_GAMES[k], REPEATS[k]),
        "games": bench_games(profile, GAMES[k], GAME_REPEATS[k]),
    }


def markdown(report: dict) -> str:
    m = report["machine"]
    lines = [
        f"conquian-ref bench ({'quick' if report['quick'] else 'full'} run), {m['date']}",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores ({m['usable_cores']} usable; the benchmark uses one); "
        f"{m['python']}; {m['platform']}",
        "",
        f"Calibration: {m['calibration_ms']:.1f} ms for a fixed pure-Python loop that runs none of this code "
        "(compare it across runs: where it moved, the machine did).",
        "",
        "| profile | arrangement checks/s (cold) | arrangement checks/s (memoised) | legal() median µs | "
        "legal() p90 µs | legal() p99 µs | legal() play-phase median µs | legal() repeat median µs | random games/s | "
        "µs per action |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in report["profiles"]:
        a, l, g = r["arrangement"], r["legal"], r["games"]
        lines.append(
            f"| {r['profile']} | {a['checks_per_second_cold']:,} | {a['checks_per_second_memoised']:,} | "
            f"{l['median_us']:.1f} | {l['p90_us']:.1f} | {l['p99_us']:.1f} | {l['play_phase_median_us']:.1f} | {l['repeat_median_us']:.1f} | "
            f"{g['games_per_second']:,.0f} | {g['us_per_action']:.1f} |"
        )
    first = report["profiles"][0] if report["profiles"] else None
    if first:
        a, l, g = first["arrangement"], first["legal"], first["games"]
        positions = ", ".join(f"{r['profile']} {r['legal']['positions']:,}" for r in report["profiles"])
        lines += [
            "",
            f"Workloads per profile (seed {BENCH_SEED}): {a['masks']:,} distinct card masks of 3 cards up to the "
            f"target ({a['arrangeable_share']:.0%} arrangeable in {first['profile']}); legal() at every decision "
            f"point of {l['games']} random games ({positions} positions), first listing with the meld-table "
            f"caches cleared, then a repeat ({l['repeats']} repetition(s), best per position); {g['games']:,} "
            f"random complete games with tracing off (best of {g['repeats']} repetition(s)). 1-minute load "
            f"average at the start: {m['load_average']}.",
        ]
    return "\n".join(lines)


def bench_conformance(repeats: int, profile_ids: list[str] | None = None) -> dict:
    """The bundled corpus (the scenarios of `profile_ids`, all by default): loading it, replaying
    it in-process on the reference engine, and running it over the protocol (in-process adapter,
    and the adapter as a separate process). The replays exclude the loading, which every path
    shares. Best of `repeats`."""
    import sys as _sys

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

    adapter = f"{_sys.executable} -m conquian_ref.conformance.adapter"

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


def bench_fuzz(profile_ids: list[str], games: int, repeats: int) -> list[dict]:
    """`conquian-ref fuzz` against the reference adapter as a separate process, per profile: games
    per second (best of `repeats`; the playing only, after the handshake), and the CPU time per
    game of each side (this process plans and judges, the adapter answers: on two free cores the
    slower side sets the pace)."""
    import resource

    from .fuzz import run_fuzz

    adapter = f"{sys.executable} -m conquian_ref.conformance.adapter"
    rows = []
    for profile_id in profile_ids:
        best = None
        for _ in range(repeats):
            children = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = time.process_time()
            run = run_fuzz(impl=adapter, profile=profile_id, games=games, seed=BENCH_SEED, echo=lambda line: None)
            cpu = time.process_time() - cpu
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            child = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime  # the adapter, start-up included
            row = {
                "profile": profile_id,
                "games": run.games,
                "actions": run.actions,
                "games_per_second": round(run.games / run.seconds, 1),
                "fuzzer_cpu_ms_per_game": round(cpu / run.games * 1e3, 2),
                # None when the adapter was killed before it exited (it had STOP_GRACE to exit
                # on stop): a process killed that way may leave no CPU time to this one.
                "adapter_cpu_ms_per_game": round(child / run.games * 1e3, 2) if child > 0.01 else None,
            }
            best = row if best is None or row["games_per_second"] > best["games_per_second"] else best
        rows.append(best)
    return rows


def fuzz_markdown(rows: list[dict]) -> str:
    lines = [
        "| profile | fuzz games/s (adapter process) | fuzzer CPU ms/game | adapter CPU ms/game |",
        "|---|---:|---:|---:|",
    ]
    for r in rows:
        adapter = "not measured" if r["adapter_cpu_ms_per_game"] is None else f"{r['adapter_cpu_ms_per_game']:.2f}"
        lines.append(f"| {r['profile']} | {r['games_per_second']:,.0f} | {r['fuzzer_cpu_ms_per_game']:.2f} | {adapter} |")
    return "\n".join(lines)


def run(profiles: list[Profile], quick: bool = False, json_path: str | None = None, out=None) -> int:
    report = {"quick": quick, "machine": machine(quick), "profiles": []}
    for profile in profiles:
        print(f"bench: {profile.id} ...", file=sys.stderr, flush=True)
        report["profiles"].append(bench_profile(profile, quick))
    print("bench: the conformance corpus ...", file=sys.stderr, flush=True)
    report["conformance"] = bench_conformance(1 if quick else 3, [p.id for p in profiles])
    print("bench: fuzzing over the protocol ...", file=sys.stderr, flush=True)
    fuzzed = [p.id for p in profiles][: 1 if quick else None]  # --quick: the first profile only
    report["fuzz"] = bench_fuzz(fuzzed, FUZZ_GAMES[1 if quick else 0], 1 if quick else 3)
    emit(json_path, lambda: report, lambda: "\n\n".join((markdown(report), conformance_markdown(report["conformance"]), fuzz_markdown(report["fuzz"]))), out)
    return 0
