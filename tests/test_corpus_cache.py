"""The corpus cache (conquian_ref/spec/corpus_cache.py): what it serves is what loading the files
would give, never a stale entry, never a damaged or hand-edited one, and a cache folder that
cannot be written is no cache, never a failure."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

import conquian_ref
from conquian_ref.cli import main
from conquian_ref.spec import corpus_cache
from conquian_ref.spec.scenario import corpus_dir, load_corpus

SAMPLE = ("tc-0001-", "aa-0001-", "sa-0001-")  # scenario files copied into each test's corpus


@pytest.fixture
def corpus(tmp_path, monkeypatch) -> Path:
    """A small corpus in a folder of its own (three shipped scenarios and a broken file), with a
    cache folder of its own and the environment key computed afresh."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(corpus_cache.NO_CACHE, raising=False)
    corpus_cache.environment_key.cache_clear()
    folder = tmp_path / "corpus"
    folder.mkdir()
    for file in corpus_dir().rglob("*.yaml"):
        if file.name.startswith(SAMPLE):
            shutil.copy(file, folder / file.name)
    (folder / "broken.yaml").write_text("id: tc-9999\ntitle: [unclosed\n", encoding="utf-8")
    yield folder
    corpus_cache.environment_key.cache_clear()


def snapshot(folder: Path) -> tuple:
    """Everything load_corpus gives, lines included, as comparable plain data."""
    scenarios, problems = load_corpus([folder])
    return [(s.path, s.data, dict(s.lines)) for s in scenarios], problems


def cache_file(tmp_path: Path) -> Path:
    (found,) = (tmp_path / "cache" / "conquian-ref").glob("corpus-*.json")
    return found


def rewrite(path: Path, edit) -> None:
    """Edit the entries of a cache file and write its digest anew: a forgery the digest cannot
    catch, to show an entry under the same key IS served (so the tests below prove something)."""
    header, entries, maps = path.read_bytes().split(b"\n", 2)
    entries = json.loads(entries)
    edit(entries)
    body = json.dumps(entries).encode() + b"\n" + maps
    head = json.loads(header)
    head["sha256"] = hashlib.sha256(body).hexdigest()
    path.write_bytes(json.dumps(head).encode() + b"\n" + body)


def retitle(entries: dict) -> None:
    for entry in entries.values():
        if "data" in entry:
            entry["data"]["title"] = "FROM THE CACHE"


def titles(folder: Path) -> set[str]:
    return {s.data["title"] for s in load_corpus([folder])[0]}


def test_a_cached_load_gives_what_the_files_give(corpus, tmp_path, monkeypatch):
    first = snapshot(corpus)  # builds the cache
    assert cache_file(tmp_path).exists()
    assert len(first[0]) == len(SAMPLE) and first[1], "three scenarios and the broken file's problem"
    assert snapshot(corpus) == first  # served from the cache: the same data, lines and problems
    monkeypatch.setenv(corpus_cache.NO_CACHE, "1")
    assert snapshot(corpus) == first  # and without it
    (corpus / "broken.yaml").unlink()  # a file gone: the others' entries (line maps too) written anew
    truth = snapshot(corpus)
    monkeypatch.delenv(corpus_cache.NO_CACHE)
    assert snapshot(corpus) == truth and snapshot(corpus) == truth


def test_the_probe_a_forged_entry_under_the_same_key_is_served(corpus, tmp_path):
    load_corpus([corpus])
    rewrite(cache_file(tmp_path), retitle)
    assert titles(corpus) == {"FROM THE CACHE"}


def test_editing_a_scenario_file_changes_the_result(corpus, tmp_path):
    load_corpus([corpus])
    rewrite(cache_file(tmp_path), retitle)
    (edited,) = corpus.glob("tc-0001*.yaml")
    text = edited.read_text(encoding="utf-8")
    edited.write_text(text.replace("\ntitle: ", "\ntitle: Edited ", 1), encoding="utf-8")
    found = {s.id: s.data["title"] for s in load_corpus([corpus])[0]}
    assert found["tc-0001"].startswith("Edited ")
    assert {t for i, t in found.items() if i != "tc-0001"} == {"FROM THE CACHE"}  # the others were unchanged
    (corpus / "broken.yaml").write_text(text.replace("id: tc-0001", "id: tc-0002"), encoding="utf-8")
    assert load_corpus([corpus])[1] == []  # the broken file mended: its problem is gone


@pytest.mark.parametrize("damage", [
    "flip a byte of the body", "truncate", "append", "hand-edit the title", "empty", "not JSON",
    "header only", "another format", "entries of the wrong shape", "a folder in its place",
])
def test_a_damaged_or_edited_cache_file_is_ignored_and_rebuilt(corpus, tmp_path, damage):
    truth = snapshot(corpus)
    path = cache_file(tmp_path)
    data = path.read_bytes()
    header, body = data.split(b"\n", 1)
    if damage == "flip a byte of the body":
        i = body.index(b'"title":"') + 9
        path.write_bytes(header + b"\n" + body[:i] + bytes([body[i] ^ 1]) + body[i + 1:])
    elif damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "append":
        path.write_bytes(data + b"{}")
    elif damage == "hand-edit the title":
        path.write_bytes(header + b"\n" + body.replace(b'"title":"', b'"title":"X', 1))
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "not JSON":
        path.write_bytes(b"\x80\x81 not json\n\xff")
    elif damage == "header only":
        path.write_bytes(header)
    elif damage == "another format":
        head = json.loads(header)
        path.write_bytes(json.dumps({**head, "format": 0}).encode() + b"\n" + body)
    elif damage == "entries of the wrong shape":
        rewrite(path, lambda entries: [entry.update(data=[1], lines=2, problems="x") for entry in entries.values()])
    elif damage == "a folder in its place":
        path.unlink()
        path.mkdir()
    assert snapshot(corpus) == truth
    if damage != "a folder in its place":
        assert snapshot(corpus) == truth
        assert path.read_bytes().split(b"\n", 1)[0] == header, "rebuilt: the same header as the first"
        rewrite(path, retitle)
        assert titles(corpus) == {"FROM THE CACHE"}, "and the rebuilt file is used"


