"""Reports of a `check` run: the terminal text, the JSON report and the JUnit XML report.

Every selected scenario is in every report (those a stopped run did not reach as `not_run`);
steps are 1-based everywhere. Each failing scenario carries its first divergence from the
reference (conquian_ref.conformance.diagnosis) and a reproduction command; the failures are
grouped by cause, ranked by the number of scenarios, so a one-cause avalanche prints the cause
once. The JSON report is validated by schema/report.schema.json. The JUnit report has one
<testsuite> per profile and one <testcase> per scenario, so CI systems show failures by id.

Nothing an adapter or a scenario file says can break a report (issue 12): the text shows
control characters escaped (`safe_text`); the XML escapes what XML 1.0 cannot hold
(`xml_text`); the JSON is strict (no NaN or Infinity: `strict_json`).
"""

from __future__ import annotations

import json
import math
import os
import re
import xml.etree.ElementTree as ET
from collections import defaultdict

from .cause_report import causes, cause_lines, cause_title, departure_lines, divergence_of, rule_table, shortest  # noqa: F401  (read through reports too)
from .check import reproduce_command
from .results import NOT_CHECKED, Result, Run, Status
from .transport import escaped, safe_text

REPORT_VERSION = 2  # 2: steps 1-based, divergences and causes, not_run results
STATUSES = tuple(Status)  # the columns of the profile table and the keys of the JSON summary, in order
SHOWN = 160  # characters of a value shown on one line of the text report

# Characters XML 1.0 cannot hold (C0 but tab, newline, return; surrogates; U+FFFE, U+FFFF).
_UNSAFE_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_STEP_PREFIX = re.compile(r"^steps? [0-9][0-9, ]*: ")  # "step 3: check.legal (...)" -> "check.legal (...)"


def xml_text(text: object) -> str:
    """`text` that XML 1.0 can hold: the characters it forbids shown as escapes."""
    return _UNSAFE_XML.sub(escaped, str(text))


