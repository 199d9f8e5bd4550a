"""The command line (conquian_ref/cli.py) with its `simulate` and `bench` subcommands.

Pins: `--help` lists every subcommand; `simulate` tallies add up and are deterministic for a
seed; user errors are one line on stderr with exit status 2 and no traceback; `bench --quick`
runs. No timing assertions: timing fields are ignored when comparing runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conquian_ref.cli import COMMANDS, main
from conquian_ref.spec.profiles import PROFILE_IDS

ROOT = Path(__file__).resolve().parent.parent


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def simulate_json(capsys, *argv: str) -> dict:
    status, out, err = run_cli(capsys, "simulate", "--json", *argv)
    assert status == 0, err
    return json.loads(out)


def without_timing(doc: dict) -> dict:
    return {**doc, "profiles": [{k: v for k, v in p.items() if k != "timing"} for p in doc["profiles"]]}


def assert_one_line_error(status: int, out: str, err: str, *fragments: str) -> None:
    assert status == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("conquian-ref: error: ")
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0]


# -- help ------------------------------------------------------------------------------------------
def test_help_lists_every_subcommand(capsys):
    status, out, _ = run_cli(capsys, "--help")
    assert status == 0
    assert {"simulate", "bench"} <= set(COMMANDS)
    for name, (help_text, _) in COMMANDS.items():
        line = next((l for l in out.splitlines() if l.split()[:1] == [name]), None)
        assert line is not None, f"{name} missing from --help:\n{out}"


def test_help_sets_up_no_command():
    # Only the command being run is set up, so `--help` imports none of the commands' modules
    # (`completion` is the front door's own command: it lives in cli, imported anyway).
    code = (
        "import sys; from conquian_ref.cli import TABLE, main; main(['--help']); "
        "print(sorted({m for _, _, m, _ in TABLE if m != 'cli' and 'conquian_ref.' + m in sys.modules}))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "[]"


def test_the_table_names_every_command_once():
    from conquian_ref.cli import TABLE

    names = [name for name, *_ in TABLE]
    assert names == list(COMMANDS) and len(set(names)) == len(names)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_subcommand_has_help(capsys, name):
    status, out, _ = run_cli(capsys, name, "--help")
    assert status == 0
    assert f"conquian-ref {name}" in out


# -- version ---------------------------------------------------------------------------------------
def test_version_is_the_installed_metadata_and_pyproject_version(capsys):
    import tomllib
    from importlib.metadata import version

    import conquian_ref

    status, out, err = run_cli(capsys, "--version")
    assert (status, err) == (0, "")
    assert out == f"conquian-ref {version('conquian-ref')}\n"
    # One source of truth: the installed metadata is pyproject.toml's version (an install older
    # than the checkout fails here: reinstall), and the adapter's handshake names the same.
    assert version("conquian-ref") == tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert conquian_ref.__version__ == version("conquian-ref")


def test_version_is_looked_up_only_when_asked():
    # importlib.metadata costs an import and a search of sys.path: other commands skip it.
    code = "import sys; from conquian_ref.cli import main; main(['--help']); print('importlib.metadata' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "False"


# -- simulate --------------------------------------------------------------------------------------
def test_simulate_both_profiles_counts_add_up(capsys):
    doc = simulate_json(capsys, "--games", "20", "--seed", "1")
    assert [p["profile"] for p in doc["profiles"]] == list(PROFILE_IDS)
    for p in doc["profiles"]:
        assert p["games"] == 20
        wins = p["wins"]["seat_0"] + p["wins"]["seat_1"]
        assert wins + p["draws"] == 20
        assert p["wins_by_role"]["dealer"] + p["wins_by_role"]["non_dealer"] == wins
        assert sum(p["endings"].values()) == 20
        assert p["endings"]["stock_exhausted"] == p["draws"]
        assert 0 < p["turns"]["min"] <= p["turns"]["median"] <= p["turns"]["max"]
        assert p["turns"]["max"] <= p["actions"]["max"]
        assert p["choices_per_decision"]["mean"] >= 1


@pytest.mark.parametrize("profile", PROFILE_IDS)
def test_simulate_single_profile_text(capsys, profile):
    status, out, err = run_cli(capsys, "simulate", "--profile", profile, "--games", "20", "--seed", "1")
    assert status == 0, err
    assert out.startswith(f"{profile}: 20 random games, seed 1")
    for word in ("wins", "by role", "endings", "actions", "turns", "speed"):
        assert word in out


def test_simulate_same_seed_same_summary(capsys):
    first = simulate_json(capsys, "--games", "20", "--seed", "7")
    second = simulate_json(capsys, "--games", "20", "--seed", "7")
    assert without_timing(first) == without_timing(second)
    # the text form too, apart from its speed line
    texts = [run_cli(capsys, "simulate", "--games", "20", "--seed", "7")[1] for _ in range(2)]
    strip = lambda text: [l for l in text.splitlines() if not l.strip().startswith("speed")]
    assert strip(texts[0]) == strip(texts[1])


def test_simulate_seed_matters(capsys):
    a = simulate_json(capsys, "--games", "20", "--seed", "1")
    b = simulate_json(capsys, "--games", "20", "--seed", "2")
    assert without_timing(a) != without_timing(b)


def test_simulate_accepts_a_profile_path(capsys):
    path = ROOT / "conquian_ref" / "spec" / "profiles" / "anglo-american-v1.yaml"
    doc = simulate_json(capsys, "--profile", str(path), "--games", "3", "--seed", "1")
    assert [p["profile"] for p in doc["profiles"]] == ["anglo-american-v1"]


# -- errors ----------------------------------------------------------------------------------------
def test_unknown_profile_is_one_line_exit_2(capsys):
    status, out, err = run_cli(capsys, "simulate", "--profile", "no-such-profile", "--games", "2")
    assert_one_line_error(status, out, err, "no-such-profile")


@pytest.mark.parametrize(
    "argv",
    [
        ("simulate", "--games", "0"),
        ("simulate", "--games", "many"),
        ("simulate", "--seed", "x"),
        ("simulate", "--frobnicate"),
        ("bench", "--profile", "no-such-profile"),
        ("no-such-command",),
        (),
    ],
)
def test_bad_arguments_are_one_line_exit_2(capsys, argv):
    assert_one_line_error(*run_cli(capsys, *argv))


def test_malformed_profile_file_is_one_line_exit_2(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: [unclosed\n", encoding="utf-8")
    assert_one_line_error(*run_cli(capsys, "simulate", "--profile", str(bad), "--games", "1"))
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("id: x\n", encoding="utf-8")
    assert_one_line_error(*run_cli(capsys, "simulate", "--profile", str(wrong), "--games", "1"))


def test_unknown_profile_through_python_m():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run(
        [sys.executable, "-m", "conquian_ref", "simulate", "--profile", "no-such-profile"],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr, "no-such-profile")


# -- bench -----------------------------------------------------------------------------------------
def test_bench_quick_runs(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # OpenSpiel absent (the anchor's other path: test_bench_anchor.py)
    status, out, err = run_cli(capsys, "bench", "--quick", "--profile", "anglo-american-v1")
    assert status == 0, err
    assert "| profile |" in out
    assert "| anglo-american-v1 |" in out
    assert "Machine:" in out
    assert "Calibration:" in out
    assert "Anchor: OpenSpiel's gin_rummy not measured" in out and "ratio (vs all" not in out


def test_bench_fuzz_starts_each_run_with_the_meld_memos_cold(monkeypatch):
    """As a `conquian-ref fuzz` run starts: memos warmed by the engine's workloads earlier in
    bench's process had made the fuzzer's planning look cheaper."""
    from conquian_ref.engine.melds import meld_table
    from conquian_ref.spec.profiles import load_profile
    from conquian_ref.tools import bench_protocol

    profile = load_profile("anglo-american-v1")
    sizes = []
    real_run_fuzz = __import__("conquian_ref.tools.fuzz", fromlist=["run_fuzz"]).run_fuzz

    def run_fuzz(**kwargs):
        sizes.append(meld_table(profile).arrangeable.cache_info().currsize)
        meld_table(profile).arrangeable(0b111)  # something in the memo, for the next run
        return real_run_fuzz(**kwargs)

    monkeypatch.setattr("conquian_ref.tools.fuzz.run_fuzz", run_fuzz)
    meld_table(profile).arrangeable(0b111)
    rows = bench_protocol.bench_fuzz(["anglo-american-v1"], 3, 2)
    assert sizes == [0, 0, 0, 0] and rows[0]["games"] == 3  # each repetition: the run, and its base run


def test_bench_fuzz_takes_each_sides_start_up_out_of_its_cpu_per_game(monkeypatch):
    """The adapter's CPU per game had its interpreter's start-up and imports in it (about 0.07 s,
    a tenth of its CPU over 1,000 light games), the fuzzer's had not: each side's figure is now
    the difference between the run and a one-game run, over the games between."""
    from types import SimpleNamespace

    from conquian_ref.tools import bench_protocol

    def fuzz_run(profile, games):  # 0.1 s and 0.07 s once, then 1 and 2 ms a game
        run = SimpleNamespace(games=games, actions=50 * games, seconds=games / 1000)
        return run, 0.1 + 0.001 * games, 0.07 + 0.002 * games

    monkeypatch.setattr(bench_protocol, "_fuzz_run", fuzz_run)
    row = bench_protocol.bench_fuzz(["anglo-american-v1"], 1000, 1)[0]
    assert (row["fuzzer_cpu_ms_per_game"], row["adapter_cpu_ms_per_game"]) == (1.0, 2.0)
    assert row["games"] == 1000 and row["games_per_second"] == 1000.0


def test_bench_measures_a_profile_without_the_tables_of_the_profiles_before():
    """Bench measured every profile in one process, and the meld tables of the profiles before
    stayed alive: the garbage collector's full passes walked their memos, and twice-around's
    games took a quarter longer after two decks' than alone."""
    import gc
    import weakref

    from conquian_ref.engine.melds import meld_table
    from conquian_ref.spec.profiles import load_profile
    from conquian_ref.tools import bench

    earlier = load_profile("spielanleitung-two-decks-v1")
    bench.bench_games(earlier, 2, 1)
    table = weakref.ref(meld_table(earlier))
    bench.bench_profile(load_profile("anglo-american-v1"), quick=True)
    gc.collect()
    assert table() is None


