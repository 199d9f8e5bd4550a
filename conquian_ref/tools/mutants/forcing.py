"""Mutants of forcing: onto the rival with the table convention (forcing.onto_rival: true,
own_fit: automatic; RUL-17), the rival's option (own_fit: rival_option, onto_rival: false;
RUL-14), and what follows a force (RUL-5, RUL-6)."""

from __future__ import annotations

from ...engine.cards import bit, count
from ...engine.game import other
from ...engine.outcome import How, Outcome
from ...engine.phases import Phase
from .base import MutantAdapter, MutantGame
from .registry import mutant


# == forcing onto the rival, the table convention (TC-FORCE-1..3, RUL-17) ===========================
@mutant("tc-fitting-card-may-go", ["TC-FORCE-2"], "the table convention is dropped: a player may reject or pass a card fitting their own melds")
class TcFittingCardMayGo(MutantAdapter):
    # TC-FORCE-2: the player "must not reject or pass it"; this profile drops the table convention.
    def change_profile(self, p):
        return {"own_fit": "none"} if p.own_fit == "automatic" else {}


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
        if refusal is None and act.type == "force" and self.phase == Phase.PLAY and self.revealed:
            return "card_does_not_fit", "only a card from the rival can be forced"
        return refusal


@mutant("tc-convention-counts-hand-cards", ["TC-FORCE-2", "C-ARR-4"], "the table convention also forbids letting go a card that could be used with hand cards")
class TcConventionCountsHandCards(MutantGame):
    # TC-FORCE-2 applies when the card "fits the active player's own melds (C-ARR-4)": exposed
    # cards alone, "without any hand card".
    def _may_decline_card(self, seat):
        usable = self.table.legal_uses(self.exposed[seat], bit(self.available), self.hands[seat])
        return not (self.profile.own_fit == "automatic" and usable)


@mutant("tc-no-force-onto-rival", ["TC-FORCE-1"], "forcing onto the rival is dropped: the active player may never force the available card onto the rival's melds")
class TcNoForceOntoRival(MutantAdapter):
    # TC-FORCE-1: the active player "may ... force the available card onto the rival's melds".
    def change_profile(self, p):
        return {"onto_rival": False}


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
        if act.type == "force" and self.phase == Phase.PLAY and (refusal is None or refusal[0] == "card_does_not_fit"):
            fits = self.table.fits(self.exposed[seat], bit(self.available))
            return None if fits else ("card_does_not_fit", "the card does not fit")
        return refusal


@mutant("tc-force-only-revealed", ["RUL-17", "TC-FORCE-1"], "a card the rival discarded cannot be forced back onto the rival")
class TcForceOnlyRevealed(MutantGame):
    # RUL-17: "any available card" may be forced, "including a card the rival has just discarded".
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        if refusal is None and act.type == "force" and self.phase == Phase.PLAY and not self.revealed:
            return "card_does_not_fit", "only a freshly revealed card can be forced"
        return refusal


# == forcing at the rival's option (AA-FORCE-1, AA-FORCE-2, AA-MELD-1, RUL-14) ======================
@mutant("aa-no-force-option", ["AA-FORCE-1", "RUL-14"], "the rival is never asked to force or decline a fitting card: the rival's option is dropped")
class AaNoForceOption(MutantAdapter):
    # AA-FORCE-1: on a reject or pass of a fitting card "the rival must first choose to force it or to decline".
    def change_profile(self, p):
        return {"own_fit": "none"} if p.own_fit == "rival_option" else {}


@mutant("aa-decline-returns-card", ["RUL-14", "AA-FORCE-1"], "after a decline the card goes back to the active player to decide again")
class AaDeclineReturnsCard(MutantGame):
    # RUL-14: "On a decline the reject or pass takes place as the active player declared it".
    def _do_decline(self, seat, act):
        self.phase, self.pending = Phase.PLAY, None


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
        return self.phase == Phase.PLAY and len(h) >= 2 and h[-1]["event"] == "decline" and h[-2]["event"] == "pass"

    def _refusal(self, seat, act):
        if act.type == "force" and seat in self.to_act and self._after_declined_pass():
            if self.table.fits(self.exposed[other(seat)], bit(self.available)):
                return None
        return super()._refusal(seat, act)


@mutant("aa-option-before-reject-check", ["C-TURN-5", "AA-FORCE-1"], "at the rival's option, a reject of a freshly revealed card that fits opens the force decision instead of being refused")
class AaOptionBeforeRejectCheck(MutantGame):
    # C-TURN-5: a freshly revealed card "must not be rejected", fitting or not; AA-FORCE-1 gives
    # the rival a choice only on a reject or pass the rules allow.
    def _refusal(self, seat, act):
        if act.type == "reject" and self.phase == Phase.PLAY and self.revealed and seat in self.to_act and self._rival_may_force(seat):
            return None
        return super()._refusal(seat, act)


