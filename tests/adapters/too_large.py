"""Answers the Nth request after the handshake with one valid JSON line of 9 MiB (limit: 8 MiB)."""
import sys

from _faulty import serve, write_line


def fault(request, args, adapter):
    write_line('{"seq": %d, "ok": true, "padding": "%s"}' % (request["seq"], "x" * (9 * 1024 * 1024)))
    return True


if __name__ == "__main__":
    sys.exit(serve(fault))
