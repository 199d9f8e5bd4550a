"""Mutants of the deck, the melds and the arrangement: C-DECK-1, C-DECK-2, C-MELD-1, C-SET-1,
C-RUN-1..3, the run length rules, C-ARR-1..4 and RUL-3."""

from __future__ import annotations

from functools import cached_property, lru_cache, reduce
from itertools import product
from operator import or_
import dataclasses

from ...engine.actions import Action
from ...engine.cards import Deck, bit, cards_of
from ...engine.errors import MalformedInput
from ...engine.melds import MeldTable
from ...engine.solver import CACHE_SIZE
from ...engine.phases import PHASES, Phase
from ...engine.policies import SetSuits
from ...engine.refusals import BY_CODE
from .base import MutantAdapter, MutantTable, phase, reference_step, refusal, step, table
from .registry import mutant


# == deck and notation (C-DECK-1, C-DECK-2) =======================================================
class _LetterOnlyDeck(Deck):
    @cached_property
    def _spellings(self) -> dict[str, int]:
        return {self.name(c): c for c in range(self.size)}


# C-DECK-2: "The engine must also accept the glyph form ... as input"; this deck reads letters only.
mutant(
    "glyphs-refused", ["C-DECK-2"], "the glyph form of a card (Q♠) is malformed input",
    profile=lambda p: {"deck": _LetterOnlyDeck(p.deck.suit_ids, p.deck.suit_names, p.deck.suit_glyphs, p.deck.ranks, p.deck.copies)},
    unreachable="scenario files and protocol messages write cards in letter form only (schema/common.schema.json, "
    "$defs/card), so no scenario can send a glyph; tests/test_cards.py covers the reference",
)


class _GlyphNamesDeck(Deck):
    @cached_property
    def _names(self) -> tuple[str, ...]:
        return tuple(self.glyph(c) for c in range(self.size))

    @cached_property
    def _spellings(self) -> dict[str, int]:
        letters = {self.ranks[self.rank_of(c)] + self.suit_ids[self.suit_of(c)]: c for c in range(self.size)}
        return {**letters, **{self.glyph(c): c for c in range(self.size)}}


# C-DECK-2: "A card is written as its rank label followed by its suit letter ...; the engine
# reports cards in this form"; this deck reports glyphs.
mutant("cards-reported-as-glyphs", ["C-DECK-2"], "the engine reads both forms but reports cards in glyph form (Q♠, not QS)",
       profile=lambda p: {"deck": _GlyphNamesDeck(p.deck.suit_ids, p.deck.suit_names, p.deck.suit_glyphs, p.deck.ranks, p.deck.copies)})


# == melds, sets and runs (C-MELD-1, C-SET-1, C-RUN-1..3, TC-RUN-1, AA-RUN-1) ======================
# C-SET-1: "A set is 3 or 4 cards of the same rank"; this profile also allows 2.
mutant("pair-is-a-set", ["C-SET-1"], "two cards of one rank form a set", profile={"set_sizes": (2, 3, 4)})


# C-SET-1: "3 or 4 cards" (tercia or cuartero); this profile allows only 3.
mutant("no-four-card-set", ["C-SET-1"], "a set holds exactly 3 cards: no cuartero", profile={"set_sizes": (3,)})


# C-MELD-1: "a card never counts in two melds at once"; here it is enough that every exposed
# card lies in some meld of exposed cards (a cover instead of a partition).
class _CardInTwoMelds(MutantTable):
    def __init__(self, profile):
        super().__init__(profile)
        self.arrangeable = lru_cache(maxsize=CACHE_SIZE)(self._covered)

    def _covered(self, mask: int) -> bool:
        covered = 0
        for meld in self.melds:
            if meld & mask == meld:
                covered |= meld
        return covered == mask


mutant("card-in-two-melds", ["C-MELD-1"], "a card may count in two melds at once", replaces={"melds": table(_CardInTwoMelds)})


# C-MELD-1: "a meld never mixes the cards of two players"; here a use is accepted when the
# cards going down arrange together with both players' exposed cards.
def _all_exposed(game) -> int:
    return reduce(or_, game.exposed, 0)


def _uses_with_rival_cards(game, seat):
    actions = PHASES[Phase.PLAY].candidates(game, seat)
    uses = game.table.legal_uses(_all_exposed(game), bit(game.available), game.hands[seat])
    return sorted(set(actions) | {Action("use", cards=s) for s in uses}, key=Action.sort_key)


mutant("meld-with-rival-cards", ["C-MELD-1", "C-ARR-2"], "a use may form melds together with the rival's exposed cards", replaces={
    "refusals.no_valid_arrangement": refusal(
        "no_valid_arrangement",
        lambda g, s, a, ref: ref(g, s, a) and not g.table.arrangeable(_all_exposed(g) | bit(g.available) | a.cards),
    ),
    "phases.play": phase(Phase.PLAY, candidates=_uses_with_rival_cards),
})


