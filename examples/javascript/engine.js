'use strict';
// A small, independent engine of ONE Conquian profile, anglo-american-v1, written from the rule
// documents (docs/rules/core.md, docs/rules/anglo-american-v1.md, docs/rules/rulings.md,
// docs/rules/reasons.md), not from the Python reference engine. Comments name the rule ids.
//
// It also has HOUSE RULES: switches, each changing one rule the way public engines are seen
// doing, so that the conformance suite and its diagnosis have a known-wrong engine to work on.
// HOUSE_RULES below lists them with the rule each one breaks. With no switch the engine follows
// the profile.
//
// Plain Node.js, CommonJS, no dependencies. The protocol side is conquian-adapter.js.

const PROFILE = 'anglo-american-v1';
const SUITS = ['S', 'H', 'D', 'C']; // AA-DECK-1, in deck order
const RANKS = ['A', '2', '3', '4', '5', '6', '7', 'J', 'Q', 'K']; // sequence order, ace low (C-RUN-3)
const DECK = SUITS.flatMap((s) => RANKS.map((r) => r + s)); // 40 cards, one copy each (C-DECK-1)
const HAND_SIZE = 10; // AA-DEAL-1
const TARGET = 11; // AA-GOAL-1
const RUN_MIN = 3; // C-RUN-1
const RUN_MAX = 8; // AA-RUN-1
const POINTS_TO_WIN = 3; // AA-MATCH-1

// name -> the rule it breaks and what the engine does instead.
const HOUSE_RULES = {
  'auto-take': { rule: 'AA-FORCE-1', says: 'a card that fits your own melds is taken automatically when you reject or pass it (the rival is never asked)' },
  'no-forcing': { rule: 'AA-FORCE-1', says: 'no forcing at all: a fitting card is rejected or passed like any other' },
  'seven-jack-gap': { rule: 'C-RUN-2', says: '7 and J are not neighbours: the removed 8, 9, 10 leave a gap' },
  'no-rearrange': { rule: 'C-ARR-2', says: 'exposed melds are never repartitioned: new cards extend one meld or form new melds' },
  'reshuffle': { rule: 'C-TURN-7', says: 'a reject with an empty stock turns the out-of-play cards over as a new stock instead of a draw' },
  'loose-reject-pass': { rule: 'C-TURN-5', says: 'a freshly revealed card may be rejected and a rival card passed' },
  'reveal-to-rival': { rule: 'C-TURN-4', says: 'after a reject the next stock card is revealed for the rival, not for the player who rejected' },
  'offer-back': { rule: 'C-TURN-3', says: 'a discard is offered back to the discarder instead of the rival' },
  'extension-forcing': { rule: 'RUL-3', says: 'a card is forced only when it extends one meld; a card that fits only by rearranging the melds goes like any other' },
  'win-at-target': { rule: 'AA-GOAL-1', says: 'a use that brings the exposed count to 11 or more wins as the cards go down, before the melds are checked' },
  'discard-into-hand': { rule: 'C-TURN-3', says: "a discard that fits the rival's melds goes into the rival's hand, and the rival discards next" },
};

class Refusal extends Error {
  constructor(reason, message) {
    super(message);
    this.reason = reason;
  }
}

function malformed(message) {
  return new Error(`malformed input: ${message}`);
}

function parseHouse(text) {
  const names = (text || '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const name of names) {
    if (!HOUSE_RULES[name]) throw new Error(`unknown house rule ${JSON.stringify(name)}; known: ${Object.keys(HOUSE_RULES).join(', ')}`);
  }
  return new Set(names);
}

// ---------------------------------------------------------------------------------------------
// Cards and melds
// ---------------------------------------------------------------------------------------------

// C-DECK-2: the letter form is what the protocol carries; the glyph form is accepted from users.
const GLYPHS = { '♠': 'S', '♥': 'H', '♦': 'D', '♣': 'C' };

function readCard(text) {
  if (typeof text !== 'string') throw malformed(`a card is a string, got ${JSON.stringify(text)}`);
  const last = [...text].pop();
  const card = GLYPHS[last] ? text.slice(0, -last.length) + GLYPHS[last] : text;
  if (!DECK.includes(card)) throw malformed(`${JSON.stringify(text)} is not a card of ${PROFILE}`);
  return card;
}

