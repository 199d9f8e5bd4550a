"""Exits (status 3) instead of answering, on the Nth request after the handshake."""
import os
import sys

from _faulty import serve


def fault(request, args, adapter):
    os._exit(3)


if __name__ == "__main__":
    sys.exit(serve(fault))
