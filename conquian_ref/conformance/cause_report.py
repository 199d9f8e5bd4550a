"""The causes of a run as the reports show them: which rules an implementation breaks.

`causes` groups the failing (and known-failing) scenarios by cause (conquian_ref.conformance
.attribution.Cause: the rule broken, the house rule that explains it), a scenario seen past its
first divergence under each of its causes; `departure_lines` is the report's first screen ("Your
engine departs from the reference in N ways", one line per cause with its shortest scenario);
`cause_lines` the list of causes with their scenarios; `rule_table` the rules broken, apart from
the rules only cited by failing scenarios. The text, JSON and JUnit reports (reports.py) and the
pytest plugin read them.
"""

from __future__ import annotations

from collections import defaultdict

from .results import Result, Run, Status


def causes(run: Run) -> list[tuple[str, list[Result]]]:
    """The causes of the failing and known-failing scenarios, most scenarios first (then by
    first appearance), each with its scenarios in run order."""
    groups: dict[str, list[Result]] = {}
    for r in run.results:
        if r.counts_as_failure or r.status == Status.XFAIL:
            for cause in r.causes:  # a scenario seen past its first divergence counts under each of its causes
                groups.setdefault(str(cause), []).append(r)
    return sorted(groups.items(), key=lambda item: -len(item[1]))


def shortest(results: list[Result]) -> Result:
    """The scenario that shows a cause in the fewest steps (the first of them in run order)."""
    return min(results, key=lambda r: len(r.scenario.data.get("steps") or ()))


def divergence_of(result: Result, cause: str):
    """The divergence of `result` whose cause is `cause` (its first, or one seen past it)."""
    if result.divergence is None:
        return None
    return next((d for d in result.divergence.every() if str(d.cause) == cause), result.divergence)


def cause_title(result: Result, cause: str | None = None) -> str:
    """A cause in an engine author's words: its rule and the rule's title, then the house rule
    and its sentence (or "unexplained" and the divergence's signature). `cause`: which of the
    result's causes (default: its first)."""
    divergence = divergence_of(result, cause if cause is not None else str(result.cause))
    cause = divergence.cause
    rule = cause.rule or "no rule named"
    title = _rule_titles().get(cause.rule, "")
    head = f"{rule} {title}".strip()
    if divergence.house_rule is not None:
        return f"{head} — house rule {cause.house_rule}: {divergence.house_rule.text}"
    if cause.unsupported:
        return f"{head} — your engine {cause.signature}"
    return f"{head} — unexplained: {cause.signature}"


def departure_lines(run: Run) -> list[str]:
    """The first screen of the text report: "Your engine departs from the reference in N
    ways", one line per cause of a failing scenario (none when nothing fails for a cause); the
    pytest plugin prints it at the end of a session too."""
    new_causes = [(cause, results) for cause, results in causes(run) if any(r.counts_as_failure for r in results)]
    if not new_causes:
        return []
    lines = [f"Your engine departs from the reference in {len(new_causes)} way{'s' * (len(new_causes) != 1)}:"]
    for n, (cause, results) in enumerate(new_causes, 1):
        failing = [r for r in results if r.counts_as_failure]
        lines.append(f"  {n}. {cause_title(failing[0], cause)} — {len(failing)} scenario{'s' * (len(failing) != 1)}, "
                     f"shortest: {shortest(failing).scenario.id}")
    return lines + unseen_lines(run)


def unseen_lines(run: Run) -> list[str]:
    """One line when the implementation cannot be put at a position (no `setup_position`) and
    failing scenarios stopped at a first divergence with steps after it: their later deviations,
    if any, went unseen."""
    if "setup_position" in run.handshake.capabilities:
        return []
    stopped = [r for r in run.results if r.counts_as_failure and r.divergence is not None and r.divergence.step is not None
               and r.divergence.step < len(r.scenario.data.get("steps") or ())]
    if not stopped:
        return []
    return [f"  {len(stopped)} failing scenario{'s' * (len(stopped) != 1)} stopped at {'their' if len(stopped) != 1 else 'its'} "
            "first divergence with steps left: declare the setup_position capability (docs/protocol.md) to see past it"]


def cause_lines(run: Run) -> list[str]:
    """The causes block of the text report, each cause with its scenarios (failing and known),
    most first (none without a cause); the pytest plugin prints it at the end of a session too."""
    found = causes(run)
    if not found:
        return []
    lines = ["causes (the rule broken at the first divergence from the reference), most scenarios first:"]
    for n, (cause, results) in enumerate(found, 1):
        known = sum(r.status == Status.XFAIL for r in results)
        known_text = f", {known} known" if known else ""
        lines.append(f"  {n}. {cause} — {len(results)} scenario{'s' * (len(results) != 1)}{known_text}: "
                     + " ".join(r.scenario.id for r in results))
    return lines


def _rule_titles() -> dict[str, str]:
    from ..spec.rulebook import load_rules

    return {rid: rule.title for rid, rule in load_rules().items()}


def rule_table(run: Run) -> str:
    """The rules broken (named by a cause), then the rules merely cited by failing scenarios,
    each sorted by the number of scenarios."""
    broken = defaultdict(lambda: [0, 0])  # (profile, rule) -> [new failures, known failures]
    cited = defaultdict(lambda: [0, 0, 0])  # (profile, rule) -> [new failures, known failures, run]
    for r in run.results:
        if r.status in (Status.SKIPPED, Status.NOT_RUN):
            continue
        for rule in dict.fromkeys(c.rule for c in r.causes if c.rule) if r.counts_as_failure or r.status == Status.XFAIL else ():
            row = broken[(r.scenario.profile, rule)]
            row[0] += r.counts_as_failure
            row[1] += r.status == Status.XFAIL
        for rid in r.scenario.rules:
            row = cited[(r.scenario.profile, rid)]
            row[2] += 1
            row[0] += r.counts_as_failure
            row[1] += r.status == Status.XFAIL
    lines = []
    if broken:
        lines += ["rules broken (named by a cause):", "| profile | rule | new failures | known failures |", "|---|---|---:|---:|"]
        for (profile, rid), (new, known) in sorted(broken.items(), key=lambda item: (-sum(item[1]), item[0])):
            lines.append(f"| {profile} | {rid} | {new} | {known} |")
    failing = {k: v for k, v in cited.items() if (v[0] or v[1]) and k not in broken}
    if failing:
        lines += ([""] if lines else []) + [
            "rules only cited by failing scenarios (not named by a cause):",
            "| profile | rule | new failures | known failures | scenarios run |",
            "|---|---|---:|---:|---:|",
        ]
        for (profile, rid), (new, known, total) in sorted(failing.items(), key=lambda item: (-item[1][0] - item[1][1], item[0])):
            lines.append(f"| {profile} | {rid} | {new} | {known} | {total} |")
    return "\n".join(lines)