const suitOf = (card) => card.slice(-1);
const rankOf = (card) => RANKS.indexOf(card.slice(0, -1));
const deckOrder = (a, b) => DECK.indexOf(a) - DECK.indexOf(b);

class Melds {
  constructor(house) {
    this.house = house;
    this.runMax = RUN_MAX;
  }

  // C-RUN-2: a removed rank leaves no gap, so rank index i is followed by i + 1 (7 by J).
  // House rule seven-jack-gap: 7 is followed by nothing.
  follows(low, high) {
    if (this.house.has('seven-jack-gap') && RANKS[low] === '7') return false;
    return high === low + 1;
  }

  // C-SET-1: 3 or 4 cards of one rank, each of a different suit.
  isSet(cards) {
    return (cards.length === 3 || cards.length === 4) &&
      cards.every((c) => rankOf(c) === rankOf(cards[0])) &&
      new Set(cards.map(suitOf)).size === cards.length;
  }

  // C-RUN-1, C-RUN-3 (ace low, no wrap: the order simply ends at K), AA-RUN-1 (3 to 8 cards).
  isRun(cards) {
    if (cards.length < RUN_MIN || cards.length > this.runMax) return false;
    const sorted = [...cards].sort((a, b) => rankOf(a) - rankOf(b));
    return sorted.every((c, i) => suitOf(c) === suitOf(sorted[0]) && (i === 0 || this.follows(rankOf(sorted[i - 1]), rankOf(c))));
  }

  isMeld(cards) {
    return this.isSet(cards) || this.isRun(cards);
  }

  // C-MELD-1, C-ARR-1: a partition of `cards` into melds, or null. The lowest card left (deck
  // order: by suit, then rank) is in some meld: a run that starts at it (nothing lower of its
  // suit is left) or a set of its rank. Try each, then arrange the rest.
  arrange(cards) {
    if (cards.length === 0) return [];
    const [low, ...rest] = [...cards].sort(deckOrder);
    const candidates = [];
    const run = [low];
    const nextOf = (top) => rest.find((c) => suitOf(c) === suitOf(low) && this.follows(rankOf(top), rankOf(c)));
    for (let next = nextOf(low); next && run.length < this.runMax; next = nextOf(next)) {
      run.push(next);
      if (run.length >= RUN_MIN) candidates.push([...run]);
    }
    const sameRank = rest.filter((c) => rankOf(c) === rankOf(low));
    for (const others of subsets(sameRank)) {
      if (this.isSet([low, ...others])) candidates.push([low, ...others]);
    }
    for (const meld of candidates) {
      const found = this.arrange(rest.filter((c) => !meld.includes(c)));
      if (found !== null) return [meld, ...found];
    }
    return null;
  }

  // The melds after `added` cards join a player's `melds`, or null if the cards cannot be
  // exposed. C-ARR-2: the whole set is repartitioned freely. House rule no-rearrange: each
  // existing meld is kept and may only grow; the cards left over must form new melds.
  add(melds, added) {
    if (!this.house.has('no-rearrange')) return this.arrange([...melds.flat(), ...added]);
    return this.place(melds, added);
  }

  place(melds, fresh) {
    if (melds.length === 0) return this.arrange(fresh);
    const [meld, ...others] = melds;
    const related = fresh.filter((c) => suitOf(c) === suitOf(meld[0]) || rankOf(c) === rankOf(meld[0]));
    for (const extra of subsets(related)) {
      if (extra.length > 0 && !this.isMeld([...meld, ...extra])) continue;
      const rest = this.place(others, fresh.filter((c) => !extra.includes(c)));
      if (rest !== null) return [[...meld, ...extra], ...rest];
    }
    return null;
  }

  // C-ARR-4, RUL-3: a card fits a player's melds when the exposed cards plus that card, with no
  // hand card, can be exposed. No exposed cards: no melds to fit.
  fits(melds, card) {
    return melds.length > 0 && this.add(melds, [card]) !== null;
  }

