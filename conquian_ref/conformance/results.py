"""What a `check` run found: the `Status` of each scenario, its `Result`, and the `Run`.

| status    | meaning                                                                    |
|-----------|----------------------------------------------------------------------------|
| `passed`  | every step and check agreed                                                |
| `failed`  | the first disagreement is reported (step, field, expected, got), or the    |
|           | first action the implementation cannot express (an error answer to apply)  |
| `errored` | the adapter misbehaved (crash, timeout, garbage, ...); it is restarted     |
| `skipped` | profile or capability not supported (the reason says which)                |
| `xfail`   | failed, and listed in the known-failures file (with its reason)            |
| `xpass`   | listed by id as a known failure but passed: reported, and it fails the run |
| `not_run` | selected, but the run stopped early before it                              |

The values are the words of the JSON and JUnit reports (schema/report.schema.json).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ..spec.known import Entry
from ..spec.scenario import Scenario
from .diagnosis import Divergence
from .failures import AdapterFailure
from .judges import Failure


class Status(StrEnum):
    """A scenario's classification in a run (the module table)."""

    PASSED = "passed"
    FAILED = "failed"
    ERRORED = "errored"
    XFAIL = "xfail"
    XPASS = "xpass"
    SKIPPED = "skipped"
    NOT_RUN = "not_run"


FAILING = frozenset({Status.FAILED, Status.ERRORED, Status.XPASS})  # what makes a run fail
NOT_CHECKED = frozenset({Status.SKIPPED, Status.XFAIL, Status.NOT_RUN})  # JUnit's "skipped"
# The closing line's counts, in order ('N passed, N failed' starts it, for CI tools), and the
# statuses each counts.
SUMMARY = (("passed", (Status.PASSED,)), ("failed", (Status.FAILED, Status.XPASS)), ("errored", (Status.ERRORED,)),
           ("xfailed", (Status.XFAIL,)), ("skipped", (Status.SKIPPED,)))
NOT_RUN = "not run: stopped early"  # the reason of a selected scenario the run did not reach
NOT_RUN_DEADLINE = "not run: the run deadline passed"  # ... when the deadline stopped the run


@dataclass
class Result:
    """One scenario of a run: its status and everything the reports say of it."""

    scenario: Scenario
    status: Status
    failure: Failure | None = None
    adapter: AdapterFailure | None = None
    reason: str = ""  # why skipped, or the known-failure reason
    seconds: float = 0.0
    skipped_checks: list[str] = field(default_factory=list)  # checks the capabilities did not allow, and why
    divergence: Divergence | None = None  # the first divergence from the reference (failing ones)
    diagnosis: str = ""  # why there is no divergence, when a failing scenario has none
    known: Entry | None = None  # the known-failures entry covering it
    also_known: list[Entry] = field(default_factory=list)  # the entries covering its other causes, if any

    @property
    def cause(self):
        return self.divergence.cause if self.divergence is not None else None

    @property
    def causes(self) -> list:
        """The cause of every divergence seen, the first and those past it, each once."""
        if self.divergence is None:
            return []
        return list(dict.fromkeys(d.cause for d in self.divergence.every()))

    @property
    def counts_as_failure(self) -> bool:
        return self.status in FAILING


@dataclass
class Run:
    """A whole run against one implementation: its results in corpus order, and how it ended."""

    impl: str
    handshake: object
    results: list[Result] = field(default_factory=list)
    stopped_early: str = ""
    seconds: float = 0.0
    corpus: str = ""
    untested: str = ""  # why the run tested nothing (every scenario skipped)
    stop_signature: str = ""  # the adapter failure that stopped the run early, repeated
    stale: list[Entry] = field(default_factory=list)  # known-failure entries that matched nothing
    not_run_reason: str = NOT_RUN  # the reason given to the scenarios the run did not reach

    def count(self, *statuses: Status) -> int:
        return sum(r.status in statuses for r in self.results)

    @property
    def ok(self) -> bool:
        return not self.stopped_early and not self.untested and not any(r.counts_as_failure for r in self.results)

    def summary_line(self) -> str:
        """The closing line: 'N passed, N failed, N errored, N xfailed, N skipped' (an unexpected
        pass counts as failed), then the scenarios not run when the run stopped early."""
        line = ", ".join(f"{self.count(*statuses)} {word}" for word, statuses in SUMMARY) + self._skips()
        not_run = self.count(Status.NOT_RUN)
        return line + (f", {not_run} not run" if not_run else "")

    def _skips(self) -> str:
        """Why the skipped scenarios were skipped, in two kinds (issue 22, friction 10): a profile
        the implementation does not declare (nothing to fix, if it does not play that game), or a
        capability it lacks (something it could add). Reasons as check.skip_reason words them."""
        reasons = [r.reason for r in self.results if r.status == Status.SKIPPED]
        kinds = [(sum(r.startswith("profile ") for r in reasons), "profile not declared"),
                 (sum(r.startswith("needs capability") for r in reasons), "capability missing")]
        parts = [f"{n} {why}" for n, why in kinds if n]
        other = len(reasons) - sum(n for n, _ in kinds)
        parts += [f"{other} other"] if other else []
        return f" ({', '.join(parts)})" if parts else ""
