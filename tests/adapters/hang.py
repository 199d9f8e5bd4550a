"""Never answers the Nth request after the handshake: sleeps until killed."""
import sys

from _faulty import hang, serve


def fault(request, args, adapter):
    hang()


if __name__ == "__main__":
    sys.exit(serve(fault))
