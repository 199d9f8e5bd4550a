"""Correct, but pads every state answer with 60 KB of an extra key (allowed: extra keys are
implementation-defined), so that a pipelined batch's answers overflow a pipe's 64 KiB."""
import sys

from _faulty import serve


def fault(request, args, adapter):
    return False  # never misbehaves; the padding is added by the wrapper below


if __name__ == "__main__":
    from conquian_ref.conformance.adapter import ReferenceAdapter

    plain = ReferenceAdapter.cmd_state
    ReferenceAdapter.cmd_state = lambda self, request: {**plain(self, request), "padding": "x" * 60_000}
    sys.exit(serve(fault))
