"""The pytest integration: another project runs the corpus inside its own test suite, through
the `conformance(...)` factory or the plugin (`--conquian-impl`)."""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
from importlib.metadata import entry_points
from itertools import islice
from pathlib import Path

import pytest
import yaml

from conquian_ref import PROFILE_IDS
from conquian_ref.conformance.check import run_check
from conquian_ref.conformance.reports import text_report
from conquian_ref.spec.scenario import corpus_dir, find_scenario_files, load_scenario

pytest_plugins = ["pytester"]


def _module(impl: str, extra: str = "") -> str:
    return textwrap.dedent(
        f"""
        from conquian_ref.conformance.pytest_plugin import conformance

        test_conquian = conformance({impl!r}{extra})
        """
    )


def test_reference_in_process_passes_every_scenario(pytester):
    pytester.makepyfile(test_conformance=_module("python:conquian_ref.conformance.adapter:ReferenceAdapter"))
    result = pytester.runpytest("-q", "-p", "no:cacheprovider")
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) >= 2 and "failed" not in outcomes, result.stdout.str()
    result.stdout.fnmatch_lines(["*passed*"])


def test_each_scenario_is_one_test_named_by_its_id(pytester):
    pytester.makepyfile(test_conformance=_module("python:conquian_ref.conformance.adapter:ReferenceAdapter"))
    result = pytester.runpytest("--collect-only", "-q", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["*test_conquian?aa-0001?*"])


def test_known_failure_that_passes_fails_strictly(pytester):
    pytester.makefile(".yaml", known="- id: aa-0001\n  reason: pretend house rule\n")
    pytester.makepyfile(
        test_conformance=_module("python:conquian_ref.conformance.adapter:ReferenceAdapter", ", known_failures='known.yaml'")
    )
    result = pytester.runpytest("-q", "-p", "no:cacheprovider", "-k", "aa-0001")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*XPASS(strict)*pretend house rule*"])


def test_a_deviating_engine_fails_with_file_step_and_annotation(pytester):
    pytester.makepyfile(
        lenient="""
        from conquian_ref.conformance.adapter import ReferenceAdapter

        class Lenient(ReferenceAdapter):
            '''Never lists the pass action: a deliberate deviation from C-TURN-5.'''
            def cmd_legal(self, request):
                answer = super().cmd_legal(request)
                return {"actions": [a for a in answer["actions"] if a["type"] != "pass"]}
        """
    )
    pytester.makepyfile(test_conformance=_module("python:lenient:Lenient"))
    pytester.syspathinsert()
    result = pytester.runpytest("-q", "-p", "no:cacheprovider")
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) >= 1, result.stdout.str()
    result.stdout.fnmatch_lines(["*aa-0001*check.legal*", "*expected:*pass*", "*annotation:*"])


# -- the plugin (pytest11 entry point, --conquian-* options) ---------------------------------------


REFERENCE_IMPL = "python:conquian_ref.conformance.adapter:ReferenceAdapter"
ADAPTERS = Path(__file__).parent / "adapters"
AUTO_TAKE = "python:auto_take:Adapter"  # tests/adapters/auto_take.py: a house rule, the automatic take
# Three deal scenarios with dealt hands, taken from the data (no id written here).
DEALS = list(islice((p for p in sorted(find_scenario_files([corpus_dir()])) if "\n  hands:" in p.read_text(encoding="utf-8")), 3))
IDS = [yaml.safe_load(p.read_text(encoding="utf-8"))["id"] for p in DEALS]


def small_corpus(pytester, paths=DEALS, adapter: str | None = None) -> Path:
    """A corpus folder of these scenario files; with `adapter`, that module of tests/adapters
    copied beside it, importable in the pytester run."""
    corpus = pytester.path / "corpus"
    corpus.mkdir()
    for path in paths:
        shutil.copy(path, corpus)
    if adapter is not None:
        shutil.copy(ADAPTERS / adapter, pytester.path)
        pytester.syspathinsert()
    return corpus


def test_plugin_is_registered_through_the_pytest11_entry_point():
    found = {e.name: e.value for e in entry_points(group="pytest11")}
    assert found.get("conquian_ref") == "conquian_ref.pytest_plugin"


