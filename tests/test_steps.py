"""The step interpreter (conquian_ref.conformance.steps): one walk of a scenario, its requests
planned once and judged once.

Pinned here: the requests a walk makes are exactly the requests `plan` gives, in order, whether
they are made one by one (the reference) or sent in one batch (the protocol driver); each step
reads only the answers of its own plan; a live and a batched walk give the same verdicts; the
keep-going and observed walks the book and record use; and record's fills and check's verdicts
come from the same walk (a value taken out and recorded again is the value check accepts).
"""

from __future__ import annotations

import copy

import pytest

from conquian_ref.conformance.reference import Reference
from conquian_ref.conformance.replay import replay
from conquian_ref.conformance.steps import FINAL, _StepAnswers, plan, walk
from conquian_ref.spec.scenario import Scenario, corpus_dir, load_corpus
from conquian_ref.tools.record import PLACEHOLDER, record_text
from conquian_ref.tools.yamltext import load

SCENARIOS, _ = load_corpus([corpus_dir()])
DEALS = [s for s in SCENARIOS if "match" not in s.data]


class Logged(Reference):
    """The reference, logging every request the walk makes of it."""

    def __init__(self):
        super().__init__()
        self.log: list[tuple] = []

    def setup(self, profile_id, setup):
        self.log.append(("setup",))
        super().setup(profile_id, setup)

    def apply(self, seat, action):
        self.log.append(("apply", seat, action))
        return super().apply(seat, action)

    def state(self):
        self.log.append(("state",))
        return super().state()

    def observation(self, seat):
        self.log.append(("observation", seat))
        return super().observation(seat)

    def legal(self, seat):
        self.log.append(("legal", seat))
        return super().legal(seat)

    def perft(self, depth):
        self.log.append(("perft", depth))
        return super().perft(depth)


class Batched(Logged):
    """The reference with a `batch`, as the protocol driver has: answers every request of the
    batch at once, in order, and keeps the batch it was sent."""

    def batch(self, requests):
        self.batches = getattr(self, "batches", []) + [list(requests)]
        return [getattr(self, request[0])(*request[1:]) for request in requests]


def planned_requests(scenario) -> list[tuple]:
    return [request for step in scenario.steps for _, request in plan(step)] + [FINAL]


def with_data(scenario, change) -> Scenario:
    data = copy.deepcopy(scenario.data)
    change(data)
    return Scenario(data, scenario.path, scenario.lines)


@pytest.mark.parametrize("scenario", DEALS, ids=lambda s: s.id)
def test_a_live_walk_makes_exactly_the_planned_requests(scenario):
    driver = Logged()
    walked = walk(scenario, driver)
    assert walked.passed
    assert driver.log == [("setup",)] + planned_requests(scenario)
    for result in walked.steps:
        assert list(result.answers) == [role for role, _ in result.planned]


@pytest.mark.parametrize("scenario", DEALS, ids=lambda s: s.id)
def test_a_batched_walk_sends_the_plan_in_one_batch_and_judges_the_same(scenario):
    driver = Batched()
    walked = walk(scenario, driver)
    assert walked.passed
    assert driver.batches == [planned_requests(scenario)]
    live = walk(scenario, Reference())
    for a, b in zip(walked.steps, live.steps):
        assert a.answers == b.answers
    assert walked.final_state == live.final_state


def refused_step(scenario) -> int | None:
    return next((i for i, s in enumerate(scenario.steps) if isinstance(s.get("expect"), dict)), None)


REFUSING = [s for s in DEALS if refused_step(s) is not None]


@pytest.mark.parametrize("driver_class", [Reference, Batched])
def test_a_wrong_expectation_fails_at_its_step_live_or_batched(driver_class):
    scenario = REFUSING[0]
    at = refused_step(scenario)
    wrong = with_data(scenario, lambda d: d["steps"][at].update(expect="accepted"))
    failure = replay(wrong, driver_class()).failure
    assert failure is not None and failure.step == at and failure.field == "expect"
    assert failure.expected == "accepted" and failure.got == scenario.steps[at]["expect"]


def test_without_reason_codes_a_refusal_with_another_reason_passes():
    scenario = REFUSING[0]
    at = refused_step(scenario)
    other = with_data(scenario, lambda d: d["steps"][at].update(expect={"refused": "not_your_turn-nor-this"}))
    assert replay(other, Reference(), reasons=False).passed
    assert replay(other, Reference()).failure.step == at


def test_a_step_reads_only_the_answers_its_plan_asks_for():
    answers = _StepAnswers([("state", ("state",))], lambda request: {"phase": "x"})
    assert answers["state"] == {"phase": "x"}
    with pytest.raises(KeyError):
        answers["legal"]