  // House rule extension-forcing: the card extends one meld of some arrangement of the exposed
  // cards (a run one longer, a set of three made four), nothing else moving.
  extends(melds, card) {
    return this.arrangements(melds.flat()).some((arrangement) => arrangement.some((meld) => this.isMeld([...meld, card])));
  }

  // Every partition of `cards` into melds (as arrange, without stopping at the first).
  arrangements(cards) {
    if (cards.length === 0) return [[]];
    const [low, ...rest] = [...cards].sort(deckOrder);
    const out = [];
    for (const others of subsets(rest)) {
      const meld = [low, ...others];
      if (!this.isMeld(meld)) continue;
      for (const more of this.arrangements(rest.filter((c) => !others.includes(c)))) out.push([meld, ...more]);
    }
    return out;
  }
}

// Every subset of a list (the empty one first).
function subsets(items) {
  let out = [[]];
  for (const item of items) out = out.concat(out.map((s) => [...s, item]));
  return out;
}

// ---------------------------------------------------------------------------------------------
// A deal
// ---------------------------------------------------------------------------------------------

class Deal {
  constructor(dealer, hands, stock, house = new Set()) {
    if (dealer !== 0 && dealer !== 1) throw malformed(`dealer must be 0 or 1, got ${JSON.stringify(dealer)}`);
    if (!Array.isArray(hands) || hands.length !== 2) throw malformed('hands: two hands are dealt');
    if (!Array.isArray(stock)) throw malformed('stock: a list of cards');
    hands = hands.map((hand, i) => {
      if (!Array.isArray(hand) || hand.length !== HAND_SIZE) throw malformed(`hands[${i}]: a hand is dealt ${HAND_SIZE} cards`);
      return hand.map(readCard);
    });
    stock = stock.map(readCard);
    const all = [...hands.flat(), ...stock];
    if (all.length !== DECK.length || new Set(all).size !== DECK.length) throw malformed('a setup is the whole deck, each card once');
    this.house = house;
    this.melds = new Melds(house);
    this.dealer = dealer;
    this.hands = hands;
    this.exposed = [[], []]; // each seat's melds (only the set of cards is normative: RUL-13)
    this.stock = stock; // top first (RUL-15)
    this.outOfPlay = [];
    this.available = null; // {card, revealed, offered_to}
    this.phase = 'play';
    this.discarder = null; // the seat that must discard, in phase 'discard'
    this.pending = null; // 'reject' | 'pass' during 'force_decision'
    this.outcome = null;
    this.history = [];
    // AA-OPEN-1, RUL-7: no exchange; the top stock card is revealed for the non-dealer.
    this.reveal(1 - dealer);
    this.openingCard = true; // until the opening card is taken or rejected
  }

  // C-DEAL-1, AA-DEAL-1, RUL-10: one card at a time, alternately, non-dealer first.
  static fromDeck(dealer, deck, house) {
    if (!Array.isArray(deck) || deck.length !== DECK.length) throw malformed(`deck: ${DECK.length} cards`);
    const hands = [[], []];
    for (let i = 0; i < 2 * HAND_SIZE; i += 1) hands[i % 2 === 0 ? 1 - dealer : dealer].push(deck[i]);
    return new Deal(dealer, hands, deck.slice(2 * HAND_SIZE), house);
  }

  // A deal at a mid-deal position (docs/protocol.md, "Setting up a position"): the canonical
  // state as state() writes it (the stock in order), the public history, and the opening-card
  // flag, so that the engine can be put back at the reference's position after a divergence and
  // play on by its own rules.
  static fromPosition(position, house = new Set()) {
    if (position === null || typeof position !== 'object') throw malformed('position: an object with state, history and opening_card');
    const deal = Deal.fromState(position.state, house);
    if (!Array.isArray(position.history)) throw malformed('position.history: a list of events');
    deal.history = position.history.map((e) => ({ ...e }));
    if (typeof position.opening_card !== 'boolean') throw malformed('position.opening_card: true or false');
    // AA-OPEN-1, RUL-7: the opening card is on offer from its reveal for the non-dealer until it
    // is taken or rejected (a pass gives it to the dealer, still the opening card). Only then is
    // the whole stock but that card left, nothing exposed and nothing out of play.
    const untouched = deal.available !== null && deal.stock.length === DECK.length - 2 * HAND_SIZE - 1 &&
      deal.outOfPlay.length === 0 && deal.exposed.every((ms) => ms.length === 0);
    if (position.opening_card && !untouched) throw malformed('position.opening_card: true only while the opening card is still on offer');
    deal.openingCard = position.opening_card;
    return deal;
  }