def test_plugin_is_inert_without_conquian_impl(pytester):
    pytester.makepyfile(test_mine="def test_mine():\n    assert True\n")
    result = pytester.runpytest("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert "conquian" not in result.stdout.str()
    helped = pytester.runpytest("--help")
    for option in ("--conquian-impl", "--conquian-profile", "--conquian-known-failures", "--conquian-validate-messages", "--conquian-corpus"):
        assert option in helped.stdout.str()


def test_plugin_makes_one_item_per_scenario_named_by_its_id(pytester):
    small_corpus(pytester)
    result = pytester.runpytest("-v", "-p", "no:cacheprovider", "--conquian-impl", REFERENCE_IMPL, "--conquian-corpus", "corpus",
                                "--conquian-validate-messages", "-k", f"{IDS[0]} or {IDS[1]}")
    result.assert_outcomes(passed=2, deselected=1)
    out = result.stdout.str()
    assert f"conquian::{IDS[0]} PASSED" in out and f"conquian::{IDS[1]} PASSED" in out, out


def test_plugin_failure_is_the_check_runners_text_without_chained_tracebacks(pytester):
    corpus = small_corpus(pytester)
    card = yaml.safe_load(DEALS[0].read_text(encoding="utf-8"))["setup"]["hands"][0][0]
    impl = f"{sys.executable} {ADAPTERS / 'crash_on_card.py'} --card {card}"
    result = pytester.runpytest("-p", "no:cacheprovider", "--conquian-impl", impl, "--conquian-corpus", "corpus", "-k", IDS[0])
    result.assert_outcomes(failed=1, deselected=2)
    out = result.stdout.str()
    assert "During handling" not in out and "Traceback" not in out, out
    # The check runner's report of the same run holds the same block, line for line.
    expected = text_report(run_check(impl, corpus=corpus, patterns=[IDS[0]]))
    block = expected[expected.index(f"ERRORED {IDS[0]}") :].split("\n\n")[0]
    for line in block.splitlines():
        if "adapter stderr" not in line and not line.startswith("    |"):
            assert line.replace(str(corpus), "corpus") in out, line
    assert f"engine: cannot deal {card} to seat 0" in out


def test_plugin_known_failure_that_passes_is_a_strict_xpass(pytester):
    small_corpus(pytester)
    pytester.makefile(".yaml", known=f"- id: {IDS[0]}\n  reason: pretend house rule\n")
    result = pytester.runpytest("-q", "-p", "no:cacheprovider", "--conquian-impl", REFERENCE_IMPL, "--conquian-corpus", "corpus",
                                "--conquian-known-failures", "known.yaml", "-k", IDS[0])
    result.assert_outcomes(failed=1, deselected=2)
    result.stdout.fnmatch_lines(["*XPASS(strict)*pretend house rule*"])


def test_plugin_known_failures_by_cause_and_by_rule_are_xfails(pytester, monkeypatch):
    # The plugin honours every kind of entry check does: by cause and by rule too, once the
    # failure's first divergence is known (it honoured ids only).
    monkeypatch.syspath_prepend(str(ADAPTERS))
    struck = next(p for p in sorted(corpus_dir().glob("torno-cisneros-v1/force/*.yaml")) if "tc-0107" in p.name)
    from conquian_ref.tools.mutants import house_rules

    # named as the plugin names it: with check's library of house rules
    found = run_check(AUTO_TAKE, scenarios=[load_scenario(struck)], hypotheses=house_rules()).results[0]
    assert found.status == "failed" and found.cause.house_rule == "automatic-take"  # the automatic take strikes here
    small_corpus(pytester, [struck], "auto_take.py")
    for entry in (f"cause: {json.dumps(str(found.cause))}", f"rule: {found.cause.rule}", "house_rule: automatic-take"):
        pytester.makefile(".yaml", known=f"- {entry}\n  reason: house rule, the automatic take\n")
        result = pytester.runpytest("-rx", "-p", "no:cacheprovider", "--conquian-impl", AUTO_TAKE, "--conquian-corpus", "corpus",
                                    "--conquian-known-failures", "known.yaml")
        result.assert_outcomes(xfailed=1)
        result.stdout.fnmatch_lines(["*XFAIL*known failure*house rule, the automatic take*"])
    # Without the file, the same run fails.
    pytester.runpytest("-p", "no:cacheprovider", "--conquian-impl", AUTO_TAKE, "--conquian-corpus", "corpus").assert_outcomes(failed=1)


@pytest.mark.parametrize("entry, named", [("rule: XX-NOPE-1", "XX-NOPE-1"), ("house_rule: automatic-tak", "automatic-take")])
def test_plugin_known_failures_naming_an_unknown_rule_is_one_line(pytester, entry, named):
    small_corpus(pytester)
    pytester.makefile(".yaml", known=f"- {entry}\n  reason: typo\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "--conquian-impl", REFERENCE_IMPL, "--conquian-corpus", "corpus",
                                "--conquian-known-failures", "known.yaml")
    assert result.ret != 0
    assert any(line.startswith(("conquian:", "ERROR: conquian:")) and named in line
               for line in result.stdout.lines + result.stderr.lines), result.stdout.str() + result.stderr.str()
    assert "Traceback" not in result.stdout.str() + result.stderr.str()


def test_plugin_bad_corpus_option_is_one_line(pytester):
    result = pytester.runpytest("-q", "-p", "no:cacheprovider", "--conquian-impl", REFERENCE_IMPL, "--conquian-corpus", "nowhere")
    err = result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR and "--conquian-corpus: nowhere: no such folder" in err, err
    assert "Traceback" not in err + result.stdout.str()


# -- the plugin checks its options as check does: a run that tests nothing never passes ----------
@pytest.mark.parametrize("option, value, says", [
    ("--conquian-profile", "anglo-americn-v1", "--conquian-profile: unknown profile 'anglo-americn-v1'"),
    ("--conquian-known-failures", "no-such-file.yaml", "--conquian-known-failures: no-such-file.yaml: no such known-failures file"),
    ("--conquian-timeout", "-1", "--conquian-timeout: -1 is not a positive number"),
])
def test_a_plugin_option_naming_nothing_is_a_usage_error_not_a_pass(pytester, option, value, says):
    pytester.makepyfile(test_mine="def test_mine():\n    assert True\n")
    result = pytester.runpytest("-q", "-p", "no:cacheprovider", "--conquian-impl", REFERENCE_IMPL, option, value)
    err = result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR and says in err and "passed" not in result.stdout.str(), err


def test_a_profile_with_no_scenario_in_the_corpus_is_an_error_as_in_check(pytester):
    small_corpus(pytester)  # deal scenarios of one profile only
    other = next(p for p in PROFILE_IDS if p not in {yaml.safe_load(d.read_text(encoding="utf-8"))["profile"] for d in DEALS})
    result = pytester.runpytest("-q", "-p", "no:cacheprovider", "--conquian-impl", REFERENCE_IMPL, "--conquian-corpus", "corpus",
                                "--conquian-profile", other)
    assert result.ret != 0 and f"no scenario of profile {other!r}" in result.stdout.str(), result.stdout.str()


def test_a_known_failures_path_outside_the_project_never_silently_disables_the_plugin(pytester, tmp_path_factory):
    # pytest takes '--opt PATH' outside the project for a path to test and moves its rootdir, so
    # the project's ini file (which gives --conquian-impl) is not read: that run checked nothing
    # and passed.
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "known.yaml"
    elsewhere.write_text(f"- id: {IDS[0]}\n  reason: pretend house rule\n", encoding="utf-8")
    small_corpus(pytester)
    pytester.makeini(f"[pytest]\naddopts = --conquian-impl {REFERENCE_IMPL} --conquian-corpus corpus -p no:cacheprovider\n")
    result = pytester.runpytest("-q", "--conquian-known-failures", str(elsewhere))
    err = result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR and "--conquian-known-failures is given without --conquian-impl" in err, err
    assert "--conquian-known-failures=PATH" in err  # the way out, and it works:
    result = pytester.runpytest("-q", f"--conquian-known-failures={elsewhere}", "-k", IDS[0])
    result.assert_outcomes(failed=1, deselected=2)  # the strict xpass: the plugin ran with the file
    result.stdout.fnmatch_lines(["*XPASS(strict)*pretend house rule*"])


def test_factory_adapter_error_has_no_chained_traceback(pytester):
    small_corpus(pytester)
    card = yaml.safe_load(DEALS[0].read_text(encoding="utf-8"))["setup"]["hands"][0][0]
    impl = f"{sys.executable} {ADAPTERS / 'crash_on_card.py'} --card {card}"
    pytester.makepyfile(test_conformance=_module(impl, ", corpus='corpus'"))
    result = pytester.runpytest("-p", "no:cacheprovider", "-k", IDS[0])
    result.assert_outcomes(failed=1, deselected=2)
    out = result.stdout.str()
    assert "During handling" not in out and f"engine: cannot deal {card} to seat 0" in out, out


@pytest.mark.parametrize("way", ["plugin", "factory"])
def test_a_failed_handshake_is_one_session_level_error_not_one_failure_per_scenario(pytester, way):
    small_corpus(pytester)
    impl = f"{sys.executable} {ADAPTERS / 'bad_handshake.py'}"
    if way == "plugin":
        result = pytester.runpytest("-p", "no:cacheprovider", "--conquian-impl", impl, "--conquian-corpus", "corpus")
    else:
        pytester.makepyfile(test_conformance=_module(impl, ", corpus='corpus'"))
        result = pytester.runpytest("-p", "no:cacheprovider")
    out = result.stdout.str()
    assert result.ret == pytest.ExitCode.INTERRUPTED and out.count("failed the handshake") == 1, out
    assert "protocol version 1 is not supported" in out and "engine: no rule table" in out
    assert "failed" not in result.parseoutcomes() and "Traceback" not in out and "During handling" not in out, out


# -- the plugin groups failures by cause, as check does ---------------------------------------------
def test_plugin_prints_each_cause_once_and_the_causes_at_the_end_as_check_does(pytester, monkeypatch):
    from conquian_ref.conformance.reports import cause_lines, departure_lines

    # tests/adapters/unsupported_force.py cannot express force or decline: several scenarios, few causes.
    monkeypatch.syspath_prepend(str(ADAPTERS))
    impl = "python:unsupported_force:Adapter"
    chosen = sorted(corpus_dir().glob("anglo-american-v1/*/*.yaml"))
    forcing = [p for p in chosen if "type: force" in p.read_text(encoding="utf-8") or "type: decline" in p.read_text(encoding="utf-8")][:8]
    corpus = small_corpus(pytester, forcing, "unsupported_force.py")
    expected = run_check(impl, corpus=corpus)
    summary = cause_lines(expected)
    failing = [r for r in expected.results if r.counts_as_failure]
    assert len(failing) == len(forcing) and 0 < len(summary) - 1 < len(failing)  # a cause holds several scenarios

    result = pytester.runpytest("-p", "no:cacheprovider", "--conquian-impl", impl, "--conquian-corpus", "corpus")
    result.assert_outcomes(failed=len(failing))
    out = result.stdout.str()
    assert "conquian: causes" in out, out
    tail = out[out.index("conquian: causes") :]
    for line in departure_lines(expected) + summary:  # check's first screen and its causes block
        assert line in tail, line
    # each cause in full once (its first divergence shown), every later failure of it in two lines naming it
    # (counted before the causes section: pytest's short summary may repeat a failure's first
    # lines when the terminal has no width, as in CI)
    failures = out[: out.index("conquian: causes")]
    assert failures.count("first divergence from the reference:") == len(summary) - 1, out
    assert failures.count("the same cause as") == len(failing) - (len(summary) - 1), out
    verbose = pytester.runpytest("-v", "-p", "no:cacheprovider", "--conquian-impl", impl, "--conquian-corpus", "corpus").stdout.str()
    verbose = verbose[: verbose.index("conquian: causes")]  # the failures, not pytest's short summary
    assert "the same cause as" not in verbose and verbose.count("first divergence from the reference:") == len(failing)


def test_plugin_prints_no_causes_when_nothing_fails(pytester):
    small_corpus(pytester)
    result = pytester.runpytest("-p", "no:cacheprovider", "--conquian-impl", REFERENCE_IMPL, "--conquian-corpus", "corpus")
    result.assert_outcomes(passed=len(IDS))
    assert "conquian: causes" not in result.stdout.str()


def test_plugin_names_the_house_rule_as_check_does(pytester, monkeypatch):
    # The plugin tries check's library of house rules at a failure: its causes section names the
    # automatic take of tests/adapters/auto_take.py by its house rule, as check's first screen does.
    from conquian_ref.conformance.reports import departure_lines
    from conquian_ref.tools.mutants import house_rules

    monkeypatch.syspath_prepend(str(ADAPTERS))
    failing = [r.scenario.path for r in run_check(AUTO_TAKE, profile="anglo-american-v1", hypotheses=house_rules()).results
               if r.counts_as_failure][:4]
    corpus = small_corpus(pytester, failing, "auto_take.py")
    expected = run_check(AUTO_TAKE, corpus=corpus, hypotheses=house_rules())
    assert {str(c) for r in expected.results for c in r.causes} == {"C-TURN-1: house rule automatic-take"}
    result = pytester.runpytest("-p", "no:cacheprovider", "--conquian-impl", AUTO_TAKE, "--conquian-corpus", "corpus")
    result.assert_outcomes(failed=len(failing))
    tail = result.stdout.str()[result.stdout.str().index("conquian: causes"):]
    for line in departure_lines(expected):
        assert line in tail, line
    assert "house rule automatic-take" in tail and "unexplained" not in tail
