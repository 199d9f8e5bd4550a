"""A deal at a mid-deal position: `position_of(game)` writes it, `from_position` takes it up
(the protocol's `setup_position`, docs/protocol.md).

A position is what the reference shows of a deal, and nothing more:

    {"state": <the canonical state, as `state` answers it>,
     "history": [<the public events, as the observation shows them>],
     "opening_card": <whether the available card is the opening card still on offer>}

The state holds every card where it lies (the stock in order) and the exchange's picks; the
history is what each seat remembers; `opening_card` is the one flag neither shows directly
(RUL-20, RUL-40: the opening card is passed round, or refused for the non-dealer, unlike any
other card). Who discards (`to_act` in `discard`) and who holds the available card
(`available.offered_to`) are in the state.

A position is taken up by replaying it, so an impossible position is refused, never played:
the deal it began from is read back from the state and the history (every card a seat parted
with, per the history, back in its hand, the exchange undone, every revealed card back on top of
the stock; C-DEAL-1, C-DECK-2, RUL-34 for two copies), dealt by `Game.from_deal`, and the
history's actions are applied by the profile's rules; the events logged and the state reached
must be the position's, key by key. Every card once, hands within the deal rule, exposed cards
that arrange (C-ARR-1), seats, phase and counts consistent: all hold because the reference
reached the position. Anything else is MalformedInput naming the field (`position.state.hands[0]`,
`position.history[7]`). The position is the reference's: it is replayed by the profile's own
rules (with `reached_by`, the house rules the reference that reached it played, if any), then
played on with the house rules given (`variants`).
"""

from __future__ import annotations

from collections import Counter

from .errors import IllegalAction, MalformedInput, shown
from .phases import Phase
from .profile import Profile
from .ruleset import Variant
from .setup import check_every_card_once, check_seat

STATE_KEYS = ("profile", "dealer", "phase", "to_act", "hands", "exposed", "available", "stock", "out_of_play",
              "exchange", "pending", "outcome")
POSITION_KEYS = ("state", "history", "opening_card")
# The events an action logs, and the action it stands for; the other events (reveal, exchange,
# end) are logged by the rules on their own.
ACTION_EVENTS = ("use", "discard", "reject", "pass", "force", "decline")


def position_of(game) -> dict:
    """The position of `game`: its state, its public history and the opening-card flag."""
    return {"state": game.state_json(), "history": [dict(e) for e in game.history], "opening_card": game.opening_card}


def from_position(game_class, profile: Profile, position: object, variants: tuple[Variant, ...] = (),
                  reached_by: tuple[Variant, ...] = ()):
    """The deal at `position`, reached under the house rules `reached_by` and played on with
    `variants` (see the module docstring)."""
    state, history = _read(profile, position)
    places = _places(profile, state)
    hands, stock = _dealt(profile, state, places, history)
    try:
        game = game_class.from_deal(profile, hands, stock, state["dealer"], reached_by)
    except MalformedInput as exc:
        raise MalformedInput("position.history", f"the state and the history add up to no deal of {profile.id}: {exc}") from None
    _replay(game, history)
    _finish_exchange(game, state)
    _compare(game, state, places, position["opening_card"])
    game.fired_last = []
    return _with_house_rules(game, variants) if tuple(variants) != tuple(reached_by) else game


# -- reading ----------------------------------------------------------------------------------------
def _read(profile: Profile, position: object) -> tuple[dict, list]:
    """The position's three keys, the state's twelve, the history a bounded list of events."""
    _keys(position, POSITION_KEYS, "position")
    state, history = position["state"], position["history"]
    _keys(state, STATE_KEYS, "position.state")
    if state["profile"] != profile.id:
        raise MalformedInput("position.state.profile", f"a position of {profile.id}, got {shown(state['profile'])}")
    check_seat(state["dealer"], "position.state.dealer", profile.seats)
    if type(position["opening_card"]) is not bool:
        raise MalformedInput("position.opening_card", f"true or false, got {shown(position['opening_card'])}")
    # A deal logs a few events per card at most (a reveal or a discard, passes round the table,
    # a decision, a use): a longer history is no deal's.
    longest = 16 * profile.deck.size
    if not isinstance(history, list) or len(history) > longest:
        raise MalformedInput("position.history", f"a list of at most {longest} events, got {shown(history)}")
    for i, event in enumerate(history):
        if not isinstance(event, dict) or not isinstance(event.get("event"), str):
            raise MalformedInput(f"position.history[{i}]", f"an event is an object with an 'event' name, got {shown(event)}")
    return state, history


