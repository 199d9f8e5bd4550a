"""What `lint` says of a draft that `new` and `record` left unfinished (issue 22, frictions 2, 5).

* `unfinished(scenario)`: a valid scenario still holding what the scaffold wrote for the author
  to replace: the annotation's `TODO` and the commented `# More steps, for example:` block. Such
  a file replays, but it is not a scenario of the corpus yet.
* `unrecorded_hints(problems)`: for each file with problems that still holds `record`
  placeholders, one more line saying to run `conquian-ref record FILE` first (its schema
  problems are the placeholders themselves).

`record` checks what it writes with lint minus `unfinished` (a fresh recording is a draft still).
"""

from __future__ import annotations

from pathlib import Path

from ..spec.problem import Problem
from ..spec.scenario import Scenario
from .new.draft import PLACEHOLDER_ANNOTATION
from .record_draft import PLACEHOLDER, has_placeholder

SCAFFOLD_BLOCK = "# More steps, for example:"
TODO = PLACEHOLDER_ANNOTATION.split(":")[0]  # "TODO"


def unfinished(scenario: Scenario) -> list[Problem]:
    """The scaffold's leftovers in a valid scenario, one problem each."""
    from ..spec.regularfile import read_text

    found = []
    if TODO in scenario.data["annotation"]:
        found.append(scenario.problem(("annotation",), "still the scaffold's TODO: say why each expectation follows from the rules"))
    for number, line in enumerate(read_text(scenario.path).splitlines(), 1):
        if line.strip() == SCAFFOLD_BLOCK:
            found.append(Problem(str(scenario.path), number, "(file)",
                                 "the scaffold's example steps are still here: turn them into steps, or delete the block"))
    return found


def unrecorded_hints(problems: list[Problem]) -> list[Problem]:
    """One hint per file with problems that still holds `record` placeholders."""
    from ..spec.yamlfile import YamlError, load_with_lines

    hints = []
    for file in sorted({p.file for p in problems}):
        try:
            data, _ = load_with_lines(Path(file))
        except (YamlError, OSError):
            continue
        if has_placeholder(data):
            hints.append(Problem(file, 1, "(file)", f"an unrecorded draft: its `{PLACEHOLDER}` placeholders are not values yet; "
                                 f"run `conquian-ref record {file}` first, then lint"))
    return hints
