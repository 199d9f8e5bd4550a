"""Answers the Nth request after the handshake with a line that is not JSON."""
import sys

from _faulty import serve, write_line


def fault(request, args, adapter):
    write_line("Segmentation fault? no, just garbage")
    return True


if __name__ == "__main__":
    sys.exit(serve(fault))
