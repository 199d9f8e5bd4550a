"""A nasty adapter: the reference adapter, with one hostile answer shape or behaviour per mode
(the runner against a nasty adapter; tests/test_nasty_adapters.py).

    python nasty.py MODE [PIDFILE]

The answer modes replace the answer to one command (MODES below); the handshake modes replace
the `start` answer; the process modes misbehave as processes: `orphan` starts a child that keeps
stdout open and exits, `setsid` starts a child in a new session holding the pipes (its pid is
written to PIDFILE), `escapes` puts terminal escapes in its name and its stderr and then
crashes, `slow` answers every request 0.3 s late, `every` answers every request after the
handshake with the next of the hostile answers in turn (and writes escapes to stderr). `lax` fails the smoke test's
strictness (conquian-ref smoke): it accepts any protocol version, answers an unknown command as
if it were fine, and dies on a line that is not JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from conquian_ref.conformance.adapter import ReferenceAdapter  # noqa: E402

DEEP = "[" * 5000 + "]" * 5000

# mode -> (the command whose answer is replaced, the answer line after its seq, as raw JSON text)
ANSWERS = {
    "nested": ("state", '"state":' + DEEP),
    "huge_int": ("state", '"state":{"phase":' + "9" * 5000 + "}"),
    "nan": ("state", '"state":{"phase":NaN}'),
    "surrogate": ("state", '"state":{"phase":"\\ud800"}'),
    "counts_int": ("perft", '"counts":7'),
    "actions_string": ("legal", '"actions":"pass"'),
    "actions_ints": ("legal", '"actions":[1,2,3]'),
    "setup_not_ok": ("setup", '"ok":false'),
    "result_list": ("apply", '"result":["accepted"]'),
}

# mode -> a change to the `start` answer
HANDSHAKES = {
    "profiles_int": lambda a: {**a, "profiles": 5},
    "caps_unhashable": lambda a: {**a, "capabilities": [["state"], {"setup_hands": 1}]},
    "impl_string": lambda a: {**a, "implementation": "mine"},
    "impl_null": lambda a: {**a, "implementation": None},
    "version2": lambda a: {**a, "version": 2},
    "no_state": lambda a: {**a, "capabilities": [c for c in a["capabilities"] if c != "state"]},
    "no_setup": lambda a: {**a, "capabilities": [c for c in a["capabilities"] if not c.startswith("setup_")]},
    "unknown_profile": lambda a: {**a, "profiles": a["profiles"] + ["anglo-american"]},
    "name_surrogate": None,  # written raw below
}


def write(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main() -> int:
    mode = sys.argv[1]
    adapter = ReferenceAdapter()
    hostile = [raw for _, raw in ANSWERS.values()] + ['"result":"\u001b]0;owned\u0007\u0000"']
    answered = 0
    for line in sys.stdin:
        request = json.loads(line)
        cmd, seq = request.get("cmd"), request.get("seq")
        if mode == "slow":
            time.sleep(0.3)
        if mode == "lax" and cmd == "start":
            request = {**request, "version": 1}
        if mode == "lax" and not hasattr(adapter, f"cmd_{cmd}"):
            write(json.dumps({"seq": seq, "ok": True}))
            continue
        if cmd == "start" and mode == "name_surrogate":
            answer = adapter.handle(request)
            text = json.dumps(answer)
            write(text.replace('"conquian-ref"', '"\\udcff"'))
            continue
        if cmd == "start" and mode in HANDSHAKES:
            write(json.dumps(HANDSHAKES[mode](adapter.handle(request))))
            continue
        if mode == "every" and cmd not in ("start", "stop"):
            sys.stderr.write("\x1b]0;owned\x07\x1b[2J\x00 hostile\n")
            write(f'{{"seq":{json.dumps(seq)},{hostile[answered % len(hostile)]}}}')
            answered += 1
            continue
        if mode in ANSWERS and cmd == ANSWERS[mode][0]:
            write(f'{{"seq":{json.dumps(seq)},{ANSWERS[mode][1]}}}')
            continue
        if mode == "escapes" and cmd == "start":  # terminal escapes in its name and its stderr
            answer = adapter.handle(request)
            answer["implementation"]["name"] = "\x1b]0;owned\x07\x1b[2Jengine"
            write(json.dumps(answer))
            continue
        if mode == "escapes" and cmd == "setup":
            sys.stderr.write("\x1b]0;owned\x07\x1b[2J\x00 a crash\n")
            sys.stderr.flush()
            time.sleep(0.2)
            os._exit(3)
        if cmd == "setup" and mode == "orphan":
            # A child that inherits stdout and outlives this process: the runner must not wait for it.
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], stdin=subprocess.DEVNULL)
            os._exit(3)
        if cmd == "setup" and mode == "setsid":
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], stdin=subprocess.DEVNULL,
                                     start_new_session=True)
            Path(sys.argv[2]).write_text(str(child.pid))
            os._exit(3)
        write(json.dumps(adapter.handle(request)))
        if cmd == "stop":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