def strict_json(value: object) -> object:
    """`value` as strict JSON data: non-finite numbers become strings ("NaN", "Infinity")."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value).replace("inf", "Infinity").replace("nan", "NaN")
    if isinstance(value, dict):
        return {str(k): strict_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict_json(v) for v in value]
    return value


def _short(value: object) -> str:
    text = json.dumps(strict_json(value), ensure_ascii=False) if not isinstance(value, str) else value.replace("\n", "\\n")
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def _divergence_lines(result: Result) -> list[str]:
    d = result.divergence
    if d is None:
        return [f"  first divergence: {result.diagnosis}"] if result.diagnosis else []
    action = f"{json.dumps(d.action, ensure_ascii=False)}, " if d.action is not None else ""
    lines = [f"  first divergence from the reference: {d.where()} ({action}the {d.request} answer differs): {d.cause}"]
    for key, ours, got in d.differences:
        lines.append(f"    {key}: reference {_short(ours)}")
        lines.append(f"    {' ' * len(key)}  implementation {_short(got)}")
    for later in d.later:  # seen past it: the implementation was put back at the reference's position
        lines.append(f"  then, put back at the reference's position: {later.where()} (the {later.request} answer differs): {later.cause}")
    return lines


def _failure_text(result: Result) -> str:
    scenario = result.scenario
    if result.adapter is not None:
        failure = result.adapter
        where = f"{scenario.path}:{failure.line}" if failure.line else str(scenario.path)
        step = f"step {failure.step}: " if failure.step is not None else ""
        text = f"{where}: {scenario.id}: {step}adapter {failure.kind}: {failure.message}"
        if result.adapter.stderr.strip():
            tail = "\n".join("    | " + line for line in result.adapter.stderr.strip().splitlines()[-8:])
            text += f"\n  adapter stderr (last lines):\n{tail}"
        return text
    if result.status == Status.XPASS:
        return f"{scenario.path}: {scenario.id}: passed, but listed as a known failure ({result.reason})"
    return result.failure.describe(scenario)


def failure_block(run: Run, result: Result) -> list[str]:
    """The lines of one failure as every report shows it (text, JUnit body, the pytest plugin)."""
    scenario = result.scenario
    return [
        f"{result.status.upper()} {scenario.id} — {scenario.data['title']}",
        _failure_text(result),
        *_divergence_lines(result),
        f"  rules: {', '.join(scenario.rules)}",
        "  annotation: " + " ".join(scenario.data["annotation"].split()),
        *([f"  checks not made: {'; '.join(result.skipped_checks)}"] if result.skipped_checks else []),
        f"  reproduce: {reproduce_command(run, result)}",
    ]


def unmade_checks(run: Run) -> list[tuple[str, int]]:
    """The checks the implementation's capabilities did not allow (partial checking), each with
    the number of scenarios it was skipped in, most first: a step's check kind, or a deal not
    tested because the deck was given as hands."""
    counts: dict[str, int] = defaultdict(int)
    for r in run.results:
        for what in {_STEP_PREFIX.sub("", text) for text in r.skipped_checks}:
            counts[what] += 1
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def text_report(run: Run, verbose: bool = False) -> str:
    """The terminal report: each failure in full (once per cause unless verbose), the causes,
    then tables by profile and by rule. Control characters are shown escaped."""
    out: list[str] = []
    hs = run.handshake
    out.append(f"implementation: {hs.name} ({hs.implementation.get('language', '?')})")
    out.append("checked by: conquian-ref {}, corpus {}".format(*provenance(run)))
    found = causes(run)
    new_causes = [(cause, results) for cause, results in found if any(r.counts_as_failure for r in results)]
    departs = departure_lines(run)
    if departs:  # the first screen answers the question: which rules the engine breaks, each once
        out.append("")
        out.extend(departs)
    shown = set()
    for cause, results in new_causes:  # each cause's shortest scenario, in the order above
        example = shortest([r for r in results if r.counts_as_failure])
        shown.add(id(example))
        out.append("")
        out.extend(failure_block(run, example))
    for result in run.results:  # failures with no cause (no divergence found), and all with -v
        if result.counts_as_failure and id(result) not in shown and (verbose or result.cause is None):
            out.append("")
            out.extend(failure_block(run, result))
    if verbose:
        for result in run.results:
            if result.status in NOT_CHECKED:
                out.append(f"{result.status} {result.scenario.id}: {result.reason}")
            elif result.skipped_checks and not result.counts_as_failure:
                out.append(f"checks not made in {result.scenario.id}: {'; '.join(result.skipped_checks)}")
    unmade = unmade_checks(run)
    if unmade:
        out.append("")
        out.append("checks not made (the capabilities do not allow them; -v lists them per scenario):")
        out.extend(f"  {what} — in {n} scenario{'s' * (n != 1)}" for what, n in unmade)
    if found:
        out.append("")
        out.extend(cause_lines(run))
    out.append("")
    out.append(_profile_table(run))
    rules = rule_table(run)
    if rules:
        out.append("")
        out.append(rules)
    for entry in run.stale:
        out.append(f"stale known failure: {entry.where}: {entry} matched no failure")
    for line in (run.untested, run.stopped_early):
        if line:
            out.append("")
            out.append(line)
    return safe_text("\n".join(out))


def _profile_table(run: Run) -> str:
    rows = defaultdict(lambda: dict.fromkeys(STATUSES, 0))
    for r in run.results:
        rows[r.scenario.profile][r.status] += 1
    lines = ["| profile | " + " | ".join(STATUSES) + " |", "|---|" + "---:|" * len(STATUSES)]
    for profile, counts in sorted(rows.items()):
        lines.append(f"| {profile} | " + " | ".join(str(counts[s]) for s in STATUSES) + " |")
    return "\n".join(lines)


# -- several implementations -------------------------------------------------------------------
MARKS = {Status.PASSED: "pass", Status.FAILED: "FAIL", Status.ERRORED: "ERROR", Status.XFAIL: "xfail", Status.XPASS: "XPASS",
         Status.SKIPPED: "skip", Status.NOT_RUN: "not run"}


def side_by_side(runs: list[Run]) -> str:
    """One table of which scenario each implementation passes (runs of the same selection), then
    each implementation's first divergence from the reference where it fails."""
    names = [f"{i}: {run.handshake.name}" for i, run in enumerate(runs, 1)]
    out = ["implementations: " + "; ".join(f"{n} ({run.impl})" for n, run in zip(names, runs)), ""]
    out.append("| scenario | " + " | ".join(str(i) for i in range(1, len(runs) + 1)) + " |")
    out.append("|---|" + ":---:|" * len(runs))
    rows = [{r.scenario.id: r for r in run.results} for run in runs]
    for result in runs[0].results:
        sid = result.scenario.id
        out.append(f"| {sid} | " + " | ".join(MARKS[row[sid].status] if sid in row else "-" for row in rows) + " |")
    out.append("")
    out.append("first divergences from the reference:")
    for i, run in enumerate(runs, 1):
        for r in run.results:
            if r.counts_as_failure or r.status == Status.XFAIL:
                d = r.divergence
                text = f"{d.where()}: {d.cause}" if d is not None else (r.diagnosis or "none found")
                out.append(f"  {i} {r.scenario.id}: {text}")
    return safe_text("\n".join(out))


