"""Logs on stderr, then exits (status 70) on the Nth request after the handshake."""
import sys

from _faulty import exit_after_stderr, serve


def fault(request, args, adapter):
    sys.stderr.write("engine: handling %s\n" % request.get("cmd"))
    sys.stderr.write("engine: assertion failed: stock is empty in deal()\n")
    exit_after_stderr(70)


if __name__ == "__main__":
    sys.exit(serve(fault))
