"""Crashes (status 9) only on a `setup` whose hands[0] holds every card given by --card (one or
more): one scenario errors, the others pass (after the restart too)."""
import sys

from _faulty import exit_after_stderr, serve


def deals_cards(request, args):
    hand = (request.get("hands") or [[]])[0] if request.get("cmd") == "setup" else []
    return bool(args.card) and all(card in hand for card in args.card)


def fault(request, args, adapter):
    sys.stderr.write("engine: cannot deal %s to seat 0\n" % " ".join(args.card))
    exit_after_stderr(9)


if __name__ == "__main__":
    sys.exit(serve(fault, when=deals_cards))
