"""Melds and the arrangement solver.

Implements C-MELD-1 (a meld is a set or a run), C-SET-1 (3 or 4 of a rank, different suits),
C-RUN-1..3 (runs: one suit, consecutive in sequence order, 7 next to 10/J, ace low, no wrap),
the profile's run length rule (`rules.run_length`, RUL-2), C-ARR-1..2 (a valid arrangement of all exposed
cards, with full rearrangement), C-ARR-4 / RUL-3 ("fits" means any valid repartition), RUL-22
(for forcing under `forcing.fit: extension`, "fits" means extending one meld) and RUL-35 (under
`meld_timing: discard_then_meld` the taken card is placed before any rearrangement).

Every possible meld of a profile is listed once, as a bit mask, when the table is built (about
two hundred of them). Whether a set of cards can be arranged is then a small exact search: the
lowest card left must belong to some meld made only of cards left (there is nowhere else for
it to go), so try each such meld and recurse. Answers are memoised per mask. The searches leave
out the runs of 2 * run_min cards or more: each is two shorter runs (RUL-2), so they change no
answer and only add branches.

Two copies of every card (`deck.copies: 2`, SATD) are handled by `MultisetMeldTable`: the copies
of a card are indistinguishable in play (RUL-34), so every question is asked about the multiset
of cards, as a canonical mask (cards.canonical: the copies present packed low). Its melds are
canonical too, so there are no more of them than multisets of cards that are melds (a run holds
one copy of each of its cards; with `melds.set_suits: any` a set may hold two identical cards,
RUL-33, SATD-SET-1): about five hundred, where one meld per choice of copies would be tens of
thousands. On canonical masks AND, OR and inclusion keep their meaning (the smaller count, the
larger, fewer of every card), and the lowest card of a multiset still lies in a meld whose
lowest card it is, so the same searches work with a multiset difference in place of XOR. A
physical mask given to the table is canonicalised on the way in; the uses it lists are turned
back into the copies the seat holds (cards.resolve), one per distinct multiset.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from .cards import canonical, cards_of, resolve
from .profile import Profile

_CACHE_SIZE = 1 << 18  # masks remembered per profile; bounded so long runs keep flat memory
FEW_CANDIDATES = 3
"""Up to this many candidate hand cards, `legal_uses` asks `arrangeable` of each subset (at most
eight questions, each stopping at its first arrangement) instead of enumerating every option
with `use_options`, which must explore every arrangement of the exposed cards. Measured over the
legal-use questions of 300 random games per profile (instructions counted): about 10 % fewer
on the 40-card ten-card-hand profiles, 8 % with two decks, about 20 % with 52 cards or 13-card
hands; 4 candidates or more cost more than 3 (docs/performance.md). AnySuitSetsMeldTable
(two decks, sets of any suits) stops at 1: see its `few_candidates`."""


def subsets(mask: int):
    """Every subset of the bits of `mask`, the empty one first."""
    subset = 0
    while True:
        yield subset
        subset = (subset - mask) & mask
        if subset == 0:
            return


class MeldTable:
    """All melds of one profile and the arrangement questions asked about them."""

    few_candidates = FEW_CANDIDATES  # where legal_uses stops asking subsets (a table may differ)

    def __init__(self, profile: Profile):
        deck = profile.deck
        n_ranks = len(deck.ranks)
        n_suits = len(deck.suit_ids)
        melds: list[int] = []
        # C-SET-1: 3 or 4 cards of one rank, each of a different suit.
        for rank in range(n_ranks):
            for size in profile.set_sizes:
                for suits in combinations(range(n_suits), size):
                    melds.append(sum(1 << deck.card(s, rank) for s in suits))
        melds += _sets_with_identical_cards(profile)  # RUL-33 (two decks, set_suits: any)
        # C-RUN-1..3: consecutive positions in the sequence order of one suit. Positions are
        # indices in the profile's rank list, so 7 and 10 (or 7 and J) are neighbours (C-RUN-2),
        # the ace is position 0 and nothing follows the last rank (C-RUN-3: no wrap).
        for suit in range(n_suits):
            for length in range(profile.run_min, profile.run_max + 1):
                for start in range(0, n_ranks - length + 1):
                    melds.append(sum(1 << deck.card(suit, start + i) for i in range(length)))
        self.melds: tuple[int, ...] = tuple(melds)
        self._rules = {m: _meld_rules(profile, m) for m in melds}
        self.is_meld: frozenset[int] = frozenset(melds)
        self._by_lowest, self._containing = indexed(melds, deck.size)
        # The searches (is there an arrangement, which hand cards can go down) skip the runs of
        # 2 * run_min cards or more: such a run is two runs of at least run_min cards, each
        # within the maximum (RUL-2), so whatever can be arranged can be arranged without them,
        # and the search has fewer branches to try. `arrangement` (what is shown), `extends`
        # and `placeable` (where a meld must stay whole) keep every meld.
        long_run = 2 * profile.run_min
        searched = [m for m in melds if m.bit_count() < long_run or _is_set(deck, m)]
        self._search_lowest, self._search_containing = indexed(searched, deck.size)
        # The smallest melds through each card (no other meld through it lies inside them: runs
        # of `run_min`, sets of the smallest size): a card is in some meld of a pool exactly when
        # it is in one of these, and there are a third as many to try.
        self._witnesses = tuple(
            tuple(m for m in ms if not any(o != m and o & m == o for o in ms)) for ms in self._containing
        )
        # Bit masks for `meldable`: one suit's row of ranks, and where a run may start.
        self._n_ranks, self._n_suits = n_ranks, n_suits
        self._row = (1 << n_ranks) - 1
        self._run_starts = sum(
            1 << deck.card(suit, start) for suit in range(n_suits) for start in range(n_ranks - profile.run_min + 1)
        )
        self._run_min = profile.run_min
        self._set_min = min(profile.set_sizes)
        self.arrangeable = lru_cache(maxsize=_CACHE_SIZE)(self._arrangeable)
        self.extends = lru_cache(maxsize=_CACHE_SIZE)(self._extends)
        self.placeable = lru_cache(maxsize=_CACHE_SIZE)(self._placeable)
        self.use_options = lru_cache(maxsize=_CACHE_SIZE)(self._use_options)
        self._hand_melds = lru_cache(maxsize=_CACHE_SIZE)(self._hand_only)

    # -- C-ARR-1: is there a valid arrangement? -------------------------------------------
    def _arrangeable(self, mask: int) -> bool:
        """True when the cards of `mask` can be split into valid melds, each card in one meld."""
        if mask == 0:
            return True
        low = (mask & -mask).bit_length() - 1
        for meld in self._search_lowest[low]:
            if meld & mask == meld and self.arrangeable(mask ^ meld):
                return True
        return False

    def arrangement(self, mask: int) -> list[int] | None:
        """One valid arrangement of `mask` as a list of meld masks (the canonical one: the lowest
        card's melds are tried in table order), or None when there is none."""
        if mask == 0:
            return []
        low = (mask & -mask).bit_length() - 1
        for meld in self._by_lowest[low]:
            if meld & mask == meld and self.arrangeable(mask ^ meld):
                return [meld] + self.arrangement(mask ^ meld)
        return None

    def rules_of(self, mask: int) -> list[str]:
        """The rule ids behind the canonical arrangement of `mask` (for rule coverage)."""
        rules = ["C-ARR-1", "C-MELD-1"]
        for meld in self.arrangement(mask) or ():
            rules.extend(self._rules[meld])
        return rules

    def fits(self, exposed: int, card_bit: int) -> bool:
        """C-ARR-4 / RUL-3: the card joins the exposed cards, alone, under some rearrangement."""
        return exposed != 0 and self.arrangeable(exposed | card_bit)

    def _extends(self, exposed: int, card_bit: int) -> bool:
        """RUL-22: the card extends one meld M of some valid arrangement of `exposed`: M plus the
        card is a meld. Quantified over arrangements, so the partition shown does not matter
        (RUL-13): some meld holding the card, less the card, is a meld of exposed cards whose
        rest can still be arranged."""
        for meld in self._containing[card_bit.bit_length() - 1]:
            base = meld ^ card_bit
            if base in self.is_meld and base & exposed == base and self.arrangeable(exposed ^ base):
                return True
        return False

    def _placeable(self, exposed: int, new: int) -> bool:
        """RUL-35: the new cards (the taken card and the named hand cards) complete some valid
        arrangement of `exposed` left as it is: `exposed | new` has an arrangement in which the
        exposed cards of every meld are none or themselves a meld (so each new card extends an
        exposed meld or forms a new meld with other new cards, and no exposed card moves)."""
        mask = exposed | new
        if mask == 0:
            return True
        low = (mask & -mask).bit_length() - 1
        for meld in self._by_lowest[low]:
            if meld & mask == meld:
                part = meld & exposed
                if (part == 0 or part in self.is_meld) and self.placeable(exposed & ~meld, new & ~meld):
                    return True
        return False

    # -- C-TURN-2: which hand cards can go down with the taken card? ------------------------
    def meldable(self, pool: int) -> int:
        """The cards of `pool` that belong to at least one meld made only of cards of `pool`.

        A quick filter computed with whole-mask bit operations: a card is in a run of `pool`
        when `run_min` consecutive cards of its suit around it are there (a window start is
        only valid inside one suit's row), and in a set when its rank is present in at least
        `set_min` suits. Cards outside this mask can never be exposed from `pool`."""
        starts = self._run_starts
        for i in range(self._run_min):
            starts &= pool >> i
        in_run = 0
        for i in range(self._run_min):
            in_run |= starts << i
        rows = [(pool >> (s * self._n_ranks)) & self._row for s in range(self._n_suits)]
        ranks = 0
        for suits in combinations(rows, self._set_min):
            common = suits[0]
            for row in suits[1:]:
                common &= row
            ranks |= common
        in_set = 0
        for s, row in enumerate(rows):
            in_set |= (row & ranks) << (s * self._n_ranks)
        return (in_run | in_set) & pool

    def legal_uses(self, exposed: int, card_bit: int, hand: int) -> frozenset[int]:
        """Every set of hand cards that can be exposed with the taken card (C-TURN-2, C-ARR-2).
        Hand cards that belong to no possible meld are left out of the search first."""
        must = exposed | card_bit
        pool = must | hand
        if not self._in_some_meld(card_bit.bit_length() - 1, pool):
            return frozenset()  # the taken card belongs to no meld at all: the common case
        candidates = hand & self.meldable(pool)
        if candidates.bit_count() <= self.few_candidates:  # ask each subset (see FEW_CANDIDATES)
            return frozenset(s for s in subsets(candidates) if self.arrangeable(must | s))
        return self.use_options(must, candidates)

    def _in_some_meld(self, card: int, pool: int) -> bool:
        """Whether some meld made of cards of `pool` holds `card`."""
        for meld in self._witnesses[card]:
            if meld & pool == meld:
                return True
        return False

    def _use_options(self, must: int, hand: int) -> frozenset[int]:
        """Every subset S of `hand` such that `must | S` has a valid arrangement.

        `must` is what has to be covered (exposed cards plus the taken card). Its lowest card
        lies in exactly one meld, which may borrow hand cards; recurse on what is left. Once
        `must` is covered, any further melds made purely of hand cards may go down too.
        """
        if must == 0:
            return self._hand_melds(hand)
        low = (must & -must).bit_length() - 1
        pool = must | hand
        options: set[int] = set()
        for meld in self._search_containing[low]:
            if meld & pool == meld:
                used = meld & hand
                rests = self.use_options(must & ~meld, hand & ~meld)
                options.update([used | rest for rest in rests] if used else rests)
        return frozenset(options)

    def _hand_only(self, hand: int) -> frozenset[int]:
        """Every subset of `hand` (the empty one included) with a valid arrangement."""
        if hand == 0:
            return frozenset((0,))
        low = (hand & -hand).bit_length() - 1
        without = hand & ~(1 << low)
        options = set(self._hand_melds(without))  # the lowest card stays in hand
        for meld in self._search_lowest[low]:  # or it goes down in a meld of cards above it
            if meld & hand == meld:
                options.update([meld | rest for rest in self._hand_melds(hand & ~meld)])
        return frozenset(options)


class MultisetMeldTable(MeldTable):
    """The meld table of a profile with two copies of every card (see the module docstring).
    Every method takes physical masks (any copies) and answers about their multisets; inside,
    the searches run on canonical masks, memoised by canonical mask."""

    def __init__(self, profile: Profile):
        super().__init__(profile)
        deck = profile.deck
        assert deck.copies == 2, "MultisetMeldTable implements two copies"
        self._low = low = deck.low
        # RUL-22 with duplicates: the melds that a card completes, less that card (one copy).
        ext: list[list[int]] = [[] for _ in range(deck.size)]
        for card in range(0, deck.size, 2):
            for meld in self._containing[card]:
                base = canonical(meld & ~(1 << card), low) if not meld & (2 << card) else meld & ~(2 << card)
                if base in self.is_meld:
                    ext[card].append(base)
        self._ext_bases = tuple(tuple(b) for b in ext)
        # `meldable`: a suit's row is 2 * ranks bits wide; copy 0 of each card is an even bit.
        self._width = 2 * self._n_ranks
        self._row = low & ((1 << self._width) - 1)
        self._set_counts_copies = profile.set_suits == "any"

    def _arrangeable(self, mask: int) -> bool:
        low = self._low
        first, second = mask & low, (mask >> 1) & low
        mask = first | second | (first & second) << 1
        if mask == 0:
            return True
        lowest = (mask & -mask).bit_length() - 1
        for meld in self._search_lowest[lowest]:
            if meld & mask == meld:
                rest = mask & ~meld  # the multiset difference, canonical again:
                first, second = rest & low, (rest >> 1) & low
                if self.arrangeable(first | second | (first & second) << 1):
                    return True
        return False

    def arrangement(self, mask: int) -> list[int] | None:
        low = self._low
        mask = canonical(mask, low)
        if mask == 0:
            return []
        lowest = (mask & -mask).bit_length() - 1
        for meld in self._by_lowest[lowest]:
            if meld & mask == meld:
                rest = canonical(mask & ~meld, low)
                if self.arrangeable(rest):
                    return [meld] + self.arrangement(rest)
        return None

    def _extends(self, exposed: int, card_bit: int) -> bool:
        low = self._low
        exposed = canonical(exposed, low)
        for base in self._ext_bases[(card_bit.bit_length() - 1) & ~1]:
            if base & exposed == base and self.arrangeable(canonical(exposed & ~base, low)):
                return True
        return False

    def _placeable(self, exposed: int, new: int) -> bool:
        raise NotImplementedError("RUL-35 placement with two copies (refused when the profile is loaded)")

    def _in_runs(self, once: int) -> int:
        """The cards (copy 0 bits) of `once`, one copy of each card present, that lie in `run_min`
        consecutive cards of their suit there (copy 0 bits are two apart)."""
        starts = self._run_starts
        for i in range(self._run_min):
            starts &= once >> (2 * i)
        cards = 0
        for i in range(self._run_min):
            cards |= starts << (2 * i)
        return cards

    def meldable(self, pool: int) -> int:
        """As MeldTable.meldable, on the multiset `pool`: a card is in a run when `run_min`
        consecutive cards of its suit are there (copy 0 bits, two apart), in a set when its rank
        is there `set_min` times (counting the suits present, and under `set_suits: any` the second
        copies too: a saturating bit-sliced count). Every copy of such a card is kept."""
        low = self._low
        pool = canonical(pool, low)
        once, twice = pool & low, (pool >> 1) & low
        cards = self._in_runs(once)
        width, row = self._width, self._row
        rows = [(once >> (s * width)) & row for s in range(self._n_suits)]
        counted = rows + [(twice >> (s * width)) & row for s in range(self._n_suits)] if self._set_counts_copies else rows
        at_least = [0] * self._set_min  # at_least[j]: ranks seen j + 1 times or more
        for x in counted:
            for j in range(self._set_min - 1, 0, -1):
                at_least[j] |= at_least[j - 1] & x
            at_least[0] |= x
        ranks = at_least[-1]
        for s, r in enumerate(rows):
            cards |= (r & ranks) << (s * width)
        return (cards | cards << 1) & pool

    def legal_uses(self, exposed: int, card_bit: int, hand: int) -> frozenset[int]:
        """Every multiset of hand cards that can be exposed with the taken card, once each, as
        the copies the hand holds."""
        low = self._low
        pool = canonical(exposed | card_bit | hand, low)
        if not self._in_some_meld((card_bit.bit_length() - 1) & ~1, pool):
            return _NONE  # the common case: the taken card is in no meld at all
        must = canonical(exposed | card_bit, low)
        candidates = canonical(hand, low) & self.meldable(pool)
        if candidates.bit_count() <= self.few_candidates:  # ask each sub-multiset (see FEW_CANDIDATES)
            # a subset holding a card's copy 1 without its copy 0 is the same multiset as the one
            # holding copy 0 instead, which is asked: only canonical subsets are
            options = [
                s for s in subsets(candidates) if not (s >> 1) & ~s & low and self.arrangeable(must | s | (must & s & low) << 1)
            ]
        else:
            options = self.use_options(must, candidates)
        return frozenset(resolve(s, hand, low) for s in options)

    def _use_options(self, must: int, hand: int) -> frozenset[int]:
        """As MeldTable._use_options on multisets: the meld of `must`'s lowest card takes what
        it can from `must` first (the cards left are the same multiset either way), the rest from
        the hand."""
        if must == 0:
            return self._hand_melds(hand)
        if hand == 0:
            return frozenset((0,)) if self.arrangeable(must) else frozenset()
        low = self._low
        lowest = (must & -must).bit_length() - 1
        pool = must | hand | (must & hand & low) << 1
        options: set[int] = set()
        for meld in self._search_containing[lowest]:
            if meld & pool == meld:
                from_must = meld & must
                used = canonical(meld & ~from_must, low)
                for rest in self.use_options(canonical(must & ~from_must, low), canonical(hand & ~used, low)):
                    options.add(used | rest | (used & rest & low) << 1)
        return frozenset(options)

    def _hand_only(self, hand: int) -> frozenset[int]:
        if hand == 0:
            return frozenset((0,))
        low = self._low
        lowest = (hand & -hand).bit_length() - 1
        options = set(self._hand_melds(hand & ~(3 << lowest)))  # no copy of the lowest card goes down
        for meld in self._search_lowest[lowest]:  # or one goes down in a meld of cards above it
            if meld & hand == meld:
                for rest in self._hand_melds(canonical(hand & ~meld, low)):
                    options.add(meld | rest | (meld & rest & low) << 1)
        return frozenset(options)


class AnySuitSetsMeldTable(MultisetMeldTable):
    """Two copies and `melds.set_suits: any` (RUL-33): a set is any 3 or 4 cards of one rank, so
    which cards of a rank go into sets does not matter, only how many: n cards of a rank split
    into sets exactly when n is a sum of set sizes (3, 4, 6, 7, 8). The searches therefore take
    the cards rank by rank (all suits of a rank before the next rank): the lowest card left
    either goes to its rank's sets (counted, not placed) or starts a run (every card of a lower
    rank has been placed, so a run holding it starts at it); when a rank is done its count must
    be a sum of set sizes. The state is the cards left and one count, where the general search
    tries each of the dozens of sets holding the lowest card; the cards of a rank that start no
    run go to its sets at once. (Measured with `conquian-ref bench`'s arrangement workload: two
    to five times the checks per second of MultisetMeldTable, which stays the table for
    `set_suits: distinct` with two copies, and is the cross-check of this one.)"""

    few_candidates = 1
    """With this table's by-rank searches, `use_options` already pays from two candidates on:
    over 300 random two-deck games (instructions counted) 1 costs 2 % less than 3, 0 and 2 more."""

    def __init__(self, profile: Profile):
        super().__init__(profile)
        deck = profile.deck
        n_ranks = len(deck.ranks)
        self._rank_bits = tuple(
            sum(3 << deck.card(s, r) for s in range(len(deck.suit_ids))) for r in range(n_ranks)
        ) + (0,)
        sums, most = {0}, deck.copies * len(deck.suit_ids)
        for _ in range(most):
            sums |= {t + k for t in sums for k in profile.set_sizes if t + k <= most}
        self._set_counts = frozenset(sums)  # how many cards of one rank sets can hold
        self._most = max(sums)
        self._runs_of_min = frozenset(
            m for m in self.melds if len({deck.suit_of(x) for x in cards_of(m)}) == 1 and m.bit_count() == profile.run_min
        )
        self._runs_from = tuple(
            tuple(m for m in self._search_lowest[c] if len({deck.suit_of(x) for x in cards_of(m)}) == 1)
            for c in range(deck.size)
        )
        self._deck_rank = tuple(deck.rank_of(c) for c in range(deck.size))
        self._windows = tuple(
            tuple(m for m in self._containing[c] if m in self._runs_of_min) for c in range(deck.size)
        )
        self.arrangeable = lru_cache(maxsize=_CACHE_SIZE)(self._by_rank)
        self.use_options = lru_cache(maxsize=_CACHE_SIZE)(self._uses_by_rank)

    def _by_rank(self, mask: int, rank: int | None = None, pending: int = 0) -> bool:
        """Whether `mask` can be arranged, `pending` cards of `rank` already counted for sets.
        Called from outside (no rank) `mask` may hold any copies and is canonicalised once; the
        search keeps its masks canonical as it goes, taking away the last copy of a card."""
        if rank is None:
            mask, rank = canonical(mask, self._low), 0
        bits = self._rank_bits
        starts = self._run_starts  # copy 0 of each card with a run of `run_min` cards from it
        for i in range(1, self._run_min):
            starts &= mask >> (2 * i)
        starts &= mask
        while True:
            here = mask & bits[rank]
            # the cards of this rank that start no run go to its sets, all at once
            alone = here & ~(starts | starts << 1)
            if alone:
                pending += alone.bit_count()
                mask ^= alone
                here ^= alone
            if here:
                break
            if pending not in self._set_counts:
                return False
            if not mask:
                return True
            rank, pending = rank + 1, 0
        # sets need `set_min` cards of a rank: with fewer left the lowest card starts a run
        to_sets = pending + here.bit_count() >= self._set_min
        if pending and not to_sets:
            return False
        lowest = here & -here  # copy 0 of the lowest card left
        if to_sets and pending < self._most:
            last = lowest << 1 if mask & lowest << 1 else lowest  # its last copy: canonical still
            if self.arrangeable(mask ^ last, rank, pending + 1):
                return True
        for run in self._runs_from[lowest.bit_length() - 1]:
            if run & mask == run:
                twice = mask & run << 1  # as _less(mask, run), written out: this is the hot loop
                if self.arrangeable(mask ^ twice ^ run & ~(twice >> 1), rank, pending):
                    return True
        return False

    def meldable(self, pool: int) -> int:
        """As MultisetMeldTable.meldable, where a set is any `set_min` or more cards of one rank
        (RUL-33): a rank's cards are counted whatever their suits and copies."""
        low = self._low
        pool = canonical(pool, low)
        cards = self._in_runs(pool & low)
        set_min = self._set_min
        for bits in self._rank_bits:
            here = pool & bits
            if here.bit_count() >= set_min:
                cards |= here & low
        return (cards | cards << 1) & pool

    def _in_some_meld(self, card: int, pool: int) -> bool:
        """Whether some meld of the multiset `pool` holds `card`: `set_min` cards of its rank,
        or one of the runs of `run_min` cards through it."""
        if (pool & self._rank_bits[self._deck_rank[card]]).bit_count() >= self._set_min:
            return True
        for window in self._windows[card]:
            if window & pool == window:
                return True
        return False

    def _uses_by_rank(self, must: int, hand: int, rank: int | None = None, pending: int = 0) -> frozenset[int]:
        """Every multiset S of `hand` such that `must` + S can be arranged (canonical masks),
        `pending` cards of `rank` already counted for sets. The lowest card is taken from
        `must` when it is there (it has to be placed), else from the hand (left out, or used);
        a run takes what it can from `must` (the cards left are the same multiset either way).
        Called from outside (no rank) the masks are canonicalised once, and kept canonical; once
        the hand is empty the question is `arrangeable`'s, which stops at the first arrangement."""
        low = self._low
        if rank is None:
            must, hand, rank = canonical(must, low), canonical(hand, low), 0
        if not hand:
            return _EMPTY_ONLY if self.arrangeable(must, rank, pending) else _NONE
        pool = must | hand | (must & hand & low) << 1
        bits = self._rank_bits
        while not pool & bits[rank]:
            if pending not in self._set_counts:
                return _NONE
            rank, pending = rank + 1, 0
        here = pool & bits[rank]
        to_sets = pending + here.bit_count() >= self._set_min  # as in _by_rank
        if pending and not to_sets:
            return _NONE
        lowest = here & -here  # copy 0 of the lowest card left
        runs = self._runs_from[lowest.bit_length() - 1]
        options: set[int] = set()
        if must & lowest:
            must = _less(must, lowest)
            if to_sets and pending < self._most:
                options.update(self.use_options(must, hand, rank, pending + 1))
            for run in runs:
                rest = run ^ lowest
                if rest & pool == rest:
                    used = rest & ~must  # the cards of the run that `must` lacks come from the hand
                    for more in self.use_options(_less(must, rest & must), _less(hand, used), rank, pending):
                        options.add(used | more | (used & more & low) << 1)
            return frozenset(options)
        hand = _less(hand, lowest)
        options.update(self.use_options(must, hand, rank, pending))  # this copy stays in hand
        if to_sets and pending < self._most:
            for more in self.use_options(must, hand, rank, pending + 1):
                options.add(lowest | more | (lowest & more & low) << 1)
        for run in runs:
            rest = run ^ lowest
            if rest & pool == rest:
                used = rest & ~must
                add = lowest | used
                for more in self.use_options(_less(must, rest & must), _less(hand, used), rank, pending):
                    options.add(add | more | (add & more & low) << 1)
        return frozenset(options)


def _less(mask: int, cards: int) -> int:
    """The canonical mask `mask` less one copy of each card of `cards` (copy 0 bits, each card
    in `mask`), canonical again: a card held twice keeps its copy 0."""
    twice = mask & cards << 1
    return mask ^ twice ^ cards & ~(twice >> 1)


def indexed(melds: list[int], size: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """The melds by their lowest card, and the melds through each card (in the order given)."""
    by_lowest: list[list[int]] = [[] for _ in range(size)]
    containing: list[list[int]] = [[] for _ in range(size)]
    for meld in melds:
        by_lowest[(meld & -meld).bit_length() - 1].append(meld)
        for card in cards_of(meld):
            containing[card].append(meld)
    return tuple(map(tuple, by_lowest)), tuple(map(tuple, containing))


def _is_set(deck, meld: int) -> bool:
    """Whether the meld is a set (its cards of one rank) rather than a run."""
    return len({deck.rank_of(c) for c in cards_of(meld)}) == 1


_NONE: frozenset[int] = frozenset()
_EMPTY_ONLY = frozenset((0,))


@lru_cache(maxsize=None)
def meld_table(profile: Profile) -> MeldTable:
    """The meld table of a profile, built once."""
    if profile.deck.copies == 1:
        return MeldTable(profile)
    return (AnySuitSetsMeldTable if profile.set_suits == "any" else MultisetMeldTable)(profile)


def _sets_with_identical_cards(profile: Profile) -> list[int]:
    """RUL-33 (SATD-SET-1): with two copies and `melds.set_suits: any`, the sets of one rank
    that hold two identical cards, as canonical masks (the sets without are C-SET-1's)."""
    deck = profile.deck
    if deck.copies == 1 or profile.set_suits != "any":
        return []
    sets = []
    n_suits = len(deck.suit_ids)
    for rank in range(len(deck.ranks)):
        for counts in _counts(n_suits, deck.copies):
            if sum(counts) in profile.set_sizes and max(counts) > 1:
                sets.append(sum(1 << deck.card(s, rank, k) for s, n in enumerate(counts) for k in range(n)))
    return sets


def _counts(n: int, most: int) -> list[tuple[int, ...]]:
    """Every tuple of `n` counts from 0 to `most`."""
    if n == 0:
        return [()]
    return [(k,) + rest for k in range(most + 1) for rest in _counts(n - 1, most)]


def _meld_rules(profile: Profile, meld: int) -> tuple[str, ...]:
    """Which rules make `meld` a meld: C-SET-1 for a set (a set with identical cards: the
    profile's `set_suits` rule and RUL-33); for a run C-RUN-1 and the profile's run
    length rule (RUL-2), C-RUN-2 when it crosses the gap left by the removed ranks (7 next to 10 or J),
    C-RUN-3 when it starts at the ace (ace low)."""
    deck = profile.deck
    cards = cards_of(meld)
    if len({deck.suit_of(c) for c in cards}) > 1:
        if len({deck.same_card(c) for c in cards}) < len(cards):
            return (profile.rule("set_suits"), "RUL-33")  # SATD-SET-1: identical cards in a set
        return ("C-SET-1",)
    rules = ["C-RUN-1", profile.rule("run_length"), "RUL-2", "RUL-29"]  # the run maximum (RUL-2 or RUL-29)
    ranks = [deck.ranks[deck.rank_of(c)] for c in cards]
    if "7" in ranks[:-1] and ranks[ranks.index("7") + 1] != "8":  # it crosses the removed ranks
        rules.append("C-RUN-2")
    if deck.rank_of(cards[0]) == 0:
        rules.append("C-RUN-3")
    return tuple(rules)
