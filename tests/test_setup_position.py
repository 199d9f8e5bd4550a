"""The protocol's `setup_position` (capability `setup_position`, docs/protocol.md): the driver
puts an implementation at the reference's mid-deal position, over a process and in-process, and
the implementation then plays on as the reference does; a malformed or impossible position is
one error answer naming the field, and the adapter goes on answering.
"""

from __future__ import annotations

import json
import random
import shlex
import shutil
import sys

from pathlib import Path

import pytest

from conquian_ref.conformance.client import Connection
from conquian_ref.conformance.compare import mismatches
from conquian_ref.conformance.driver import ImplementationDriver
from conquian_ref.conformance.failures import ErrorAnswer
from conquian_ref.conformance.protocol import COMMANDS, SETUP_POSITION, MessageValidator
from conquian_ref.conformance.reference import Reference

from helpers import AA, BY_ID, choose, played

PROCESS = f"{shlex.quote(sys.executable)} -m conquian_ref.adapter"
REPO = Path(__file__).resolve().parents[1]
JS_ENGINE = f"node {shlex.quote(str(REPO / 'examples' / 'javascript' / 'conquian-adapter.js'))}"


def reference_at(profile, seed: int, steps: int) -> tuple[Reference, random.Random]:
    """The reference engine in-process, a seeded deal played `steps` random actions on (the
    dealer: seed modulo the seats)."""
    reference = Reference()
    reference.game, rng = played(profile, seed, seed, steps)
    return reference, rng


def plays_on_alike(reference: Reference, drive: ImplementationDriver, rng: random.Random, moves: int, history: bool = True) -> None:
    """Up to `moves` random actions sent to both, each answered alike and leaving both in agreement."""
    for _ in range(moves):
        game = reference.game
        if game.is_over:
            break
        seat = rng.choice(game.to_act)
        action = choose(rng, game.legal_actions(seat))
        assert drive.apply(seat, action) == reference.apply(seat, action)
        agree(reference, drive, history)


def agree(reference: Reference, drive: ImplementationDriver, history: bool = True) -> None:
    """The same state, observations and legal actions by the official comparator (hands as
    multisets, an implementation's keys of its own not compared); `history`: the observations'
    history too (its form is the implementation's own: compared between Python engines only)."""
    assert not mismatches(reference.state(), drive.state())
    for seat in reference.game.profile.seats:
        expected = reference.observation(seat)
        if not history:
            expected.pop("history")
        assert not mismatches(expected, drive.observation(seat))
        assert listed(drive.legal(seat)) == listed(reference.legal(seat))


def listed(actions: list[dict]) -> list[str]:
    """Legal actions as a set, each action's cards as a multiset (docs/protocol.md)."""
    return sorted(json.dumps({**a, **({"cards": sorted(a["cards"])} if "cards" in a else {})}, sort_keys=True) for a in actions)


@pytest.fixture(params=["reference", PROCESS], ids=["in-process", "process"])
def drive(request):
    conn = Connection(request.param, on_message=MessageValidator())  # every message checked against the schema
    conn.start()
    yield ImplementationDriver(conn)
    conn.close()


def test_setup_position_is_one_declared_command_and_the_reference_declares_it(drive):
    assert COMMANDS["setup_position"].capability == SETUP_POSITION
    assert SETUP_POSITION in drive.conn.handshake.capabilities


@pytest.mark.parametrize("profile_id", sorted(BY_ID))
def test_the_driver_puts_the_implementation_at_the_references_position_and_it_plays_on_alike(drive, profile_id):
    profile = BY_ID[profile_id]
    for seed in (1, 2):
        reference, rng = reference_at(profile, seed, steps=5 + 7 * seed)
        drive.setup_position(profile.id, reference.position())
        agree(reference, drive)
        plays_on_alike(reference, drive, rng, 6)


def test_an_impossible_position_is_one_error_answer_naming_the_field_and_the_adapter_goes_on(drive):
    reference, _ = reference_at(AA, 4, steps=8)
    position = reference.game.position()
    position["state"]["stock"][0] = position["state"]["hands"][0][0]
    with pytest.raises(ErrorAnswer) as caught:
        drive.setup_position(AA.id, position)
    assert "position.state.stock[0]" in str(caught.value)
    drive.conn.on_message = None  # the requests below break the schema on purpose
    for junk in (None, [], {"state": 1}, {"state": {}, "history": [], "opening_card": False}):
        with pytest.raises(ErrorAnswer, match="position"):
            drive.conn.request("setup_position", profile=AA.id, position=junk)
    drive.setup_position(AA.id, reference.game.position())  # and the next position is taken up
    agree(reference, drive)


def test_a_position_of_an_unknown_profile_or_without_one_is_an_error_answer(drive):
    reference, _ = reference_at(AA, 4, steps=3)
    drive.conn.on_message = None  # these requests break the schema on purpose
    with pytest.raises(ErrorAnswer, match="unknown profile"):
        drive.setup_position("no-such-profile", reference.game.position())
    with pytest.raises(ErrorAnswer, match="position.state.profile"):
        drive.setup_position(BY_ID["torno-cisneros-v1"].id, reference.game.position())
    with pytest.raises(ErrorAnswer, match="lacks 'position'"):
        drive.conn.request("setup_position", profile=AA.id)


def test_a_house_rule_engine_taken_to_the_references_position_shows_it_exactly():
    # the runner's use: after a divergence, a mutant (a house rule of the reference) is put at the
    # reference's position, and its state and observations are the reference's there
    from conquian_ref.tools.mutants import MUTANTS

    mutant = MUTANTS["aa-no-force-option"]  # anglo-american-v1 without forcing at the rival's option
    conn = Connection(mutant.impl)
    conn.start()
    try:
        drive = ImplementationDriver(conn)
        assert SETUP_POSITION in conn.handshake.capabilities
        reference, _ = reference_at(AA, 9, steps=14)
        drive.setup_position(AA.id, reference.game.position())
        agree(reference, drive)
    finally:
        conn.close()


@pytest.mark.skipif(shutil.which("node") is None, reason="node (Node.js >= 18) is not on PATH")
def test_the_javascript_engine_takes_up_the_references_position_and_plays_on_alike():
    # across languages: examples/javascript's anglo-american-v1 engine, put at reference positions
    conn = Connection(JS_ENGINE, on_message=MessageValidator())
    conn.start()
    try:
        drive = ImplementationDriver(conn)
        assert SETUP_POSITION in conn.handshake.capabilities
        for seed in range(6):
            reference, rng = reference_at(AA, seed, steps=3 + 5 * seed)
            drive.setup_position(AA.id, reference.position())
            agree(reference, drive, history=False)
            plays_on_alike(reference, drive, rng, 8, history=False)
    finally:
        conn.close()