# -- JSON --------------------------------------------------------------------------------------
def _step_line(result: Result) -> tuple[int | None, int]:
    """The failure's step (1-based; None for the outcome or a match) and its line in the file."""
    step = result.failure.step
    line = result.scenario.line(*(("steps", step) if step is not None else ("outcome",)))
    return (None if step is None else step + 1), line


def json_report(run: Run) -> dict:
    """The machine-readable report (schema/report.schema.json), strict JSON data."""
    results = []
    for r in run.results:
        entry = {
            "id": r.scenario.id,
            "title": r.scenario.data["title"],
            "profile": r.scenario.profile,
            "file": str(r.scenario.path),
            "rules": list(r.scenario.rules),
            "status": r.status,
            "seconds": round(r.seconds, 6),
        }
        if r.reason:
            entry["reason"] = r.reason
        if r.failure is not None:
            step, line = _step_line(r)
            entry["failure"] = {
                "step": step,
                "line": line,
                "field": r.failure.field,
                "expected": r.failure.expected,
                "got": r.failure.got,
                "message": r.failure.message,
            }
        if r.adapter is not None:
            entry["adapter_failure"] = {"kind": r.adapter.kind, "message": r.adapter.message, "stderr": r.adapter.stderr,
                                        "step": r.adapter.step, "line": r.adapter.line}
        if r.skipped_checks:
            entry["skipped_checks"] = list(r.skipped_checks)
        if r.divergence is not None:
            entry["divergence"] = r.divergence.to_json()
        elif r.diagnosis:
            entry["diagnosis"] = r.diagnosis
        if r.known is not None:
            entry["known"] = {"kind": r.known.kind, "value": r.known.value, "where": r.known.where}
        if r.counts_as_failure or r.status == Status.XFAIL:
            entry["reproduce"] = reproduce_command(run, r)
        results.append(entry)
    version, fingerprint = provenance(run)
    return strict_json({
        "report_version": REPORT_VERSION,
        "conquian_ref_version": version,
        "corpus_fingerprint": fingerprint,
        "implementation": run.handshake.implementation,
        "capabilities": sorted(run.handshake.capabilities),
        "profiles": run.handshake.profiles,
        "impl": run.impl,
        "corpus": run.corpus,
        "seconds": round(run.seconds, 3),
        "summary": {s: run.count(s) for s in STATUSES},
        "ok": run.ok,
        "stopped_early": run.stopped_early or None,
        "untested": run.untested or None,
        "causes": [
            {
                "cause": cause,
                "rule": divergence_of(rs[0], cause).cause.rule,
                "house_rule": divergence_of(rs[0], cause).cause.house_rule,
                "sentence": cause_title(rs[0], cause),
                "scenarios": [r.scenario.id for r in rs],
                "steps": [divergence_of(r, cause).step for r in rs],
                "shortest": shortest(rs).scenario.id,
                "known": sum(r.status == Status.XFAIL for r in rs),
            }
            for cause, rs in causes(run)
        ],
        "stale": [{"kind": e.kind, "value": e.value, "where": e.where} for e in run.stale],
        "results": results,
    })


