"""Writes half an answer line (no newline) to the Nth request after the handshake, then exits."""
import os
import sys

from _faulty import serve


def fault(request, args, adapter):
    sys.stdout.write('{"seq": %d, "ok": tr' % request["seq"])
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    sys.exit(serve(fault))
