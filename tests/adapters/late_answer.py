"""Answers the Nth request after the handshake late (after --delay seconds, default 2), and
correctly: past the runner's per-message timeout, so the answer arrives while the runner has
moved on (tests/test_unsupported.py: it must never be read as the answer to a later request)."""
import sys
import time

from _faulty import serve

DELAY = float(sys.argv[sys.argv.index("--delay") + 1]) if "--delay" in sys.argv else 2.0


def fault(request, args, adapter):
    time.sleep(DELAY)
    return False  # then answered as the reference answers


if __name__ == "__main__":
    argv = [a for i, a in enumerate(sys.argv[1:]) if a != "--delay" and sys.argv[i] != "--delay"]
    sys.exit(serve(fault, argv))
