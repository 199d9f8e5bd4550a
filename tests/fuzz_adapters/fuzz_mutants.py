"""Deliberately wrong Python adapters for tests/test_fuzz.py, loaded in direct mode with
`--impl python:fuzz_mutants:<Class>` (this folder on sys.path).

Each wraps the reference adapter and gets one thing wrong, the way a real engine might:

* `LatePassRefused`: refuses a `pass` once the stock holds fewer than 15 cards (a made-up
  "no passing late in the deal" rule), with the reason `cannot_pass_rival_card`; its `legal`
  answers still list the pass, so the divergence is in the apply result.
* `LegalErrorLate`: answers `legal` with an error (not a refusal) once 3 cards are out of play,
  an adapter failure of kind `error`.
* `RenamedRefusals`: two independent house rules, each renaming one refusal code (a discard
  while a card is on offer, a decline with nothing to decline), so two causes of divergence;
  `RenamedDiscardRefusal` keeps the first only.
"""

from __future__ import annotations

from conquian_ref.conformance.adapter import ReferenceAdapter


class LatePassRefused(ReferenceAdapter):
    def cmd_apply(self, request: dict) -> dict:
        game = self._game()
        action = request.get("action")
        if isinstance(action, dict) and action.get("type") == "pass" and game.stock_count < 15 and not game.is_over:
            return {"result": "refused", "reason": "cannot_pass_rival_card", "message": "no passing late in the deal"}
        return super().cmd_apply(request)


class LegalErrorLate(ReferenceAdapter):
    def cmd_legal(self, request: dict) -> dict:
        if len(self._game().out_of_play) >= 3:
            raise RuntimeError("legal: internal error")  # becomes an error answer below
        return super().cmd_legal(request)

    def handle(self, request: object) -> dict:
        try:
            return super().handle(request)
        except RuntimeError as exc:
            return {"seq": request.get("seq"), "error": {"message": str(exc)}}


# -- two independent house rules, each one cause (tests/test_fuzz.py) ---------------------------------
# An engine with a coarser vocabulary of reasons: each rewrites one refusal code of the reference.
RENAMED_REFUSALS = {
    "no_discard_now": "not_your_turn",  # a discard while a card is on offer: "not your turn to discard"
    "nothing_to_decline": "must_decide_force",  # a decline with nothing offered to decline
}


class RenamedRefusals(ReferenceAdapter):
    """Both house rules of RENAMED_REFUSALS (`renamed` says which: a subclass keeps one)."""

    renamed = RENAMED_REFUSALS

    def cmd_apply(self, request: dict) -> dict:
        answer = super().cmd_apply(request)
        if answer.get("reason") in self.renamed:
            answer = dict(answer, reason=self.renamed[answer["reason"]])
        return answer


class RenamedDiscardRefusal(RenamedRefusals):
    renamed = {"no_discard_now": RENAMED_REFUSALS["no_discard_now"]}