@mutant("aa-option-before-pass-check", ["C-TURN-5", "AA-FORCE-1"], "at the rival's option, a pass of a rival card that fits opens the force decision instead of being refused")
class AaOptionBeforePassCheck(MutantGame):
    # C-TURN-5: "A card offered by the rival must not be passed back", fitting or not.
    def _refusal(self, seat, act):
        if act.type == "pass" and self.phase == Phase.PLAY and not self.revealed and seat in self.to_act and self._rival_may_force(seat):
            return None
        return super()._refusal(seat, act)


@mutant("aa-force-onto-rival", ["AA-MELD-1"], "forcing onto the rival is allowed where the profile forbids it: the active player may force a card onto the rival's melds")
class AaForceOntoRival(MutantAdapter):
    # AA-MELD-1: "A player must never add any card ... to the rival's melds".
    def change_profile(self, p):
        return {"onto_rival": True}


# == after a force (RUL-5, RUL-6) =====================================================================
@mutant("receiver-draws-after-force", ["RUL-5", "C-FORCE-1", "AA-FORCE-2"], "after a force the receiver discards nothing and a stock card is revealed for the receiver")
class ReceiverDrawsAfterForce(MutantGame):
    # RUL-5 decided (a): "the receiver discards, and the forcer moves next with that discard";
    # this engine takes the rejected alternative (c).
    def _do_force(self, seat, act):
        super()._do_force(seat, act)
        if self.phase == Phase.DISCARD:
            self.phase, self.active, self.discarder = Phase.PLAY, self.discarder, None
            if self._stock:
                self._reveal()
            else:
                self._end(Outcome("draw", None, How.STOCK_EXHAUSTED))


@mutant("forced-to-target-no-win", ["RUL-6", "C-END-1", "AA-FORCE-2"], "a forced card completing the receiver's target does not win: a discard step follows")
class ForcedToTargetNoWin(MutantGame):
    # RUL-6: "the receiver wins at once, without a discard".
    def _take(self, receiver, how):
        if how == How.FORCED_TO_TARGET and count(self.exposed[receiver] | bit(self.available)) == self.profile.target:
            return self._take_without_win(receiver)
        super()._take(receiver, how)


@mutant("forced-to-target-refused", ["RUL-6"], "a force that would bring the receiver to the target is refused")
class ForcedToTargetRefused(MutantGame):
    # RUL-6 rejects alternative (b), "a force that would complete the receiver's target is illegal".
    def _refusal(self, seat, act):
        refusal = super()._refusal(seat, act)
        receiver = self.active if self.phase == Phase.FORCE_DECISION else other(seat)
        if refusal is None and act.type == "force" and count(self.exposed[receiver]) + 1 == self.profile.target:
            return "card_does_not_fit", "this force would complete the receiver's target"
        return refusal


# == what fits for a demand: the extension of one meld (SA-FORCE-2, RUL-22) ==========================
@mutant("demand-by-any-arrangement", ["SA-FORCE-2", "RUL-22"], "a card that fits only by rearranging several melds may be demanded")
class DemandByAnyArrangement(MutantAdapter):
    # SA-FORCE-2: a card "may be demanded only if it extends one meld"; this engine reads "fits"
    # as RUL-3 does (any repartition).
    def change_profile(self, p):
        return {"fit": "any_arrangement"} if p.fit == "extension" else {}


@mutant("demand-by-the-shown-arrangement", ["SA-FORCE-2", "RUL-22", "RUL-13"], "a card may be demanded only if it extends a meld of the canonical arrangement, not of any arrangement")
class DemandByTheShownArrangement(MutantGame):
    # RUL-22 quantifies over arrangements ("some valid arrangement of the player's exposed cards
    # has a meld M"): the partition shown does not matter (RUL-13). This engine tries one.
    def fits_for_forcing(self, exposed, card_bit):
        if self.profile.fit != "extension":
            return super().fits_for_forcing(exposed, card_bit)
        melds = self.table.arrangement(exposed) or []
        return any((meld | card_bit) in self.table.is_meld for meld in melds)


# == four seats: the next seat decides a demand (SAPT-FORCE-1, RUL-39) ================================
@mutant("demand-by-the-partner", ["SAPT-FORCE-1", "RUL-39"], "with four seats the active player's partner decides a demand, not the next seat")
class DemandByThePartner(MutantGame):
    # SAPT-FORCE-1: "A demand is decided by the next seat in playing order".
    @property
    def to_act(self):
        if self.phase == Phase.FORCE_DECISION and len(self.profile.seats) == 4:
            return ((self.active + 2) % 4,)
        return super().to_act
