"""Writes half an answer line (no newline) to the Nth request after the handshake, then hangs."""
import sys

from _faulty import hang, serve


def fault(request, args, adapter):
    sys.stdout.write('{"seq": %d, "ok": tr' % request["seq"])
    sys.stdout.flush()
    hang()


if __name__ == "__main__":
    sys.exit(serve(fault))
