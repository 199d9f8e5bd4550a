"""Hostile scenario, profile and known-failures files, and hostile corpus folders.

tests/hostile_files/ is the permanent adversarial corpus: small files, each starting with the
line lint must report (`# expect: LINE: FIELD: TEXT`, written by hand from the limit or the
rule the file breaks). Big inputs (a 5,000-digit integer, a file over the size limit) are made
at run time in tmp_path. Every entry point that reads such a file (lint, fmt, record, a profile
given by path, a known-failures file, check --corpus) must end in one line and a non-zero exit,
never a traceback, in bounded time. The time bounds are generous: they catch a hang or an
exponential walk, not a slow machine.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conquian_ref.cli import main
from conquian_ref.engine.errors import ConquianError, MalformedInput
from conquian_ref.spec import yamlfile
from conquian_ref.spec.known import load_known_failures
from conquian_ref.spec.profiles import load_profile
from conquian_ref.spec.scenario import corpus_dir, find_scenario_files, load_corpus, walk_corpus
from conquian_ref.spec.yamlfile import MAX_BYTES, YamlError, load_with_lines, loads_with_lines
from conquian_ref.tools.fmt import format_text
from conquian_ref.tools.lint import lint

HOSTILE = Path(__file__).parent / "hostile_files"
FILES = sorted(HOSTILE.glob("*.yaml"))
BASE = Path(__file__).parent / "samples" / "valid" / "tc-9000-base.yaml"
LINE = re.compile(r"^(?P<file>[^\n]+?):(?P<line>\d+): (?P<field>\S+): (?P<message>[^\n]+)$")
BOUND = 20.0  # seconds: far above any honest run, far below a hang or an exponential walk


def _expected(path: Path) -> str:
    first = path.read_bytes().split(b"\n", 1)[0].decode("utf-8")
    assert first.startswith("# expect: "), path
    return first[len("# expect: ") :]


def _one_line_failure(status: int, out: str, err: str) -> str:
    """The single line a command printed for a refused file (stdout or stderr), checked."""
    assert status != 0
    assert "Traceback" not in out + err
    lines = [line for line in (out + err).splitlines() if not line.startswith(("lint:", "fmt:"))]
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_hostile_file_is_one_precise_line_in_lint(path):
    started = time.monotonic()
    read, problems = lint([path])
    assert time.monotonic() - started < BOUND
    assert (read, len(problems)) == (0, 1), problems
    assert str(problems[0]).startswith(f"{path}:{_expected(path)}"), problems[0]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_hostile_file_is_one_line_in_fmt_record_profile_and_known_failures(path, capsys, tmp_path):
    line, field, text = _expected(path).split(": ", 2)
    status = main(["fmt", "--check", str(path)])
    assert _one_line_failure(status, *capsys.readouterr()).startswith(f"{path}:{line}: (file): {text}")
    status = main(["record", str(path)])
    assert _one_line_failure(status, *capsys.readouterr()).startswith(f"conquian-ref: error: {path}:{line}: (file): {text}")
    with pytest.raises(MalformedInput) as raised:
        load_profile(str(path))
    assert str(raised.value).startswith(f"{path}:{line}: {text}") and "\n" not in str(raised.value)
    with pytest.raises(ConquianError) as raised:
        load_known_failures(path)
    assert str(raised.value).startswith(f"{path}:{line}: (file): {text}") and "\n" not in str(raised.value)


def test_check_and_book_on_a_hostile_corpus_say_one_line(capsys, tmp_path):
    status = main(["check", "--corpus", str(HOSTILE)])
    err = _one_line_failure(status, *capsys.readouterr())
    assert f"the corpus has {len(FILES)} problem(s)" in err
    status = main(["book", "--corpus", str(HOSTILE), "--out", str(tmp_path / "book")])
    out, err = capsys.readouterr()
    skipped = [line for line in err.splitlines() if line.startswith("book: skipped: ")]
    assert status == 1 and "Traceback" not in out + err and len(skipped) == len(FILES)


def test_hostile_corpus_in_a_real_process_has_no_traceback():
    run = subprocess.run(
        [sys.executable, "-m", "conquian_ref", "lint", str(HOSTILE)], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 1 and "Traceback" not in run.stdout + run.stderr
    assert len(run.stdout.splitlines()) == len(FILES)
    assert all(LINE.match(line) for line in run.stdout.splitlines())


# -- hostile YAML: each limit and each refusal, one test each -----------------------------------
def test_alias_bomb_is_refused_fast_without_walking_every_alias():
    # Nine levels of ten aliases: 10**9 values once expanded; the scan counts each anchor once.
    text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 9)
    )
    started = time.monotonic()
    with pytest.raises(YamlError, match="once its aliases are expanded"):
        loads_with_lines(text)
    assert time.monotonic() - started < 2.0


def test_self_referencing_alias_is_a_line_not_a_recursion_error():
    with pytest.raises(YamlError) as raised:
        loads_with_lines("id: &r [*r]\n")
    assert (raised.value.line, "inside its own anchor" in raised.value.message) == (1, True)


def test_non_scalar_key_is_a_line_not_a_type_error():
    with pytest.raises(YamlError) as raised:
        loads_with_lines("? [a]\n: 1\n")
    assert raised.value.line == 1 and "a list or a mapping" in raised.value.message


def test_integer_of_5000_digits_is_a_line_not_a_value_error(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("id: tc-9001\nsetup:\n  dealer: " + "7" * 5000 + "\n", encoding="utf-8")
    read, problems = lint([path])
    assert [str(p) for p in problems] == [f"{path}:3: (file): an integer of 5,000 digits (at most {yamlfile.MAX_INT_DIGITS})"]


def test_an_integer_within_the_limit_still_reads():
    assert loads_with_lines("a: " + "9" * yamlfile.MAX_INT_DIGITS + "\n")[0] == {"a": int("9" * yamlfile.MAX_INT_DIGITS)}


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    # In a real process with a time-out: a blocking open would hang the test, not fail it.
    run = subprocess.run([sys.executable, "-m", "conquian_ref", "lint", str(fifo)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert run.stdout == f"{fifo}:0: (file): cannot read the file: not a regular file: a FIFO (named pipe)\n"


def test_dev_zero_is_refused_not_read_into_memory(capsys):
    assert main(["lint", "/dev/zero"]) == 1
    out, err = capsys.readouterr()
    assert out == "/dev/zero:0: (file): cannot read the file: not a regular file: a character device\n"


def test_a_huge_file_is_refused_after_reading_at_most_the_limit(tmp_path, monkeypatch):
    huge = tmp_path / "huge.yaml"
    with huge.open("wb") as f:
        f.truncate(10**10)  # sparse: 10 GB of zero bytes on no disk space
    read = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: read.append(n) or real_read(fd, n))
    started = time.monotonic()
    with pytest.raises(YamlError, match=f"larger than {MAX_BYTES:,} bytes"):
        load_with_lines(huge)
    assert time.monotonic() - started < BOUND
    assert sum(read) <= MAX_BYTES + 1


def test_a_file_at_the_size_limit_is_read(tmp_path):
    path = tmp_path / "limit.yaml"
    body = "a: " + "x" * (MAX_BYTES - 4) + "\n"
    path.write_text(body, encoding="utf-8")
    assert len(body.encode()) == MAX_BYTES
    assert load_with_lines(path)[0] == {"a": "x" * (MAX_BYTES - 4)}


def test_deep_nesting_is_a_line_even_far_beyond_the_limit():
    with pytest.raises(YamlError, match="nested|depth"):
        loads_with_lines("a: " + "[" * 100_000 + "]" * 100_000)


# -- corpus folders: nothing skipped in silence ------------------------------------------------------
def test_irregular_corpus_entries_are_each_reported(tmp_path, capsys):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "ok.yaml").write_text(BASE.read_text(encoding="utf-8"), encoding="utf-8")
    (corpus / "dangling.yaml").symlink_to(tmp_path / "nowhere.yaml")
    (corpus / "loop.yaml").symlink_to(corpus / "loop.yaml")
    os.mkfifo(corpus / "pipe.yaml")
    (corpus / "folder.yaml").mkdir()
    (corpus / "sub").mkdir()
    (corpus / "sub" / "up").symlink_to(corpus)  # a link to a parent: followed once, not a loop
    files, problems = walk_corpus([corpus])
    assert files == [corpus / "ok.yaml"]
    reported = {Path(p.file).name: p.message for p in problems}
    assert set(reported) == {"dangling.yaml", "loop.yaml", "pipe.yaml", "folder.yaml"}, reported
    assert "dangling symbolic link" in reported["dangling.yaml"]
    assert "symbolic link loop" in reported["loop.yaml"]
    assert "a FIFO" in reported["pipe.yaml"] and "a folder" in reported["folder.yaml"]
    read, problems = lint([corpus])
    assert read == 1 and len(problems) == 4 and all(LINE.match(str(p)) for p in problems)


def test_an_unreadable_folder_is_reported(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    (corpus / "locked").mkdir(parents=True)
    (corpus / "ok.yaml").write_text(BASE.read_text(encoding="utf-8"), encoding="utf-8")
    real_scandir = os.scandir

    def scandir(path):  # the tests run as root, where chmod 000 does not lock a folder
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    scenarios, problems = load_corpus([corpus])
    assert [s.id for s in scenarios] == ["tc-9000"]
    assert [str(p) for p in problems] == [f"{corpus / 'locked'}:0: (file): cannot read the folder: Permission denied"]


def test_an_unreadable_file_is_reported(tmp_path, monkeypatch):
    path = tmp_path / "secret.yaml"
    path.write_text(BASE.read_text(encoding="utf-8"), encoding="utf-8")
    real_open = os.open

    def refusing_open(file, flags, *args):  # root reads any file: refuse this one as EACCES would
        if Path(file) == path:
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, flags, *args)

    monkeypatch.setattr(os, "open", refusing_open)
    read, problems = lint([tmp_path])
    assert [str(p) for p in problems] == [f"{path}:0: (file): cannot read the file: permission denied"]


def test_an_id_of_the_shipped_corpus_is_refused_in_another_folder(tmp_path, capsys):
    shipped = find_scenario_files([corpus_dir()])[0]
    copy = tmp_path / "mine.yaml"
    text = shipped.read_text(encoding="utf-8")
    copy.write_text(text.replace("\ntitle: ", "\ntitle: My own scenario reusing the id - "), encoding="utf-8")
    assert main(["lint", str(copy)]) == 1
    out, _ = capsys.readouterr()
    assert re.fullmatch(rf"{re.escape(str(copy))}:\d+: id: id \S+ is already used by {re.escape(str(shipped))}\n", out), out
    copy.write_text(text, encoding="utf-8")  # a byte-identical copy is the same scenario
    assert main(["lint", str(copy)]) == 0


# -- YAML 1.2: the core schema, as editors and JSON Schema validators read it ----------------------
def test_yes_no_on_off_are_strings_as_in_yaml_1_2():
    data, _ = loads_with_lines("tags: [refusal, yes, no, on, off, Yes, NO, On, OFF, y, n]\n")
    assert data["tags"] == ["refusal", "yes", "no", "on", "off", "Yes", "NO", "On", "OFF", "y", "n"]


def test_only_true_and_false_are_booleans():
    data, _ = loads_with_lines("a: [true, True, TRUE, false, False, FALSE, tRUE, ~, null, Null, NULL, '']\nb:\n")
    assert data == {"a": [True, True, True, False, False, False, "tRUE", None, None, None, None, ""], "b": None}


def test_yaml_1_1_numbers_read_as_yaml_1_2():
    data, _ = loads_with_lines("a: [1:20, 012, 0o12, 0x1F, 0b11, 1_000, 2024-01-01, .inf, -.INF, 1e3, .5, +7]\n")
    assert data["a"][:7] == ["1:20", 12, 10, 31, "0b11", "1_000", "2024-01-01"]
    assert data["a"][7:] == [float("inf"), float("-inf"), 1000.0, 0.5, 7]


def test_merge_key_is_a_plain_key_in_yaml_1_2():
    data, _ = loads_with_lines("a: &a {x: 1}\nb: {<<: *a, y: 2}\n")
    assert data["b"] == {"<<": {"x": 1}, "y": 2}


def test_lint_and_fmt_read_yes_as_the_string_yes(tmp_path):
    text = BASE.read_text(encoding="utf-8").replace("rules: [TC-XCH-1]\n", "rules: [TC-XCH-1]\ntags: [yes]\n")
    path = tmp_path / "tc-9000.yaml"
    path.write_text(text, encoding="utf-8")
    scenarios, problems = load_corpus([path])
    assert problems or scenarios[0].data["tags"] == ["yes"]  # the schema may refuse an unknown tag, as a string
    assert all("True" not in p.message and "boolean" not in p.message for p in problems), problems
    formatted = format_text(text.replace("rules: [TC-XCH-1]\n", "rules: [TC-XCH-1]\nextra: [on, off]\n"))
    assert loads_with_lines(formatted)[0]["extra"] == ["on", "off"]


# -- fmt and record on valid and hostile files ---------------------------------------------------
def test_fmt_anchor_before_its_alias_is_not_an_undefined_alias():
    text = BASE.read_text(encoding="utf-8")
    text = re.sub(r"\ntitle: [^\n]*", "", text).replace("annotation: >", "annotation: &a >") + "title: *a\n"
    assert "title" in loads_with_lines(text)[0]
    formatted = format_text(text)
    assert loads_with_lines(formatted)[0] == loads_with_lines(text)[0]
    assert format_text(formatted) == formatted


def test_fmt_comment_inside_a_block_card_list_in_steps_is_no_fmt_bug():
    text = BASE.read_text(encoding="utf-8").replace(
        "      state: {phase: play, to_act: [1]}",
        "      state: {phase: play, to_act: [1]}\n      observation:\n        seat: 0\n        match:\n"
        "          hand:\n            - 3E\n            # the card that matters\n            - 2C\n",
    ).replace("action: {type: exchange, card: 1O}", "action: {type: exchange, card: 1O}\n    check: {observation: {seat: 1, match: {hand: [3B, 2E]}}}")
    formatted = format_text(text)
    assert "# the card that matters\n            - 2C" in formatted  # the commented list is left as written
    assert "[2E, 3B]" in formatted  # while another card list is still sorted


def test_fmt_alias_inside_a_card_list_is_left_as_written():
    text = BASE.read_text(encoding="utf-8").replace("    - [1O, 2C,", "    - &h [1O, 2C,").replace(
        "      state: {phase: play, to_act: [1]}", "      state: {phase: play, to_act: [1]}\n      observation: {seat: 0, match: {hand: *h}}"
    )
    assert format_text(text) == text


def test_record_fills_a_zero_indented_block_list(tmp_path):
    from conquian_ref.tools.record import record_text

    text = BASE.read_text(encoding="utf-8").replace("      state: {phase: play, to_act: [1]}", "      perft:\n      - record\n      - record")
    recording = record_text(tmp_path / "tc-9000.yaml", text)
    perft = loads_with_lines(recording.new)[0]["steps"][1]["check"]["perft"]
    assert len(perft) == 2 and all(isinstance(n, int) and n > 0 for n in perft) and perft[0] <= perft[1]
    assert recording.problems == []


def test_record_refuses_a_placeholder_written_as_an_alias(tmp_path, capsys):
    text = BASE.read_text(encoding="utf-8").replace("outcome: null", "outcome: *r").replace(
        "      state: {phase: play, to_act: [1]}", "      state: {phase: &r record}"
    )
    path = tmp_path / "tc-9000.yaml"
    path.write_text(text, encoding="utf-8")
    status = main(["record", str(path)])
    line = _one_line_failure(status, *capsys.readouterr())
    assert line == f"conquian-ref: error: {path}:21: outcome: cannot record a value written as an alias (*name): write record there"
    assert path.read_text(encoding="utf-8") == text


def test_record_speaks_json(tmp_path, capsys):
    text = BASE.read_text(encoding="utf-8").replace(
        "    check:\n      state: {phase: play, to_act: [1]}", "  - seat: 1\n    action: {type: reject}\n    expect: accepted"
    )
    path = tmp_path / "tc-9000.yaml"
    path.write_text(text.replace("outcome: null", "outcome: record"), encoding="utf-8")
    status = main(["record", str(path)])
    line = _one_line_failure(status, *capsys.readouterr())
    assert 'the draft expects "accepted", the reference engine gives {"refused": "cannot_reject_revealed"}' in line


# -- the properties: arbitrary YAML-like text, arbitrary drafts ----------------------------------
_VALUES = st.recursive(
    st.one_of(st.sampled_from(["record", "4O", "1C", "pass", "use", "accepted", None, True, 0, 1, 2, -1, "yes"]), st.integers()),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["type", "card", "cards", "seat", "match", "actions", "phase", "refused"]), inner, max_size=3),
    ),
    max_leaves=10,
)
_STEP = st.fixed_dictionaries(
    {},
    optional={
        "seat": st.sampled_from([0, 1, 2, "record", None, 1.0, True]),
        "action": st.one_of(st.fixed_dictionaries({"type": st.sampled_from(["exchange", "pass", "reject", "use", "x"])},
                                                  optional={"card": st.sampled_from(["1O", "4O", "zz", 3])}), _VALUES),
        "expect": st.one_of(st.sampled_from(["record", "accepted"]), _VALUES),
        "check": st.one_of(st.fixed_dictionaries({}, optional={
            "state": st.one_of(st.just("record"), _VALUES),
            "observation": st.fixed_dictionaries({}, optional={"seat": st.sampled_from([0, 1, 5, "a"]), "match": _VALUES}),
            "legal": st.fixed_dictionaries({}, optional={"seat": st.sampled_from([0, 1, 7]), "actions": _VALUES}),
            "perft": _VALUES,
        }), _VALUES),
    },
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(_STEP, max_size=3), outcome=st.sampled_from(["record", None, 5]), flow=st.booleans())
def test_record_on_arbitrary_drafts_is_a_recording_or_one_line(steps, outcome, flow, tmp_path):
    from conquian_ref.tools.record import record_text

    data = yaml.safe_load(BASE.read_text(encoding="utf-8"))
    data["steps"] += steps
    data["outcome"] = outcome
    text = yaml.safe_dump(data, default_flow_style=flow, sort_keys=False)
    try:
        recording = record_text(tmp_path / "tc-9000.yaml", text)
    except ConquianError as exc:
        assert "\n" not in str(exc)
    else:
        assert loads_with_lines(recording.new)[0] is not None


YAML_BITS = st.sampled_from(
    ["a", "id", ":", " ", "\n", "- ", "[", "]", "{", "}", ",", "&x ", "*x", "? ", "!", "!!str ", "#", "'", '"', "|", ">",
     "  ", "---", "...", "9" * 120, "yes", "1:20", "\t", "\\", "%YAML 1.1\n", "<<: ", "\x00", "\ufeff", "é"]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(st.lists(YAML_BITS, max_size=40).map("".join), st.text(max_size=80)))
def test_arbitrary_yaml_text_is_data_or_one_line(text, tmp_path):
    try:
        data, lines = loads_with_lines(text)
    except YamlError as exc:
        assert "\n" not in exc.message and exc.line >= 0
    else:
        assert all(isinstance(line, int) for line in lines.values())
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    _, problems = lint([path], replay_steps=False)
    assert all("\n" not in str(p) for p in problems)
    try:
        format_text(text)
    except YamlError as exc:
        assert "\n" not in exc.message
