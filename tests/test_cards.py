"""Cards and notation: C-DECK-1, C-DECK-2, TC-DECK-1, AA-DECK-1, and the seeded shuffle."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquian_ref.engine.cards import cards_of
from conquian_ref.engine.errors import MalformedInput
from conquian_ref.engine.game import Game
from conquian_ref.spec.profiles import PROFILE_IDS, load_profile
from helpers import AA, TC, all_cards, deal


# --- the decks -----------------------------------------------------------------------------------


def test_TC_DECK_1_forty_spanish_cards():
    deck = TC.deck
    assert deck.size == 40
    names = [deck.name(c) for c in deck.ordered()]
    assert len(set(names)) == 40
    assert {n[-1] for n in names} == {"O", "C", "E", "B"}
    assert {n[:-1] for n in names} == {"1", "2", "3", "4", "5", "6", "7", "10", "11", "12"}
    assert not {"8O", "9O", "8B", "9C"} & set(names)


def test_AA_DECK_1_forty_french_cards():
    deck = AA.deck
    assert deck.size == 40
    names = [deck.name(c) for c in deck.ordered()]
    assert len(set(names)) == 40
    assert {n[-1] for n in names} == {"S", "H", "D", "C"}
    assert {n[:-1] for n in names} == {"A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"}
    assert not {"8S", "9H", "10D"} & set(names)


@pytest.mark.parametrize("profile", [TC, AA], ids=lambda p: p.id)
def test_C_DECK_1_one_copy_of_each_card_no_jokers(profile):
    names = [profile.deck.name(c) for c in profile.deck.ordered()]
    assert sorted(names) == sorted(all_cards(profile))
    assert profile.data["deck"]["jokers"] == 0 and profile.data["deck"]["copies"] == 1


# --- C-DECK-2: notation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "letter", "glyph"),
    [
        (TC, "7O", "7🪙"),
        (TC, "12B", "12🪵"),
        (TC, "1C", "1🏆"),
        (TC, "10E", "10🗡"),
        (AA, "QS", "Q♠"),
        (AA, "AH", "A♥"),
        (AA, "7D", "7♦"),
        (AA, "JC", "J♣"),
    ],
)
def test_C_DECK_2_letter_and_glyph_forms_name_the_same_card(profile, letter, glyph):
    deck = profile.deck
    card = deck.parse(letter)
    assert deck.parse(glyph) == card
    assert deck.name(card) == letter  # the canonical form is the letter form
    assert deck.glyph(card) == glyph


@pytest.mark.parametrize("profile", [TC, AA], ids=lambda p: p.id)
def test_C_DECK_2_format_then_parse_round_trips_every_card(profile):
    deck = profile.deck
    for card in deck.ordered():
        assert deck.parse(deck.name(card)) == card
        assert deck.parse(deck.glyph(card)) == card
        name = deck.name(card)
        # rank label then suit letter
        assert name[:-1] in profile.data["deck"]["ranks"] and name[-1] in [s["id"] for s in profile.data["deck"]["suits"]]


BAD_TC = ["QS", "AO", "8O", "9B", "13O", "0O", "7o", "O7", " 7O", "7O ", "7", "O", "", "7X", "7♠", "10", "1 O"]
BAD_AA = ["7O", "1S", "10H", "8S", "9D", "qs", "SQ", "Q", "S", "", "Q🪙", "QS♠", "Q♠ ", "11S"]


@pytest.mark.parametrize("text", BAD_TC)
def test_C_DECK_2_unknown_card_is_malformed_with_field_torno(text):
    with pytest.raises(MalformedInput) as info:
        TC.deck.parse(text, "action.card")
    assert info.value.field == "action.card"


@pytest.mark.parametrize("text", BAD_AA)
def test_C_DECK_2_unknown_card_is_malformed_with_field_anglo(text):
    with pytest.raises(MalformedInput) as info:
        AA.deck.parse(text, "discard")
    assert info.value.field == "discard"


@pytest.mark.parametrize("value", [7, None, ["7O"], {"card": "7O"}, 7.0, b"7O"])
def test_C_DECK_2_a_card_that_is_not_a_string_is_malformed(value):
    with pytest.raises(MalformedInput) as info:
        TC.deck.parse(value)
    assert info.value.field == "card"


def test_C_DECK_2_duplicate_in_a_list_is_malformed_naming_the_second_place():
    with pytest.raises(MalformedInput) as info:
        AA.deck.parse_list(["4H", "5H", "4H"], "cards")
    assert info.value.field == "cards[2]"
    # the glyph form of the same card is the same card: still a duplicate
    with pytest.raises(MalformedInput) as info:
        AA.deck.parse_list(["4H", "4♥"], "cards")
    assert info.value.field == "cards[1]"


def test_C_DECK_2_unknown_card_inside_a_list_names_its_index():
    with pytest.raises(MalformedInput) as info:
        TC.deck.parse_list(["1O", "2O", "8O"], "hand")
    assert info.value.field == "hand[2]"
    with pytest.raises(MalformedInput) as info:
        TC.deck.parse_list("1O 2O", "hand")
    assert info.value.field == "hand"


def test_C_DECK_2_malformed_cards_in_actions_name_the_field_and_change_nothing():
    game = deal(AA, [["AD", "2S", "3S", "4S", "5S", "6S", "7S", "JS", "QS", "KS"],
                     ["AS", "2H", "3H", "4H", "5H", "6H", "7H", "JH", "QH", "KH"]], top=["AH"])
    before = game.state_json()
    for action, field in [
        ({"type": "use", "cards": ["2H", "2H"]}, "action.cards[1]"),
        ({"type": "use", "cards": ["2H", "2♥"]}, "action.cards[1]"),
        ({"type": "use", "cards": ["2H", "9H"]}, "action.cards[1]"),
        ({"type": "use", "cards": "2H"}, "action.cards"),
        ({"type": "discard", "card": "10H"}, "action.card"),
        ({"type": "use"}, "action.cards"),
        ({"type": "draw"}, "action.type"),
        ({"type": "reject", "card": "AH"}, "action.card"),
        (["use"], "action"),
    ]:
        with pytest.raises(MalformedInput) as info:
            game.apply(1, action)
        assert info.value.field == field
        assert game.state_json() == before
    # the glyph form is accepted as input in an action
    game.apply(1, {"type": "use", "cards": ["2♥", "3♥"]})
    assert game.state_json()["exposed"][1] == ["AH", "2H", "3H"]


def test_C_DECK_2_malformed_setup_names_the_field():
    hands = [["AS", "2S", "3S", "4S", "5S", "6S", "7S", "JS", "QS", "KS"],
             ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "JH", "QH", "KH"]]
    rest = [c for c in all_cards(AA) if c not in hands[0] + hands[1]]
    with pytest.raises(MalformedInput) as info:
        Game.from_deal(AA, [hands[0], hands[1][:-1] + ["AS"]], rest + ["KH"], 0)
    assert info.value.field.startswith("hands[1]")
    with pytest.raises(MalformedInput) as info:
        Game.from_deal(AA, hands, rest[:-1], 0)
    assert info.value.field == "stock"
    with pytest.raises(MalformedInput) as info:
        Game.from_deck(AA, all_cards(AA)[:-1] + ["AS"], 0)
    assert info.value.field == "deck[39]"
    with pytest.raises(MalformedInput) as info:
        Game.from_deck(AA, all_cards(AA)[:-1], 0)
    assert info.value.field == "deck"
    with pytest.raises(MalformedInput) as info:
        Game.from_deck(AA, all_cards(AA), 2)
    assert info.value.field == "dealer"


# --- the seeded shuffle (a convenience outside the rules) ------------------------------------------


@given(seed=st.integers(min_value=0, max_value=2**64))
def test_seeded_shuffle_is_a_reproducible_permutation(seed):
    for profile in (TC, AA):
        order = profile.deck.shuffled(seed)
        assert sorted(order) == sorted(all_cards(profile))
        assert len(order) == 40
        assert profile.deck.shuffled(seed) == order


def test_seeded_shuffle_depends_on_the_seed_and_from_seed_deals_it():
    orders = {tuple(TC.deck.shuffled(seed)) for seed in range(20)}
    assert len(orders) == 20
    for profile in (TC, AA):
        a = Game.from_seed(profile, seed=7, dealer=1)
        b = Game.from_deck(profile, profile.deck.shuffled(7), 1)
        assert a.state_json() == b.state_json()


def test_deck_order_key_orders_masks_as_their_card_lists():
    """cards.deck_order_key (the sort of legal uses) against the list comparison it replaces."""
    import random as _random

    from conquian_ref.engine.cards import cards_of, deck_order_key

    rng = _random.Random(5)
    for _ in range(3000):
        masks = list({rng.getrandbits(80) & rng.getrandbits(80) & rng.getrandbits(80) for _ in range(rng.randint(1, 40))} | {0})
        assert sorted(masks, key=deck_order_key) == sorted(masks, key=cards_of)


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
@given(data=st.data())
def test_a_masks_names_are_its_cards_names_in_deck_order(profile_id, data):
    """C-DECK-2: Deck.names reads a mask eight cards at a time from a table; it must name exactly
    the mask's cards, in deck order, as card by card does (every copy of a two-copy deck too)."""
    deck = load_profile(profile_id).deck
    mask = data.draw(st.integers(min_value=0, max_value=(1 << deck.size) - 1))
    assert deck.names(mask) == [deck.name(c) for c in cards_of(mask)]


@pytest.mark.parametrize("profile_id", PROFILE_IDS)
def test_shuffled_indices_is_random_shuffle_written_out(profile_id):
    # Deck.shuffled_indices writes random.shuffle out for speed: the same deck orders, so a seed
    # deals the same game as before (and as `random.Random(seed).shuffle` of `ordered()`).
    deck = load_profile(profile_id).deck
    for seed in [*range(200), 2**63 + 5, 12345678901234567890]:
        order = deck.ordered()
        random.Random(seed).shuffle(order)
        assert deck.shuffled_indices(seed) == order