def test_keep_going_walks_every_step_and_observe_sees_each_action():
    scenario = max(REFUSING, key=lambda s: len(s.steps))
    at = refused_step(scenario)
    wrong = with_data(scenario, lambda d: d["steps"][at].update(expect="accepted"))
    seen: list[dict] = []
    walked = walk(wrong, Batched(), keep_going=True, observe=lambda driver: seen.append(driver.state()) or len(seen))
    assert len(walked.steps) == len(scenario.steps)
    assert walked.failure.step == at
    actions = [r for r in walked.steps if "action" in r.step]
    assert walked.start == 1 and [r.picture for r in actions] == list(range(2, len(actions) + 2))
    assert all(r.picture is None for r in walked.steps if "action" not in r.step)
    assert walked.final_state is not None


def test_an_observed_walk_does_not_batch():
    driver = Batched()
    walk(DEALS[0], driver, observe=lambda d: None)
    assert not hasattr(driver, "batches")


def test_keep_going_keeps_the_engines_refusal_of_a_malformed_action():
    scenario = next(s for s in DEALS if any("action" in step for step in s.steps))
    at = next(i for i, step in enumerate(scenario.steps) if "action" in step)
    broken = with_data(scenario, lambda d: d["steps"][at].update(action={"type": "no-such-action"}))
    walked = walk(broken, Reference(), keep_going=True)
    assert walked.steps[at].error is not None and len(walked.steps) == len(scenario.steps)


def test_open_expectations_are_answered_not_judged():
    scenario = REFUSING[0]
    at = refused_step(scenario)
    opened = with_data(scenario, lambda d: d["steps"][at].update(expect=PLACEHOLDER))
    walked = walk(opened, Reference(), open_word=PLACEHOLDER)
    assert walked.passed
    assert walked.steps[at].answer == ("refused", scenario.steps[at]["expect"]["refused"])


def _file_with(scenario, old: str, new: str) -> str:
    text = scenario.path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    return text.replace(old, new)


def test_record_fills_what_check_accepts_from_the_same_walk(tmp_path):
    # A refused step's expectation and a legal-action list taken out and recorded again: the
    # recorded file is the value check passes, and both come from one walk's answers.
    scenario = next(
        s for s in REFUSING
        if any("legal" in step.get("check", {}) for step in s.steps)
        and _line_count(s, "expect: {refused:") == 1
    )
    at = refused_step(scenario)
    code = scenario.steps[at]["expect"]["refused"]
    draft = _file_with(scenario, f"expect: {{refused: {code}}}", f"expect: {PLACEHOLDER}")
    recording = record_text(tmp_path / scenario.path.name, draft)
    assert not recording.problems
    data, _, _ = load(recording.new)
    assert data["steps"][at]["expect"] == {"refused": code}
    recorded = Scenario(data, scenario.path, scenario.lines)
    walked = walk(recorded, Reference())
    assert walked.passed and walked.steps[at].answer == ("refused", code)


def _line_count(scenario, text: str) -> int:
    return scenario.path.read_text(encoding="utf-8").count(text)


def test_record_stops_where_the_walk_judges_an_explicit_expectation_wrong(tmp_path):
    from conquian_ref.engine.errors import ConquianError

    scenario = next(s for s in REFUSING if _line_count(s, "expect: {refused:") == 1 and _line_count(s, "outcome: null") == 1)
    at = refused_step(scenario)
    code = scenario.steps[at]["expect"]["refused"]
    draft = _file_with(scenario, f"expect: {{refused: {code}}}", "expect: accepted").replace("outcome: null", f"outcome: {PLACEHOLDER}")
    with pytest.raises(ConquianError, match=rf"steps\[{at}\]\.expect: the draft expects \"accepted\""):
        record_text(tmp_path / scenario.path.name, draft)


def _book():
    """The book's walk and picture (tools/book.py today; tools/book/walk.py once it is a package)."""
    try:
        from conquian_ref.tools.book.walk import _picture, walk as book_walk
    except ImportError:
        try:
            from conquian_ref.tools.book import _picture, walk as book_walk
        except ImportError:
            pytest.skip("the book's walk is not where this test looks for it")
    return book_walk, _picture


@pytest.mark.parametrize("scenario", DEALS[::7], ids=lambda s: s.id)
def test_an_observed_keep_going_walk_gives_the_books_pictures(scenario):
    # What the book draws can come from this walk: the same picture before the first step and
    # after each action, the same answers, the same final state.
    book_walk, picture = _book()
    theirs = book_walk(scenario)
    ours = walk(scenario, Reference(), keep_going=True, observe=lambda driver: picture(driver.game))
    assert ours.start == theirs.start and ours.final_state == theirs.final
    for mine, view in zip(ours.steps, theirs.steps, strict=True):
        assert mine.answer == view.got
        assert (mine.picture if "action" in mine.step else None) == view.after


