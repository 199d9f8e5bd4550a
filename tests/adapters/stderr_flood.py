"""A verbose engine that crashes: on the Nth request after the handshake it writes 3000 debug
lines and then the one line that matters to stderr, and exits (status 70). The runner should
report that last line in the stderr tail of the crash."""
import os
import sys

from _faulty import serve


def fault(request, args, adapter):
    for i in range(3000):
        sys.stderr.write("engine: debug: step %d of the deal\n" % i)
    sys.stderr.write("engine: FATAL: the stock ran out in deal()\n")
    sys.stderr.flush()
    os._exit(70)


if __name__ == "__main__":
    sys.exit(serve(fault))
