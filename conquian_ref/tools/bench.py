"""`conquian-ref bench`: time the engine on fixed seeded workloads, per profile.

Four measurements, each with `time.perf_counter`, in this order (the first three on one core):

1. **Arrangement checks** (`arrangeable` of the meld table, the solver behind every use, force and
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
   **The same games with every search remembered** (`bench_warm`): played again right after,
   the memos kept, so every search the engine asks is answered by its memo and only the solvers'
   own work around their searches is left (the filters, the parts, the copies resolved): the
   floor no faster search alone can go below.
   **The same games with the meld search looked up** (`bench_floor`): every question the engine
   asks the meld table is answered from a dictionary filled on a first run of those games, so
   what is left is all the rest of a game. It is the floor no faster meld table can go below,
   and the difference is what the search costs (`search_share`).

4. **Fuzzing over the protocol** (`conquian-ref fuzz` against `python -m
   conquian_ref.conformance.adapter`, as a separate process): games per second, and each
   side's CPU time per game.

The first three measure the engine and live here; the corpus over the protocol and the fuzzing
are tools/bench_protocol.py, the machine and its calibration tools/bench_machine.py.

Every measurement is repeated (arrangement checks and listings three times, the games five
times; once each with --quick) and the best kept: on a shared machine the least disturbed run
is the closest to the engine's own speed. For the listing times that is the best per position.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time

from ..engine.cards import count
from ..engine.errors import ConquianError
from ..engine.melds import meld_table
from ..engine.phases import use_actions
from ..engine.profile import Profile
from ..engine.ruleset import forget_rulesets
from ..engine.solver import Solver
from .bench_anchor import anchor_markdown, anchor_status, bench_anchor, ratios
from .bench_machine import machine
from .options import emit
from .simulate import game_seed, new_game, simulate

# Workload sizes: (full run, --quick)
ARRANGE_MASKS = (20_000, 2_000)
POSITION_GAMES = (300, 8)
GAMES = (1_000, 15)
REPEATS = (3, 1)  # each measurement is repeated and the best kept (shared machines are noisy)
GAME_REPEATS = (5, 1)
ANCHOR_CPU_SECONDS = (0.5, 0.1)  # OpenSpiel's gin_rummy, per repetition (tools/bench_anchor.py)
BENCH_SEED = 20240601  # fixed: the workloads are the same on every run


def clear_caches(profile: Profile) -> None:
    """Empty every memo of the profile's meld table and the memo of sorted use actions
    (conquian_ref.engine.phases.use_actions), so a measurement starts cold."""
    use_actions.cache_clear()
    table = meld_table(profile)
    for name in ("arrangeable", "use_options", "_hand_melds", "extends", "placeable"):
        memo = getattr(table, name, None)
        if hasattr(memo, "cache_clear"):
            memo.cache_clear()


def drop_tables() -> None:
    """Forget every profile's meld table (and the sorted use actions), and collect the garbage,
    so that a profile is measured as a run of it alone would be. The memos of the profiles
    measured before had stayed alive in this process, and the garbage collector's full passes
    walked them all: twice-around's random games took up to a quarter longer after two decks' than
    alone (docs/performance.md, "Issue 23's targets, each profile measured alone")."""
    forget_rulesets()  # each holds its profile's table
    meld_table.cache_clear()
    use_actions.cache_clear()
    gc.collect()


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
    seconds, cpu, actions = _timed_games(profile, games, repeats, cold=True)
    # Every action of our games is a seat's decision (the deal is one shuffle, no action).
    return {
        "games": games,
        "repeats": repeats,
        "actions": actions,
        "games_per_second": round(games / seconds, 1),
        "us_per_action": round(seconds / actions * 1e6, 2),
        # CPU time of this process only: close to the wall-clock figures on an idle machine;
        # much better than them when other work took the core away (load above the core count).
        "games_per_cpu_second": round(games / cpu, 1) if cpu > 0 else None,
        "actions_per_cpu_second": round(actions / cpu) if cpu > 0 else None,  # the anchor's ratio reads this
    }


def _timed_games(profile: Profile, games: int, repeats: int, cold: bool) -> tuple[float, float, int]:
    """The seeded random games played `repeats` times (the meld memos cleared before each when
    `cold`): the seconds and actions of the least disturbed repetition, and the least CPU time."""
    runs = []
    for _ in range(repeats):
        if cold:
            clear_caches(profile)
        cpu = time.process_time()
        summary = simulate(profile, games, BENCH_SEED, progress=False)
        runs.append((summary.seconds, time.process_time() - cpu, sum(summary.actions)))
    seconds, _, actions = min(runs)
    return seconds, min(r[1] for r in runs), actions


# -- 3b. the same games, every search remembered -----------------------------------------------
def bench_warm(profile: Profile, games: int, repeats: int, searched: dict) -> dict:
    """The games of bench_games (`searched`: its figures) played once more right after them, every
    memo kept: the same games ask the same questions, so every search is a memo hit. What is left
    of the meld search is the solvers' work around their searches, which a faster search keeps."""
    seconds, cpu, actions = _timed_games(profile, games, repeats, cold=False)
    if actions != searched["actions"]:
        raise ConquianError(f"{profile.id}: the games played again with the memos kept are not the games played "
                            f"({actions} actions, not {searched['actions']})")
    return {
        "us_per_action": round(seconds / actions * 1e6, 2),
        "actions_per_cpu_second": round(actions / cpu) if cpu > 0 else None,
    }