  // A deal from a canonical state alone (the history before it unknown: it starts empty).
  static fromState(s, house = new Set()) {
    if (s === null || typeof s !== 'object') throw malformed('a state is an object');
    if (s.profile !== PROFILE) throw malformed(`this engine plays ${PROFILE} only`);
    const phases = ['play', 'discard', 'force_decision', 'over'];
    if (!phases.includes(s.phase)) throw malformed(`phase: one of ${phases.join(', ')}`);
    const deal = Object.create(Deal.prototype);
    deal.house = house;
    deal.melds = new Melds(house);
    deal.dealer = s.dealer;
    deal.hands = s.hands.map((h) => h.map(readCard));
    deal.exposed = s.exposed.map((cards, seat) => {
      const melds = deal.melds.arrange(cards.map(readCard));
      if (melds === null) throw malformed(`exposed[${seat}]: no valid arrangement`);
      return melds;
    });
    deal.stock = s.stock.map(readCard);
    deal.outOfPlay = s.out_of_play.map(readCard);
    deal.available = s.available && { card: readCard(s.available.card), revealed: s.available.revealed === true, offered_to: s.available.offered_to };
    deal.phase = s.phase;
    deal.discarder = s.phase === 'discard' ? s.to_act[0] : null;
    deal.pending = s.phase === 'force_decision' ? s.pending : null;
    deal.outcome = s.outcome && { ...s.outcome };
    deal.history = [];
    deal.openingCard = false;
    const all = [...deal.hands.flat(), ...deal.exposed.flat(2), ...deal.stock, ...deal.outOfPlay];
    if (deal.available) all.push(deal.available.card);
    if (all.length !== DECK.length || new Set(all).size !== DECK.length) throw malformed('a state holds the whole deck, each card once');
    if ((s.phase === 'play' || s.phase === 'force_decision') !== (deal.available !== null)) throw malformed('available: a card in play and force_decision only');
    return deal;
  }

  // The position this deal is at, as fromPosition takes it.
  position() {
    const { melds, ...state } = this.state();
    return { state, history: this.history.map((e) => ({ ...e })), opening_card: this.openingCard };
  }

  clone() {
    const copy = Object.create(Deal.prototype);
    Object.assign(copy, this);
    copy.hands = this.hands.map((h) => [...h]);
    copy.exposed = this.exposed.map((ms) => ms.map((m) => [...m]));
    copy.stock = [...this.stock];
    copy.outOfPlay = [...this.outOfPlay];
    copy.available = this.available && { ...this.available };
    copy.history = [...this.history];
    return copy;
  }

  toAct() {
    if (this.phase === 'over') return [];
    if (this.phase === 'discard') return [this.discarder];
    if (this.phase === 'force_decision') return [1 - this.available.offered_to]; // AA-FORCE-1: the rival
    return [this.available.offered_to];
  }

  exposedCount(seat) {
    return this.exposed[seat].flat().length;
  }

  reveal(seat) {
    const card = this.stock.shift();
    this.available = { card, revealed: true, offered_to: seat };
    this.history.push({ event: 'reveal', card, seat });
  }

  // ---- actions -------------------------------------------------------------------------------

  // Apply an action; throws a Refusal (state untouched) or a malformed-input Error.
  apply(seat, action) {
    action = readAction(action);
    if (seat !== 0 && seat !== 1) throw malformed(`seat must be 0 or 1, got ${JSON.stringify(seat)}`);
    this.check(seat, action);
    this[`do_${action.type}`](seat, action);
  }