# C-RUN-1: a run is "of one suit"; this table adds 3-card runs of mixed suits.
class _RunOfMixedSuits(MutantTable):
    def extra(self, p):
        d, n = p.deck, len(p.deck.ranks)
        suits = [s for s in product(range(len(d.suit_ids)), repeat=3) if len(set(s)) > 1]
        return [sum(bit(d.card(s[i], r + i)) for i in range(3)) for r in range(n - 2) for s in suits]


mutant("run-of-mixed-suits", ["C-RUN-1"], "three consecutive ranks of different suits form a run", replaces={"melds": table(_RunOfMixedSuits)})


# C-RUN-1: ranks must be "consecutive in the profile's sequence order"; this table lets one be missing.
class _RunSkipsARank(MutantTable):
    def extra(self, p):
        d, n = p.deck, len(p.deck.ranks)
        shapes = ((0, 1, 3), (0, 2, 3))
        return [sum(bit(d.card(s, r + i)) for i in shape) for s in range(len(d.suit_ids)) for r in range(n - 3) for shape in shapes]


mutant("run-skips-a-rank", ["C-RUN-1"], "three cards of a suit with one rank missing (4E 5E 7E) form a run", replaces={"melds": table(_RunSkipsARank)})


# C-RUN-2: "Ranks absent from the deck must not count as gaps"; this table drops every run
# holding a 7 and the rank after it.
class _SevenTenGap(MutantTable):
    def keep(self, p, meld):
        d, seven = p.deck, p.deck.ranks.index("7")
        return not any(meld & bit(d.card(s, seven)) and meld & bit(d.card(s, seven + 1)) for s in range(len(d.suit_ids)))


mutant("seven-ten-gap", ["C-RUN-2"], "the removed ranks leave a gap: 7 and 10 (7 and J) are not neighbours", replaces={"melds": table(_SevenTenGap)})


# After seven-ten-gap, which it contains (text order also parts 7 from 10): where both agree with an
# engine, the diagnosis names the first in the library's order, the narrower (house_rules.py, last).
# C-DECK-1: "The order of deck.ranks is the sequence order used by runs"; here it is sorted as text.
mutant("ranks-sorted-as-text", ["C-DECK-1", "TC-DECK-1", "AA-DECK-1"], "the sequence order is the text order of the rank labels (1 10 11 12 2 ...)",
       profile=lambda p: {"deck": dataclasses.replace(p.deck, ranks=tuple(sorted(p.deck.ranks)))})


# C-RUN-3: "a run must not continue from the highest rank back to the ace"; this table adds such runs.
class _RunWraps(MutantTable):
    def extra(self, p):
        d, n = p.deck, len(p.deck.ranks)
        return [
            sum(bit(d.card(s, (start + i) % n)) for i in range(length))
            for s in range(len(d.suit_ids))
            for length in range(p.run_min, min(p.run_max, n - 1) + 1)
            for start in range(n - length + 1, n)
        ]


mutant("run-wraps", ["C-RUN-3"], "runs continue from the highest rank back to the ace (11 12 1, Q K A)", replaces={"melds": table(_RunWraps)})


# C-RUN-3: "The ace ... is the lowest rank only"; this deck puts it after the highest rank.
mutant("ace-high", ["C-RUN-3"], "the ace ranks above the 12 (K) instead of below the 2",
       profile=lambda p: {"deck": dataclasses.replace(p.deck, ranks=p.deck.ranks[1:] + p.deck.ranks[:1])})


# C-RUN-1: a run is "at least melds.run_min (3) cards"; this profile says 2.
mutant("two-card-run", ["C-RUN-1"], "two consecutive cards of a suit form a run", profile={"run_min": 2})


# TC-RUN-1 (no maximum) and AA-RUN-1 (at most 8): this profile stops runs at 4. (A maximum of
# 5 or more would change nothing: longer runs split into shorter ones, RUL-2.)
mutant("run-max-four", ["TC-RUN-1", "AA-RUN-1", "RUL-2"], "a run holds at most 4 cards, so 5 cards of a suit in sequence cannot be exposed",
       profile={"run_max": 4})


# == arrangement (C-ARR-1..4, RUL-3) ===============================================================
def _extends(table: MeldTable, melds: list[int], added: int) -> bool:
    """Can `added` be laid by growing each meld of `melds` in place, the rest forming new melds?"""
    if not melds:
        return table.arrangeable(added)
    first, low = melds[0], (melds[0] & -melds[0]).bit_length() - 1
    return any(
        _extends(table, melds[1:], added & ~grown)
        for grown in table.melds
        if grown >> low & 1 and grown & first == first and grown & ~first & ~added == 0
    )


# C-ARR-2: "that player's melds may be repartitioned freely" (the corte); here each exposed
# meld (as the engine shows it) stays whole and may only grow.
def _repartitions(game, seat, act) -> bool:
    melds = game.table.arrangement(game.exposed_of(seat)) or []
    return not _extends(game.table, melds, bit(game.available) | act.cards)


