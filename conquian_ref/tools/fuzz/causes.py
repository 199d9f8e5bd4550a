"""The cause of a divergence: a stable signature, so that one house rule is one cause.

`Cause(action, keys, rules)`: the first diverging step's action type (or the request kind when
the step has no action: `setup`, `legal`), the sorted differing top-level keys (of the answer
when the answer differs: `result`, `reason`, `actions`, or the adapter failure's kind; else of
the canonical state after the step), and the sorted rule ids the reference's trace records for
that step. Its text is `"{action}: {keys} [{rules}]"`, e.g. `pass: result [C-TURN-5]`; a
known-failures entry may name it. The runner's diagnosis (`check`) writes the same definition.
"""

from __future__ import annotations

from dataclasses import dataclass

from .divergence import Divergence


@dataclass(frozen=True)
class Cause:
    """A divergence's stable signature (see the module docstring)."""

    action: str
    keys: tuple[str, ...]
    rules: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.action}: {', '.join(self.keys)} [{' '.join(self.rules)}]"


def cause_of(divergence: Divergence) -> Cause:
    """The cause of a divergence found by the fuzzer (lockstep.py)."""
    action = divergence.action["type"] if isinstance(divergence.action, dict) else divergence.where
    return Cause(str(action), tuple(sorted(divergence.keys)), tuple(sorted(set(divergence.rules))))
