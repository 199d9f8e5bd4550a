"""The text of a new draft scenario: the modeline (modeline.py), the fields, a TODO annotation,
the setup (hands completed with harmless cards, harmless.py), and a steps section holding a
first check to record and commented examples. Each line is written here as an author would write it, with
comments saying what to do next (docs/authoring.md, "2. new").
"""

from __future__ import annotations

import textwrap

from .harmless import complete_hands, exchange_pick

PLACEHOLDER_ANNOTATION = "TODO: why each expectation follows from the rules"


def draft_text(profile, scenario_id: str, title: str, rules: list[str], area: str, dealer: int,
               given: list[list[int]], top: list[int], modeline: str) -> str:
    """The text of a new draft scenario, under `modeline` (modeline.py: it depends on where the
    draft is written)."""
    head = [modeline, *_head(profile, scenario_id, title, rules)]
    body = _match_body(dealer) if area == "match" else _deal_body(profile, dealer, given, top)
    return "\n".join(head + body) + "\n"


def _flow(names: list[str]) -> str:
    return "[" + ", ".join(names) + "]"


def _commented(line: str, comment: str, column: int = 34) -> str:
    return f"{line.ljust(column - 1)} # {comment}" if len(line) < column - 1 else f"{line}  # {comment}"


def _head(profile, scenario_id: str, title: str, rules: list[str]) -> list[str]:
    import yaml

    from ..yamltext import scalar

    try:
        plain = "#" not in title and yaml.safe_load(f"title: {title}") == {"title": title}
    except yaml.YAMLError:
        plain = False
    todo = f"{PLACEHOLDER_ANNOTATION}, citing the rule ids ({', '.join(rules)})."
    return [
        f"id: {scenario_id}",
        f"title: {title if plain else scalar(title)}",
        f"profile: {profile.id}",
        f"rules: {_flow(rules)}",
        "tags: []",
        "annotation: >",
        *textwrap.wrap(todo, width=96, initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False),
    ]


def _match_body(dealer: int) -> list[str]:
    """A match scenario: two example deals, the scores to record."""
    return [
        "match:",
        f"  first_dealer: {dealer}",
        _commented("  deals:", "the outcome of each deal, in order"),
        "    - {result: win, winner: 0, how: target_reached}",
        "    - {result: draw, winner: null, how: stock_exhausted}",
        _commented("  expect: record", "points, next_dealer, winner: conquian-ref record FILE"),
    ]


def _deal_body(profile, dealer: int, given: list[list[int]], top: list[int]) -> list[str]:
    """A deal scenario: the setup, the exchange if the profile has one, a first check to record."""
    deck = profile.deck
    names = deck.names
    hands = complete_hands(profile, given, top)
    fillers = [set(hands[s]) - set(given[s]) for s in profile.seats]
    dealt = {c for h in hands for c in h} | set(top)
    stock = list(top) + [c for c in deck.ordered() if c not in dealt]
    first = profile.next_seat(dealer)

    def hand_comment(seat: int) -> str:
        if not given[seat]:
            return "all harmless cards (docs/authoring.md)"
        if not fillers[seat]:
            return "as given"
        return f"given {' '.join(deck.name(c) for c in given[seat])}; the rest harmless"

    opening = deck.name(stock[0])
    body = [
        "setup:",
        _commented(f"  dealer: {dealer}", f"so seat {first}, {'the non-dealer' if len(hands) == 2 else 'after the dealer'}, plays first"),
        _commented("  hands:", f"{'as dealt, before any exchange' if profile.exchange_cards else 'as dealt'}; hands[0] is seat 0's"),
        *(_commented(f"    - {_flow(names(hand))}", hand_comment(seat)) for seat, hand in enumerate(hands)),
        _commented(f"  stock: {_flow([deck.name(c) for c in stock])}", f"top first: {opening} is the opening card"),
        "steps:",
    ]
    hold = [set(h) for h in hands]
    if profile.exchange_cards:
        picks = [exchange_pick(profile, hands, s, fillers[s], top) for s in (0, 1)]
        body += _exchange_steps(profile, [deck.name(p) for p in picks])
        hold = [hold[0] - {picks[0]} | {picks[1]}, hold[1] - {picks[1]} | {picks[0]}]
    else:
        body.append(f"  # {profile.id}: no exchange; the opening card {opening} is offered to seat {first} at once.")
    example_cards = [c for c in given[first] if c in hold[first]][:2]
    return body + _first_steps(first, opening, f"{{type: use, cards: {_flow(names(example_cards))}}}" if example_cards else "{type: pass}")


def _exchange_steps(profile, picks: list[str]) -> list[str]:
    """The two exchange steps, with a reminder of the rule that puts them first."""
    rules = _exchange_rules(profile)
    cited = f" ({', '.join(rules)})" if rules else ""
    return [
        f"  # {profile.id}: BOTH seats exchange first{cited}, one card each, in either order,",
        "  # and only then is the opening card revealed. These picks are suggestions (harmless cards):",
        "  # change them if the exchange matters to your case.",
        "  - seat: 0",
        f"    action: {{type: exchange, card: {picks[0]}}}",
        "  - seat: 1",
        f"    action: {{type: exchange, card: {picks[1]}}}",
    ]


def _exchange_rules(profile) -> list[str]:
    """The profile's rules behind the refusal `must_exchange` (nothing before the exchange):
    read from the reason table, so that no profile's rule id is written here."""
    from ...engine.refusals import REASONS
    from ...spec.rulebook import rules_for

    applicable = rules_for(profile.id)
    return [rule for rule in REASONS["must_exchange"] if rule in applicable]


def _first_steps(first: int, opening: str, example: str) -> list[str]:
    """The first check to record, commented examples of more steps, and the outcome."""
    return [
        "  # Write each expectation from the rule text. Where the reference engine should fill a value",
        "  # in, write `record`, then run `conquian-ref record FILE` and read the diff against the rules.",
        _commented("  - check:", f"what may seat {first} do with the opening card {opening}?"),
        f"      legal: {{seat: {first}, actions: record}}",
        "  # More steps, for example:",
        f"  # - seat: {first}",
        f"  #   action: {example}",
        "  #   expect: record                # accepted, or {refused: CODE}",
        "  #   check: {state: record}        # phase, to_act, available, hands, exposed, ...",
        f"  # - seat: {first}",
        "  #   action: {type: reject}",
        "  #   expect: {refused: cannot_reject_revealed}",
        "  #   check: {perft: [record, record]}",
        _commented("outcome: record", "null while the deal goes on, else its result"),
    ]
