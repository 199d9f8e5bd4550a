"""Two copies of every card: spielanleitung-two-decks-v1 (SATD), rulings RUL-32, RUL-33, RUL-34.

Expectations are worked out by hand from the draft rules (docs/rules/drafts/spielanleitung-
variations.md, "spielanleitung-two-decks-v1 (SATD)") and the rulings: the copies of a card are
written alike and every card list is a multiset (RUL-34); a set is 3 or 4 cards of one rank,
identical cards allowed, and a run never holds two identical cards (RUL-33, SATD-SET-1); 14 are
dealt (RUL-32, SATD-DEAL-1).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from conquian_ref.conformance.compare import compare_actions, mismatches
from conquian_ref.engine.cards import canonical, mask_of
from conquian_ref.engine.errors import MalformedInput
from conquian_ref.engine.game import Game
from conquian_ref.engine.melds import meld_table
from conquian_ref.spec.profiles import load_profile

from helpers import AA, all_cards, assert_refused, discard, places, use

TD = load_profile("spielanleitung-two-decks-v1")
TABLE = meld_table(TD)

# Seat 1 (the non-dealer, offered the starter first) holds 7H twice, 7D and KC twice; nothing else
# of its hand makes a meld with them or among itself: no three of a rank apart from the 7s, no
# three consecutive cards of a suit.
SEAT1 = ["7H", "7H", "7D", "KC", "KC", "AS", "3S", "5S", "JS", "AD", "3D", "5D", "QC", "2C"]
SEAT0 = ["2S", "4S", "6S", "QS", "2H", "4H", "6H", "QH", "2D", "4D", "6D", "QD", "4C", "6C"]


def two_deck_deal(hands, top=(), dealer=0) -> Game:
    """A two-deck deal from hands as dealt and the top of the stock; the rest of the stock is
    every other card (each card twice in all) in deck order."""
    rest = Counter({c: 2 for c in all_cards(TD)})
    rest.subtract(Counter(hands[0]) + Counter(hands[1]) + Counter(top))
    stock = list(top) + [c for c in all_cards(TD) for _ in range(rest[c])]
    return Game.from_deal(TD, [list(hands[0]), list(hands[1])], stock, dealer)


def names_mask(*names: str) -> int:
    return mask_of(TD.deck.parse_list(list(names), "cards"))


# --- the deck and the deal ------------------------------------------------------------------


def test_satd_deck_1_eighty_cards_each_twice():
    names = [TD.deck.name(c) for c in TD.deck.ordered()]
    assert len(names) == 80
    assert Counter(names) == Counter({c: 2 for c in all_cards(TD)})
    assert TD.deck.names(TD.deck.ordered())[:4] == ["AS", "AS", "2S", "2S"]  # deck order, copies side by side


def test_rul_34_a_deck_order_lists_every_card_twice():
    order = [c for c in all_cards(TD) for _ in range(2)]
    random.Random(7).shuffle(order)
    game = Game.from_deck(TD, order, dealer=0)
    assert places(game) == Counter({c: 2 for c in all_cards(TD)})


def test_rul_34_a_card_three_times_in_a_deck_order_is_malformed_at_the_third():
    order = [c for c in all_cards(TD) for _ in range(2)]
    order[5] = "AS"  # order[0] and order[1] are AS already; order[5] was 3S
    with pytest.raises(MalformedInput) as info:
        Game.from_deck(TD, order, dealer=0)
    assert info.value.field == "deck[5]"


def test_rul_34_a_deck_order_of_one_copy_is_too_short():
    with pytest.raises(MalformedInput) as info:
        Game.from_deck(TD, all_cards(TD), dealer=0)
    assert info.value.field == "deck" and "80" in info.value.message


def test_rul_34_under_one_copy_a_card_twice_stays_malformed():
    order = all_cards(AA)
    order[1] = order[0]
    with pytest.raises(MalformedInput) as info:
        Game.from_deck(AA, order, dealer=0)
    assert info.value.field == "deck[1]"


def test_rul_34_a_third_copy_in_a_dealt_setup_is_named_where_it_appears():
    hands = [SEAT0[:-1] + ["7H"], SEAT1]  # 7H once in hand 0, twice in hand 1: a third copy
    with pytest.raises(MalformedInput) as info:
        two_deck_deal(hands)
    assert info.value.field == "hands[1][1]" and "already in" in info.value.message


def test_satd_deal_1_fourteen_each_in_packets_of_two_then_the_starter():
    order = [c for c in all_cards(TD) for _ in range(2)]
    random.Random(3).shuffle(order)
    game = Game.from_deck(TD, order, dealer=0)
    state = game.state_json()
    seat1 = [order[i] for p in range(7) for i in (4 * p, 4 * p + 1)]  # the non-dealer: d0 d1, d4 d5, ...
    seat0 = [order[i] for p in range(7) for i in (4 * p + 2, 4 * p + 3)]
    assert Counter(state["hands"][1]) == Counter(seat1) and Counter(state["hands"][0]) == Counter(seat0)
    assert state["available"] == {"card": order[28], "revealed": True, "offered_to": 1}
    assert state["stock"] == order[29:] and len(state["stock"]) == 51


# --- melds: RUL-33, SATD-SET-1 --------------------------------------------------------------


def test_satd_set_1_a_set_may_hold_identical_cards():
    assert names_mask("7H", "7H", "7S") in TABLE.is_meld
    assert names_mask("7H", "7H", "7S", "7S") in TABLE.is_meld
    assert names_mask("7H", "7S", "7D") in TABLE.is_meld  # the sets of C-SET-1 stay sets
    assert names_mask("7H", "7H", "7S", "7S", "7D") not in TABLE.is_meld  # five cards
    assert not TABLE.arrangeable(names_mask("7H", "7H", "7S", "7S", "7D"))
    assert TABLE.arrangeable(names_mask("7H", "7H", "7S", "7S", "7D", "7D"))  # two sets of three


def test_satd_set_1_the_copies_of_a_set_are_interchangeable():
    # Whichever copies are exposed, the answer is the multiset's (RUL-34).
    deck = TD.deck
    h, s = deck.parse("7H"), deck.parse("7S")
    assert TABLE.arrangeable(1 << h | 1 << (h + 1) | 1 << (s + 1))
    assert TABLE.arrangeable(1 << (h + 1) | 1 << s | 1 << (deck.parse("7D") + 1))


def test_satd_set_1_a_run_never_holds_two_identical_cards():
    assert names_mask("4C", "5C", "6C") in TABLE.is_meld
    assert names_mask("4C", "4C", "5C", "6C") not in TABLE.is_meld
    assert not TABLE.arrangeable(names_mask("4C", "4C", "5C", "6C"))
    assert TABLE.arrangeable(names_mask("4C", "4C", "5C", "5C", "6C", "6C"))  # two identical runs


def test_satd_set_1_a_set_with_identical_cards_cites_its_rule():
    rules = TABLE.rules_of(names_mask("7H", "7H", "7S"))
    assert "SATD-SET-1" in rules and "RUL-33" in rules and "C-SET-1" not in rules
    assert "C-SET-1" in TABLE.rules_of(names_mask("7H", "7S", "7D"))


def test_rul_33_a_set_of_three_is_extended_by_any_fourth_of_its_rank():
    deck = TD.deck
    three = names_mask("7H", "7H", "7S")
    for card in ("7S", "7D", "7C"):
        assert TABLE.extends(three, 1 << deck.parse(card))
        assert TABLE.extends(three, 1 << (deck.parse(card) + 1))  # the other copy alike
    assert not TABLE.extends(names_mask("7H", "7H", "7S", "7S"), 1 << deck.parse("7D"))  # five
    assert TABLE.extends(names_mask("4C", "5C", "6C", "4C", "5C", "6C"), 1 << deck.parse("7C"))
    assert not TABLE.extends(names_mask("4C", "5C", "6C"), 1 << deck.parse("5C"))


def test_satd_set_1_meldable_keeps_every_card_of_a_possible_meld():
    pool = names_mask("7H", "7H", "7S", "4C", "5C", "6C", "6C", "KD")
    assert TABLE.meldable(pool) == names_mask("7H", "7H", "7S", "4C", "5C", "6C", "6C")


# --- actions: RUL-34 ------------------------------------------------------------------------


def test_rul_34_a_use_may_name_a_card_twice_when_both_copies_are_held():
    game = two_deck_deal([SEAT0, SEAT1], top=["7S"])
    game.apply(1, use("7H", "7H"))
    state = game.state_json()
    assert state["exposed"][1] == ["7S", "7H", "7H"]  # deck order: spades before hearts
    assert "7H" not in state["hands"][1] and state["phase"] == "discard"


def test_rul_34_a_card_named_twice_with_one_copy_held_is_card_not_in_hand():
    hand = ["7H", "7C"] + SEAT1[2:]  # one 7H: the other is in the stock
    game = two_deck_deal([SEAT0, hand], top=["7S"])
    assert Counter(game.state_json()["hands"][1])["7H"] == 1
    assert_refused(game, 1, use("7H", "7H"), "card_not_in_hand")
    game.apply(1, use("7H", "7D"))  # one 7H is held: naming it once is fine
    assert game.state_json()["exposed"][1] == ["7S", "7H", "7D"]


def test_rul_34_a_card_named_three_times_is_malformed():
    game = two_deck_deal([SEAT0, SEAT1], top=["7S"])
    with pytest.raises(MalformedInput) as info:
        game.apply(1, use("7H", "7H", "7H"))
    assert info.value.field == "action.cards[2]"


def test_rul_34_under_one_copy_a_use_naming_a_card_twice_stays_malformed():
    game = Game.from_seed(AA, 1)
    seat = game.to_act[0]
    card = game.state_json()["hands"][seat][0]
    with pytest.raises(MalformedInput) as info:
        game.apply(seat, use(card, card))
    assert info.value.field == "action.cards[1]"


def test_rul_34_legal_lists_each_multiset_once():
    game = two_deck_deal([SEAT0, SEAT1], top=["7S"])
    legal = game.legal_actions(1)
    uses = sorted(a["cards"] for a in legal if a["type"] == "use")
    # 7S goes into a set of 7s: with one 7H and the 7D, with both 7Hs, or with all three; a use
    # with "one of the two 7Hs" is one action, whichever copy it takes.
    assert uses == [["7H", "7D"], ["7H", "7H"], ["7H", "7H", "7D"]]
    assert [a for a in legal if a["type"] != "use"] == [{"type": "pass"}]
    assert len(game.legal(1)) == 4
    for action in legal:  # every listed action is accepted
        clone = game.clone()
        clone.apply(1, action)


def test_rul_34_a_discard_of_a_card_held_twice_is_listed_once():
    game = two_deck_deal([SEAT0, SEAT1], top=["7S"])
    game.apply(1, use("7H", "7D"))
    discards = [a["card"] for a in game.legal_actions(1)]
    assert discards.count("KC") == 1 and discards.count("7H") == 1
    assert len(discards) == len(set(discards)) == 11  # 11 distinct cards among the 12 held
    game.apply(1, discard("KC"))
    assert Counter(game.state_json()["hands"][1])["KC"] == 1
    assert game.state_json()["available"] == {"card": "KC", "revealed": False, "offered_to": 0}


def test_rul_34_state_and_observation_list_both_copies():
    game = two_deck_deal([SEAT0, SEAT1], top=["7S"])
    state = game.state_json()
    assert state["hands"][1] == ["AS", "3S", "5S", "JS", "7H", "7H", "AD", "3D", "5D", "7D", "2C", "QC", "KC", "KC"]
    game.apply(1, use("7H", "7H"))
    obs = game.observation(1)
    assert obs["hand"] == ["AS", "3S", "5S", "JS", "AD", "3D", "5D", "7D", "2C", "QC", "KC", "KC"]
    assert obs["exposed"][1] == ["7S", "7H", "7H"] and obs["hand_counts"] == [14, 12]
    use_event = [e for e in obs["history"] if e["event"] == "use"][0]
    assert use_event["cards"] == ["7H", "7H"]
    rival = game.observation(0)
    assert rival["exposed"][1] == ["7S", "7H", "7H"] and "hand" in rival


def test_satd_goal_1_fifteen_exposed_with_an_identical_card_set_wins():
    # Seat 1 holds 14 cards that, with the starter 7H (the other copy), are 15 cards in melds:
    # 7H 7H 7S, AS 2S 3S 4S, AD 2D 3D 4D, KS KH KD KC; nothing was exposed before: going rummy.
    hand = ["7H", "7S", "AS", "2S", "3S", "4S", "AD", "2D", "3D", "4D", "KS", "KH", "KD", "KC"]
    game = two_deck_deal([SEAT0, hand], top=["7H"])
    game.apply(1, use(*hand))
    assert game.state_json()["outcome"] == {"result": "win", "winner": 1, "how": "rummy"}
    assert Counter(game.state_json()["exposed"][1])["7H"] == 2


# --- the comparator: card lists as multisets ------------------------------------------------


def test_rul_34_the_comparator_compares_card_lists_as_multisets():
    assert mismatches({"hand": ["7H", "7S", "7H"]}, {"hand": ["7H", "7H", "7S"]}) == []  # any order
    assert mismatches({"hand": ["7H", "7H", "7S"]}, {"hand": ["7H", "7S", "7S"]})  # other counts
    assert mismatches({"hand": ["7H", "7S"]}, {"hand": ["7H", "7H", "7S"]})  # one copy more
    assert mismatches({"exposed": [[], ["7H", "7H", "7S"]]}, {"exposed": [[], ["7S", "7H", "7H"]]}) == []
    assert mismatches({"hands": [["KC"], ["7H", "7H"]]}, {"hands": [["KC"], ["7H"]]})
    assert mismatches({"stock": ["7H", "7H", "KC"]}, {"stock": ["7H", "KC", "7H"]})  # in order, as today
    missing, extra = compare_actions([{"type": "use", "cards": ["7H", "7H"]}], [{"type": "use", "cards": ["7H"]}])
    assert missing == [{"type": "use", "cards": ["7H", "7H"]}] and extra == [{"type": "use", "cards": ["7H"]}]
    assert compare_actions([{"type": "use", "cards": ["7D", "7H", "7H"]}], [{"type": "use", "cards": ["7H", "7D", "7H"]}]) == ([], [])


# --- random games ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_rul_34_random_two_deck_games_finish_with_every_card_twice_at_every_step(seed):
    game = Game.from_seed(TD, seed, dealer=seed % 2)
    rng = random.Random(seed)
    twice = Counter({c: 2 for c in all_cards(TD)})
    steps = 0
    while game.to_act:
        seat = rng.choice(game.to_act)
        legal = game.legal_actions(seat)
        assert len({repr(sorted(a.items())) for a in legal}) == len(legal), "an action listed twice"
        game.apply(seat, rng.choice(legal))
        assert places(game) == twice
        steps += 1
        assert steps < 2000
    assert game.outcome is not None


def test_rul_33_the_rank_by_rank_search_agrees_with_the_general_meld_search():
    # The two-deck table counts the cards of a rank that go to sets (twocopies.AnySuitSets); the
    # general multiset search (twocopies.Multiset) tries every set. Both must give the same
    # answers: arrangements of random masks, and the uses listed in random games.
    from conquian_ref.engine.twocopies import Multiset

    general = Multiset(TD)
    rng = random.Random(11)
    for _ in range(400):
        ranks = rng.sample(range(10), rng.randint(1, 4))
        cards = [TD.deck.card(s, r, k) for s in range(4) for r in ranks for k in range(2)]
        mask = sum(1 << c for c in rng.sample(cards, min(len(cards), rng.randint(3, 15))))
        assert TABLE.arrangeable(mask) == general.arrangeable(mask), TD.deck.names(mask)
    for seed in range(5):
        game = Game.from_seed(TD, seed)
        game.trace = False
        while game.to_act:
            seat = rng.choice(game.to_act)
            if game.phase == "play":
                args = (game.exposed[seat], 1 << game.available, game.hands[seat])
                assert TABLE.legal_uses(*args) == general.legal_uses(*args)
            game.apply(seat, rng.choice(game.legal(seat)))


def test_rul_34_less_takes_one_copy_and_keeps_the_mask_canonical():
    # twocopies._less, the multiset difference the two-deck searches keep their masks canonical by:
    # checked against counting copies card by card.
    from conquian_ref.engine.twocopies import _less

    low, size = TD.deck.low, TD.deck.size
    rng = random.Random(34)
    for _ in range(2_000):
        counts = [rng.choice((0, 0, 1, 2)) for _ in range(size // 2)]
        mask = sum((1 << 2 * c) | ((2 << 2 * c) if n == 2 else 0) for c, n in enumerate(counts) if n)
        taken = [c for c, n in enumerate(counts) if n and rng.random() < 0.4]
        left = _less(mask, sum(1 << 2 * c for c in taken))
        expected = [n - (c in taken) for c, n in enumerate(counts)]
        assert left == sum((1 << 2 * c) | ((2 << 2 * c) if n == 2 else 0) for c, n in enumerate(expected) if n)
        assert left == canonical(left, low)
