"""What happens: the transitions of a deal and the steps they run, as rows with their rules.

`STEPS` is one table. The transition of an accepted action is the row named `<phase>.<action
type>` (`play.use`, `discard.discard`, `force_decision.decline`, ...); the steps it runs are rows
too (`take`, `reveal`, `reject_card`, `win`, ...). `Game.run(name, ...)` runs a row of its rule
set: it records the row's rules in the rule trace (the rule trace is derived from the rows that
ran, never written beside a check) and calls its function. A house rule replaces a row by name
(conquian_ref.engine.ruleset.Variant).

The rules: C-DEAL-1, RUL-10, RUL-15, RUL-18, RUL-36 (the deal), the exchange (`exchange`,
`exchange_privacy`), the opening (`opening`, RUL-7 or RUL-20), C-TURN-1..5, C-TURN-7, RUL-8,
RUL-16, RUL-19, RUL-21, RUL-43 (a turn), C-FORCE-1, RUL-4, RUL-5, RUL-11, RUL-14, RUL-17, RUL-23, RUL-39
(forcing and demands), RUL-35, RUL-38, RUL-40, C-END-1..3, RUL-1, RUL-6, RUL-9, RUL-24, RUL-25
(the endings).
"""

from __future__ import annotations

from .cards import bit, count
from .outcome import How, Outcome
from .phases import Phase
from .ruleset import Step

# The rulings that fixed a profile's hand size and target (RUL-1 holds for all): each applies
# where the deal is dealt and where the target is checked, under the profile that follows it.
HAND_SIZE_RULINGS = ("RUL-30", "RUL-31", "RUL-32", "RUL-37", "RUL-43")

# Speed: the rows append the events of the public history as dict literals: through
# `Game.log(event, **fields)` an event cost 440 ns against 100 (timeit), and most actions log one
# or two. The members the rows assign are read once here. `Phase.PLAY` inside a row is an attribute
# of an enum class, about 70 ns a read in CPython 3.11 (timeit) against 7 for a module global,
# and every action assigns a phase or an ending. Likewise the rows write `1 << card` where
# `cards.bit(card)` would be a call.
EXCHANGE, PLAY, DISCARD, FORCE_DECISION, OVER = Phase.EXCHANGE, Phase.PLAY, Phase.DISCARD, Phase.FORCE_DECISION, Phase.OVER
RUMMY, TARGET_REACHED, FORCED_TO_TARGET, STOCK_EXHAUSTED = How.RUMMY, How.TARGET_REACHED, How.FORCED_TO_TARGET, How.STOCK_EXHAUSTED


# -- the deal ----------------------------------------------------------------------------------------
def read_cards(game) -> None:
    """Every card name of the setup was read (the setup functions parse them)."""


def deal_deck_order(game) -> None:
    """The hands and stock were dealt from the deck order (conquian_ref.engine.dealing)."""


def resolve_copies(game) -> None:
    """Two copies: the cards an action names are read as the copies the seat holds (the game
    resolves them, actions.resolved)."""


def begin(game) -> None:
    """The deal begins: with the exchange, or with the opening card."""
    if game.picks is not None:
        game.phase = EXCHANGE
    else:
        game.run("reveal_opening")


# -- the exchange ------------------------------------------------------------------------------------
def pick_for_exchange(game, seat: int, act) -> None:
    """Both picks are made before either is seen; then the cards are swapped."""
    game.picks[seat] = act.card
    if None not in game.picks:
        game.run("swap_picks")


def swap_picks(game) -> None:
    given = [bit(c) for c in game.picks]
    game.hands = [game.hands[0] ^ given[0] | given[1], game.hands[1] ^ given[1] | given[0]]
    game.history.append({"event": "exchange", "given": [game.deck.name(c) for c in game.picks]})
    game.run("reveal_opening")


# -- the opening and the reveal ----------------------------------------------------------------------
def reveal_opening(game) -> None:
    """The top stock card is revealed for the seat after the dealer (under the two offers of the
    starter, RUL-20, it goes to the dealer next)."""
    game.phase = PLAY
    game.active = game.profile.next_seat(game.dealer)
    game.run("reveal")
    game.opening_card = True


def reveal(game) -> None:
    """The top stock card becomes the available card, freshly revealed, for the active seat."""
    game.available = game.stock_pile.pop()
    game.revealed = True
    game.history.append({"event": "reveal", "card": game.deck.name(game.available), "seat": game.active})


# -- a use -------------------------------------------------------------------------------------------
def use(game, seat: int, act) -> None:
    """The taken card is exposed at once with the hand cards named (RUL-16), into the seat's team
    pool (RUL-38), all exposed cards rearranged as needed (C-ARR-2) or, under discard-then-meld,
    the taken card placed as the melds lie (RUL-35)."""
    game.history.append({"event": "use", "seat": seat, "card": game.deck.name(game.available), "cards": game.deck.names(act.cards)})
    team = game.profile.team_of(seat)
    nothing_exposed = not game.exposed[team]
    game.run("expose_hand_cards" if act.cards else "take_alone", seat, act.cards)
    game.run("take", seat, RUMMY if game.profile.going_rummy and nothing_exposed else TARGET_REACHED)