def _keys(value: object, keys: tuple[str, ...], field: str) -> None:
    if not isinstance(value, dict):
        raise MalformedInput(field, f"an object with {', '.join(keys)}, got {shown(value)}")
    for key in value:
        if key not in keys:
            raise MalformedInput(f"{field}.{str(key)[:40]}", f"no such key (the keys are {', '.join(keys)})")
    for key in keys:
        if key not in value:
            raise MalformedInput(f"{field}.{key}", "missing")


def _places(profile: Profile, state: dict) -> dict[str, list[int]]:
    """Every card of the state by its place, read (MalformedInput naming the field): every card
    of the deck exactly once over them (twice with two copies, RUL-34)."""
    deck, places = profile.deck, {}
    for key, count in (("hands", len(profile.seats)), ("exposed", profile.teams)):
        lists = state[key]
        if not isinstance(lists, list) or len(lists) != count:
            raise MalformedInput(f"position.state.{key}", f"{count} card lists, got {shown(lists)}")
        for i, cards in enumerate(lists):
            places[f"position.state.{key}[{i}]"] = deck.parse_list(cards, f"position.state.{key}[{i}]")
    available = state["available"]
    if available is not None:
        if not isinstance(available, dict) or "card" not in available:
            raise MalformedInput("position.state.available", f"null or an object with a 'card', got {shown(available)}")
        places["position.state.available.card"] = [deck.parse(available["card"], "position.state.available.card")]
    for key in ("stock", "out_of_play"):
        places[f"position.state.{key}"] = deck.parse_list(state[key], f"position.state.{key}")
    check_every_card_once(profile, places, missing_field="position.state")
    return places


# -- the deal it began from -----------------------------------------------------------------------------
def _dealt(profile: Profile, state: dict, places: dict, history: list) -> tuple[list[list[str]], list[str]]:
    """The hands as dealt and the stock: the hands now, with every card the history shows a seat
    parting with (a use's hand cards, a discard) back, and the exchange undone; the revealed
    cards, in order, on top of the stock now."""
    deck = profile.deck
    hands = [Counter(deck.names(places[f"position.state.hands[{s}]"])) for s in profile.seats]
    revealed, given, at = [], None, None
    for i, event in enumerate(history):
        kind, field = event["event"], f"position.history[{i}]"
        if kind == "reveal":
            revealed.append(deck.name(deck.parse(event.get("card"), f"{field}.card")))
        elif kind in ("use", "discard"):
            seat = event.get("seat")
            check_seat(seat, f"{field}.seat", profile.seats)
            parted = deck.parse_list(event.get("cards"), f"{field}.cards") if kind == "use" else [deck.parse(event.get("card"), f"{field}.card")]
            hands[seat].update(deck.name(c) for c in parted)
        elif kind == "exchange" and given is None and profile.exchange_cards:
            given, at = deck.parse_list(event.get("given"), f"{field}.given"), field
            if len(given) != 2:
                raise MalformedInput(f"{field}.given", f"the two cards given, got {shown(event.get('given'))}")
    if given is not None:  # the swap undone: each seat had the card it gave, not the one it received
        for seat, (gave, received) in enumerate(((given[0], given[1]), (given[1], given[0]))):
            if hands[seat][deck.name(received)] == 0:
                raise MalformedInput(f"{at}.given", f"seat {seat} never held {deck.name(received)}, the card it received")
            hands[seat][deck.name(received)] -= 1
            hands[seat][deck.name(gave)] += 1
    for seat in profile.seats:
        held, dealt = len(places[f"position.state.hands[{seat}]"]), sum(hands[seat].values())
        if dealt != profile.hand_size:
            raise MalformedInput(f"position.state.hands[{seat}]", f"seat {seat} holds {held} cards and the history shows it "
                                 f"parting with {dealt - held}: {dealt} dealt, but the profile deals {profile.hand_size}")
    return [list(h.elements()) for h in hands], revealed + [deck.name(c) for c in places["position.state.stock"]]


