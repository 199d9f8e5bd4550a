"""An in-process adapter (`--impl python:direct_raising:Adapter`, with tests/adapters on sys.path)
whose handle() raises instead of answering: once, on the first `setup` after RAISES was set.
The runner should report that scenario as errored and go on, as it does for a process adapter
that crashes."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conquian_ref.conformance.adapter import ReferenceAdapter  # noqa: E402

RAISES = {"left": 0}  # how many setups still raise; the test sets it


class Adapter(ReferenceAdapter):
    def handle(self, request):
        if isinstance(request, dict) and request.get("cmd") == "setup" and RAISES["left"] > 0:
            RAISES["left"] -= 1
            raise RuntimeError("engine bug: the deal lost a card")
        return super().handle(request)
