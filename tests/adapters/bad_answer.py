"""Answers `state` requests (from the Nth request on) with JSON that lacks the `state` field."""
import sys

from _faulty import answer, serve


def fault(request, args, adapter):
    answer({"seq": request["seq"], "status": "fine"})
    return True


if __name__ == "__main__":
    sys.exit(serve(fault, when=lambda request, args: request.get("cmd") == "state"))
