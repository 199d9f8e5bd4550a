"""The schemas work anywhere, not only inside conquian_ref.spec.schemas.

- check-jsonschema (PyPI) validates scenarios against schema/scenario.schema.json with no flag
  but --schemafile, run from a folder that is not the repository (its references resolve beside
  the schema file), and against the bundled single-file schema;
- ajv (npm ajv-cli, installed into a cache folder; skipped with the reason when npm or the
  registry is not there) validates the whole corpus against the bundled schema;
- plain `jsonschema.validate` takes schema/report.schema.json as it is, with no registry;
- the bundled schema is the generator's output (regenerated and compared) and has no `$ref`;
- `new --corpus DIR` writes a modeline that resolves from where the draft is written;
- lint names a field that does not belong to an action type, and a misspelt state check key.

check-jsonschema follows a reference between files slowly (about 0.4 s a scenario here, where the
bundled schema takes 0.03 s), so it sees a few scenarios spread over the corpus; ajv sees them all.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import jsonschema
import pytest
import yaml

from conquian_ref import cli
from conquian_ref.conformance.reference import Reference
from conquian_ref.engine.actions import FIELDS
from conquian_ref.spec.scenario import corpus_dir, find_scenario_files
from conquian_ref.spec.schemas import BUNDLED, bundled_text, load_schema, schema_file
from conquian_ref.tools.lint import lint

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schema"
BASE = Path(__file__).parent / "samples" / "valid" / "tc-9000-base.yaml"
CORPUS = sorted(find_scenario_files([corpus_dir()]))
SAMPLE = CORPUS[:: max(1, len(CORPUS) // 3)][:3]  # three scenarios spread over the corpus
PASS_WITH_CARD = "Additional properties are not allowed ('card' was unexpected)"


def broken(tmp_path: Path, old: str, new: str, name: str = "broken.yaml") -> Path:
    """The valid base sample with `old` replaced by `new`, written to tmp_path/name."""
    text = BASE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def pass_with_card(tmp_path: Path) -> Path:
    return broken(tmp_path, "action: {type: exchange, card: 1O}", "action: {type: pass, card: 5E}")


# -- check-jsonschema ---------------------------------------------------------------------------
def check_jsonschema(schemafile: Path, files: list[Path], cwd: Path) -> dict:
    exe = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent)) or shutil.which("check-jsonschema")
    if exe is None:
        pytest.skip("check-jsonschema is not installed (pip install -e '.[test]' installs it)")
    done = subprocess.run(
        [exe, "--output-format", "json", "--schemafile", str(schemafile), *map(str, files)],
        cwd=cwd, capture_output=True, text=True, timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("schemafile", ["scenario.schema.json", BUNDLED["scenario.schema.json"]])
def test_check_jsonschema_validates_scenarios_with_no_extra_flags(tmp_path, schemafile):
    # From a folder outside the repository: nothing may depend on the working directory.
    bad = pass_with_card(tmp_path)
    report = check_jsonschema(SCHEMA / schemafile, [*SAMPLE, bad], cwd=tmp_path)
    assert report["status"] == "fail"
    assert [e["filename"] for e in report["errors"]] == [str(bad)], report["errors"]
    assert PASS_WITH_CARD in report["errors"][0]["message"]
    assert report["parse_errors"] == []


# -- ajv ------------------------------------------------------------------------------------------
def ajv() -> Path:
    """ajv-cli, installed once into a cache folder (CONQUIAN_AJV_DIR, else the temp folder)."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: ajv is not tried")
    home = Path(os.environ.get("CONQUIAN_AJV_DIR") or Path(tempfile.gettempdir()) / "conquian-ref-ajv")
    exe = home / "node_modules" / ".bin" / "ajv"
    if not exe.exists():
        home.mkdir(parents=True, exist_ok=True)
        try:
            done = subprocess.run(
                [npm, "install", "--prefix", str(home), "--no-audit", "--no-fund", "--silent", "ajv-cli@5"],
                capture_output=True, text=True, timeout=180,
            )
        except subprocess.TimeoutExpired:
            pytest.skip("npm install ajv-cli timed out (registry unreachable?)")
        if done.returncode != 0 or not exe.exists():
            pytest.skip(f"npm install ajv-cli failed: {(done.stderr or done.stdout).strip()[-200:]}")
    return exe


