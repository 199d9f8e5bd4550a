"""Perft-style counts: how many legal action sequences lead from a position, depth by depth.

Borrowed from chess engine testing: the counts are a checksum of the whole legal-move
generator. On a mismatch, `divide` gives the count under each first action, so the faulty
move is found at once. Every seat that may act counts (both seats during the exchange).
"""

from __future__ import annotations

from .game import Game


def perft(game: Game, depth: int) -> int:
    """Number of legal action sequences of exactly `depth` actions from `game` (ended deals stop)."""
    if depth == 0:
        return 1
    total = 0
    for seat in game.to_act:
        for action in game.legal(seat):
            if depth == 1:
                total += 1
                continue
            child = game.clone()
            child.trace = False
            child.apply(seat, action)
            total += perft(child, depth - 1)
    return total


def perft_counts(game: Game, depth: int) -> list[int]:
    """[perft(1), ..., perft(depth)]."""
    return [perft(game, d) for d in range(1, depth + 1)]


def divide(game: Game, depth: int) -> dict[str, int]:
    """The count below each first action ("seat 0: {action}") at `depth`."""
    import json

    out = {}
    for seat in game.to_act:
        for action in game.legal(seat):
            child = game.clone()
            child.trace = False
            child.apply(seat, action)
            out[f"seat {seat}: {json.dumps(action.to_json(game.deck))}"] = perft(child, depth - 1)
    return out