  // The refusals of docs/rules/reasons.md, in their order of precedence.
  check(seat, action) {
    const type = action.type;
    if (this.phase === 'over') throw new Refusal('game_over', 'the deal has a result (C-END-4)');
    if (!this.toAct().includes(seat)) throw new Refusal('not_your_turn', `seat ${seat} may not act now; waiting for [${this.toAct()}] (C-TURN-6)`);
    if (this.phase === 'discard' && type !== 'discard') throw new Refusal('must_discard', 'discard one hand card (C-TURN-3, C-FORCE-1)');
    if (this.phase === 'force_decision' && type !== 'force' && type !== 'decline') {
      throw new Refusal('must_decide_force', 'force or decline (AA-FORCE-1, RUL-14)');
    }
    if (this.phase === 'play' && type === 'discard') throw new Refusal('no_discard_now', 'no discard outside the discard step (C-TURN-6)');
    if (this.phase === 'play' && type === 'decline') throw new Refusal('nothing_to_decline', 'no force decision is pending (AA-FORCE-1)');
    if (type === 'exchange') throw new Refusal('not_in_profile', 'anglo-american-v1 has no exchange (AA-OPEN-1)');
    const named = type === 'use' ? action.cards : type === 'discard' ? [action.card] : [];
    const missing = named.filter((c) => !this.hands[seat].includes(c));
    if (missing.length > 0) throw new Refusal('card_not_in_hand', `seat ${seat} does not hold ${missing.join(' ')} (C-TURN-2, C-TURN-3)`);
    const card = this.available && this.available.card;
    // House rule win-at-target: a use reaching the target is counted a win before any meld is checked.
    const winsUnchecked = type === 'use' && this.house.has('win-at-target') && this.exposedCount(seat) + 1 + action.cards.length >= TARGET;
    if (type === 'use' && !winsUnchecked && this.melds.add(this.exposed[seat], [card, ...action.cards]) === null) {
      throw new Refusal('no_valid_arrangement', 'the exposed cards would have no valid arrangement (C-TURN-2, C-ARR-1)');
    }
    const loose = this.house.has('loose-reject-pass'); // house rule: C-TURN-5 dropped
    if (type === 'reject' && this.available.revealed && !loose) {
      throw new Refusal('cannot_reject_revealed', 'a freshly revealed card is used or passed (C-TURN-5)');
    }
    if (type === 'pass' && !this.available.revealed && !loose) {
      throw new Refusal('cannot_pass_rival_card', "the rival's card is used or rejected (C-TURN-5)");
    }
    if (type === 'force' && this.phase === 'play') {
      throw new Refusal('no_forcing_onto_rival', "no card goes onto the rival's melds (AA-MELD-1)");
    }
  }

  // C-TURN-2: take the available card and expose it with the named hand cards.
  do_use(seat, action) {
    const card = this.available.card;
    // House rule win-at-target: cards that form no melds still go down, as one heap.
    this.exposed[seat] = this.melds.add(this.exposed[seat], [card, ...action.cards]) || [...this.exposed[seat], [card, ...action.cards]];
    this.hands[seat] = this.hands[seat].filter((c) => !action.cards.includes(c));
    this.history.push({ event: 'use', seat, card, cards: [...action.cards] });
    this.taken(seat, 'target_reached');
  }

  // After a card joins a seat's melds: C-END-1 (the target wins at once) or C-TURN-3 (discard).
  taken(seat, how) {
    this.available = null;
    this.openingCard = false;
    this.pending = null;
    const reached = this.house.has('win-at-target') ? this.exposedCount(seat) >= TARGET : this.exposedCount(seat) === TARGET;
    if (reached) return this.end({ result: 'win', winner: seat, how });
    this.phase = 'discard';
    this.discarder = seat;
  }

  // C-TURN-3: the discard is offered to the rival, whose turn begins.
  do_discard(seat, action) {
    this.hands[seat] = this.hands[seat].filter((c) => c !== action.card);
    this.history.push({ event: 'discard', seat, card: action.card });
    this.phase = 'play';
    this.discarder = null;
    // House rule offer-back: the discarder is offered its own discard (breaks C-TURN-3).
    const to = this.house.has('offer-back') ? seat : 1 - seat;
    this.available = { card: action.card, revealed: false, offered_to: to };
    if (this.house.has('discard-into-hand') && this.melds.fits(this.exposed[to], action.card)) {
      // House rule discard-into-hand: the fitting discard joins the receiver's hand (breaks C-TURN-3).
      this.hands[to].push(action.card);
      this.available = null;
      this.phase = 'discard';
      this.discarder = to;
    }
  }