def test_ajv_validates_the_whole_corpus_with_the_bundled_schema(tmp_path):
    exe = ajv()
    bad = pass_with_card(tmp_path)
    done = subprocess.run(
        [str(exe), "validate", "--spec=draft2020", "--errors=json", "-s", str(SCHEMA / BUNDLED["scenario.schema.json"]),
         "-d", str(corpus_dir() / "**" / "*.yaml"), "-d", str(bad)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    lines = (done.stdout + done.stderr).splitlines()
    valid = [line for line in lines if line.endswith(" valid")]
    assert len(valid) == len(CORPUS), "\n".join(lines[:20])
    assert f"{bad} invalid" in lines, "\n".join(lines[:20])
    assert done.returncode != 0
    assert '"additionalProperty": "card"' in done.stderr


# -- plain jsonschema -------------------------------------------------------------------------------
def test_plain_jsonschema_validates_a_report_with_report_schema_alone(tmp_path, capsys):
    out, corpus = tmp_path / "report.json", tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(CORPUS[0], corpus)  # one scenario: a real report, made quickly
    assert cli.main(["check", "--corpus", str(corpus), "--json", str(out)]) == 0
    capsys.readouterr()
    report = json.loads(out.read_text(encoding="utf-8"))
    schema = json.loads((SCHEMA / "report.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(report, schema)  # no registry, no base URI: the file stands alone
    report["results"][0]["rules"] = ["not-a-rule"]
    with pytest.raises(jsonschema.ValidationError, match="does not match"):
        jsonschema.validate(report, schema)


def test_report_rule_id_is_the_common_definition():
    assert load_schema("report")["$defs"]["rule_id"]["pattern"] == load_schema("common")["$defs"]["rule_id"]["pattern"]


# -- the bundled schema ---------------------------------------------------------------------------
def test_bundled_scenario_schema_is_in_sync_and_self_contained():
    for source, bundle in BUNDLED.items():
        text = (SCHEMA / bundle).read_text(encoding="utf-8")
        assert text == bundled_text(source), f"schema/{bundle} is stale: run python -m conquian_ref.spec.schemas"
        assert '"$ref"' not in text
        jsonschema.Draft202012Validator.check_schema(json.loads(text))
        assert schema_file(bundle).is_file()  # shipped (package data: conquian_ref/_schema/*.json)


# -- what the schema itself says ----------------------------------------------------------------------
def test_one_schema_branch_per_action_shape_matching_the_engine():
    action = load_schema("scenario")["$defs"]["action"]
    assert action["properties"]["type"]["enum"] == list(FIELDS)
    fields_of = {}
    for branch in action["allOf"]:
        for kind in branch["if"]["properties"]["type"]["enum"]:
            assert kind not in fields_of, f"{kind} has two branches"
            fields_of[kind] = tuple(branch["then"]["required"])
            assert set(branch["then"]["properties"]) == {"type", *fields_of[kind]}
            assert branch["then"]["additionalProperties"] is False
    assert fields_of == FIELDS


def test_check_keys_are_the_keys_of_a_state_and_an_observation():
    data = yaml.safe_load(BASE.read_text(encoding="utf-8"))
    reference = Reference()
    reference.setup(data["profile"], data["setup"])
    check = load_schema("scenario")["$defs"]["check"]["properties"]
    assert set(check["state"]["properties"]) == set(reference.state())
    assert check["state"]["additionalProperties"] is False
    match = check["observation"]["properties"]["match"]
    assert set(match["properties"]) == set(reference.observation(0))
    assert match["additionalProperties"] is False


# -- lint's messages ----------------------------------------------------------------------------------
def test_lint_names_the_field_a_pass_does_not_take(tmp_path):
    path = pass_with_card(tmp_path)
    read, problems = lint([path])
    assert [str(p) for p in problems] == [f"{path}:16: steps[0].action: {PASS_WITH_CARD}"]


def test_lint_refuses_a_misspelt_state_check_key(tmp_path):
    path = broken(tmp_path, "state: {phase: play", "state: {phse: play")
    read, problems = lint([path])
    assert [str(p) for p in problems] == [
        f"{path}:20: steps[1].check.state: Additional properties are not allowed ('phse' was unexpected); "
        "did you mean 'phase' (for 'phse')?"
    ]


def test_lint_refuses_a_misspelt_observation_key(tmp_path):
    path = broken(tmp_path, "state: {phase: play, to_act: [1]}", "observation: {seat: 0, match: {stok_count: 22}}")
    read, problems = lint([path])
    assert len(problems) == 1 and "'stok_count' was unexpected" in problems[0].message, problems


# -- new --corpus: the modeline ------------------------------------------------------------------------
def new_draft(capsys, out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    data = yaml.safe_load(BASE.read_text(encoding="utf-8"))
    status = cli.main(["new", "--profile", data["profile"], "--area", "opening", "--rules", data["rules"][0],
                       "--title", "A draft to read its modeline", "--dealer", "0", "--corpus", str(out)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return Path(captured.out.strip())


def schema_of(draft: Path) -> str:
    first = draft.read_text(encoding="utf-8").splitlines()[0]
    prefix = "# yaml-language-server: $schema="
    assert first.startswith(prefix), first
    return first[len(prefix):]


def test_new_modeline_is_relative_inside_a_folder_with_the_schema(tmp_path, capsys):
    project = tmp_path / "project"
    shutil.copytree(SCHEMA, project / "schema")
    draft = new_draft(capsys, project / "corpus")
    target = schema_of(draft)
    assert not target.startswith(("/", "file:")), target
    assert (draft.parent / target).resolve() == (project / "schema" / "scenario.schema.json").resolve()


def test_new_modeline_outside_is_relative_to_a_copy_of_the_bundled_schema_in_the_corpus(tmp_path, capsys):
    # Never an absolute file:// path into this machine's installation.
    draft = new_draft(capsys, tmp_path / "elsewhere")
    target = schema_of(draft)
    assert not target.startswith(("/", "file:")), target
    path = (draft.parent / target).resolve()
    assert path == (tmp_path / "elsewhere" / BUNDLED["scenario.schema.json"]).resolve() and path.is_file()
    assert '"$ref"' not in path.read_text(encoding="utf-8")
    moved = tmp_path / "another-machine"
    shutil.copytree(tmp_path / "elsewhere", moved)
    assert (moved / draft.relative_to(tmp_path / "elsewhere")).parent.joinpath(target).resolve().is_file()
    second = new_draft(capsys, tmp_path / "elsewhere")  # the copy is made once, then found
    assert schema_of(second) == target


def test_fast_items_reports_exactly_what_jsonschema_reports():
    # The validator's shortcut for lists of cards (spec/schemas.py _fast_items) must change
    # nothing but the time: the same errors as the plain Draft 2020-12 validator, on bad cards.
    from conquian_ref.spec.schemas import bundled, validator

    data = yaml.safe_load(BASE.read_text(encoding="utf-8"))
    data["setup"]["stock"][3:5] = ["7X", 12]
    data["rules"].append("tc-xch-1")
    plain = jsonschema.Draft202012Validator(bundled("scenario"))

    def errors(v) -> list:
        return sorted((list(e.absolute_path), e.message) for e in v.iter_errors(data))

    assert errors(validator("scenario")) == errors(plain) and len(errors(plain)) == 3


# A value of every kind the compiled check tells apart (bool is not int, 2.0 is an integer, nan is
# no less than anything, a list and a dict are neither a string nor a number).
ODD_VALUES = [None, True, False, 0, 1, 3, 4, -1, 2.0, 2.5, float("nan"), "", "x", "use", "accepted", "1O", "12E", [], [1], ["1O", "1O"], {}, {"type": "pass"}]


def mutations(data, rng, count: int):
    """`count` copies of `data`, each with one value somewhere replaced, a key dropped or added."""
    import copy

    for _ in range(count):
        copy_ = copy.deepcopy(data)
        node, path = copy_, []
        while isinstance(node, (dict, list)) and node and rng.random() < 0.8:
            key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
            parent, node = node, node[key]
            path.append((parent, key))
        if not path:
            continue
        parent, key = path[-1]
        what = rng.random()
        if what < 0.6:
            parent[key] = rng.choice(ODD_VALUES + [[rng.choice(ODD_VALUES)]])
        elif what < 0.8 and isinstance(parent, dict):
            del parent[key]
        elif isinstance(parent, dict):
            parent[rng.choice(["card", "cards", "type", "seat", "phse", "deck", "match", "refused"])] = rng.choice(ODD_VALUES)
        else:
            parent.append(rng.choice(ODD_VALUES))
        yield copy_


def test_the_compiled_check_judges_as_jsonschema_does():
    # spec/schemas.py `_fast_items` and `_fast_properties` skip jsonschema where the compiled
    # check (spec/schema_check.py) finds a value valid: that check must be True exactly where
    # jsonschema finds no error, for every list item and property schema of the shipped schemas,
    # on the corpus's values and on mutated ones.
    import random

    from conquian_ref.spec import schema_check, schemas

    rng = random.Random(13)
    subschemas = []  # every schema of a list's items or of a property

    def walk(schema):
        if isinstance(schema, dict):
            if isinstance(schema.get("items"), dict):
                subschemas.append(schema["items"])
            if isinstance(schema.get("properties"), dict):
                subschemas.extend(each for each in schema["properties"].values() if isinstance(each, dict))
            for value in schema.values():
                walk(value)
        elif isinstance(schema, list):
            for value in schema:
                walk(value)

    for name in schemas.schema_names():
        walk(schemas.validator(name).schema)
    subschemas = list({json.dumps(each, sort_keys=True): each for each in subschemas}.values())
    compiled = [(each, schema_check.check_of(each)) for each in subschemas]
    assert sum(check is not None for _, check in compiled) >= 20
    values = []

    def collect(node):
        if isinstance(node, dict):
            values.append(node)
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            values.extend(node)
            for value in node:
                collect(value)

    for path in CORPUS[::40] + [BASE]:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        collect(data)
        for mutated in mutations(data, rng, 20):
            collect(mutated)
    values = list({json.dumps(value, sort_keys=True): value for value in values + ODD_VALUES}.values())
    judged = 0
    for subschema, check in compiled:
        if check is None:
            continue
        plain = jsonschema.Draft202012Validator(subschema)
        for value in values:
            try:
                verdict = check(value)
            except schema_check.Unsure:
                continue
            assert verdict == plain.is_valid(value), (subschema, value)
            judged += verdict
    assert judged > 1000


def test_the_compiled_check_changes_no_error():
    # Whole scenarios, mutated: the validator reports exactly what the plain one reports.
    import random

    from conquian_ref.spec.schemas import bundled, validator

    rng = random.Random(12)
    plain = jsonschema.Draft202012Validator(bundled("scenario"))

    def errors(v, data) -> list:
        return sorted((list(e.absolute_path), e.message, list(e.schema_path)) for e in v.iter_errors(data))

    for path in CORPUS[::40] + [BASE]:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for mutated in [data, *mutations(data, rng, 40)]:
            assert errors(validator("scenario"), mutated) == errors(plain, mutated)


def test_the_compiled_check_leaves_what_it_does_not_judge_to_jsonschema():
    from decimal import Decimal

    from conquian_ref.spec import schema_check

    for schema in ({"enum": [0, 1]}, {"not": {"enum": [0, 1]}}, {"uniqueItems": True}):
        with pytest.raises(schema_check.Unsure):
            schema_check.compiled(schema)(Decimal(1) if "uniqueItems" not in schema else [1, True])
    assert schema_check.compiled({"$ref": "#/$defs/x"}) is None
    assert schema_check.compiled({"type": "string", "format": "date"}) is None