def test_bench_floor_plays_the_same_games_with_every_meld_question_looked_up(monkeypatch):
    """The floor of a profile's random games: the same games, every question to the meld table
    answered from what a first run of them asked (no search), and the table as it was after."""
    from conquian_ref.engine.errors import ConquianError
    from conquian_ref.engine.melds import meld_table
    from conquian_ref.spec.profiles import load_profile
    from conquian_ref.tools import bench

    profile = load_profile("spielanleitung-two-decks-v1")
    table = meld_table(profile)
    memo = table.arrangeable
    games = bench.bench_games(profile, 4, 1)
    floor = bench.bench_floor(profile, 4, 1, games)  # it checks it played as many actions
    assert floor["questions"] > 0 and floor["us_per_action"] > 0
    assert "legal_uses" in bench.QUESTIONS and "arrangeable" in bench.QUESTIONS
    assert table.arrangeable is memo and "legal_uses" not in vars(table)  # put back
    with pytest.raises(ConquianError, match="not 1"):  # other games: the lookups are checked
        bench.bench_floor(profile, 4, 1, dict(games, actions=1))
    assert table.arrangeable is memo and "legal_uses" not in vars(table)  # put back after a failure too
    real_simulate, seeds = bench.simulate, iter([1, 2])  # the second run deals other games: a question never asked

    def other_games(profile, games, seed, progress):
        return real_simulate(profile, games, next(seeds), progress)

    monkeypatch.setattr(bench, "simulate", other_games)
    with pytest.raises(ConquianError, match="not the games played"):
        bench.bench_floor(profile, 4, 1, games)
    assert table.arrangeable is memo and "legal_uses" not in vars(table)