def json_text(report: dict) -> str:
    """Strict JSON text (no NaN), UTF-8 safe: a lone surrogate is written as its \\u escape."""
    text = json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


# -- JUnit -------------------------------------------------------------------------------------
def _message(result: Result) -> str:
    """The JUnit `message`: the step and a one-line expected/got."""
    if result.status == Status.XPASS:
        return f"unexpected pass: listed as a known failure ({result.reason})"
    if result.status == Status.ERRORED:
        d, step = result.divergence, result.adapter.step
        where = f"step {step}: " if step is not None else ""
        diverged = f" (first divergence at {d.where()})" if d is not None else ""
        return f"{where}adapter {result.adapter.kind}: {_short(result.adapter.message)}{diverged}"
    step, _ = _step_line(result)
    where = "outcome" if step is None else f"step {step}"
    return f"{where}: {result.failure.field}: expected {_short(result.failure.expected)}, got {_short(result.failure.got)}"


def provenance(run: Run) -> tuple[str, str]:
    """(the conquian-ref version, the fingerprint of the corpus run), as every report states them
    (issue 22, friction 14): a report names what it was checked against."""
    from .. import __version__
    from ..spec.fingerprint import corpus_fingerprint

    return __version__, corpus_fingerprint(run.corpus) if run.corpus and os.path.isdir(run.corpus) else "unknown"


def junit_report(run: Run) -> str:
    """JUnit XML: one testsuite per profile, one testcase per scenario named by its id alone (a
    title edit keeps its identity; the title is a property), the totals on <testsuites> too;
    well formed for any string."""
    root = ET.Element("testsuites", name="conquian-ref check", time=f"{run.seconds:.3f}",
                      tests=str(len(run.results)), failures=str(run.count(Status.FAILED, Status.XPASS)),
                      errors=str(run.count(Status.ERRORED)), skipped=str(sum(r.status in NOT_CHECKED for r in run.results)))
    version, fingerprint = provenance(run)
    by_profile = defaultdict(list)
    for r in run.results:
        by_profile[r.scenario.profile].append(r)
    for profile, results in sorted(by_profile.items()):
        suite = ET.SubElement(
            root,
            "testsuite",
            name=xml_text(profile),
            tests=str(len(results)),
            failures=str(sum(r.status in (Status.FAILED, Status.XPASS) for r in results)),
            errors=str(sum(r.status == Status.ERRORED for r in results)),
            skipped=str(sum(r.status in NOT_CHECKED for r in results)),
            time=f"{sum(r.seconds for r in results):.3f}",
        )
        properties = ET.SubElement(suite, "properties")
        ET.SubElement(properties, "property", name="conquian_ref_version", value=xml_text(version))
        ET.SubElement(properties, "property", name="corpus_fingerprint", value=xml_text(fingerprint))
        for r in results:
            case = ET.SubElement(
                suite, "testcase", classname=xml_text(profile), name=xml_text(r.scenario.id),
                file=xml_text(r.scenario.path), time=f"{r.seconds:.6f}",
            )
            ET.SubElement(ET.SubElement(case, "properties"), "property", name="title", value=xml_text(r.scenario.data["title"]))
            if r.counts_as_failure:
                tag = "error" if r.status == Status.ERRORED else "failure"
                node = ET.SubElement(case, tag, message=xml_text(_message(r)))
                if r.status == Status.ERRORED:
                    node.set("type", xml_text(r.adapter.kind))
                node.text = xml_text("\n".join(failure_block(run, r)[1:]))
            elif r.status in NOT_CHECKED:
                ET.SubElement(case, "skipped", message=xml_text(f"known failure: {r.reason}" if r.status == Status.XFAIL else r.reason))
            if r.skipped_checks and not r.counts_as_failure:
                ET.SubElement(case, "system-out").text = xml_text("checks not made: " + "; ".join(r.skipped_checks))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def write_junit(run: Run, path: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(junit_report(run))