def expose_hand_cards(game, seat: int, cards: int) -> None:
    game.hands[seat] &= ~cards
    game.exposed[game.profile.team_of(seat)] |= cards


def take_alone(game, seat: int, cards: int) -> None:
    """The taken card joins the exposed cards alone: it fit them (the use was checked)."""


def take(game, receiver: int, how: How) -> None:
    """The available card joins the receiver's team's exposed cards; then a win at the target
    (ending `how`) or a discard."""
    team = game.profile.team_of(receiver)
    game.exposed[team] |= 1 << game.available
    game.available, game.revealed, game.opening_card = None, False, False
    game.note_melds(game.exposed[team])
    if count(game.exposed[team]) == game.profile.target:
        game.run("win_by_force" if how == FORCED_TO_TARGET else "win_by_use", receiver, how)
    elif not game.hands[receiver] and game.ruleset.policies["empty_hand"].turn_passes:
        game.run("empty_hand_passes_turn", receiver)
    else:
        game.run("discard_after_force" if how == FORCED_TO_TARGET else "discard_after_take", receiver)


def win(game, winner: int, how: How) -> None:
    game.run("end", Outcome(how, winner))


def discard_after_take(game, receiver: int) -> None:
    """The target is not reached: the receiver discards a hand card."""
    game.phase, game.discarder = DISCARD, receiver


def empty_hand_passes_turn(game, receiver: int) -> None:
    """The take left the receiver's hand empty short of the target, and the profile lets the turn
    pass (`empty_hand: turn_passes`): there is nothing to discard and no card to hand on, so the
    next seat's turn begins as after a refused card, with the top stock card revealed for it;
    with no stock left the deal is drawn, as a refusal with an empty stock would be."""
    game.history.append({"event": "turn_passes", "seat": receiver})
    game.active = game.profile.next_seat(receiver)
    game.run("reveal" if game.stock_pile else "stock_exhausted")


# -- a discard ---------------------------------------------------------------------------------------
def discard(game, seat: int, act) -> None:
    """The discard becomes the available card for the next seat, whose turn begins."""
    if game.hands[seat] == 1 << act.card:
        game.run("hand_emptied", seat)
    game.hands[seat] &= ~(1 << act.card)
    game.history.append({"event": "discard", "seat": seat, "card": game.deck.name(act.card)})
    game.available, game.revealed = act.card, False
    game.phase, game.active, game.discarder = PLAY, game.profile.next_seat(seat), None


def hand_emptied(game, seat: int) -> None:
    """Emptying the hand below the target does not win (C-END-2): nothing happens."""


# -- a reject or a pass ------------------------------------------------------------------------------
def reject(game, seat: int, act) -> None:
    if game.run("decision_opens", seat):
        game.run("ask_next_seat", "reject")
    else:
        game.run("reject_card", seat)


def pass_(game, seat: int, act) -> None:
    if game.run("decision_opens", seat):
        game.run("ask_next_seat", "pass")
    else:
        game.run("pass_opening_card" if game.opening_card else "pass_card", seat)


def decision_opens(game, seat: int) -> bool:
    """Whether letting the available card go asks the next seat to force or decline it (the
    profile's `forcing.own_fit`: the rival's option, when the card fits and a demand is possible)."""
    opens_decision = game.ruleset.policies["own_fit"].opens_decision  # a local before the call: see Game.legal
    return opens_decision(game, seat)


def ask_next_seat(game, declared: str) -> None:
    game.history.append({"event": declared, "seat": game.active, "card": game.deck.name(game.available), "pending": True})
    game.phase, game.pending = FORCE_DECISION, declared


def reject_card(game, seat: int) -> None:
    """Out of play for good; the next stock card is revealed for the same seat (after the
    dealer's refusal of the starter, RUL-20: for the non-dealer), or the deal is a draw."""
    game.out_of_play.append(game.available)
    if not game.pending:
        game.history.append({"event": "reject", "seat": seat, "card": game.deck.name(game.available)})
    game.available = None
    if game.opening_card and game.ruleset.policies["opening"].refusal_draws_for_non_dealer:
        game.active = game.profile.next_seat(game.dealer)
    game.opening_card = False
    game.run("reveal" if game.stock_pile else "stock_exhausted")


def stock_exhausted(game) -> None:
    game.run("end", Outcome(STOCK_EXHAUSTED))


def pass_card(game, seat: int) -> None:
    """The card goes to the next seat as a card left by the rival; no discard."""
    if not game.pending:
        game.history.append({"event": "pass", "seat": seat, "card": game.deck.name(game.available)})
    game.active, game.revealed = game.profile.next_seat(seat), False


def pass_opening_card(game, seat: int) -> None:
    """The opening card goes round the table, freshly revealed, until it reaches the dealer."""
    if not game.pending:
        game.history.append({"event": "pass", "seat": seat, "card": game.deck.name(game.available)})
    receiver = game.profile.next_seat(seat)
    game.active, game.revealed = receiver, receiver != game.dealer


