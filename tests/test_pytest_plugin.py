"""The pytest integration: another project runs the corpus inside its own test suite."""

from __future__ import annotations

import textwrap

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