def test_bench_warm_plays_the_same_games_again_with_every_search_remembered():
    """The games with every search remembered: the same games right after the cold ones, the
    memos kept, so not one search is done again (no memo misses), and other games are refused."""
    from conquian_ref.engine.errors import ConquianError
    from conquian_ref.engine.melds import meld_table
    from conquian_ref.spec.profiles import load_profile
    from conquian_ref.tools import bench

    profile = load_profile("spielanleitung-two-decks-v1")
    games = bench.bench_games(profile, 6, 1)
    memos = [getattr(meld_table(profile), name) for name in ("arrangeable", "use_options", "extends")]
    misses = [memo.cache_info().misses for memo in memos]
    warm = bench.bench_warm(profile, 6, 2, games)
    assert warm["us_per_action"] > 0 and warm["actions_per_cpu_second"] > 0
    assert [memo.cache_info().misses for memo in memos] == misses  # every search answered by its memo
    assert sum(memo.cache_info().hits for memo in memos) > 0
    with pytest.raises(ConquianError, match="not 1"):
        bench.bench_warm(profile, 6, 1, dict(games, actions=1))


def test_bench_quick_json(capsys):
    status, out, err = run_cli(capsys, "bench", "--quick", "--json")
    assert status == 0, err
    report = json.loads(out)
    assert [p["profile"] for p in report["profiles"]] == list(PROFILE_IDS)
    # the machine's own speed, to tell a slower machine from slower code between two runs
    assert report["machine"]["calibration_ms"] > 0
    from conquian_ref.conformance.collector import FULL_PASS_EVERY

    assert report["machine"]["gc_thresholds"][2] == FULL_PASS_EVERY  # the command line's collector setting
    for p in report["profiles"]:
        assert p["legal"]["positions"] > 0
        assert p["games"]["actions"] > 0
        assert p["arrangement"]["checks_per_second_cold"] > 0
    # the fuzz figure (quick: the first profile, over the adapter process)
    assert [f["profile"] for f in report["fuzz"]] == list(PROFILE_IDS)[:1]
    assert report["fuzz"][0]["games"] == 20 and report["fuzz"][0]["games_per_second"] > 0
