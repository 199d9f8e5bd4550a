"""What `lint` checks and what it reads: everything `check` would refuse, within the folder given,
and never a run that checked nothing.

- A seat the profile's table does not have (seat 3 of a two-player profile), wherever a replay
  sends one, is one line naming the field in lint, and check refuses the same file at the same
  line: lint never passes what check then errors on.
- A misdeal deals no more cards than the deck holds (the schema bounds each count, the profile's
  deck their sum).
- A symbolic link out of the folder given is never followed (one line says so).
- A folder holding no scenario file is a usage error, not "0 scenario(s) valid".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conquian_ref.cli import main
from conquian_ref.spec.profiles import PROFILE_IDS, load_profile
from conquian_ref.spec.scenario import corpus_dir, find_scenario_files, walk_corpus
from conquian_ref.tools.lint import lint

BASE = Path(__file__).parent / "samples" / "valid" / "tc-9000-base.yaml"
LINE = re.compile(r"^(?P<file>[^\n]+?):(?P<line>\d+): (?P<field>\S+): (?P<message>[^\n]+)$")


def _two_player_base() -> str:
    assert load_profile("torno-cisneros-v1").seats == (0, 1)  # the base sample's profile seats two
    return BASE.read_text(encoding="utf-8")


def _misdeal_match() -> Path:
    """A shipped match scenario with a misdeal entry, of a two-player profile with stakes."""
    for path in find_scenario_files([corpus_dir()]):
        text = path.read_text(encoding="utf-8")
        if "misdeal: {counts: [" in text and "\nmatch:" in text and "partnership" not in str(path):
            return path
    raise AssertionError("the corpus has no misdeal in a two-player match")


FIRST_STEP = "steps:\n  - seat: 0\n    action: {type: exchange, card: 1O}\n"
SEATS = {  # the field a replay sends as a seat -> the base sample's text with seat 3 or 2 written there
    "steps[0].seat": lambda text: text.replace(FIRST_STEP, FIRST_STEP.replace("seat: 0", "seat: 3")),
    "steps[0].check.legal.seat": lambda text: text.replace("steps:\n", "steps:\n  - check: {legal: {seat: 3, actions: []}}\n"),
    "steps[0].check.observation.seat": lambda text: text.replace("steps:\n", "steps:\n  - check: {observation: {seat: 2, match: {}}}\n"),
}


def _written(folder: Path, text: str) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _one_problem(path: Path) -> str:
    read, problems = lint([path])
    assert len(problems) == 1, [str(p) for p in problems]
    assert LINE.match(str(problems[0])), problems[0]
    return str(problems[0])


@pytest.mark.parametrize("field", SEATS)
def test_a_seat_the_table_does_not_have_is_one_line_in_lint_and_refused_by_check_at_the_same_line(field, tmp_path, capsys):
    text = _two_player_base()
    changed = SEATS[field](text)
    assert changed != text
    path = _written(tmp_path / "corpus", changed)
    problem = _one_problem(path)
    assert re.fullmatch(rf"{re.escape(str(path))}:\d+: {re.escape(field)}: a seat is 0 or 1, got [23]", problem), problem
    capsys.readouterr()
    assert main(["check", "--corpus", str(tmp_path / "corpus")]) == 2  # refused before anything is sent
    err = capsys.readouterr().err
    assert problem in err and err.count("\n") == 1, err


def test_a_seat_of_four_is_admitted_where_the_profile_seats_four(tmp_path):
    partnership = [p for p in PROFILE_IDS if len(load_profile(p).seats) == 4]
    assert partnership
    shipped = [f for f in find_scenario_files([corpus_dir() / partnership[0]]) if "seat: 3" in f.read_text(encoding="utf-8")]
    assert shipped and lint(shipped[:1])[1] == []


@pytest.mark.parametrize("field", ["match.first_dealer", "match.deals[1].winner"])
def test_a_match_seat_the_table_does_not_have_is_one_line(field, tmp_path):
    source = _misdeal_match()
    text = source.read_text(encoding="utf-8")
    if field == "match.first_dealer":
        changed = re.sub(r"first_dealer: \d", "first_dealer: 3", text, count=1)
    else:
        changed = re.sub(r"(deals:\n    - .*\n    - \{result: win, winner: )\d", r"\g<1>3", text, count=1)
    assert changed != text
    problem = _one_problem(_written(tmp_path, changed))
    assert f": {field}: a seat is 0 or 1, got 3" in problem, problem


@pytest.mark.parametrize(
    ("counts", "field", "wording"),
    [
        ("[1000000000000000000000000000000, 14]", "match.deals[0].misdeal.counts[0]", "is greater than the maximum of 104"),
        ("[60, 14]", "match.deals[0].misdeal.counts", "74 cards dealt in all, more than the"),
        ("[9, 11, 10]", "match.deals[0].misdeal.counts", "2 card counts, one per seat (got 3)"),
    ],
)
def test_a_misdeal_deals_no_more_cards_than_the_deck_and_one_count_per_seat(counts, field, wording, tmp_path, capsys):
    source = _misdeal_match()
    text = source.read_text(encoding="utf-8")
    changed = re.sub(r"misdeal: \{counts: \[[^\]]*\]\}", f"misdeal: {{counts: {counts}}}", text, count=1)
    assert changed != text and "deals:\n    - {misdeal:" in changed  # the first entry is the misdeal
    folder = tmp_path / "corpus"
    problem = _one_problem(_written(folder, changed))
    assert f": {field}: " in problem and wording in problem, problem
    capsys.readouterr()
    assert main(["check", "--corpus", str(folder)]) == 2
    assert problem in capsys.readouterr().err


def test_lint_never_follows_a_symbolic_link_out_of_the_folder_given(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "ok.yaml").write_text(BASE.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "sibling.yaml").write_text("not: [a scenario\n", encoding="utf-8")  # would be a problem if read
    (corpus / "up").symlink_to("..")
    (corpus / "outside.yaml").symlink_to(tmp_path / "sibling.yaml")
    files, problems = walk_corpus([corpus])
    assert files == [corpus / "ok.yaml"]
    assert sorted(str(p) for p in problems) == [
        f"{corpus / 'outside.yaml'}:0: (file): a symbolic link out of the folder {corpus} (to {str(tmp_path / 'sibling.yaml')!r}): not followed",
        f"{corpus / 'up'}:0: (file): a symbolic link out of the folder {corpus} (to '..'): not followed",
    ]
    read, problems = lint([corpus])
    assert read == 1 and len(problems) == 2 and not any("sibling" in p.file for p in problems)


def test_a_symbolic_link_inside_the_folder_given_is_still_followed(tmp_path):
    corpus = tmp_path / "corpus"
    (corpus / "real").mkdir(parents=True)
    (corpus / "real" / "ok.yaml").write_text(BASE.read_text(encoding="utf-8"), encoding="utf-8")
    (corpus / "alias").symlink_to("real")
    files, problems = walk_corpus([corpus / "alias"])  # the folder given is itself a link
    assert files == [corpus / "alias" / "ok.yaml"] and problems == []


@pytest.mark.parametrize("content", [{}, {"notes.txt": "no scenario here"}])
def test_lint_of_a_folder_holding_no_scenario_file_is_a_usage_error(content, tmp_path, capsys):
    for name, text in content.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert main(["lint", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "nothing was checked" in err, err