  do_reject(seat) {
    this.letGo(seat, 'reject');
  }

  do_pass(seat) {
    this.letGo(seat, 'pass');
  }

  // AA-FORCE-1, RUL-14: a reject or pass of a card that fits the active player's own melds
  // first asks the rival to force or decline.
  letGo(seat, how) {
    const card = this.available.card;
    // House rule extension-forcing: only a card extending one meld is forced (breaks RUL-3).
    const fits = this.house.has('extension-forcing') ? this.exposed[seat].length > 0 && this.melds.extends(this.exposed[seat], card)
      : this.melds.fits(this.exposed[seat], card);
    if (fits && this.house.has('auto-take')) {
      // House rule auto-take: the card goes onto the player's melds, nobody asked.
      this.exposed[seat] = this.melds.add(this.exposed[seat], [card]);
      this.history.push({ event: 'force', seat: 1 - seat, card, automatic: true });
      return this.taken(seat, 'forced_to_target');
    }
    if (fits && !this.house.has('no-forcing')) {
      this.history.push({ event: how, seat, card, pending: true });
      this.phase = 'force_decision';
      this.pending = how;
      return;
    }
    this.history.push({ event: how, seat, card });
    this.carryOut(seat, how);
  }

  carryOut(seat, how) {
    const card = this.available.card;
    this.phase = 'play';
    this.pending = null;
    if (how === 'pass') {
      // C-TURN-5: a passed card is offered to the rival, as a rival card.
      this.available = { card, revealed: false, offered_to: 1 - seat };
      return;
    }
    // C-TURN-4: out of play, and the top stock card is revealed for the same player.
    this.outOfPlay.push(card);
    this.available = null;
    this.openingCard = false;
    if (this.stock.length === 0) {
      if (!this.house.has('reshuffle')) return this.end({ result: 'draw', winner: null, how: 'stock_exhausted' }); // C-END-3, AA-END-1
      // House rule reshuffle: the out-of-play cards become a new stock (breaks C-TURN-7).
      this.stock = this.outOfPlay;
      this.outOfPlay = [];
    }
    this.reveal(this.house.has('reveal-to-rival') ? 1 - seat : seat);
  }

  // AA-FORCE-2, RUL-11: the forced card joins the receiver's melds alone; the receiver then
  // discards (RUL-5) unless it completes 11 cards (RUL-6).
  do_force(seat) {
    const receiver = 1 - seat;
    const card = this.available.card;
    this.exposed[receiver] = this.melds.add(this.exposed[receiver], [card]);
    this.history.push({ event: 'force', seat, card });
    this.taken(receiver, 'forced_to_target');
  }

  // RUL-14: on a decline the reject or pass takes place as declared.
  do_decline(seat) {
    this.history.push({ event: 'decline', seat });
    this.carryOut(1 - seat, this.pending);
  }

  end(outcome) {
    this.phase = 'over';
    this.available = null;
    this.pending = null;
    this.outcome = outcome;
    this.history.push({ event: 'end', ...outcome });
  }

  // ---- what the protocol asks ----------------------------------------------------------------

  legal(seat) {
    if (!this.toAct().includes(seat)) return [];
    if (this.phase === 'discard') return this.hands[seat].map((card) => ({ type: 'discard', card }));
    if (this.phase === 'force_decision') return [{ type: 'force' }, { type: 'decline' }];
    const actions = [];
    for (const cards of subsets(this.hands[seat])) {
      if (this.melds.add(this.exposed[seat], [this.available.card, ...cards]) !== null) actions.push({ type: 'use', cards });
    }
    const loose = this.house.has('loose-reject-pass');
    if (!this.available.revealed || loose) actions.push({ type: 'reject' });
    if (this.available.revealed || loose) actions.push({ type: 'pass' });
    return actions;
  }

