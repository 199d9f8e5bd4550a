"""The protocol docs complete, and each answer they give checked mechanically.

docs/protocol.md: every JSON example validates against schema/protocol.schema.json (a request
against its command, an answer against the command it answers, a bare state or observation
against `$defs/state` or `$defs/observation`); every state in it is consistent (each card in
one place, `to_act` as the phase says); a transcript marked as the reference adapter's is
replayed and every answer compared. Then the questions the docs answer, each against the
reference: the order of `to_act`, `exchange` null without an exchange, the picks kept after the
swap, `available` and `pending` during a force decision, the divide key, the setup form sent,
complete setups, the glyph form, `match` after the match is won, what `history` holds, and
docs/implementers.md quoting no corpus size that goes stale.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from conquian_ref.conformance.adapter import ReferenceAdapter
from conquian_ref.conformance.driver import ImplementationDriver
from conquian_ref.engine.game import Game
from conquian_ref.spec.profiles import PROFILE_IDS, load_profile, profile_data
from conquian_ref.spec.schemas import definition_validator

REPO = Path(__file__).resolve().parents[1]
PROTOCOL_MD = (REPO / "docs" / "protocol.md").read_text(encoding="utf-8")
TRANSCRIPT_MARK = "<!-- transcript: the reference adapter -->"
PROFILES = [load_profile(p) for p in PROFILE_IDS]


def errors(pointer: str, message: object) -> list[str]:
    return [e.message for e in definition_validator("protocol", pointer).iter_errors(message)]


# -- the JSON examples of docs/protocol.md -----------------------------------------------------------
def json_blocks(text: str) -> list[tuple[bool, list]]:
    """Every ```json block: whether a transcript mark precedes it, and the JSON values in it."""
    blocks = []
    for match in re.finditer(r"(<!-- [^\n]*-->\n)?```json\n(.*?)```", text, re.S):
        body, values, at = match.group(2), [], 0
        decoder = json.JSONDecoder()
        while body[at:].strip():
            at += len(body[at:]) - len(body[at:].lstrip())
            value, at = decoder.raw_decode(body, at)
            values.append(value)
        blocks.append((match.group(1) == TRANSCRIPT_MARK + "\n", values))
    return blocks


def messages(values: list) -> list[tuple[str, dict, str]]:
    """(kind, value, schema pointer) for each value of a block: requests, the answers that follow
    them, or a bare state or observation."""
    out, asked = [], []
    for value in values:
        if "cmd" in value:
            asked.append(value["cmd"])
            out.append(("request", value, f"/$defs/requests/{value['cmd']}"))
        elif "seq" in value:
            assert asked, f"an answer with no request before it: {value}"
            out.append(("answer", value, f"/$defs/answer_to/{asked.pop(0)}"))
        elif "hand" in value:
            out.append(("observation", value, "/$defs/observation"))
        else:
            out.append(("state", value, "/$defs/state"))
    return out


BLOCKS = json_blocks(PROTOCOL_MD)
EXAMPLES = [(i, kind, value, pointer) for i, (_, values) in enumerate(BLOCKS) for kind, value, pointer in messages(values)]


def test_protocol_md_has_examples_of_every_kind():
    kinds = Counter(kind for _, kind, _, _ in EXAMPLES)
    assert kinds["request"] and kinds["answer"] and kinds["state"]
    assert any(transcript for transcript, _ in BLOCKS)


@pytest.mark.parametrize("block, kind, value, pointer", EXAMPLES, ids=[f"block{b}-{k}-{n}" for n, (b, k, _, _) in enumerate(EXAMPLES)])
def test_every_json_example_of_protocol_md_validates(block, kind, value, pointer):
    assert not errors(pointer, value), errors(pointer, value)[:1]


def states_of(value: dict, kind: str) -> list[dict]:
    if kind == "state":
        return [value]
    return [value["state"]] if kind == "answer" and "state" in value else []


def inconsistencies(state: dict) -> list[str]:
    """What is wrong with a canonical state, by the rules of docs/protocol.md (written from the
    rules, not from the engine): each card of the deck in exactly one place; `to_act` ascending
    and as the phase says."""
    profile = load_profile(state["profile"])
    seats, problems = len(profile.seats), []
    places = [*state["hands"], *state["exposed"], state["stock"], state["out_of_play"]]
    held = Counter(card for place in places for card in place)
    if state["available"] is not None:
        held[state["available"]["card"]] += 1
    deck = Counter(profile.deck.name(c) for c in profile.deck.ordered())
    if held != deck:
        problems.append(f"cards not each in one place: extra {dict(held - deck)}, missing {dict(deck - held)}")
    to_act, phase, available = state["to_act"], state["phase"], state["available"]
    if to_act != sorted(set(to_act)):
        problems.append(f"to_act {to_act} is not in ascending seat order")
    if phase == "play" and to_act != [available["offered_to"]]:
        problems.append(f"in play to_act {to_act} is not the seat offered the card ({available['offered_to']})")
    if phase == "force_decision":
        if to_act != [(available["offered_to"] + 1) % seats]:
            problems.append(f"in force_decision to_act {to_act} is not the next seat after {available['offered_to']}")
        if available["revealed"] != (state["pending"] == "pass"):
            problems.append(f"revealed {available['revealed']} with pending {state['pending']!r}")
    if phase == "exchange" and to_act != [s for s in range(seats) if state["exchange"]["picks"][s] is None]:
        problems.append(f"in the exchange to_act {to_act} is not the seats yet to pick")
    return problems


STATES = [state for _, kind, value, _ in EXAMPLES for state in states_of(value, kind)]


@pytest.mark.parametrize("state", STATES, ids=[f"state{i}" for i in range(len(STATES))])
def test_every_state_example_of_protocol_md_is_consistent(state):
    assert not inconsistencies(state)


def test_the_consistency_check_catches_the_old_example():
    """The example docs/protocol.md once had: phase play, to_act [1], the card offered to 0."""
    state = dict(STATES[0], phase="play", to_act=[1], pending=None)
    state["available"] = dict(state["available"], offered_to=0)
    assert any("to_act" in p for p in inconsistencies(state))


def test_the_reference_transcript_of_protocol_md_is_what_the_reference_answers():
    transcripts = [values for transcript, values in BLOCKS if transcript]
    assert transcripts
    for values in transcripts:
        adapter = ReferenceAdapter()
        for kind, value, _ in messages(values):
            if kind == "request":
                got = adapter.handle(value)
            else:
                assert kind == "answer" and value == got, f"the docs say {value}, the reference answers {got}"


# -- the reference against the protocol's rules, in random deals -------------------------------------
def random_states(profile, seed: int):
    """The game after each action of a seeded random deal."""
    rng = random.Random(seed)
    game = Game.from_seed(profile, seed=seed, dealer=seed % len(profile.seats))
    game.trace = False
    yield game
    while not game.is_over:
        seat = rng.choice(game.to_act)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        yield game


@pytest.mark.parametrize("profile", PROFILES, ids=PROFILE_IDS)
def test_reference_states_and_observations_fit_the_schema_and_the_rules(profile):
    phases = []
    for i, game in enumerate(random_states(profile, seed=11)):
        state = game.state_json()
        assert not inconsistencies(state), state
        # The schema on the first state of each phase and every fourth state (validation is slow).
        if phases and phases[-1] == state["phase"] and i % 4:
            continue
        phases.append(state["phase"])
        assert not errors("/$defs/state", state), (errors("/$defs/state", state)[:1], state)
        observation = game.observation(game.to_act[0] if game.to_act else 0)
        assert not errors("/$defs/observation", observation), errors("/$defs/observation", observation)[:1]
    assert "over" in phases


def test_to_act_is_in_ascending_seat_order_during_the_exchange():
    profile = next(p for p in PROFILES if p.exchange_cards)
    game = Game.from_seed(profile, seed=5)
    assert game.state_json()["to_act"] == [0, 1]
    game.apply(1, game.legal_actions(1)[0])
    assert game.state_json()["to_act"] == [0]


def test_exchange_is_null_without_an_exchange_and_the_key_is_there():
    profile = next(p for p in PROFILES if not p.exchange_cards)
    game = Game.from_seed(profile, seed=5)
    assert "exchange" in game.state_json() and game.state_json()["exchange"] is None
    for seat in profile.seats:
        assert "exchange" in game.observation(seat) and game.observation(seat)["exchange"] is None


def test_the_exchange_picks_stay_after_the_swap():
    profile = next(p for p in PROFILES if p.exchange_cards)
    game = Game.from_seed(profile, seed=5)
    picks = []
    for seat in (0, 1):
        action = game.legal_actions(seat)[0]
        picks.append(action["card"])
        game.apply(seat, action)
    state = game.state_json()
    assert state["phase"] == "play" and state["exchange"] == {"picks": picks}
    assert picks[1] in state["hands"][0] and picks[0] in state["hands"][1]  # swapped
    assert game.observation(0)["exchange"] == {"gave": picks[0], "received": picks[1]}
    game.apply(game.to_act[0], game.legal_actions(game.to_act[0])[0])
    assert game.state_json()["exchange"] == {"picks": picks}  # and after the next action too


def test_a_force_decision_keeps_available_as_it_was():
    """For each profile with a force decision, a random deal until one opens: `offered_to` is
    still the seat that let the card go, `to_act` the next seat, `pending` a string."""
    seen = 0
    for profile in PROFILES:
        if profile.own_fit != "rival_option":
            continue
        for seed in range(40):
            before = None
            for game in random_states(profile, seed):
                state = game.state_json()
                if state["phase"] == "force_decision":
                    assert before["phase"] == "play" and before["available"] == state["available"]
                    assert state["pending"] in ("reject", "pass")
                    assert state["to_act"] == [profile.next_seat(state["available"]["offered_to"])]
                    seen += 1
                    break
                before = state
            else:
                continue
            break
    assert seen >= 2


# -- the perft divide key ---------------------------------------------------------------------------
def test_the_reference_divide_key_is_the_documented_format():
    schema = json.loads((REPO / "schema" / "protocol.schema.json").read_text(encoding="utf-8"))
    pattern = re.compile(schema["$defs"]["answers"]["perft"]["properties"]["divide"]["propertyNames"]["pattern"])
    checked = 0
    for profile in PROFILES:
        for game in random_states(profile, seed=2):
            if any(a.get("cards") for s in game.to_act for a in game.legal_actions(s)):
                break
        adapter = ReferenceAdapter()
        adapter.reference.game = game
        answer = adapter.handle({"seq": 1, "cmd": "perft", "depth": 1, "divide": True})
        assert not errors("/$defs/answer_to/perft", answer)
        for key in answer["divide"]:
            assert pattern.match(key), key
            seat, action = re.match(r"seat (\d): (.*)$", key).groups()
            action = json.loads(action)
            assert action in game.legal_actions(int(seat))
            cards = action.get("cards", [])
            order = [profile.deck.name(c) for c in profile.deck.ordered()]
            assert [order.index(c) for c in cards] == sorted(order.index(c) for c in cards)  # deck order
            checked += bool(cards)
        assert "divide" not in adapter.handle({"seq": 2, "cmd": "perft", "depth": 1})
    assert checked


# -- the setup ----------------------------------------------------------------------------------------
class _Recorder:
    """A connection that declares `capabilities` and records the setup fields it is sent."""

    def __init__(self, capabilities):
        self.handshake = type("H", (), {"capabilities": set(capabilities), "name": "recorder"})()
        self.impl = "recorder"
        self.stderr_tail = ""
        self.sent = None

    def request(self, cmd, **fields):
        self.sent = fields
        return {"seq": 1, "ok": True}


@pytest.mark.parametrize("caps, form, sent", [
    ({"setup_hands", "setup_deck"}, "deck", {"deck"}),
    ({"setup_hands", "setup_deck"}, "hands", {"hands", "stock"}),
    ({"setup_hands"}, "deck", {"hands", "stock"}),
    ({"setup_deck"}, "hands", {"deck"}),
])
def test_the_setup_form_sent_is_the_scenarios_when_both_are_declared(caps, form, sent):
    from conquian_ref.engine.dealing import deal

    profile = PROFILES[0]
    deck = profile.deck.shuffled(7)
    hands, stock = deal(profile, deck, 0)
    setup = {"dealer": 0, "deck": deck} if form == "deck" else {"dealer": 0, "hands": hands, "stock": stock}
    conn = _Recorder(caps)
    ImplementationDriver(conn).setup(profile.id, setup)
    assert set(conn.sent) - {"profile", "dealer"} == sent


def test_a_setup_must_be_a_complete_deal():
    from conquian_ref.engine.dealing import deal

    profile = PROFILES[0]
    deck = profile.deck.shuffled(7)
    hands, stock = deal(profile, deck, 0)
    base = {"seq": 1, "cmd": "setup", "profile": profile.id, "dealer": 0}
    partial = [
        ({"hands": [hands[0][:3], hands[1]], "stock": stock}, "hands[0]"),  # a short hand
        ({"hands": hands, "stock": stock[:-1]}, "missing"),  # a card left out
        ({"deck": deck[:-1]}, "deck"),
    ]
    for fields, said in partial:
        answer = ReferenceAdapter().handle({**base, **fields})
        assert "error" in answer and said in answer["error"]["message"], answer
        assert not errors("/$defs/answer_to/setup", answer)
    assert ReferenceAdapter().handle({**base, "hands": hands, "stock": stock}) == {"seq": 1, "ok": True}


# -- cards: the letter form only on the wire (C-DECK-2) -----------------------------------------------
def test_the_schema_card_pattern_takes_every_letter_name_and_no_glyph():
    card = definition_validator("common", "/$defs/card")
    for profile in PROFILES:
        for c in profile.deck.ordered():
            assert card.is_valid(profile.deck.name(c)), profile.deck.name(c)
            assert not card.is_valid(profile.deck.glyph(c)), profile.deck.glyph(c)


def test_rule_c_deck_2_says_the_protocol_carries_the_letter_form_only():
    core = (REPO / "docs" / "rules" / "core.md").read_text(encoding="utf-8")
    rule = core.split("### C-DECK-2")[1].split("\n### ")[0]
    assert "glyph" in rule and "protocol" in rule and "letter form" in rule


# -- match after the match is won ---------------------------------------------------------------------
def test_match_after_it_is_won_gives_the_winner_and_refuses_another_deal():
    profile = next(p for p in PROFILES if (profile_data(p.id)["match"] or {}).get("points_to_win"))
    rules = profile_data(profile.id)["match"]
    wins = -(-rules["points_to_win"] // rules["points_per_win"])  # enough wins of seat 0
    deals = [{"result": "win", "winner": 0, "how": "target_reached"}] * wins
    request = {"seq": 3, "cmd": "match", "profile": profile.id, "first_dealer": 0, "deals": deals}
    answer = ReferenceAdapter().handle(request)
    assert answer["match"]["winner"] == 0 and answer["match"]["next_dealer"] == wins % 2
    assert not errors("/$defs/answer_to/match", answer)
    after = ReferenceAdapter().handle({**request, "deals": deals + [deals[0]]})
    assert f"deals[{wins}]" in after["error"]["message"] and "already won" in after["error"]["message"]


# -- history ------------------------------------------------------------------------------------------
def test_history_is_a_list_of_the_documented_events():
    documented = next(line for line in PROTOCOL_MD.splitlines() if line.startswith("| `history` |"))
    seen = set()
    for profile in PROFILES:
        for game in random_states(profile, seed=4):
            pass
        history = game.observation(0)["history"]
        assert isinstance(history, list) and history[-1]["event"] == "end"
        seen |= {entry["event"] for entry in history}
    assert seen and all(f"`{event}`" in documented for event in seen), seen


# -- docs/implementers.md quotes no corpus size -------------------------------------------------------
def test_implementers_md_quotes_no_stale_corpus_size():
    text = (REPO / "docs" / "implementers.md").read_text(encoding="utf-8")
    counts = re.findall(r"\b(\d+) scenarios\b(?! in a row)", text)
    assert not counts, f"implementers.md quotes corpus sizes that go stale: {counts}"
    assert not re.findall(r"\((\d{2,})\)", text), "a count in parentheses (a capability's scenarios) goes stale"
    assert "conquian-ref check" in text and "closing line" in text  # it says where the number is
