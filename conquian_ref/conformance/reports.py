"""Reports of a `check` run: the terminal text, the JSON report and the JUnit XML report.

The JSON report is validated by schema/report.schema.json; every failing scenario carries a
reproduction command. The JUnit report has one <testsuite> per profile and one <testcase> per
scenario, so CI systems show failures by scenario id.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import defaultdict

from .check import Result, Run, reproduce_command

REPORT_VERSION = 1


def _failure_text(result: Result) -> str:
    scenario = result.scenario
    if result.adapter is not None:
        text = f"{scenario.path}: {scenario.id}: adapter {result.adapter.kind}: {result.adapter.message}"
        if result.adapter.stderr.strip():
            tail = "\n".join("    | " + line for line in result.adapter.stderr.strip().splitlines()[-8:])
            text += f"\n  adapter stderr (last lines):\n{tail}"
        return text
    if result.status == "xpass":
        return f"{scenario.path}: {scenario.id}: passed, but listed as a known failure ({result.reason})"
    return result.failure.describe(scenario)


def text_report(run: Run, verbose: bool = False) -> str:
    """The terminal report: each failure in full, then tables by profile and by rule."""
    out: list[str] = []
    hs = run.handshake
    out.append(f"implementation: {hs.name} ({hs.implementation.get('language', '?')})")
    for result in run.results:
        if not result.counts_as_failure:
            continue
        scenario = result.scenario
        out.append("")
        out.append(f"{result.status.upper()} {scenario.id} — {scenario.data['title']}")
        out.append(_failure_text(result))
        out.append(f"  rules: {', '.join(scenario.rules)}")
        out.append("  annotation: " + " ".join(scenario.data["annotation"].split()))
        out.append(f"  reproduce: {reproduce_command(run, result)}")
    if verbose:
        for result in run.results:
            if result.status in ("skipped", "xfail"):
                out.append(f"{result.status} {result.scenario.id}: {result.reason}")
    out.append("")
    out.append(_profile_table(run))
    rules = _rule_table(run)
    if rules:
        out.append("")
        out.append(rules)
    if run.stopped_early:
        out.append("")
        out.append(run.stopped_early)
    return "\n".join(out)


def _profile_table(run: Run) -> str:
    statuses = ("passed", "failed", "errored", "xfail", "xpass", "skipped")
    rows = defaultdict(lambda: dict.fromkeys(statuses, 0))
    for r in run.results:
        rows[r.scenario.profile][r.status] += 1
    lines = ["| profile | " + " | ".join(statuses) + " |", "|---|" + "---:|" * len(statuses)]
    for profile, counts in sorted(rows.items()):
        lines.append(f"| {profile} | " + " | ".join(str(counts[s]) for s in statuses) + " |")
    return "\n".join(lines)


def _rule_table(run: Run) -> str:
    """Rules cited by failing scenarios: where the implementation deviates, by rule id."""
    cited = defaultdict(lambda: [0, 0])  # rule -> [failing, run]
    for r in run.results:
        if r.status in ("skipped",):
            continue
        for rid in r.scenario.rules:
            cited[(r.scenario.profile, rid)][1] += 1
            if r.counts_as_failure or r.status == "xfail":
                cited[(r.scenario.profile, rid)][0] += 1
    failing = {k: v for k, v in cited.items() if v[0]}
    if not failing:
        return ""
    lines = ["| profile | rule | failing scenarios | scenarios run |", "|---|---|---:|---:|"]
    for (profile, rid), (bad, total) in sorted(failing.items()):
        lines.append(f"| {profile} | {rid} | {bad} | {total} |")
    return "\n".join(lines)


def json_report(run: Run) -> dict:
    """The machine-readable report (schema/report.schema.json)."""
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
            entry["failure"] = {
                "step": r.failure.step,
                "line": r.scenario.line(*(("steps", r.failure.step) if r.failure.step is not None else ("outcome",))),
                "field": r.failure.field,
                "expected": r.failure.expected,
                "got": r.failure.got,
                "message": r.failure.message,
            }
        if r.adapter is not None:
            entry["adapter_failure"] = {"kind": r.adapter.kind, "message": r.adapter.message, "stderr": r.adapter.stderr}
        if r.counts_as_failure or r.status == "xfail":
            entry["reproduce"] = reproduce_command(run, r)
        results.append(entry)
    return {
        "report_version": REPORT_VERSION,
        "implementation": run.handshake.implementation,
        "capabilities": sorted(run.handshake.capabilities),
        "profiles": run.handshake.profiles,
        "impl": run.impl,
        "corpus": run.corpus,
        "seconds": round(run.seconds, 3),
        "summary": {
            s: run.count(s) for s in ("passed", "failed", "errored", "skipped", "xfail", "xpass")
        },
        "ok": run.ok,
        "stopped_early": run.stopped_early or None,
        "results": results,
    }


def junit_report(run: Run) -> str:
    """JUnit XML: one testsuite per profile, one testcase per scenario."""
    root = ET.Element("testsuites", name="conquian-ref check", time=f"{run.seconds:.3f}")
    by_profile = defaultdict(list)
    for r in run.results:
        by_profile[r.scenario.profile].append(r)
    for profile, results in sorted(by_profile.items()):
        suite = ET.SubElement(
            root,
            "testsuite",
            name=profile,
            tests=str(len(results)),
            failures=str(sum(r.status in ("failed", "xpass") for r in results)),
            errors=str(sum(r.status == "errored" for r in results)),
            skipped=str(sum(r.status in ("skipped", "xfail") for r in results)),
            time=f"{sum(r.seconds for r in results):.3f}",
        )
        for r in results:
            case = ET.SubElement(
                suite, "testcase", classname=profile, name=f"{r.scenario.id} {r.scenario.data['title']}",
                file=str(r.scenario.path), time=f"{r.seconds:.6f}",
            )
            if r.status in ("failed", "xpass"):
                node = ET.SubElement(case, "failure", message=r.failure.field if r.failure else "unexpected pass")
                node.text = _failure_text(r) + f"\nreproduce: {reproduce_command(run, r)}"
            elif r.status == "errored":
                node = ET.SubElement(case, "error", message=f"adapter {r.adapter.kind}", type=r.adapter.kind)
                node.text = _failure_text(r) + f"\nreproduce: {reproduce_command(run, r)}"
            elif r.status in ("skipped", "xfail"):
                ET.SubElement(case, "skipped", message=(f"known failure: {r.reason}" if r.status == "xfail" else r.reason))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def write_json(run: Run, path: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(json_report(run), f, indent=2, ensure_ascii=False)
        f.write("\n")


def write_junit(run: Run, path: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(junit_report(run))