  state() {
    return {
      profile: PROFILE,
      dealer: this.dealer,
      phase: this.phase,
      to_act: this.toAct(),
      hands: this.hands.map((h) => [...h].sort(deckOrder)),
      exposed: this.exposed.map((ms) => ms.flat().sort(deckOrder)),
      available: this.available && { ...this.available },
      stock: [...this.stock],
      out_of_play: [...this.outOfPlay],
      exchange: null,
      pending: this.pending,
      outcome: this.outcome && { ...this.outcome },
      melds: this.exposed.map((ms) => ms.map((m) => [...m].sort(deckOrder))), // extra key, never compared
    };
  }

  // C-OBS-1: the seat's own hand, never the rival's nor the stock order.
  observation(seat) {
    if (seat !== 0 && seat !== 1) throw malformed(`seat must be 0 or 1, got ${JSON.stringify(seat)}`);
    const s = this.state();
    return {
      seat,
      profile: s.profile,
      dealer: s.dealer,
      phase: s.phase,
      to_act: s.to_act,
      hand: s.hands[seat],
      hand_counts: this.hands.map((h) => h.length),
      exposed: s.exposed,
      available: s.available,
      stock_count: this.stock.length,
      out_of_play: s.out_of_play,
      exchange: null,
      pending: s.pending,
      outcome: s.outcome,
      history: this.history.map((e) => ({ ...e })),
    };
  }

  // Numbers of legal action sequences of length 1..depth; every seat that may act counts.
  perft(depth, keyOf = null) {
    const counts = new Array(depth).fill(0);
    const divide = {};
    const walk = (deal, level, key) => {
      if (level === depth) return;
      for (const seat of deal.toAct()) {
        for (const action of deal.legal(seat)) {
          const next = deal.clone();
          next.apply(seat, action);
          const k = level === 0 && keyOf ? keyOf(seat, action) : key;
          if (level === 0 && k !== null) divide[k] = 0; // one entry per legal first action
          counts[level] += 1;
          if (k !== null && level === depth - 1) divide[k] = (divide[k] || 0) + 1;
          walk(next, level + 1, k);
        }
      }
    };
    walk(this, 0, null);
    return keyOf ? { counts, divide } : counts;
  }
}

// Actions as docs/protocol.md writes them; anything unreadable is malformed input, not a refusal.
function readAction(action) {
  if (action === null || typeof action !== 'object' || Array.isArray(action)) throw malformed('an action is an object');
  const type = action.type;
  if (type === 'use') {
    if (!Array.isArray(action.cards)) throw malformed('a use names its hand cards in "cards"');
    const cards = action.cards.map(readCard);
    if (new Set(cards).size !== cards.length) throw malformed('a card is named twice in one use');
    return { type, cards };
  }
  if (type === 'discard' || type === 'exchange') return { type, card: readCard(action.card) };
  if (['reject', 'pass', 'force', 'decline'].includes(type)) return { type };
  throw malformed(`unknown action type ${JSON.stringify(type)}`);
}

// AA-MATCH-1: 1 point a win, 0 a draw, first to 3; the dealer alternates every deal.
function scoreMatch(firstDealer, deals) {
  if (firstDealer !== 0 && firstDealer !== 1) throw malformed('first_dealer must be 0 or 1');
  if (!Array.isArray(deals)) throw malformed('deals: a list');
  const points = [0, 0];
  let dealer = firstDealer;
  let winner = null;
  deals.forEach((deal, i) => {
    if (winner !== null) throw new Error(`deals[${i}]: the match was already won before this deal`);
    if (deal === null || typeof deal !== 'object' || !['win', 'draw'].includes(deal.result)) {
      throw malformed(`deals[${i}]: an outcome {result, winner, how}`);
    }
    if (deal.result === 'win') {
      if (deal.winner !== 0 && deal.winner !== 1) throw malformed(`deals[${i}]: a win names its winner`);
      points[deal.winner] += 1;
      if (points[deal.winner] >= POINTS_TO_WIN) winner = deal.winner;
    }
    dealer = 1 - dealer;
  });
  return { points, next_dealer: dealer, winner };
}

module.exports = { PROFILE, DECK, HOUSE_RULES, Deal, Melds, Refusal, parseHouse, readCard, scoreMatch };