def test_another_package_version_invalidates(corpus, tmp_path, monkeypatch):
    load_corpus([corpus])
    rewrite(cache_file(tmp_path), retitle)
    monkeypatch.setattr(conquian_ref, "__version__", "99.0.0", raising=False)
    corpus_cache.environment_key.cache_clear()
    assert "FROM THE CACHE" not in titles(corpus)


def test_other_schemas_invalidate(corpus, tmp_path, monkeypatch):
    load_corpus([corpus])
    rewrite(cache_file(tmp_path), retitle)
    inputs = corpus_cache._inputs()
    schemas = tmp_path / "schemas"  # the shipped schemas, one of them a byte longer
    shutil.copytree(inputs[0][0], schemas)
    (schemas / "scenario.schema.json").write_text((schemas / "scenario.schema.json").read_text() + " ")
    monkeypatch.setattr(corpus_cache, "_inputs", lambda: [(schemas, "*.json"), *inputs[1:]])
    corpus_cache.environment_key.cache_clear()
    assert "FROM THE CACHE" not in titles(corpus)


def test_the_key_covers_the_profiles_the_rules_and_the_checking_code():
    folders = {folder.name for folder, _ in corpus_cache._inputs()}
    assert {"profiles", "spec", "engine"} <= folders and len(folders) == 5  # and the schemas and the rules


def test_a_cache_folder_that_cannot_be_written_is_no_cache(corpus, tmp_path, monkeypatch):
    truth = snapshot(corpus)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert snapshot(corpus) == truth
    assert snapshot(corpus) == truth


def test_no_cache_and_never_inside_the_package(corpus, tmp_path, monkeypatch):
    monkeypatch.setenv(corpus_cache.NO_CACHE, "1")
    load_corpus([corpus])
    assert not (tmp_path / "cache").exists()
    monkeypatch.delenv(corpus_cache.NO_CACHE)
    monkeypatch.setenv("XDG_CACHE_HOME", str(Path(conquian_ref.__file__).parent))
    assert corpus_cache.cache_folder() is None
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # ignored, as XDG says: ~/.cache then
    assert corpus_cache.cache_folder() == Path.home() / ".cache" / "conquian-ref"


def test_the_no_cache_option(corpus, tmp_path, capsys):
    assert main(["lint", "--no-cache", str(corpus)]) == 1  # the broken file
    assert not (tmp_path / "cache").exists()
    assert corpus_cache.NO_CACHE not in os.environ  # restored after the command
    assert main(["check", "--corpus", str(corpus), "-k", "tc-0001"]) == 2  # the broken file, through the cache
    assert "problem" in capsys.readouterr().err
    assert cache_file(tmp_path).exists()
    (corpus / "broken.yaml").unlink()
    assert main(["check", "--corpus", str(corpus), "-k", "tc-0001", "--no-cache"]) == 0
    assert main(["check", "--corpus", str(corpus), "-k", "tc-0001"]) == 0


def test_files_named_one_by_one_are_not_cached(corpus, tmp_path):
    load_corpus(sorted(corpus.glob("*.yaml")))
    assert not (tmp_path / "cache").exists()


def test_a_cache_file_over_the_limit_is_not_read(corpus, tmp_path, monkeypatch):
    load_corpus([corpus])
    rewrite(cache_file(tmp_path), retitle)
    monkeypatch.setattr(corpus_cache, "MAX_BYTES", 100)
    assert "FROM THE CACHE" not in titles(corpus)


def test_the_cache_folder_keeps_the_most_recently_written_files_only(corpus, tmp_path):
    """Each corpus folder checked leaves a cache file; writing one removes the least recently
    written beyond corpus_cache.KEEP, so temporary corpora do not fill the disk."""
    folder = tmp_path / "cache" / "conquian-ref"
    folder.mkdir(parents=True)
    for i in range(corpus_cache.KEEP + 5):
        stale = folder / f"corpus-{i:024d}.json"
        stale.write_text("{}\n")
        os.utime(stale, (1_000_000 + i, 1_000_000 + i))
    other = folder / "notes.txt"  # not a cache file: left alone
    other.write_text("mine")
    load_corpus([corpus])
    kept = sorted(p.name for p in folder.glob("corpus-*.json"))
    assert len(kept) == corpus_cache.KEEP and corpus_cache.open_cache([corpus]).path.name in kept
    assert kept[0] == f"corpus-{5 + 1:024d}.json"  # the 6 oldest gone: the newest 15 stale files and this run's
    assert other.exists()
