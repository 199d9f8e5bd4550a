"""A divergence: the first point where the implementation and the reference disagree.

It says what differed and where (`Divergence`, with the differing keys that make its signature,
causes.py), and how it is told: one line for the run's output
(`describe`) and the title of the draft scenario (`title`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass
class Divergence:
    """The first point where the implementation and the reference disagree.

    `kind`: legal, result (accepted against refused), reason, state, outcome (a state difference
    in the `outcome` key), unsupported (an error answer to an action: the implementation cannot
    express its type, in `path`), adapter (a failure of the adapter itself).
    `where`: setup, legal (before an action), apply, state (after an action).
    `actions_before`: how many actions were applied before it (the diverging action's index)."""

    kind: str
    where: str
    actions_before: int
    seat: int | None = None
    action: dict | None = None
    expected: object = None
    got: object = None
    path: str = ""  # the state path, the adapter failure kind, or the action type the engine cannot express
    message: str = ""
    keys: tuple[str, ...] = ()  # the differing top-level keys of the answer, or of the state (causes.py)

    @property
    def steps(self) -> int:
        """The actions of the game up to it: the diverging action counts when there is one."""
        return self.actions_before + (0 if self.where in ("setup", "legal") else 1)

    def describe(self) -> str:
        act = f"seat {self.seat} plays {short(self.action)}" if self.action is not None else ""
        at = f"action {self.actions_before + 1} ({act})" if act else ""
        if self.kind == "legal":
            return (
                f"legal actions of seat {self.seat} after {self.actions_before} action(s): "
                f"missing {short(self.expected)}, extra {short(self.got)}"
            )
        if self.kind in ("result", "reason"):
            return f"{at}: expected {short(self.expected)}, got {short(self.got)}"
        if self.kind == "unsupported":
            return f"{at}: {self.message}"
        if self.kind in ("state", "outcome"):
            after = "setup" if self.where == "setup" else at
            return f"state after {after}: {self.path}: expected {short(self.expected)}, got {short(self.got)}"
        where = {"setup": "setup", "legal": f"the legal request after {self.actions_before} action(s)"}.get(self.where, at)
        return f"the adapter failed ({self.path}) at {where}: {self.message}"

    def title(self) -> str:
        act = _action_text(self.action) if self.action is not None else ""
        if self.kind == "legal":
            missing, extra = self.expected or [], self.got or []
            text = f"legal actions of seat {self.seat} differ ({len(missing)} missing, {len(extra)} extra)"
        elif self.kind == "result":
            text = f"seat {self.seat} {act} {_result_text(self.expected)} by the reference, {_result_text(self.got)} by the implementation"
        elif self.kind == "reason":
            text = f"seat {self.seat} {act} refused as {self.expected['refused']}, the implementation says {self.got['refused']}"
        elif self.kind == "unsupported":
            text = f"seat {self.seat} {act}: the implementation cannot express `{self.path}`"
        elif self.kind in ("state", "outcome"):
            text = f"{self.path} differs after {'setup' if self.where == 'setup' else f'seat {self.seat} {act}'}"
        else:
            text = f"the adapter fails ({self.path}) at {self.where} after {self.actions_before} action(s)"
        text = "Fuzz: " + text
        return text if len(text) <= 120 else text[:117] + "..."


@dataclass
class Trace:
    """What one lockstep game came to."""

    divergence: Divergence | None
    applied: int  # actions applied (sent to both)
    choices: list[int] = field(default_factory=list)  # the step choices the game was played with


def short(value: object, limit: int = 160) -> str:
    """A value as one line of JSON, cut at `limit` characters."""
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _action_text(action: dict) -> str:
    if "cards" in action:
        return f"{action['type']} [{' '.join(action['cards'])}]"
    if "card" in action:
        return f"{action['type']} {action['card']}"
    return action["type"]


def _result_text(result: object) -> str:
    return "accepted" if result == "accepted" else f"refused ({result['refused']})"
