"""Deliberately wrong engines, one broken rule each: the mutants of the corpus' mutation analysis.

Each mutant is the reference engine with exactly ONE rule read wrongly, built without touching
the engine modules: a small subclass of `Game` overriding one method (or two that must agree),
a `MutantTable` with a changed list of melds, a copy of a profile with one field changed, or a
`MutantAdapter` changing one answer of the protocol (observation, match). Every mutant is
registered with `@mutant(id, rules, description)`: the rule ids it breaks and a one-line
description; the comment in its body quotes the rule it breaks.

The corpus must catch every mutant: replayed against it (conquian_ref.tools.mutation, `conquian-ref
mutants`), at least one scenario that the reference passes must fail. A mutant that survives
shows a rule that no scenario really pins down.

Each mutant is reachable through the protocol's direct mode as
`python:conquian_ref.tools.mutants:adapter_for_<id with "_" for "-">`, e.g.
`conquian-ref check --impl python:conquian_ref.tools.mutants:adapter_for_run_wraps`.

Mutants that cannot be told apart from the reference by any game (equivalent mutants) are left
out on purpose; docs/mutation.md lists them (for instance the run maximum, RUL-2).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations, product

from ..engine.actions import Action
from ..conformance.adapter import ReferenceAdapter
from ..conformance.reference import Reference
from ..engine.cards import Deck, bit, cards_of, count, mask_of
from ..engine.dealing import deal
from ..engine.game import SEATS, Game, other
from ..engine.match import Match
from ..engine.melds import _CACHE_SIZE, MeldTable
from ..engine.outcome import Outcome
from ..spec.profiles import load_profile

TC, AA = "torno-cisneros-v1", "anglo-american-v1"


# == the building blocks ==========================================================================
class MutantTable(MeldTable):
    """A meld table whose list of melds is changed: `keep` drops melds, `extra` adds some.
    Hand cards are searched by brute force (the reference's bit filter knows only true melds)."""

    def __init__(self, profile):
        super().__init__(profile)
        melds = [m for m in self.melds if self.keep(profile, m)]
        melds += sorted(set(self.extra(profile)) - set(melds))
        self.melds, self.is_meld = tuple(melds), frozenset(melds)
        self._rules = {m: () for m in melds}
        by_lowest: list[list[int]] = [[] for _ in range(profile.deck.size)]
        containing: list[list[int]] = [[] for _ in range(profile.deck.size)]
        for meld in melds:
            by_lowest[(meld & -meld).bit_length() - 1].append(meld)
            for card in cards_of(meld):
                containing[card].append(meld)
        self._by_lowest = tuple(map(tuple, by_lowest))
        self._containing = tuple(map(tuple, containing))
        self.arrangeable = lru_cache(maxsize=_CACHE_SIZE)(self._arrangeable)

    def keep(self, profile, meld: int) -> bool:
        return True

    def extra(self, profile) -> list[int]:
        return []

    def legal_uses(self, exposed: int, card_bit: int, hand: int) -> frozenset[int]:
        must = exposed | card_bit
        pool = must | hand
        useful = [c for c in cards_of(hand) if any(m & pool == m for m in self._containing[c])]
        found = set()
        for k in range(len(useful) + 1):
            for chosen in combinations(useful, k):
                if self.arrangeable(must | mask_of(chosen)):
                    found.add(mask_of(chosen))
        return frozenset(found)


_TABLES: dict = {}


def _table(table_class, profile) -> MeldTable:
    key = (table_class, profile)  # a Profile hashes by identity; loaded profiles live for the run
    if key not in _TABLES:
        _TABLES[key] = table_class(profile)
    return _TABLES[key]


class MutantGame(Game):
    """The reference Game, made fit for subclassing: clones keep their class, `table_class`
    swaps the meld table, and `legal` lists exactly the actions this engine's `_refusal`
    accepts, so the mutant's legal actions agree with its own refusals."""

    table_class: type | None = None

    def __init__(self, profile, hands, stock, dealer):
        super().__init__(profile, hands, stock, dealer)
        self.trace = False  # rule coverage is the reference's business
        if self.table_class is not None:
            self.table = _table(self.table_class, profile)

    def __deepcopy__(self, memo):
        new = super().__deepcopy__(memo)
        new.__class__ = type(self)  # Game.__deepcopy__ builds a plain Game
        return new

    def extra_candidates(self, seat: int) -> set[Action]:
        """Actions this mutant may accept that the reference never lists (none by default)."""
        return set()

    def legal(self, seat: int) -> list[Action]:
        if seat not in self.to_act:
            return []
        if type(self)._refusal is Game._refusal and type(self).extra_candidates is MutantGame.extra_candidates:
            return super().legal(seat)  # the refusals are the reference's: so are the legal actions
        hand = self.hands[seat]
        candidates = set(super().legal(seat)) | self.extra_candidates(seat)
        candidates |= {Action(kind) for kind in ("decline", "force", "pass", "reject", "use")}
        candidates |= {Action(kind, card=c) for kind in ("discard", "exchange") for c in cards_of(hand)}
        return sorted((a for a in candidates if self._refusal(seat, a) is None), key=Action.sort_key)

    # helpers shared by several mutants
    def _take_without_win(self, receiver: int) -> None:
        """The available card joins `receiver`'s exposed cards and a discard follows, win or not."""
        self.exposed[receiver] |= bit(self.available)
        self.available, self.revealed = None, False
        self.phase, self.discarder = "discard", receiver

    def _reveal_count(self) -> int:
        return sum(e["event"] == "reveal" for e in self.history)

    def _refusal_as_if(self, seat: int, act: Action, **attrs) -> tuple[str, str] | None:
        """The reference's refusal with some attributes set otherwise for the question only."""
        saved = {k: getattr(self, k) for k in attrs}
        self.__dict__.update(attrs)
        try:
            return super()._refusal(seat, act)
        finally:
            self.__dict__.update(saved)


_PROFILES: dict = {}


class MutantAdapter(ReferenceAdapter):
    """The reference adapter with a mutant game, a changed profile or a changed answer."""

    game_class: type = MutantGame
    match_class: type = Match

    def change_profile(self, profile) -> dict:
        """Fields of the loaded profile to replace (none by default)."""
        return {}

    def profile(self, name: str):
        base = load_profile(name)
        key = (type(self), base)
        if key not in _PROFILES:
            changes = self.change_profile(base)
            _PROFILES[key] = dataclasses.replace(base, **changes) if changes else base
        return _PROFILES[key]

    def __init__(self):
        super().__init__(Reference(self.game_class, self.match_class, self.profile))

    def cmd_observation(self, request: dict) -> dict:
        answer = super().cmd_observation(request)
        self.change_observation(answer["observation"])
        return answer

    def change_observation(self, obs: dict) -> None:
        pass


# == the registry =================================================================================
@dataclass(frozen=True)
class Mutant:
    id: str
    rules: tuple[str, ...]
    description: str
    adapter_class: type
    source: type  # the class as written below (a Game, MutantTable or adapter subclass)
    unreachable: str = ""  # why no scenario can catch it (the corpus format cannot say it); "" if it can

    @property
    def factory_name(self) -> str:
        return "adapter_for_" + self.id.replace("-", "_")

    @property
    def impl(self) -> str:
        """The --impl value that runs this mutant in direct mode."""
        return f"python:{__name__}:{self.factory_name}"

    @property
    def kind(self) -> str:
        if issubclass(self.source, MutantTable):
            return "meld table"
        if issubclass(self.source, Game):
            return "game"
        if self.source.change_profile is not MutantAdapter.change_profile:
            return "profile"
        return "adapter"


MUTANTS: dict[str, Mutant] = {}


def mutant(id: str, rules: list[str], description: str, unreachable: str = ""):
    """Register the decorated class as the mutant `id` breaking `rules`: a MutantTable subclass
    (wrapped in a MutantGame), a Game subclass (wrapped in a MutantAdapter) or an adapter.
    `unreachable` says why no scenario can catch it; such a mutant is documented, not run."""

    def register(cls):
        assert id not in MUTANTS, f"duplicate mutant id {id}"
        game = cls
        if issubclass(cls, MeldTable):
            game = type(cls.__name__ + "Game", (MutantGame,), {"table_class": cls, "__module__": __name__})
        adapter = cls
        if issubclass(game, Game):
            adapter = type(cls.__name__ + "Adapter", (MutantAdapter,), {"game_class": game, "__module__": __name__})
        MUTANTS[id] = Mutant(id, tuple(rules), description, adapter, cls, unreachable)
        return cls

    return register


def __getattr__(name: str):
    """`adapter_for_<id>`: the factory of a mutant's adapter, for `python:MODULE:FACTORY`."""
    for m in MUTANTS.values():
        if m.factory_name == name:
            return m.adapter_class
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# == deck and notation (C-DECK-1, C-DECK-2) =======================================================
class _LetterOnlyDeck(Deck):
    @cached_property
    def _spellings(self) -> dict[str, int]:
        return {self.name(c): c for c in range(self.size)}


@mutant(
    "glyphs-refused", ["C-DECK-2"], "the glyph form of a card (Q♠) is malformed input",
    unreachable="scenario files and protocol messages write cards in letter form only (schema/common.schema.json, "
    "$defs/card), so no scenario can send a glyph; tests/test_cards.py covers the reference",
)
class GlyphsRefused(MutantAdapter):
    # C-DECK-2: "The engine must also accept the glyph form ... as input"; this deck reads letters only.
    def change_profile(self, p):
        d = p.deck
        return {"deck": _LetterOnlyDeck(d.suit_ids, d.suit_names, d.suit_glyphs, d.ranks)}


class _GlyphNamesDeck(Deck):
    @cached_property
    def _names(self) -> tuple[str, ...]:
        return tuple(self.glyph(c) for c in range(self.size))

    @cached_property
    def _spellings(self) -> dict[str, int]:
        letters = {self.ranks[self.rank_of(c)] + self.suit_ids[self.suit_of(c)]: c for c in range(self.size)}
        return {**letters, **{self.glyph(c): c for c in range(self.size)}}


@mutant("cards-reported-as-glyphs", ["C-DECK-2"], "the engine reads both forms but reports cards in glyph form (Q♠, not QS)")
class CardsReportedAsGlyphs(MutantAdapter):
    # C-DECK-2: "A card is written as its rank label followed by its suit letter ...; the engine
    # reports cards in this form"; this deck reports glyphs.
    def change_profile(self, p):
        d = p.deck
        return {"deck": _GlyphNamesDeck(d.suit_ids, d.suit_names, d.suit_glyphs, d.ranks)}


@mutant("ranks-sorted-as-text", ["C-DECK-1", "TC-DECK-1", "AA-DECK-1"], "the sequence order is the text order of the rank labels (1 10 11 12 2 ...)")
class RanksSortedAsText(MutantAdapter):
    # C-DECK-1: "The order of deck.ranks is the sequence order used by runs"; here it is sorted as text.
    def change_profile(self, p):
        return {"deck": dataclasses.replace(p.deck, ranks=tuple(sorted(p.deck.ranks)))}


# == melds, sets and runs (C-MELD-1, C-SET-1, C-RUN-1..3, TC-RUN-1, AA-RUN-1) ======================
@mutant("pair-is-a-set", ["C-SET-1"], "two cards of one rank form a set")
class PairIsASet(MutantAdapter):
    # C-SET-1: "A set is 3 or 4 cards of the same rank"; this profile also allows 2.
    def change_profile(self, p):
        return {"set_sizes": (2, 3, 4)}


@mutant("no-four-card-set", ["C-SET-1"], "a set holds exactly 3 cards: no cuartero")
class NoFourCardSet(MutantAdapter):
    # C-SET-1: "3 or 4 cards" (tercia or cuartero); this profile allows only 3.
    def change_profile(self, p):
        return {"set_sizes": (3,)}


@mutant("card-in-two-melds", ["C-MELD-1"], "a card may count in two melds at once")
class CardInTwoMelds(MutantTable):
    # C-MELD-1: "a card never counts in two melds at once"; here it is enough that every exposed
    # card lies in some meld of exposed cards (a cover instead of a partition).
    def _arrangeable(self, mask: int) -> bool:
        covered = 0
        for meld in self.melds:
            if meld & mask == meld:
                covered |= meld
        return covered == mask


@mutant("meld-with-rival-cards", ["C-MELD-1", "C-ARR-2"], "a use may form melds together with the rival's exposed cards")
class MeldWithRivalCards(MutantGame):
    # C-MELD-1: "a meld never mixes the cards of two players"; here a use is accepted when the
    # cards going down arrange together with both players' exposed cards.
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal and refusal[0] == "no_valid_arrangement":
            if self.table.arrangeable(self.exposed[0] | self.exposed[1] | bit(self.available) | act.cards):
                return None
        return refusal

    def extra_candidates(self, seat):
        both, card = self.exposed[0] | self.exposed[1], bit(self.available)
        if self.phase != "play":
            return set()
        return {Action("use", cards=s) for s in self.table.legal_uses(both, card, self.hands[seat])}


@mutant("run-of-mixed-suits", ["C-RUN-1"], "three consecutive ranks of different suits form a run")
class RunOfMixedSuits(MutantTable):
    # C-RUN-1: a run is "of one suit"; this table adds 3-card runs of mixed suits.
    def extra(self, p):
        d, n = p.deck, len(p.deck.ranks)
        suits = [s for s in product(range(len(d.suit_ids)), repeat=3) if len(set(s)) > 1]
        return [sum(bit(d.card(s[i], r + i)) for i in range(3)) for r in range(n - 2) for s in suits]


@mutant("run-skips-a-rank", ["C-RUN-1"], "three cards of a suit with one rank missing (4E 5E 7E) form a run")
class RunSkipsARank(MutantTable):
    # C-RUN-1: ranks must be "consecutive in the profile's sequence order"; this table lets one be missing.
    def extra(self, p):
        d, n = p.deck, len(p.deck.ranks)
        shapes = ((0, 1, 3), (0, 2, 3))
        return [sum(bit(d.card(s, r + i)) for i in shape) for s in range(len(d.suit_ids)) for r in range(n - 3) for shape in shapes]


@mutant("seven-ten-gap", ["C-RUN-2"], "the removed ranks leave a gap: 7 and 10 (7 and J) are not neighbours")
class SevenTenGap(MutantTable):
    # C-RUN-2: "Ranks absent from the deck must not count as gaps"; this table drops every run
    # holding a 7 and the rank after it.
    def keep(self, p, meld):
        d, seven = p.deck, p.deck.ranks.index("7")
        return not any(meld & bit(d.card(s, seven)) and meld & bit(d.card(s, seven + 1)) for s in range(len(d.suit_ids)))


@mutant("run-wraps", ["C-RUN-3"], "runs continue from the highest rank back to the ace (11 12 1, Q K A)")
class RunWraps(MutantTable):
    # C-RUN-3: "a run must not continue from the highest rank back to the ace"; this table adds such runs.
    def extra(self, p):
        d, n = p.deck, len(p.deck.ranks)
        return [
            sum(bit(d.card(s, (start + i) % n)) for i in range(length))
            for s in range(len(d.suit_ids))
            for length in range(p.run_min, min(p.run_max, n - 1) + 1)
            for start in range(n - length + 1, n)
        ]


@mutant("ace-high", ["C-RUN-3"], "the ace ranks above the 12 (K) instead of below the 2")
class AceHigh(MutantAdapter):
    # C-RUN-3: "The ace ... is the lowest rank only"; this deck puts it after the highest rank.
    def change_profile(self, p):
        return {"deck": dataclasses.replace(p.deck, ranks=p.deck.ranks[1:] + p.deck.ranks[:1])}


@mutant("two-card-run", ["C-RUN-1"], "two consecutive cards of a suit form a run")
class TwoCardRun(MutantAdapter):
    # C-RUN-1: a run is "at least melds.run_min (3) cards"; this profile says 2.
    def change_profile(self, p):
        return {"run_min": 2}


@mutant("run-max-four", ["TC-RUN-1", "AA-RUN-1", "RUL-2"], "a run holds at most 4 cards, so 5 cards of a suit in sequence cannot be exposed")
class RunMaxFour(MutantAdapter):
    # TC-RUN-1 (no maximum) and AA-RUN-1 (at most 8): this profile stops runs at 4. (A maximum of
    # 5 or more would change nothing: longer runs split into shorter ones, RUL-2.)
    def change_profile(self, p):
        return {"run_max": 4}


# == arrangement (C-ARR-1..4, RUL-3) ===============================================================
def _extends(table: MeldTable, melds: list[int], added: int) -> bool:
    """Can `added` be laid by growing each meld of `melds` in place, the rest forming new melds?"""
    if not melds:
        return table.arrangeable(added)
    first, low = melds[0], (melds[0] & -melds[0]).bit_length() - 1
    return any(
        _extends(table, melds[1:], added & ~grown)
        for grown in table._containing[low]
        if grown & first == first and grown & ~first & ~added == 0
    )


@mutant("no-corte", ["C-ARR-2"], "a use may only extend the exposed melds as they are, never repartition them")
class NoCorte(MutantGame):
    # C-ARR-2: "that player's melds may be repartitioned freely" (the corte); here each exposed
    # meld (as the engine shows it) stays whole and may only grow.
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal is None and act.type == "use" and self.phase == "play":
            melds = self.table.arrangement(self.exposed[seat]) or []
            if not _extends(self.table, melds, bit(self.available) | act.cards):
                return "no_valid_arrangement", "the exposed melds may not be repartitioned"
        return refusal


@mutant("fit-extends-one-meld", ["C-ARR-4", "RUL-3"], "a card fits only when it extends one exposed meld, without repartition")
class FitExtendsOneMeld(MutantTable):
    # C-ARR-4 / RUL-3: "any repartition counts, not only the extension of one meld"; this table
    # takes the rejected alternative (a).
    def fits(self, exposed, card_bit):
        return any(meld | card_bit in self.is_meld for meld in self.arrangement(exposed) or ())


@mutant("exposed-card-discarded", ["C-ARR-3"], "an exposed card may be discarded when the rest stays in valid melds")
class ExposedCardDiscarded(MutantGame):
    # C-ARR-3: "An exposed card must never go back to its owner's hand, nor leave the table by any
    # action"; here a discard may take one from the table if what is left still arranges.
    def _on_table(self, seat, act):
        c = bit(act.card) if act.card is not None else 0
        return act.type == "discard" and self.exposed[seat] & c and self.table.arrangeable(self.exposed[seat] & ~c)

    def _refusal(self, seat, act):
        if self.phase == "discard" and seat in self.to_act and self._on_table(seat, act):
            return None
        return super()._refusal(seat, act)

    def _do_discard(self, seat, act):
        if self._on_table(seat, act):
            self.exposed[seat] &= ~bit(act.card)
            self.hands[seat] |= bit(act.card)
        super()._do_discard(seat, act)

    def extra_candidates(self, seat):
        return {Action("discard", card=c) for c in cards_of(self.exposed[seat])}


@mutant("use-leaves-a-loose-card", ["C-ARR-1", "C-TURN-2"], "a use may lay down one hand card that belongs to no meld")
class UseLeavesALooseCard(MutantGame):
    # C-ARR-1: "each player's exposed cards must be partitionable into valid melds"; here one of
    # the hand cards going down may stay loose.
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal and refusal[0] == "no_valid_arrangement":
            pool = self.exposed[seat] | act.cards | bit(self.available)
            if any(self.table.arrangeable(pool & ~bit(c)) for c in cards_of(act.cards)):
                return None
        return refusal

    def extra_candidates(self, seat):
        uses = [a for a in Game.legal(self, seat) if a.type == "use"]
        return {Action("use", cards=a.cards | bit(c)) for a in uses for c in cards_of(self.hands[seat] & ~a.cards)}


# == the deal (C-DEAL-1, RUL-10, RUL-15, TC-DEAL-1, AA-DEAL-1) =====================================
@mutant("dealer-gets-first-card", ["C-DEAL-1", "RUL-10", "TC-DEAL-1", "AA-DEAL-1"], "the dealer, not the non-dealer, receives the first card of the deal")
class DealerGetsFirstCard(MutantGame):
    # C-DEAL-1: packets go "alternately to the non-dealer and the dealer, non-dealer first".
    @classmethod
    def _dealt(cls, profile, order, dealer):
        hands, stock = deal(profile, order, other(dealer))  # deal() serves the seat after its `dealer` first
        return cls(profile, [mask_of(h) for h in hands], stock, dealer)


@mutant("deal-in-pairs", ["RUL-10", "C-DEAL-1"], "cards are dealt in packets of two instead of one at a time")
class DealInPairs(MutantAdapter):
    # RUL-10: "one card at a time, alternately" (deal.packet_size: 1); this profile says 2.
    def change_profile(self, p):
        return {"packet_size": 2}


@mutant("deck-top-is-last", ["RUL-15", "C-DEAL-1"], "the last card of the deck order is the top")
class DeckTopIsLast(MutantGame):
    # RUL-15: "index 0 is the top card"; this engine deals from the other end.
    @classmethod
    def _dealt(cls, profile, order, dealer):
        return super()._dealt(profile, order[::-1], dealer)


@mutant("stock-reversed", ["C-DEAL-1", "RUL-15"], "after the deal the stock is turned over: the last card of the deck order is revealed first")
class StockReversed(MutantGame):
    # C-DEAL-1: "The cards left form the stock in the same order, the first of them on top".
    @classmethod
    def _dealt(cls, profile, order, dealer):
        hands, stock = deal(profile, order, dealer)
        return cls(profile, [mask_of(h) for h in hands], stock[::-1], dealer)


# == the exchange (TC-XCH-1, TC-XCH-2, RUL-12) =====================================================
@mutant("exchange-without-swap", ["TC-XCH-1"], "both seats pick a card but the picks are never swapped")
class ExchangeWithoutSwap(MutantGame):
    # TC-XCH-1: "when both are made the two cards are swapped"; here each seat keeps its own.
    def _do_exchange(self, seat, act):
        hands = list(self.hands)
        super()._do_exchange(seat, act)
        self.hands = hands


@mutant("exchange-in-fixed-order", ["TC-XCH-1"], "the non-dealer must pick first; the dealer waits")
class ExchangeInFixedOrder(MutantGame):
    # TC-XCH-1: both picks are made "in any order"; here the dealer may pick only second.
    @property
    def to_act(self):
        first = other(self.dealer)
        if self.phase == "exchange" and self.picks[first] is None:
            return (first,)
        return super().to_act


@mutant("picked-seat-must-exchange", ["TC-XCH-1", "C-TURN-6"], "a seat that has already picked is told must_exchange instead of not_your_turn")
class PickedSeatMustExchange(MutantGame):
    # reasons.md: not_your_turn covers "a seat that has already made its exchange pick", and it
    # comes before the phase codes.
    def _refusal(self, seat, act):
        if self.phase == "exchange" and seat not in self.to_act and act.type != "exchange":
            return "must_exchange", "the exchange is not complete"
        return super()._refusal(seat, act)


@mutant("exchange-over-not-in-profile", ["TC-XCH-1"], "a second exchange under torno-cisneros-v1 is refused as not_in_profile instead of exchange_over")
class ExchangeOverNotInProfile(MutantGame):
    # reasons.md: exchange_over is given for "an exchange after the exchange phase" under torno-cisneros-v1.
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        return ("not_in_profile", "no exchange now") if refusal and refusal[0] == "exchange_over" else refusal


@mutant("pick-may-be-changed", ["TC-XCH-1"], "a seat may pick again, replacing its pick, until the rival has picked")
class PickMayBeChanged(MutantGame):
    # TC-XCH-1: "each player must pick exactly one card"; here a seat may change its mind.
    @property
    def to_act(self):
        return SEATS if self.phase == "exchange" else super().to_act


@mutant("opening-before-exchange", ["TC-XCH-1", "TC-OPEN-1"], "the opening card is revealed at the deal, before the exchange")
class OpeningBeforeExchange(MutantGame):
    # TC-XCH-1 / TC-OPEN-1: the exchange comes "Before the opening"; "After the exchange the top
    # stock card is revealed". Here it is face up during the exchange.
    def __init__(self, profile, hands, stock, dealer):
        super().__init__(profile, hands, stock, dealer)
        if self.phase == "exchange":
            self.active = other(dealer)
            self._reveal()

    def _reveal_opening(self):
        if self.available is None:
            return super()._reveal_opening()
        self.phase, self.active = "play", other(self.dealer)


@mutant("exchange-pick-logged", ["TC-XCH-2", "C-OBS-1"], "each exchange pick is written in the public history at once")
class ExchangePickLogged(MutantGame):
    # TC-XCH-2: "neither may see the other's pick before making their own"; this history shows it.
    def _do_exchange(self, seat, act):
        self._log("pick", seat=seat, card=self.deck.name(act.card))
        super()._do_exchange(seat, act)


@mutant("rival-pick-not-public", ["RUL-12", "TC-XCH-2"], "the observation never says that the rival has picked")
class RivalPickNotPublic(MutantAdapter):
    # RUL-12: "that the rival has picked is public"; this observation always says it has not.
    def change_observation(self, obs):
        if obs.get("exchange") and "rival_picked" in obs["exchange"]:
            obs["exchange"]["rival_picked"] = False


@mutant("exchange-forgotten", ["TC-XCH-2", "C-OBS-1"], "after the swap the observation forgets the card given and received")
class ExchangeForgotten(MutantAdapter):
    # TC-XCH-2: "Each player knows the card they gave and the card they received"; this observation drops them.
    def change_observation(self, obs):
        if obs.get("exchange") and "gave" in obs["exchange"]:
            obs["exchange"] = None


# == the opening (TC-OPEN-1, AA-OPEN-1, RUL-7) ======================================================
@mutant("opening-to-dealer", ["TC-OPEN-1", "AA-OPEN-1", "RUL-7"], "the opening card is offered to the dealer")
class OpeningToDealer(MutantGame):
    # TC-OPEN-1 / AA-OPEN-1: the top stock card is revealed and "offered to the non-dealer".
    def _reveal_opening(self):
        self.phase, self.active = "play", self.dealer
        self._reveal()


@mutant("opening-may-be-rejected", ["TC-OPEN-1", "AA-OPEN-1", "RUL-7"], "the opening card may be rejected like a rival's card")
class OpeningMayBeRejected(MutantGame):
    # TC-OPEN-1 / RUL-7: the opening card is freshly revealed: "use it or pass it, and must not reject it".
    def _refusal(self, seat, act):
        if act.type == "reject" and self.revealed and self._reveal_count() == 1:
            return self._refusal_as_if(seat, act, revealed=False)
        return super()._refusal(seat, act)


# == use and discard (C-TURN-2, C-TURN-3, C-TURN-6) ================================================
@mutant("taken-card-kept-in-hand", ["C-TURN-6", "C-TURN-2", "AA-EX-1"], "a card that melds with nothing may be taken into the hand (use with no cards)")
class TakenCardKeptInHand(MutantGame):
    # C-TURN-6: a player must not "keep a taken card in hand"; here an empty use of a card that
    # fits no arrangement puts it in the hand, and a discard follows.
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal and refusal[0] == "no_valid_arrangement" and not act.cards:
            return None
        return refusal

    def _do_use(self, seat, act):
        if act.cards or self.table.arrangeable(self.exposed[seat] | bit(self.available)):
            return super()._do_use(seat, act)
        self.hands[seat] |= bit(self.available)
        self.available, self.revealed = None, False
        self.phase, self.discarder = "discard", seat


@mutant("use-may-name-available", ["C-TURN-2"], "a use may list the available card among its hand cards")
class UseMayNameAvailable(MutantGame):
    # C-TURN-2 / reasons.md: the action names hand cards; "naming the available card itself in a
    # use is also this case" (card_not_in_hand). Here the available card is silently dropped.
    def _without_available(self, act):
        return act._replace(cards=act.cards & ~bit(self.available)) if act.type == "use" and self.available is not None else act

    def _refusal(self, seat, act):
        return super()._refusal(seat, self._without_available(act))

    def _do_use(self, seat, act):
        super()._do_use(seat, self._without_available(act))

    def extra_candidates(self, seat):
        return {a._replace(cards=a.cards | bit(self.available)) for a in Game.legal(self, seat) if a.type == "use"}


@mutant("arrangement-before-hand-check", ["C-TURN-2"], "a use naming a card not held that would also not arrange is refused as no_valid_arrangement")
class ArrangementBeforeHandCheck(MutantGame):
    # reasons.md, precedence: card_not_in_hand comes before no_valid_arrangement ("a use that names
    # a card not held and would also have no arrangement is card_not_in_hand").
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal and refusal[0] == "card_not_in_hand" and act.type == "use" and self.phase == "play":
            if not self.table.arrangeable(self.exposed[seat] | bit(self.available) | act.cards):
                return "no_valid_arrangement", "no valid arrangement"
        return refusal


@mutant("discard-is-fresh", ["C-TURN-3", "C-TURN-5"], "a discard reaches the rival as a freshly revealed card (pass, not reject)")
class DiscardIsFresh(MutantGame):
    # C-TURN-3 / C-TURN-5: the discard is a card "offered by the rival": used, rejected or forced, never passed.
    def _do_discard(self, seat, act):
        super()._do_discard(seat, act)
        self.revealed = True


@mutant("discard-goes-out-of-play", ["C-TURN-3"], "the discard goes out of play and a stock card is revealed for the rival")
class DiscardGoesOutOfPlay(MutantGame):
    # C-TURN-3: "The discarded card becomes the available card, offered to the rival".
    def _do_discard(self, seat, act):
        super()._do_discard(seat, act)
        self.out_of_play.append(self.available)
        if self._stock:
            self._reveal()
        else:
            self._end(Outcome("draw", None, "stock_exhausted"))


# == reject and reveal (C-TURN-4, C-TURN-5, C-TURN-7, RUL-8) ========================================
@mutant("reject-reveals-for-rival", ["C-TURN-4"], "after a reject the next stock card is offered to the rival")
class RejectRevealsForRival(MutantGame):
    # C-TURN-4: the top stock card is revealed "as the new available card, offered to the same player".
    def _reject(self, seat):
        self.active = other(seat)
        super()._reject(seat)


@mutant("reject-reveals-bottom-card", ["C-TURN-4"], "a reject reveals the bottom card of the stock instead of the top one")
class RejectRevealsBottomCard(MutantGame):
    # C-TURN-4: "the top stock card is revealed as the new available card".
    def _reject(self, seat):
        self._stock.reverse()
        super()._reject(seat)
        self._stock.reverse()


@mutant("revealed-card-may-be-rejected", ["C-TURN-5"], "a card revealed after a reject may itself be rejected")
class RevealedCardMayBeRejected(MutantGame):
    # C-TURN-5: "A freshly revealed card (the opening card, or a card revealed after a reject) must
    # not be rejected"; here only the opening card is protected.
    def _refusal(self, seat, act):
        if act.type == "reject" and self.revealed and self._reveal_count() > 1:
            return self._refusal_as_if(seat, act, revealed=False)
        return super()._refusal(seat, act)


@mutant("rejected-card-to-stock", ["C-TURN-7", "RUL-8"], "a rejected card goes under the stock instead of out of play")
class RejectedCardToStock(MutantGame):
    # C-TURN-7: "Out-of-play cards must never come back into play"; here a rejected card is recycled.
    def _reject(self, seat):
        if not self.pending:
            self._log("reject", seat=seat, card=self.deck.name(self.available))
        self._stock.insert(0, self.available)  # the bottom: the stock's top is its last item
        self.available = None
        self._reveal()


@mutant("stock-rebuilt-from-rejects", ["C-TURN-7", "C-END-3"], "when the stock runs out the rejected cards become a new stock")
class StockRebuiltFromRejects(MutantGame):
    # C-TURN-7: "the stock is never rebuilt or reshuffled"; here a reject with an empty stock rebuilds it.
    def _reject(self, seat):
        if not self._stock:
            self._stock = list(reversed(self.out_of_play + [self.available]))
            self.out_of_play, self.available = [], None
            return self._reveal()
        super()._reject(seat)


@mutant("out-of-play-hidden", ["RUL-8", "C-OBS-1"], "the observation does not show the out-of-play cards")
class OutOfPlayHidden(MutantAdapter):
    # RUL-8: rejected cards are "out of play for good and public in every observation".
    def change_observation(self, obs):
        obs["out_of_play"] = []


# == pass (C-TURN-5) =================================================================================
@mutant("pass-back-rival-card", ["C-TURN-5"], "a card offered by the rival may be passed back")
class PassBackRivalCard(MutantGame):
    # C-TURN-5: "A card offered by the rival must not be passed back".
    def _refusal(self, seat, act):
        if act.type == "pass" and self.phase == "play" and not self.revealed:
            return self._refusal_as_if(seat, act, revealed=True)
        return super()._refusal(seat, act)


@mutant("passed-card-stays-fresh", ["C-TURN-5"], "a passed card reaches the rival as a freshly revealed card")
class PassedCardStaysFresh(MutantGame):
    # C-TURN-5: the rival may use or reject a passed card "but not pass it back": it is the rival's card now.
    def _pass(self, seat):
        super()._pass(seat)
        self.revealed = True


# == forcing under torno-cisneros-v1 (TC-FORCE-1..3, RUL-17) ========================================
@mutant("tc-fitting-card-may-go", ["TC-FORCE-2"], "torno-cisneros-v1 lets a player reject or pass a card fitting their own melds")
class TcFittingCardMayGo(MutantAdapter):
    # TC-FORCE-2: the player "must not reject or pass it"; this profile drops the table convention.
    def change_profile(self, p):
        return {"own_fit": "none"} if p.id == TC else {}


@mutant("tc-convention-spares-revealed", ["TC-FORCE-2"], "the table convention is applied to rival cards only, not to freshly revealed ones")
class TcConventionSparesRevealed(MutantGame):
    # TC-FORCE-2 "applies to every available card, discarded, passed or freshly revealed".
    def _may_decline_card(self, seat):
        return self.revealed or super()._may_decline_card(seat)


@mutant("tc-convention-spares-passed", ["TC-FORCE-2"], "the table convention does not apply to a card the rival passed")
class TcConventionSparesPassed(MutantGame):
    # TC-FORCE-2 "applies to every available card, discarded, passed or freshly revealed".
    def _may_decline_card(self, seat):
        passed = bool(self.history) and self.history[-1]["event"] == "pass"
        return passed or super()._may_decline_card(seat)


@mutant("tc-force-only-rival-cards", ["TC-FORCE-1"], "a freshly revealed card cannot be forced onto the rival")
class TcForceOnlyRivalCards(MutantGame):
    # TC-FORCE-1: forcing "holds for any available card, ... and for a freshly revealed card".
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal is None and act.type == "force" and self.phase == "play" and self.revealed:
            return "card_does_not_fit", "only a card from the rival can be forced"
        return refusal


@mutant("tc-convention-counts-hand-cards", ["TC-FORCE-2", "C-ARR-4"], "the table convention also forbids letting go a card that could be used with hand cards")
class TcConventionCountsHandCards(MutantGame):
    # TC-FORCE-2 applies when the card "fits the active player's own melds (C-ARR-4)": exposed
    # cards alone, "without any hand card".
    def _may_decline_card(self, seat):
        usable = self.table.legal_uses(self.exposed[seat], bit(self.available), self.hands[seat])
        return not (self.profile.own_fit == "automatic" and usable)


@mutant("tc-no-force-onto-rival", ["TC-FORCE-1"], "torno-cisneros-v1 never lets the active player force onto the rival")
class TcNoForceOntoRival(MutantAdapter):
    # TC-FORCE-1: the active player "may ... force the available card onto the rival's melds".
    def change_profile(self, p):
        return {"onto_rival": False} if p.id == TC else {}


@mutant("force-without-fit", ["C-FORCE-1", "C-ARR-4"], "a card may be forced onto the rival's melds even if it does not fit them")
class ForceWithoutFit(MutantGame):
    # C-FORCE-1: a force "is possible only when the card fits them" (card_does_not_fit otherwise).
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        return None if refusal and refusal[0] == "card_does_not_fit" else refusal


@mutant("force-checks-own-melds", ["C-FORCE-1", "TC-FORCE-1"], "a force is allowed when the card fits the forcer's own melds, not the rival's")
class ForceChecksOwnMelds(MutantGame):
    # C-FORCE-1: the force "is possible only when the card fits them", the receiver's melds.
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if act.type == "force" and self.phase == "play" and (refusal is None or refusal[0] == "card_does_not_fit"):
            fits = self.table.fits(self.exposed[seat], bit(self.available))
            return None if fits else ("card_does_not_fit", "the card does not fit")
        return refusal


@mutant("tc-force-only-revealed", ["RUL-17", "TC-FORCE-1"], "a card the rival discarded cannot be forced back onto the rival")
class TcForceOnlyRevealed(MutantGame):
    # RUL-17: "any available card" may be forced, "including a card the rival has just discarded".
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal is None and act.type == "force" and self.phase == "play" and not self.revealed:
            return "card_does_not_fit", "only a freshly revealed card can be forced"
        return refusal


# == forcing under anglo-american-v1 (AA-FORCE-1, AA-FORCE-2, AA-MELD-1, RUL-14) ===================
@mutant("aa-no-force-option", ["AA-FORCE-1", "RUL-14"], "anglo-american-v1 never asks the rival to force or decline a fitting card")
class AaNoForceOption(MutantAdapter):
    # AA-FORCE-1: on a reject or pass of a fitting card "the rival must first choose to force it or to decline".
    def change_profile(self, p):
        return {"own_fit": "none"} if p.id == AA else {}


@mutant("aa-decline-returns-card", ["RUL-14", "AA-FORCE-1"], "after a decline the card goes back to the active player to decide again")
class AaDeclineReturnsCard(MutantGame):
    # RUL-14: "On a decline the reject or pass takes place as the active player declared it".
    def _do_decline(self, seat, act):
        self.phase, self.pending = "play", None


@mutant("aa-option-counts-hand-cards", ["AA-FORCE-1", "C-ARR-4"], "the rival's force decision also opens for a card that fits only with hand cards")
class AaOptionCountsHandCards(MutantGame):
    # AA-FORCE-1: the card must fit "their own melds without hand cards (C-ARR-4)".
    def _rival_may_force(self, seat):
        card = bit(self.available)
        return self.profile.own_fit == "rival_option" and bool(self.table.legal_uses(self.exposed[seat], card, self.hands[seat]))


@mutant("aa-option-spares-revealed", ["AA-FORCE-1"], "the rival's force decision opens for rival cards only, not for a freshly revealed card")
class AaOptionSparesRevealed(MutantGame):
    # AA-FORCE-1: "This applies both to a card left by the rival and to a freshly revealed card".
    def _rival_may_force(self, seat):
        return not self.revealed and super()._rival_may_force(seat)


@mutant("aa-force-after-decline", ["RUL-14"], "after declining a pass, the rival may still force the passed card back")
class AaForceAfterDecline(MutantGame):
    # RUL-14 decided (b), not (c) "the rival may still force later, even after declining".
    def _after_declined_pass(self):
        h = self.history
        return self.phase == "play" and len(h) >= 2 and h[-1]["event"] == "decline" and h[-2]["event"] == "pass"

    def _refusal(self, seat, act):
        if act.type == "force" and seat in self.to_act and self._after_declined_pass():
            if self.table.fits(self.exposed[other(seat)], bit(self.available)):
                return None
        return super()._refusal(seat, act)


@mutant("aa-option-before-reject-check", ["C-TURN-5", "AA-FORCE-1"], "under anglo-american-v1 a reject of a freshly revealed card that fits opens the force decision instead of being refused")
class AaOptionBeforeRejectCheck(MutantGame):
    # C-TURN-5: a freshly revealed card "must not be rejected", fitting or not; AA-FORCE-1 gives
    # the rival a choice only on a reject or pass the rules allow.
    def _refusal(self, seat, act):
        if act.type == "reject" and self.phase == "play" and self.revealed and seat in self.to_act and self._rival_may_force(seat):
            return None
        return super()._refusal(seat, act)


@mutant("aa-option-before-pass-check", ["C-TURN-5", "AA-FORCE-1"], "under anglo-american-v1 a pass of a rival card that fits opens the force decision instead of being refused")
class AaOptionBeforePassCheck(MutantGame):
    # C-TURN-5: "A card offered by the rival must not be passed back", fitting or not.
    def _refusal(self, seat, act):
        if act.type == "pass" and self.phase == "play" and not self.revealed and seat in self.to_act and self._rival_may_force(seat):
            return None
        return super()._refusal(seat, act)


@mutant("aa-force-onto-rival", ["AA-MELD-1"], "anglo-american-v1 lets the active player force a card onto the rival's melds")
class AaForceOntoRival(MutantAdapter):
    # AA-MELD-1: "A player must never add any card ... to the rival's melds".
    def change_profile(self, p):
        return {"onto_rival": True} if p.id == AA else {}


# == after a force (RUL-5, RUL-6) =====================================================================
@mutant("receiver-draws-after-force", ["RUL-5", "C-FORCE-1", "AA-FORCE-2"], "after a force the receiver discards nothing and a stock card is revealed for the receiver")
class ReceiverDrawsAfterForce(MutantGame):
    # RUL-5 decided (a): "the receiver discards, and the forcer moves next with that discard";
    # this engine takes the rejected alternative (c).
    def _do_force(self, seat, act):
        super()._do_force(seat, act)
        if self.phase == "discard":
            self.phase, self.active, self.discarder = "play", self.discarder, None
            if self._stock:
                self._reveal()
            else:
                self._end(Outcome("draw", None, "stock_exhausted"))


@mutant("forced-to-target-no-win", ["RUL-6", "C-END-1", "AA-FORCE-2"], "a forced card completing the receiver's target does not win: a discard step follows")
class ForcedToTargetNoWin(MutantGame):
    # RUL-6: "the receiver wins at once, without a discard".
    def _take(self, receiver, how):
        if how == "forced_to_target" and count(self.exposed[receiver] | bit(self.available)) == self.profile.target:
            return self._take_without_win(receiver)
        super()._take(receiver, how)


@mutant("forced-to-target-refused", ["RUL-6"], "a force that would bring the receiver to the target is refused")
class ForcedToTargetRefused(MutantGame):
    # RUL-6 rejects alternative (b), "a force that would complete the receiver's target is illegal".
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        receiver = self.active if self.phase == "force_decision" else other(seat)
        if refusal is None and act.type == "force" and count(self.exposed[receiver]) + 1 == self.profile.target:
            return "card_does_not_fit", "this force would complete the receiver's target"
        return refusal


# == the end of a deal (C-END-1..4, TC-GOAL-1, AA-GOAL-1, RUL-9) =====================================
@mutant("forced-win-recorded-as-use", ["RUL-6"], "a win by a forced card is recorded as target_reached instead of forced_to_target")
class ForcedWinRecordedAsUse(MutantGame):
    # RUL-6: "The outcome records how: forced_to_target".
    def _take(self, receiver, how):
        super()._take(receiver, "target_reached")


@mutant("no-win-at-target", ["C-END-1", "TC-GOAL-1", "AA-GOAL-1"], "a use reaching the target does not win: the discard step follows as after any take")
class NoWinAtTarget(MutantGame):
    # C-END-1: "A player whose exposed cards reach the profile's target wins at once, without discarding".
    def _take(self, receiver, how):
        if how == "target_reached":
            return self._take_without_win(receiver)
        super()._take(receiver, how)


@mutant("empty-hand-wins", ["C-END-2", "TC-GOAL-1", "AA-GOAL-1"], "discarding the last hand card wins the deal")
class EmptyHandWins(MutantGame):
    # C-END-2: "A player who discards the last hand card with target - 1 cards exposed has not won".
    def _do_discard(self, seat, act):
        super()._do_discard(seat, act)
        if not self.hands[seat]:
            self._end(Outcome("win", seat, "target_reached"))


@mutant("target-one-less", ["TC-GOAL-1", "AA-GOAL-1", "RUL-1"], "the target is one card less (9 in torno, 10 in anglo)")
class TargetOneLess(MutantAdapter):
    # TC-GOAL-1: 10 exposed cards; AA-GOAL-1: "exactly 11"; this profile asks one less.
    def change_profile(self, p):
        return {"target": p.target - 1}


@mutant("draw-on-last-reveal", ["C-END-3", "RUL-9", "TC-END-1", "AA-END-1"], "the deal is drawn as soon as the last stock card is revealed")
class DrawOnLastReveal(MutantGame):
    # RUL-9 decided (b): a draw "only when the available card is rejected while the stock is empty".
    def _reveal(self):
        super()._reveal()
        if not self._stock:
            self._end(Outcome("draw", None, "stock_exhausted"))


@mutant("draw-on-pass-with-empty-stock", ["RUL-9", "C-END-3", "TC-END-1", "AA-END-1"], "passing the last revealed card with an empty stock ends the deal in a draw")
class DrawOnPassWithEmptyStock(MutantGame):
    # RUL-9: "Passing never ends the deal".
    def _pass(self, seat):
        super()._pass(seat)
        if not self._stock:
            self._end(Outcome("draw", None, "stock_exhausted"))


@mutant("no-game-over-code", ["C-END-4"], "an action after the result is refused as not_your_turn instead of game_over")
class NoGameOverCode(MutantGame):
    # C-END-4 and reasons.md: every action after the result is refused with game_over.
    def _refusal(self, seat, act):
        if self.phase == "over":
            return "not_your_turn", "nobody may act now"
        return super()._refusal(seat, act)


# == turn order and reason codes (C-TURN-1, C-TURN-6, reasons.md) ====================================
@mutant("either-seat-may-act", ["C-TURN-1", "C-TURN-6"], "during play either seat may act on the available card")
class EitherSeatMayAct(MutantGame):
    # C-TURN-1: the card "is offered to exactly one seat"; C-TURN-6: a player must not act out of turn.
    @property
    def to_act(self):
        return SEATS if self.phase == "play" else super().to_act


@mutant("legal-for-waiting-seat", ["C-TURN-6", "C-TURN-1"], "asked for the legal actions of the seat that waits, the engine lists the active seat's")
class LegalForWaitingSeat(MutantGame):
    # C-TURN-6: a player must not act out of turn, so the waiting seat has no legal action
    # (the engine refuses them all with not_your_turn, and its `legal` must say so).
    def legal(self, seat):
        if self.phase == "play" and seat not in self.to_act:
            return super().legal(self.active)
        return super().legal(seat)


@mutant("active-seat-must-decide", ["AA-FORCE-1", "RUL-14"], "during a force decision the active seat is told must_decide_force instead of not_your_turn")
class ActiveSeatMustDecide(MutantGame):
    # reasons.md: must_decide_force is for "the deciding seat"; the active seat waits (not_your_turn first).
    def _refusal(self, seat, act):
        if self.phase == "force_decision" and seat == self.active:
            return "must_decide_force", "the rival decides first"
        return super()._refusal(seat, act)


class _HandCheckFirst(MutantGame):
    """reasons.md, precedence: the phase codes (3) come before card_not_in_hand (4). Each mutant
    below reverses that order for ONE phase code: an action naming a card the seat does not
    hold is refused as card_not_in_hand where the reference says `phase_code`."""

    phase_code = ""

    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        named = act.cards | (bit(act.card) if act.card is not None else 0)
        if refusal and refusal[0] == self.phase_code and named & ~self.hands[seat]:
            return "card_not_in_hand", "a card named is not in the hand"
        return refusal


@mutant("hand-check-before-must-exchange", ["TC-XCH-1"], "during the exchange, a use or discard naming a card not held is refused as card_not_in_hand, not must_exchange")
class HandCheckBeforeMustExchange(_HandCheckFirst):
    # reasons.md: must_exchange (3) is reported before card_not_in_hand (4).
    phase_code = "must_exchange"


@mutant("hand-check-before-must-discard", ["C-TURN-3"], "in the discard step, a use naming a card not held is refused as card_not_in_hand, not must_discard")
class HandCheckBeforeMustDiscard(_HandCheckFirst):
    # reasons.md: must_discard (3) is reported before card_not_in_hand (4).
    phase_code = "must_discard"


@mutant("hand-check-before-must-decide", ["AA-FORCE-1", "RUL-14"], "in a force decision, a use or discard naming a card not held is refused as card_not_in_hand, not must_decide_force")
class HandCheckBeforeMustDecide(_HandCheckFirst):
    # reasons.md: must_decide_force (3) is reported before card_not_in_hand (4).
    phase_code = "must_decide_force"


@mutant("hand-check-before-no-discard-now", ["C-TURN-6"], "a discard of a card not held, sent during play, is refused as card_not_in_hand, not no_discard_now")
class HandCheckBeforeNoDiscardNow(_HandCheckFirst):
    # reasons.md: no_discard_now (3) is reported before card_not_in_hand (4).
    phase_code = "no_discard_now"


@mutant("hand-check-before-exchange-over", ["TC-XCH-1"], "a late exchange of a card not held is refused as card_not_in_hand, not exchange_over")
class HandCheckBeforeExchangeOver(_HandCheckFirst):
    # reasons.md: exchange_over (3) is reported before card_not_in_hand (4).
    phase_code = "exchange_over"


@mutant("hand-check-before-not-in-profile", ["AA-OPEN-1", "C-TURN-6"], "under anglo-american-v1 an exchange of a card not held is refused as card_not_in_hand, not not_in_profile")
class HandCheckBeforeNotInProfile(_HandCheckFirst):
    # reasons.md: not_in_profile (3) is reported before card_not_in_hand (4).
    phase_code = "not_in_profile"


@mutant("hand-meld-must-touch-take", ["C-TURN-2"], "a use may lay down only hand cards that meld with the taken card or the exposed cards, not a separate meld of hand cards")
class HandMeldMustTouchTake(MutantGame):
    # C-TURN-2: the taken card goes down "together with any hand cards the player names, so that
    # all of that player's exposed cards have a valid arrangement"; here every new meld must
    # hold the taken card or an exposed card.
    class table_class(MutantTable):
        def legal_uses(self, exposed, card_bit, hand):
            return MeldTable.legal_uses(self, exposed, card_bit, hand)

        def _use_options(self, must, hand):
            return frozenset((0,)) if must == 0 else super()._use_options(must, hand)

    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal is None and act.type == "use" and self.phase == "play":
            if act.cards not in self.table.legal_uses(self.exposed[seat], bit(self.available), self.hands[seat]):
                return "no_valid_arrangement", "hand cards go down only with the taken card's melds"
        return refusal


@mutant("forced-win-scores-nothing", ["AA-MATCH-1"], "a deal won by a forced card scores no point")
class ForcedWinScoresNothing(MutantAdapter):
    # AA-MATCH-1: "A win scores 1 point for the winner", however it was reached.
    class match_class(Match):
        def record(self, outcome):
            super().record(Outcome("draw", None, outcome.how) if outcome.how == "forced_to_target" else outcome)


@mutant("convention-before-wrong-kind", ["TC-FORCE-2", "C-TURN-5"], "a pass of a fitting rival card is refused as fitting_card_must_be_taken, not cannot_pass_rival_card")
class ConventionBeforeWrongKind(MutantGame):
    # reasons.md, precedence: cannot_reject_revealed and cannot_pass_rival_card come before
    # fitting_card_must_be_taken ("The cannot_* code is reported").
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal and refusal[0].startswith("cannot_") and not self._may_decline_card(seat):
            return "fitting_card_must_be_taken", "the card fits your melds"
        return refusal


@mutant("decline-not-in-profile", ["RUL-4", "AA-FORCE-1"], "a decline under torno-cisneros-v1 is refused as not_in_profile instead of nothing_to_decline")
class DeclineNotInProfile(MutantGame):
    # reasons.md: nothing_to_decline is given "including every decline under torno-cisneros-v1".
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal and refusal[0] == "nothing_to_decline" and self.profile.own_fit == "automatic":
            return "not_in_profile", "this profile has no force decision"
        return refusal


# == the observation (C-OBS-1) ========================================================================
@mutant("rival-hand-visible", ["C-OBS-1"], "the observation shows the rival's hand")
class RivalHandVisible(MutantAdapter):
    # C-OBS-1: the observation "must never contain the rival's hand".
    def change_observation(self, obs):
        obs["rival_hand"] = self.game.deck.names(self.game.hands[1 - obs["seat"]])


@mutant("stock-order-visible", ["C-OBS-1"], "the observation lists the stock in order")
class StockOrderVisible(MutantAdapter):
    # C-OBS-1: the observation "must never contain ... the order of the stock".
    def change_observation(self, obs):
        obs["stock"] = [self.game.deck.name(c) for c in self.game.stock]


@mutant("available-hidden-from-rival", ["C-OBS-1"], "a seat does not observe the available card while it is offered to the other seat")
class AvailableHiddenFromRival(MutantAdapter):
    # C-OBS-1: the observation "must contain ... the available card and the seat it is offered to".
    def change_observation(self, obs):
        if obs["available"] and obs["available"]["offered_to"] != obs["seat"]:
            obs["available"] = None


# == the match (AA-MATCH-1, TC-MATCH-1) ===============================================================
@mutant("draw-scores-a-point", ["AA-MATCH-1"], "a drawn deal scores 1 point to each player")
class DrawScoresAPoint(MutantAdapter):
    # AA-MATCH-1: "a draw scores 0 for both".
    def change_profile(self, p):
        return {"match": {**p.match, "points_per_draw": 1}} if p.match else {}


class _DealerStaysOnDraw(Match):
    @property
    def dealer(self) -> int:
        return (self.first_dealer + sum(o.result == "win" for o in self.results)) % 2


@mutant("dealer-stays-on-draw", ["AA-MATCH-1", "TC-MATCH-1"], "the dealer alternates after a win but deals again after a draw")
class DealerStaysOnDraw(MutantAdapter):
    # AA-MATCH-1: "The dealer alternates every deal, draws included."
    match_class = _DealerStaysOnDraw


@mutant("torno-scores-points", ["TC-MATCH-1"], "torno-cisneros-v1 scores a match like anglo-american-v1")
class TornoScoresPoints(MutantAdapter):
    # TC-MATCH-1: "There are no points ... each deal stands alone".
    def change_profile(self, p):
        return {"match": load_profile(AA).match} if p.id == TC else {}


class _WinnerNeedsMore(Match):
    @property
    def winner(self):
        if self.points is None:
            return None
        return next((s for s in SEATS if self.points[s] > self.profile.match["points_to_win"]), None)


@mutant("match-needs-four", ["AA-MATCH-1"], "the match is won with more than 3 points, not with 3")
class MatchNeedsFour(MutantAdapter):
    # AA-MATCH-1: "the first player to 3 points wins the match".
    match_class = _WinnerNeedsMore


def all_mutants() -> list[Mutant]:
    return list(MUTANTS.values())


def reachable_mutants() -> list[Mutant]:
    """The mutants a scenario can catch: the ones mutation analysis runs by default."""
    return [m for m in MUTANTS.values() if not m.unreachable]


def get(mutant_id: str) -> Mutant:
    return MUTANTS[mutant_id]

