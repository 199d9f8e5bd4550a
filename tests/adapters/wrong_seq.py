"""Answers the Nth request after the handshake correctly, but with the wrong seq (seq + 1000)."""
import sys

from _faulty import answer, serve


def fault(request, args, adapter):
    reply = adapter.handle(request)
    reply["seq"] = request["seq"] + 1000
    answer(reply)
    return True


if __name__ == "__main__":
    sys.exit(serve(fault))