# -- the replay -----------------------------------------------------------------------------------------
def _replay(game, history: list) -> None:
    """Apply the action of each action event of the history in turn; what the reference logs
    must be the history, event by event."""
    while len(game.history) < len(history):
        i = len(game.history)
        event, field = history[i], f"position.history[{i}]"
        for seat, action in _actions(game, event, field):
            try:
                game.apply(seat, action)
            except (IllegalAction, MalformedInput) as exc:
                raise MalformedInput(field, f"the reference refuses {shown(event)}: {exc}") from None
        for j in range(i, min(len(game.history), len(history))):
            if game.history[j] != history[j]:
                raise MalformedInput(f"position.history[{j}]", f"the reference logs {shown(game.history[j])} here, not {shown(history[j])}")
    if len(game.history) > len(history):
        raise MalformedInput("position.history", f"ends too early: the reference then logs {shown(game.history[len(history)])}")


def _actions(game, event: dict, field: str) -> list[tuple[int, dict]]:
    """The actions that log `event` next: the event of an action, or both exchange picks."""
    kind = event["event"]
    if kind == "exchange" and game.phase == Phase.EXCHANGE:
        given = event.get("given")
        return [(seat, {"type": "exchange", "card": card}) for seat, card in enumerate(given)]
    if kind not in ACTION_EVENTS:
        raise MalformedInput(field, f"the reference logs no {shown(kind)} event here (an action's event is expected next)")
    seat = event.get("seat")
    check_seat(seat, f"{field}.seat", game.profile.seats)
    if kind == "use":
        return [(seat, {"type": "use", "cards": event.get("cards")})]
    if kind == "discard":
        return [(seat, {"type": "discard", "card": event.get("card")})]
    return [(seat, {"type": kind})]


def _finish_exchange(game, state: dict) -> None:
    """During the exchange, the picks made so far (no event logs a pick before both are made)."""
    exchange = state["exchange"]
    if game.phase != Phase.EXCHANGE or not isinstance(exchange, dict) or not isinstance(exchange.get("picks"), list):
        return
    for seat, card in enumerate(exchange["picks"][: len(game.profile.seats)]):
        if card is not None:
            try:
                game.apply(seat, {"type": "exchange", "card": card})
            except (IllegalAction, MalformedInput) as exc:
                raise MalformedInput(f"position.state.exchange.picks[{seat}]", f"the reference refuses this pick: {exc}") from None


# -- the comparison ---------------------------------------------------------------------------------------
def _compare(game, state: dict, places: dict, opening_card: bool) -> None:
    """The state reached must be the position's, key by key (card lists as read: a hand or the
    exposed cards in any order; the stock and out of play in order), and so the opening flag."""
    deck, reached = game.deck, game.state_json()
    given = dict(state)
    for key in ("hands", "exposed"):
        given[key] = [deck.names(places[f"position.state.{key}[{i}]"]) for i in range(len(state[key]))]
    for key in ("stock", "out_of_play"):
        given[key] = [deck.name(c) for c in places[f"position.state.{key}"]]
    if state["available"] is not None:
        given["available"] = {**state["available"], "card": deck.name(places["position.state.available.card"][0])}
    for key in STATE_KEYS:
        if not _same(reached[key], given[key]):
            raise MalformedInput(f"position.state.{key}", f"the history leads to {shown(reached[key])}, not {shown(state[key])}")
    if game.opening_card != opening_card:
        raise MalformedInput("position.opening_card", f"the history leads to {str(game.opening_card).lower()}")


def _same(a: object, b: object) -> bool:
    """Equal as JSON values of the same type (true is not 1); bounded by `a`'s depth."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


# -- house rules ------------------------------------------------------------------------------------------
def _with_house_rules(plain, variants: tuple[Variant, ...]):
    """The deal of `plain`, played on by the profile's rules with `variants` (Game.play_by)."""
    game = plain.clone()
    game.play_by(variants)
    if (game.deck.size, game.deck.copies) != (plain.deck.size, plain.deck.copies):
        raise MalformedInput("position", "these house rules change the deck: they cannot take up a position of the profile's deck")
    return game