# -- 3c. the same games, the meld search looked up ---------------------------------------------
# The questions of the meld tables' one interface (engine/solver.py), read from it so that a
# question added there is looked up here too.
QUESTIONS = tuple(name for name, value in vars(Solver).items() if callable(value) and not name.startswith("_"))


def bench_floor(profile: Profile, games: int, repeats: int, searched: dict) -> dict:
    """The games of bench_games (`searched`: its figures) played again with every question to
    the meld table answered from a dictionary filled on a first run of the same games: no search
    at all. Its time per action is the floor a faster search could reach. The table's own
    questions are put back afterwards, whatever happens."""
    table = meld_table(profile)
    saved = {name: table.__dict__[name] for name in QUESTIONS if name in table.__dict__}  # the memoised ones
    answers: dict[str, dict] = {name: {} for name in QUESTIONS}
    try:
        clear_caches(profile)
        asking = [False]  # the engine's questions are recorded, not the searches' own inner ones
        for name in QUESTIONS:
            setattr(table, name, _recording(getattr(table, name), answers[name], asking))
        simulate(profile, games, BENCH_SEED, progress=False)
        for name in QUESTIONS:
            setattr(table, name, _looking_up(answers[name]))
        seconds, cpu, actions = _timed_games(profile, games, repeats, cold=False)
    except KeyError:  # a question the first run never asked: these are other games
        seconds, cpu, actions = 0.0, 0.0, None
    finally:
        for name in QUESTIONS:
            table.__dict__.pop(name, None)
        table.__dict__.update(saved)
    if actions != searched["actions"]:  # the same games, or the lookups answered something else
        raise ConquianError(f"{profile.id}: the games with the meld search looked up are not the games played "
                            f"({actions} actions, not {searched['actions']}): the engine did not play the same seeds alike")
    return {
        "us_per_action": round(seconds / actions * 1e6, 2),
        "actions_per_cpu_second": round(actions / cpu) if cpu > 0 else None,
        "questions": sum(map(len, answers.values())),  # distinct questions the games asked
        "search_share": round(1 - seconds / actions * 1e6 / searched["us_per_action"], 3),
    }


def _recording(question, answers: dict, asking: list[bool]):
    """`question`, whose answers to the engine (the outermost calls) are kept in `answers`."""
    def ask(*args):
        if asking[0]:
            return question(*args)
        asking[0] = True
        try:
            answer = answers[args] = question(*args)
        finally:
            asking[0] = False
        return answer
    return ask


def _looking_up(answers: dict):
    """The question answered from `answers` alone."""
    return lambda *args: answers[args]