@pytest.mark.parametrize(
    "legal, message",
    [
        # (record checks the draft's shape against the scenario schema wherever it holds no placeholder)
        ({"seat": 1, "actions": "foo"}, r"check\.legal\.actions: not a scenario here, so nothing can be recorded: 'foo' is not of type 'array'"),
        ({"seat": 3, "actions": PLACEHOLDER}, r"check\.legal\.seat: the seat must be written, 0 or 1 \(got 3\)"),
        ({"seat": 1}, r"check\.legal: not a scenario here, so nothing can be recorded: 'actions' is a required property"),
    ],
)
def test_record_refuses_in_one_line_a_check_the_walk_cannot_ask(legal, message, tmp_path):
    import yaml

    from conquian_ref.engine.errors import ConquianError

    scenario = next(s for s in DEALS if s.steps and "check" in s.steps[-1])
    data = copy.deepcopy(scenario.data)
    data["steps"][-1]["check"]["legal"] = legal
    data["outcome"] = PLACEHOLDER
    with pytest.raises(ConquianError, match=rf"steps\[{len(data['steps']) - 1}\]\.{message}"):
        record_text(tmp_path / scenario.path.name, yaml.safe_dump(data, sort_keys=False))


# -- partial checking ---------------------------------------------------------------------------
def _with_legal_check_and_deck():
    return next(
        s for s in SCENARIOS
        if "deck" in s.data.get("setup", {}) and any("legal" in step.get("check", {}) for step in s.steps)
        and not s.data.get("match")
    )


class WithoutLegalNorDeck:
    """The reference adapter declaring neither legal_actions nor setup_deck; it counts the
    `legal` requests it gets and answers them wrongly, so that one judged would fail."""

    legal_requests = 0

    def __init__(self):
        from conquian_ref.conformance.adapter import ReferenceAdapter

        self.inner = ReferenceAdapter()

    def handle(self, request: dict) -> dict:
        answer = self.inner.handle(request)
        if request.get("cmd") == "start":
            answer["capabilities"] = [c for c in answer["capabilities"] if c not in ("legal_actions", "setup_deck")]
        if request.get("cmd") == "legal":
            type(self).legal_requests += 1
            answer["actions"] = []
        return answer


def test_a_scenario_runs_the_checks_its_capabilities_allow_and_lists_the_others():
    from conquian_ref.conformance.check import run_check
    from conquian_ref.conformance.driver import DEALING_UNTESTED

    scenario = _with_legal_check_and_deck()
    WithoutLegalNorDeck.legal_requests = 0
    (result,) = run_check(impl=f"python:{__name__}:WithoutLegalNorDeck", scenarios=[scenario]).results
    assert result.status == "passed", result  # run, not skipped whole
    assert WithoutLegalNorDeck.legal_requests == 0  # nothing asked that it did not declare
    legal_steps = [i for i, step in enumerate(scenario.steps, 1) if "legal" in step.get("check", {})]
    assert result.skipped_checks == [DEALING_UNTESTED] + [
        f"step {i}: check.legal (needs capability legal_actions)" for i in legal_steps
    ]
    assert "dealing not tested" in DEALING_UNTESTED


class WrongStateWithoutLegal(WithoutLegalNorDeck):
    """The same adapter, with an empty stock in every state answer."""

    def handle(self, request):
        answer = super().handle(request)
        if request.get("cmd") == "state":
            answer["state"] = {**answer["state"], "stock": []}
        return answer


def test_with_checks_skipped_the_checks_that_run_still_fail():
    from conquian_ref.conformance.check import run_check

    scenario = _with_legal_check_and_deck()
    (result,) = run_check(impl=f"python:{__name__}:WrongStateWithoutLegal", scenarios=[scenario]).results
    assert result.status == "failed" and result.skipped_checks


def test_only_a_scenario_that_cannot_be_set_up_is_skipped_whole():
    from conquian_ref.conformance.check import skip_reason
    from conquian_ref.conformance.client import Handshake

    scenario = _with_legal_check_and_deck()
    bare = Handshake({}, [scenario.profile], {"state", "setup_hands"})
    assert skip_reason(scenario, bare) is None  # its legal checks are skipped, not the scenario
    assert skip_reason(scenario, Handshake({}, [], {"state", "setup_hands"})) == f"profile {scenario.profile} not supported"
    match = next(s for s in SCENARIOS if "match" in s.data and s.profile == scenario.profile)
    assert "needs capability match" in skip_reason(match, bare)


def test_refusals_compared_without_reasons_are_listed():
    scenario = next(s for s in SCENARIOS if any(isinstance(step.get("expect"), dict) for step in s.steps) and "match" not in s.data)
    walked = walk(scenario, Reference(), reasons=False, capabilities={"state", "setup_hands", "setup_deck"})
    assert walked.passed
    assert walked.skipped_checks[-1].endswith("refusal reasons not compared (needs capability reason_codes)")


def test_the_judges_judge_the_check_kinds_in_the_order_their_requests_are_planned():
    from conquian_ref.conformance.judges import JUDGES
    from conquian_ref.conformance.steps import CHECK_REQUESTS

    assert list(JUDGES) == list(CHECK_REQUESTS)
