"""Fails the handshake, in one of three ways (--mode):

    error      logs two lines on stderr and answers `start` with an error (the default)
    exit       logs two lines on stderr and exits with status 1 without answering
    multiline  like error, but the error message has two lines
"""
import sys
import time

from _faulty import answer, exit_after_stderr, serve


def handshake(request, args):
    print("engine: loading the rule tables", file=sys.stderr)
    print("engine: no rule table for protocol version 1", file=sys.stderr, flush=True)
    mode = args.mode or "error"
    if mode == "exit":
        exit_after_stderr(1)
    time.sleep(0.2)  # let the runner read the stderr lines first (see exit_after_stderr)
    message = "protocol version 1 is not supported"
    if mode == "multiline":
        message += "\n(this engine speaks version 0)"
    answer({"seq": request["seq"], "error": {"message": message}})
    return True


if __name__ == "__main__":
    sys.exit(serve(lambda *a: False, handshake=handshake))
