"""Mutants of the deck, the melds and the arrangement: C-DECK-1, C-DECK-2, C-MELD-1, C-SET-1,
C-RUN-1..3, the run length rules, C-ARR-1..4 and RUL-3."""

from __future__ import annotations

from functools import cached_property
from itertools import product
import dataclasses

from ...engine.actions import Action
from ...engine.cards import Deck, bit, cards_of
from ...engine.errors import MalformedInput
from ...engine.game import Game
from ...engine.melds import MeldTable
from ...engine.phases import Phase
from .base import MutantAdapter, MutantGame, MutantTable
from .registry import mutant


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
        return {"deck": _LetterOnlyDeck(d.suit_ids, d.suit_names, d.suit_glyphs, d.ranks, d.copies)}


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
        return {"deck": _GlyphNamesDeck(d.suit_ids, d.suit_names, d.suit_glyphs, d.ranks, d.copies)}


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
        if self.phase != Phase.PLAY:
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
        if refusal is None and act.type == "use" and self.phase == Phase.PLAY:
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
        if self.phase == Phase.DISCARD and seat in self.to_act and self._on_table(seat, act):
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


# == two decks: duplicate cards (SATD-SET-1, RUL-33, RUL-34) ==========================================
@mutant("identical-cards-make-no-set", ["SATD-SET-1", "RUL-33"], "with two decks a set must still hold cards of different suits: 7H 7H 7S is no set")
class IdenticalCardsMakeNoSet(MutantAdapter):
    # SATD-SET-1: "A set is 3 or 4 cards of one rank, of any suits, identical cards included".
    def change_profile(self, p):
        return {"set_suits": "distinct"} if p.set_suits == "any" else {}


@mutant("a-card-named-twice-is-malformed", ["RUL-34", "SATD-DECK-1"], "with two decks an action naming the same card twice is malformed input, as with one copy")
class ACardNamedTwiceIsMalformed(MutantGame):
    # RUL-34: "A use may name the same card twice when the hand holds both copies".
    def apply(self, seat, action):
        cards = action.get("cards") if isinstance(action, dict) else None
        if isinstance(cards, list) and len(set(map(str, cards))) < len(cards):
            raise MalformedInput("cards", "a card named twice")
        super().apply(seat, action)