mutant("no-corte", ["C-ARR-2"], "a use may only extend the exposed melds as they are, never repartition them", replaces={
    "refusals.no_valid_arrangement": refusal("no_valid_arrangement", lambda g, s, a, ref: ref(g, s, a) or _repartitions(g, s, a)),
})


# C-ARR-4 / RUL-3: "any repartition counts, not only the extension of one meld"; this table
# takes the rejected alternative (a).
class _FitExtendsOneMeld(MutantTable):
    def fits(self, exposed, card_bit):
        return any(meld | card_bit in self.is_meld for meld in self.arrangement(exposed) or ())


mutant("fit-extends-one-meld", ["C-ARR-4", "RUL-3"], "a card fits only when it extends one exposed meld, without repartition",
       replaces={"melds": table(_FitExtendsOneMeld)})


# C-ARR-3: "An exposed card must never go back to its owner's hand, nor leave the table by any
# action"; here a discard may take one from the table if what is left still arranges.
def _on_table(game, seat, act) -> bool:
    c = bit(act.card) if act.card is not None else 0
    exposed = game.exposed_of(seat)
    return bool(act.type == "discard" and exposed & c and game.table.arrangeable(exposed & ~c))


def _discards_from_the_table(game, seat):
    actions = PHASES[Phase.DISCARD].candidates(game, seat)
    extra = {Action("discard", card=c) for c in cards_of(game.exposed_of(seat))}
    return sorted(set(actions) | extra, key=Action.sort_key)


def _discard_from_the_table(game, seat, act):
    if _on_table(game, seat, act):
        game.exposed[game.profile.team_of(seat)] &= ~bit(act.card)
        game.hands[seat] |= bit(act.card)
    reference_step("discard.discard")(game, seat, act)


mutant("exposed-card-discarded", ["C-ARR-3"], "an exposed card may be discarded when the rest stays in valid melds", replaces={
    "refusals.card_not_in_hand": refusal(
        "card_not_in_hand", lambda g, s, a, ref: ref(g, s, a) and not (g.phase == Phase.DISCARD and _on_table(g, s, a))
    ),
    "phases.discard": phase(Phase.DISCARD, candidates=_discards_from_the_table),
    "steps.discard.discard": step("discard.discard", _discard_from_the_table),
})


# C-ARR-1: "each player's exposed cards must be partitionable into valid melds"; here one of
# the hand cards going down may stay loose.
def _one_loose(game, seat, act) -> bool:
    pool = game.exposed_of(seat) | act.cards | bit(game.available)
    return any(game.table.arrangeable(pool & ~bit(c)) for c in cards_of(act.cards))


def _reference_accepts_use(game, seat, act) -> bool:
    return not any(BY_CODE[code].condition(game, seat, act) for code in ("no_valid_arrangement", "no_card_to_discard"))


def _uses_with_a_loose_card(game, seat):
    """The reference's candidates less the uses it refuses, and each use it accepts with one more hand card."""
    actions = [a for a in PHASES[Phase.PLAY].candidates(game, seat) if a.type != "use" or _reference_accepts_use(game, seat, a)]
    extra = {Action("use", cards=a.cards | bit(c)) for a in actions if a.type == "use" for c in cards_of(game.hands[seat] & ~a.cards)}
    return sorted(set(actions) | extra, key=Action.sort_key)


mutant("use-leaves-a-loose-card", ["C-ARR-1", "C-TURN-2"], "a use may lay down one hand card that belongs to no meld", replaces={
    "refusals.no_valid_arrangement": refusal("no_valid_arrangement", lambda g, s, a, ref: ref(g, s, a) and not _one_loose(g, s, a)),
    "phases.play": phase(Phase.PLAY, candidates=_uses_with_a_loose_card),
})


# == two decks: duplicate cards (SATD-SET-1, RUL-33, RUL-34) ==========================================
# SATD-SET-1: "A set is 3 or 4 cards of one rank, of any suits, identical cards included".
mutant("identical-cards-make-no-set", ["SATD-SET-1", "RUL-33"], "with two decks a set must still hold cards of different suits: 7H 7H 7S is no set",
       profile=lambda p: {"set_suits": SetSuits.DISTINCT} if p.set_suits == SetSuits.ANY else {})


# RUL-34: "A use may name the same card twice when the hand holds both copies". Not a rule of
# play read wrongly but the reading of the action itself (actions.parse_action, before any row
# runs): an adapter mutant, its `apply` answer changed.
class _ACardNamedTwiceIsMalformed(MutantAdapter):
    def cmd_apply(self, request):
        action = request.get("action")
        cards = action.get("cards") if isinstance(action, dict) else None
        if isinstance(cards, list) and len(set(map(str, cards))) < len(cards):
            raise MalformedInput("cards", "a card named twice")
        return super().cmd_apply(request)


mutant("a-card-named-twice-is-malformed", ["RUL-34", "SATD-DECK-1"], "with two decks an action naming the same card twice is malformed input, as with one copy",
       adapter=_ACardNamedTwiceIsMalformed)