# -- the command -------------------------------------------------------------------------------
def bench_profile(profile: Profile, quick: bool, anchored: bool = False) -> dict:
    k = 1 if quick else 0
    drop_tables()
    result = {
        "profile": profile.id,
        "arrangement": bench_arrangement(profile, ARRANGE_MASKS[k], REPEATS[k]),
        "legal": bench_legal(profile, POSITION_GAMES[k], REPEATS[k]),
        "games": bench_games(profile, GAMES[k], GAME_REPEATS[k]),
    }
    result["warm"] = bench_warm(profile, GAMES[k], GAME_REPEATS[k], result["games"])  # first: the memos of the games are still there
    result["floor"] = bench_floor(profile, GAMES[k], GAME_REPEATS[k], result["games"])
    if anchored:  # right after the games, so the two rates are taken in the same minute
        result["anchor"] = bench_anchor(ANCHOR_CPU_SECONDS[k], GAME_REPEATS[k], BENCH_SEED)
        result["anchor_ratio"] = ratios(result["games"], result["anchor"])
        result["warm_anchor_ratio"] = ratios(result["warm"], result["anchor"])
        result["floor_anchor_ratio"] = ratios(result["floor"], result["anchor"])
    return result


def markdown(report: dict) -> str:
    m = report["machine"]
    lines = [
        f"conquian-ref bench ({'quick' if report['quick'] else 'full'} run), {m['date']}",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores ({m['usable_cores']} usable; the benchmark uses one); "
        f"{m['python']} (garbage collector thresholds {tuple(m['gc_thresholds'])}); {m['platform']}",
        "",
        f"Calibration: {m['calibration_ms']:.1f} ms for a fixed pure-Python loop that runs none of this code "
        "(compare it across runs: where it moved, the machine did).",
        "",
        "| profile | arrangement checks/s (cold) | arrangement checks/s (memoised) | legal() median µs | "
        "legal() p90 µs | legal() p99 µs | legal() play-phase median µs | legal() repeat median µs | random games/s | "
        "µs per action | µs per action, every search remembered | µs per action, meld search looked up | meld search share |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in report["profiles"]:
        a, l, g, w, f = r["arrangement"], r["legal"], r["games"], r["warm"], r["floor"]
        lines.append(
            f"| {r['profile']} | {a['checks_per_second_cold']:,} | {a['checks_per_second_memoised']:,} | "
            f"{l['median_us']:.1f} | {l['p90_us']:.1f} | {l['p99_us']:.1f} | {l['play_phase_median_us']:.1f} | {l['repeat_median_us']:.1f} | "
            f"{g['games_per_second']:,.0f} | {g['us_per_action']:.1f} | {w['us_per_action']:.1f} | {f['us_per_action']:.1f} | {f['search_share']:.0%} |"
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
            f"random complete games with tracing off (best of {g['repeats']} repetition(s)), then the same games "
            f"once with the memos kept (every search remembered: the floor a faster search alone could reach), "
            f"and with every meld-table question answered from a dictionary filled on a first run of them (no "
            f"search: the floor a faster meld table could reach). 1-minute load "
            f"average at the start: {m['load_average']}.",
        ]
    return "\n".join(lines)


def run(profiles: list[Profile], quick: bool = False, json_path: str | None = None, out=None) -> int:
    # Imported here: bench_protocol reads BENCH_SEED from this module.
    from .bench_protocol import FUZZ_GAMES, bench_conformance, bench_fuzz, conformance_markdown, fuzz_markdown

    status = anchor_status()  # None: OpenSpiel is here, its gin_rummy is timed beside every profile
    report = {"quick": quick, "machine": machine(quick), "anchor_status": status, "profiles": []}
    if status:
        print(f"bench: {status}", file=sys.stderr, flush=True)
    for profile in profiles:
        print(f"bench: {profile.id} ...", file=sys.stderr, flush=True)
        report["profiles"].append(bench_profile(profile, quick, anchored=status is None))
    print("bench: the conformance corpus ...", file=sys.stderr, flush=True)
    report["conformance"] = bench_conformance(1 if quick else 3, [p.id for p in profiles])
    print("bench: fuzzing over the protocol ...", file=sys.stderr, flush=True)
    fuzzed = [p.id for p in profiles][: 1 if quick else None]  # --quick: the first profile only
    report["fuzz"] = bench_fuzz(fuzzed, FUZZ_GAMES[1 if quick else 0], 1 if quick else 3)
    emit(json_path, lambda: report, lambda: "\n\n".join((markdown(report), anchor_markdown(report), conformance_markdown(report["conformance"]), fuzz_markdown(report["fuzz"]))), out)
    return 0
