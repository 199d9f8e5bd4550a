"""Shared loop of the deliberately faulty adapters in this folder (tests/test_check_robustness.py).

Each script wraps the reference adapter (conquian_ref.conformance.adapter.ReferenceAdapter) and misbehaves
in one way, as its docstring says. The handshake is answered correctly unless the script takes
it over; the fault strikes on the requests after it that the options below select. Common
options, parsed from the command line:

    --at N        misbehave from the Nth request after the handshake on (default 1)
    --setup K     misbehave from the Kth `setup` on, i.e. from the Kth scenario this process runs
                  (default 1)
    --once PATH   misbehave once in all: only while PATH does not exist, and create it (the
                  runner restarts the adapter after a failure; the marker survives the restart)
    --card C      a card, for the faults that depend on the deal (crash_on_card.py; repeatable)
    --drop CAP    leave capability CAP out of the handshake (repeatable), so that the runner
                  skips the scenarios needing it
    --mode M      a variant, for the scripts that have several (bad_handshake.py)

`serve(fault, when=...)` runs the protocol loop. `when(request, args)` (default: always) says
whether this request is one the fault applies to; `fault(request, args, adapter)` then does the
misbehaviour and returns True when it has answered (or chosen not to), False to let the
reference adapter answer normally.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

# Make `conquian_ref` importable when the script runs from anywhere (no install needed).
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conquian_ref.conformance.adapter import ReferenceAdapter  # noqa: E402


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--at", type=int, default=1)
    parser.add_argument("--once", default=None)
    parser.add_argument("--setup", type=int, default=1)
    parser.add_argument("--card", action="append", default=[])
    parser.add_argument("--drop", action="append", default=[])
    parser.add_argument("--mode", default=None)
    return parser.parse_args(argv)


def write_line(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def answer(obj: dict) -> None:
    write_line(json.dumps(obj, separators=(",", ":")))


def exit_after_stderr(status: int) -> None:
    """Exit with `status` a moment after writing to stderr. The pause lets the runner's stderr
    reader drain the pipe before it sees the exit: without it the runner may report the crash
    without the lines just written (a race of the runner, shown by stderr_flood.py)."""
    sys.stderr.flush()
    time.sleep(0.2)
    os._exit(status)


def hang() -> None:
    while True:  # until the runner kills us
        time.sleep(3600)


def serve(fault, argv=None, handshake=None, when=None) -> int:
    """The protocol loop. `handshake(request, args)` may take over the handling of `start`."""
    args = parse_args(argv)
    adapter = ReferenceAdapter()
    count = 0  # requests after the handshake
    setups = 0  # setup requests seen
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("cmd") == "start":
            if handshake is not None and handshake(request, args):
                continue
            reply = adapter.handle(request)
            if "capabilities" in reply:
                reply["capabilities"] = [c for c in reply["capabilities"] if c not in args.drop]
            answer(reply)
            continue
        count += 1
        setups += request.get("cmd") == "setup"
        due = count >= args.at and setups >= args.setup and request.get("cmd") != "stop" and (when is None or when(request, args))
        if due and args.once:
            due = not os.path.exists(args.once)
        if due:
            if args.once:
                Path(args.once).touch()
            if fault(request, args, adapter):
                continue
        answer(adapter.handle(request))
        if request.get("cmd") == "stop":
            break
    return 0