# -- forcing -----------------------------------------------------------------------------------------
def force_onto_next_seat(game, seat: int, act) -> None:
    """The active seat forces the available card onto the next seat's melds (forcing onto the
    rival): the card joins them alone, decided on the exposed cards."""
    receiver = game.profile.next_seat(seat)
    game.history.append({"event": "force", "seat": seat, "receiver": receiver, "card": game.deck.name(game.available)})
    game.run("take", receiver, FORCED_TO_TARGET)


def force_demanded_card(game, seat: int, act) -> None:
    """The deciding seat forces the card the active seat let go onto the active seat's melds."""
    receiver = game.active
    game.history.append({"event": "force", "seat": seat, "receiver": receiver, "card": game.deck.name(game.available)})
    game.phase, game.pending = PLAY, None
    game.run("take", receiver, FORCED_TO_TARGET)


def decline(game, seat: int, act) -> None:
    """The reject or pass takes place as the active seat declared it."""
    game.history.append({"event": "decline", "seat": seat})
    declared, game.phase = game.pending, PLAY
    if declared == "reject":
        game.run("reject_card", game.active)
    else:
        game.run("pass_opening_card" if game.opening_card else "pass_card", game.active)
    game.pending = None


def end(game, outcome: Outcome) -> None:
    game.phase, game.outcome, game.discarder = OVER, outcome, None
    game.history.append({"event": "end", **outcome.to_json()})


# -- the table ---------------------------------------------------------------------------------------
# name, function, the rules it applies (ids, and keys of the profile's `rules:`), whether it also
# applies the profile's own rule for the kind of available card at hand (about_the_card), and the
# policy entries it consults, whose rules it applies too (what "fits" means, the opening style).
STEPS: dict[str, Step] = {step.name: step for step in (
    Step("read_cards", read_cards, ("C-DECK-2", "RUL-28")),
    Step("deal_deck_order", deal_deck_order, ("C-DEAL-1", "RUL-10", "RUL-15", "RUL-18", "RUL-36", "deal", *HAND_SIZE_RULINGS)),
    Step("resolve_copies", resolve_copies, ("RUL-34",)),
    Step("begin", begin),
    Step("exchange.exchange", pick_for_exchange, ("exchange", "exchange_privacy")),
    Step("swap_picks", swap_picks, ("exchange",)),
    Step("reveal_opening", reveal_opening, ("opening",), policies=("opening",)),
    Step("reveal", reveal),
    Step("play.use", use, ("C-TURN-2", "C-ARR-2", "RUL-16", "RUL-21", "RUL-35", "arrangement"), about_the_card=True),
    Step("expose_hand_cards", expose_hand_cards, ("RUL-38", "pooled_melds")),
    Step("take_alone", take_alone, ("C-ARR-4", "RUL-3", "RUL-38", "pooled_melds")),
    Step("take", take),
    Step("win_by_use", win, ("C-END-1", "goal", "RUL-1", *HAND_SIZE_RULINGS, "rummy", "RUL-24")),
    Step("win_by_force", win, ("C-END-1", "goal", "RUL-1", *HAND_SIZE_RULINGS, "RUL-6")),
    Step("discard_after_take", discard_after_take, ("goal", *HAND_SIZE_RULINGS, "C-TURN-3", "RUL-19", "discard_after_meld")),
    Step("empty_hand_passes_turn", empty_hand_passes_turn, ("RUL-43", "empty_hand", "C-END-2", "goal", "next_seat")),
    Step("discard_after_force", discard_after_take, ("goal", *HAND_SIZE_RULINGS, "C-TURN-3", "RUL-19", "discard_after_meld", "RUL-5")),
    Step("discard.discard", discard, ("C-TURN-3", "C-TURN-1", "RUL-19", "RUL-39", "discard_after_meld", "next_seat")),
    Step("hand_emptied", hand_emptied, ("C-END-2", "goal")),
    Step("play.reject", reject),
    Step("play.pass", pass_),
    Step("decision_opens", decision_opens, policies=("own_fit",)),
    Step("ask_next_seat", ask_next_seat, ("force_option", "RUL-14", "RUL-23", "RUL-39"), policies=("fit",)),
    Step("reject_card", reject_card, ("C-TURN-4", "C-TURN-7", "RUL-8"), about_the_card=True),
    Step("stock_exhausted", stock_exhausted, ("C-END-3", "RUL-9", "RUL-25", "stock_exhaustion")),
    Step("pass_card", pass_card, ("C-TURN-5", "RUL-39", "next_seat"), about_the_card=True),
    Step("pass_opening_card", pass_opening_card, ("C-TURN-5", "RUL-39", "RUL-40", "next_seat"), about_the_card=True),
    Step("play.force", force_onto_next_seat, ("C-FORCE-1", "RUL-4", "RUL-11", "RUL-17", "force_onto_rival"), policies=("fit",)),
    Step("force_decision.force", force_demanded_card, ("C-FORCE-1", "RUL-4", "RUL-11", "forced_card_alone"), policies=("fit",)),
    Step("force_decision.decline", decline, ("RUL-14",)),
    Step("end", end),
)}
