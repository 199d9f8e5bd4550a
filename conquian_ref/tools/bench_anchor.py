"""The anchor of `conquian-ref bench`: OpenSpiel's gin_rummy (C++, through `pyspiel`), timed in
the same run as the engine, so the engine's speed is read as a ratio that does not move with
the machine.

OpenSpiel is an optional extra (`pip install 'conquian-ref[anchor]'`, the `open_spiel` wheel).
When `pyspiel` cannot be imported, `anchor_status` says so in one line and no ratio is printed.

The workload: random games of gin_rummy, each from a new initial state, with random legal
actions drawn by a seeded `random.Random` (as `simulate` draws ours) and chance outcomes (the
deal and every stock card) drawn by their probabilities; games are played until a fixed CPU
time has passed (`time.process_time`, so other work on the machine does not count), best of the
repetitions. Actions are counted two ways: **all** applied actions, chance included (what
OpenSpiel's own random-game figures count, and what the ratio uses), and the players'
**decisions** only. The engine's actions are all decisions (its deal is one shuffle, no action),
so the ratio against all of gin_rummy's actions is the stricter of the two: gin_rummy's deal
alone is 21 chance actions.
"""

from __future__ import annotations

import random
import time

ANCHOR_GAME = "gin_rummy"


def load_pyspiel():
    """The `pyspiel` module, or None when OpenSpiel is not installed (or cannot load here)."""
    try:
        import pyspiel
    except (ImportError, OSError):  # OSError: a wheel whose shared library cannot load
        return None
    return pyspiel


def anchor_status() -> str | None:
    """None when the anchor can be measured; else the one line that says why not."""
    if load_pyspiel() is None:
        return (
            f"Anchor: OpenSpiel's {ANCHOR_GAME} not measured (pyspiel is not importable; "
            "pip install 'conquian-ref[anchor]'), so no ratio is printed."
        )
    return None


def play_one(state, rng: random.Random) -> tuple[int, int]:
    """Play one gin_rummy game from `state` to its end: (all actions, decisions)."""
    actions = decisions = 0
    choice, choices = rng.choice, rng.choices
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()  # [(action, probability), ...]
            action = choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = choice(state.legal_actions())
            decisions += 1
        state.apply_action(action)
        actions += 1
    return actions, decisions


def bench_anchor(cpu_seconds: float, repeats: int, seed: int) -> dict | None:
    """Random gin_rummy games for `cpu_seconds` of CPU time, best of `repeats` repetitions (by
    actions per CPU second); None when pyspiel is not importable."""
    pyspiel = load_pyspiel()
    if pyspiel is None:
        return None
    game = pyspiel.load_game(ANCHOR_GAME)
    best = None
    for _ in range(repeats):
        rng = random.Random(seed)  # the same games in every repetition
        games = actions = decisions = 0
        start = time.process_time()
        elapsed = 0.0
        while games == 0 or elapsed < cpu_seconds:
            a, d = play_one(game.new_initial_state(), rng)
            games, actions, decisions = games + 1, actions + a, decisions + d
            elapsed = time.process_time() - start
        run = (actions / elapsed if elapsed > 0 else float("inf"), games, actions, decisions, elapsed)
        best = run if best is None or run[0] > best[0] else best
    _, games, actions, decisions, elapsed = best
    return {
        "game": ANCHOR_GAME,
        "repeats": repeats,
        "games": games,
        "actions": actions,
        "decisions": decisions,
        "cpu_seconds": round(elapsed, 4),
        "actions_per_cpu_second": round(actions / elapsed) if elapsed > 0 else None,
        "decisions_per_cpu_second": round(decisions / elapsed) if elapsed > 0 else None,
    }


def ratios(games: dict, anchor: dict | None) -> dict | None:
    """The engine's actions per CPU second over gin_rummy's, against all of its actions (the
    ratio printed) and against its decisions only; None without the anchor."""
    ours = games.get("actions_per_cpu_second")
    if anchor is None or not ours or not anchor["actions_per_cpu_second"]:
        return None
    return {
        "vs_all_actions": round(ours / anchor["actions_per_cpu_second"], 3),
        "vs_decisions": round(ours / anchor["decisions_per_cpu_second"], 3) if anchor["decisions_per_cpu_second"] else None,
    }


def anchor_markdown(report: dict) -> str:
    """The anchor's table (one row per profile), or the one line saying it was not measured."""
    status = report.get("anchor_status")
    if status:
        return status
    lines = [
        f"Against OpenSpiel's {ANCHOR_GAME} (C++ through pyspiel, random games in this run, measured right after "
        "each profile's games; CPU time). The ratio is the engine's actions per CPU second over gin_rummy's "
        "**all** actions per CPU second (chance actions included, as OpenSpiel counts them); the engine's "
        "actions are all players' decisions. The last two columns are the same ratio for the same games with "
        "every search remembered (the memos kept: the most any faster search alone could give) and with every "
        "meld-table question looked up (no search: the most any faster meld table could give).",
        "",
        f"| profile | engine actions/CPU s | {ANCHOR_GAME} actions/CPU s (all) | {ANCHOR_GAME} decisions/CPU s | "
        "ratio (vs all actions) | ratio (vs decisions) | ratio with every search remembered (vs all actions) | "
        "ratio with the meld search looked up (vs all actions) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in report["profiles"]:
        a, ratio = r.get("anchor"), r.get("anchor_ratio")
        if a is None or ratio is None:
            continue
        warm, floor = (f"{c['vs_all_actions']:.2f}x" if c else "-" for c in (r.get("warm_anchor_ratio"), r.get("floor_anchor_ratio")))
        lines.append(
            f"| {r['profile']} | {r['games']['actions_per_cpu_second']:,} | {a['actions_per_cpu_second']:,} | "
            f"{a['decisions_per_cpu_second']:,} | {ratio['vs_all_actions']:.2f}x | {ratio['vs_decisions']:.2f}x | {warm} | {floor} |"
        )
    return "\n".join(lines)
