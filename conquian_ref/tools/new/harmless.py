"""Harmless cards: completing the hands of a draft without changing the author's case.

Two cards are *linked* when one more card could make a meld of them: the same rank, or the
same suit and at most run_min - 1 ranks apart in sequence order (so 7 and 10 are linked in the
Spanish deck, 7 and J in the French). Any two cards of a meld are linked, so cards that are not
linked make no meld together. Each hand, seat 0's then seat 1's, is completed from the cards
nobody holds yet:

* first choice: cards linked to no other card of the same hand (given or picked) and completing
  no meld with the --stock-top cards. The search tries the candidates in order of their links
  to the --stock-top cards (weight 10: they are offered first) and to the rival's hand (weight
  1: cards change hands in the exchange and by discards), then in deck order, and takes the
  first set that works (so it prefers, without proving it minimal, the fewest such links);
* if the given cards leave no such set (rare: with ten ranks, a hand of 9 or 10 has room for
  one card a rank, same-suit cards at least three ranks apart), the cheapest card one at a time:
  100 for a link within the hand, 10 to the stock top, 1 to the rival; never a card completing
  a meld with the hand or the stock top.

Links across the two hands cannot all be avoided (together they hold 18 or 20 of 40 cards):
that is why an author names every card that matters. The rest of the stock follows the
--stock-top cards in deck order.
"""

from __future__ import annotations

from ...engine.errors import ConquianError


def linked(profile, a: int, b: int) -> bool:
    """One more card could make a meld of a and b."""
    deck = profile.deck
    if a == b:
        return False
    if deck.rank_of(a) == deck.rank_of(b):
        return True
    return deck.suit_of(a) == deck.suit_of(b) and abs(deck.rank_of(a) - deck.rank_of(b)) <= profile.run_min - 1


def completes_meld(profile, card: int, others: set[int]) -> bool:
    """`card` and some of `others` make a meld (a set or a run of the profile's least size)."""
    deck = profile.deck
    rank, suit = deck.rank_of(card), deck.suit_of(card)
    if sum(1 for o in others if deck.rank_of(o) == rank and o != card) >= min(profile.set_sizes) - 1:
        return True
    ranks = {deck.rank_of(o) for o in others if deck.suit_of(o) == suit} | {rank}
    n = profile.run_min
    return any(all(r in ranks for r in range(low, low + n)) for low in range(max(0, rank - n + 1), rank + 1))


def _links(profile, card: int, others) -> int:
    return sum(linked(profile, card, o) for o in others)


def complete_hands(profile, given: list[list[int]], top: list[int]) -> list[list[int]]:
    """Every seat's hand, each completed to the hand size with harmless cards (module docstring).
    "The rival" is every other seat's hand together."""
    hands = [list(g) for g in given]
    taken = {c for h in hands for c in h} | set(top)
    for seat in range(len(hands)):
        need = profile.hand_size - len(hands[seat])
        pool = [c for c in profile.deck.ordered() if c not in taken]
        others = [c for s, h in enumerate(hands) if s != seat for c in h]
        chosen = _unlinked_fillers(profile, hands[seat], need, pool, top, others)
        if chosen is None:
            chosen = _cheapest_fillers(profile, hands[seat], need, pool, top, others, seat)
        hands[seat] += chosen
        taken |= set(chosen)
    return hands


def _unlinked_fillers(profile, hand, need, pool, top, rival, budget: int = 20000) -> list[int] | None:
    """`need` cards linked to no card of the hand nor to each other (so they complete no meld:
    any two cards of a meld are linked), the fewest links to the stock top and the rival first;
    None if there are none (or the search budget runs out)."""
    candidates = [
        c for c in pool
        if not completes_meld(profile, c, set(hand) | set(top)) and not any(linked(profile, c, h) for h in hand)
    ]
    candidates.sort(key=lambda c: (10 * _links(profile, c, top) + _links(profile, c, rival), c))
    chosen: list[int] = []
    left = [budget]

    def search(start: int) -> bool:
        if len(chosen) == need:
            return True
        left[0] -= 1
        if left[0] <= 0:
            return False
        for i in range(start, len(candidates)):
            if len(candidates) - i < need - len(chosen):
                return False
            card = candidates[i]
            if any(linked(profile, card, c) for c in chosen):
                continue
            chosen.append(card)
            if search(i + 1):
                return True
            chosen.pop()
        return False

    return chosen if search(0) else None


def _cheapest_fillers(profile, hand, need, pool, top, rival, seat) -> list[int]:
    """The fallback when every choice links two cards of the hand: one card at a time, the
    cheapest (100 a link in hand, 10 a link to the stock top, 1 a link to the rival), never one
    completing a meld."""
    hand, pool, chosen = list(hand), list(pool), []
    for _ in range(need):
        best = None
        for card in pool:
            if completes_meld(profile, card, set(hand) | set(top)):
                continue
            cost = 100 * _links(profile, card, hand) + 10 * _links(profile, card, top) + _links(profile, card, rival)
            if best is None or cost < best[0]:
                best = (cost, card)
        if best is None:
            raise ConquianError(f"new: cannot complete seat {seat}'s hand without making a meld; name more of its cards with --hand{seat}")
        hand.append(best[1])
        chosen.append(best[1])
        pool.remove(best[1])
    return chosen


def exchange_pick(profile, hands: list[list[int]], seat: int, fillers: set[int], top: list[int]) -> int:
    """A card for `seat` to give in the exchange: the one least useful to the rival, a harmless
    filler rather than a card the author chose."""
    rival = set(hands[1 - seat])

    def cost(card: int) -> tuple:
        return (
            completes_meld(profile, card, rival | set(top)),
            card not in fillers,
            sum(linked(profile, card, o) for o in rival | set(top)),
            card,
        )

    return min(hands[seat], key=cost)
