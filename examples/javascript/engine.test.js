'use strict';
// The engine's own tests: node --test examples/javascript/
// What the protocol cannot carry (the glyph form of C-DECK-2) and the meld rules one by one; the
// conformance corpus covers the rest (tests/test_js_engine.py runs it).

const test = require('node:test');
const assert = require('node:assert/strict');
const { Deal, Melds, HOUSE_RULES, parseHouse, readCard, scoreMatch, DECK } = require('./engine.js');

const plain = new Melds(new Set());
const gap = new Melds(parseHouse('seven-jack-gap'));
const fixed = new Melds(parseHouse('no-rearrange'));
const cards = (text) => text.split(' ');

test('C-DECK-1, AA-DECK-1: 40 cards, A to K without 8 9 10', () => {
  assert.equal(DECK.length, 40);
  assert.equal(new Set(DECK).size, 40);
  assert.ok(DECK.includes('JC') && !DECK.includes('8H'));
});

test('C-DECK-2: the glyph form is read as the letter form; anything else is malformed', () => {
  assert.equal(readCard('Q♠'), 'QS');
  assert.equal(readCard('4♥'), '4H');
  assert.equal(readCard('QS'), 'QS');
  for (const bad of ['8H', '10H', 'QX', '', 'qs', 7]) assert.throws(() => readCard(bad), /malformed/);
});

test('C-SET-1: 3 or 4 of a rank, different suits', () => {
  assert.ok(plain.isSet(cards('JS JH JD')));
  assert.ok(plain.isSet(cards('JS JH JD JC')));
  assert.ok(!plain.isSet(cards('JS JH')));
});

test('C-RUN-1, C-RUN-2, C-RUN-3: consecutive in one suit, 7 then J, ace low, no wrap', () => {
  assert.ok(plain.isRun(cards('4S 5S 6S')));
  assert.ok(!plain.isRun(cards('4S 5S 7S')));
  assert.ok(!plain.isRun(cards('4S 5H 6S')));
  assert.ok(plain.isRun(cards('6S 7S JS')));
  assert.ok(plain.isRun(cards('AD 2D 3D')));
  assert.ok(!plain.isRun(cards('QD KD AD')));
});

test('AA-RUN-1: at most 8 in a run, though 9 cards of a suit still arrange as two runs', () => {
  assert.ok(plain.isRun(cards('2C 3C 4C 5C 6C 7C JC QC')));
  assert.ok(!plain.isRun(cards('AC 2C 3C 4C 5C 6C 7C JC QC')));
  assert.notEqual(plain.arrange(cards('AC 2C 3C 4C 5C 6C 7C JC QC')), null);
});

test('C-MELD-1: a card is in one meld only', () => {
  assert.equal(plain.arrange(cards('3H 4H 5H 5C 5D')), null);
  assert.notEqual(plain.arrange(cards('3H 4H 5H 5C 5D 5S')), null);
});

test('C-ARR-4, RUL-3: a card fits by any repartition; house rule no-rearrange: by extension only', () => {
  const melds = [cards('5H 6H 7H'), cards('5S 6S 7S'), cards('5D 6D 7D')];
  assert.ok(plain.fits(melds, '5C'));
  assert.ok(!fixed.fits(melds, '5C'));
  assert.ok(fixed.fits(melds, '4H'));
  assert.ok(!plain.fits([], '5C')); // no melds, nothing to fit
});

test('house rule seven-jack-gap: 6 7 J is no run any more (breaks C-RUN-2)', () => {
  assert.ok(!gap.isRun(cards('6S 7S JS')));
  assert.ok(gap.isRun(cards('JS QS KS')));
  assert.equal(gap.arrange(cards('6S 7S JS')), null);
});

test('AA-DEAL-1: from a deck order, one card at a time, non-dealer first', () => {
  const deal = Deal.fromDeck(0, DECK);
  const s = deal.state();
  assert.deepEqual(new Set(s.hands[1]), new Set(DECK.filter((_, i) => i < 20 && i % 2 === 0)));
  assert.deepEqual(new Set(s.hands[0]), new Set(DECK.filter((_, i) => i < 20 && i % 2 === 1)));
  // AA-OPEN-1: the top stock card is revealed for the non-dealer
  assert.deepEqual(s.available, { card: DECK[20], revealed: true, offered_to: 1 });
  assert.deepEqual(s.stock, DECK.slice(21));
});

// AA-EX-1, the worked example: 4H 5H and an unwanted QS in hand, 6H left by the rival.
function workedExample(offered) {
  const hands = [cards('4H 5H QS AS 2S JD QD KD 3C 4C'), cards('KS JS 7S 6S 5S AD 2D 3D KC QC')];
  const deal = new Deal(0, hands, DECK.filter((c) => !hands.flat().includes(c)));
  // As if seat 1 had passed the opening card and then discarded `offered` (C-TURN-3).
  deal.outOfPlay.push(deal.available.card);
  deal.stock = deal.stock.filter((c) => c !== offered);
  deal.available = { card: offered, revealed: false, offered_to: 0 };
  return deal;
}

test('AA-EX-1: use 6H with 4H 5H, discard QS; 7H cannot be kept to wait for 6H', () => {
  const deal = workedExample('6H');
  deal.apply(0, { type: 'use', cards: ['4♥', '5♥'] });
  deal.apply(0, { type: 'discard', card: 'Q♠' });
  assert.deepEqual(deal.state().exposed[0], cards('4H 5H 6H'));
  assert.deepEqual(deal.state().available, { card: 'QS', revealed: false, offered_to: 1 });
  const other = workedExample('7H');
  assert.throws(() => other.apply(0, { type: 'use', cards: ['4H', '5H'] }), (e) => e.reason === 'no_valid_arrangement');
});

test('reasons.md precedence: a use naming a card not held, by the seat that must discard, is must_discard', () => {
  const deal = workedExample('6H');
  deal.apply(0, { type: 'use', cards: ['4H', '5H'] });
  assert.throws(() => deal.apply(0, { type: 'use', cards: ['9H'] }), /malformed/);
  assert.throws(() => deal.apply(0, { type: 'use', cards: ['KC'] }), (e) => e.reason === 'must_discard');
  assert.throws(() => deal.apply(1, { type: 'discard', card: 'KS' }), (e) => e.reason === 'not_your_turn');
});

test('AA-MATCH-1: first to 3 points, the dealer alternating, nothing after the win', () => {
  const win0 = { result: 'win', winner: 0, how: 'target_reached' };
  const draw = { result: 'draw', winner: null, how: 'stock_exhausted' };
  assert.deepEqual(scoreMatch(0, [win0, draw, win0, win0]), { points: [3, 0], next_dealer: 0, winner: 0 });
  assert.deepEqual(scoreMatch(1, []), { points: [0, 0], next_dealer: 1, winner: null });
  assert.throws(() => scoreMatch(0, [win0, win0, win0, draw]), /already won/);
});

test('every house rule names the rule it breaks; an unknown name is refused', () => {
  for (const [name, { rule }] of Object.entries(HOUSE_RULES)) assert.match(rule, /^((C|AA)-[A-Z]+|RUL)-\d+$/, name);
  assert.throws(() => parseHouse('auto-take,nope'), /unknown house rule "nope"/);
  assert.deepEqual([...parseHouse(' auto-take , no-forcing ')], ['auto-take', 'no-forcing']);
});

test('Deal.fromState: a deal rebuilt from its canonical state goes on exactly as the original', () => {
  const deal = Deal.fromDeck(1, DECK);
  // Play a few steps: seat 0 passes the opening card, seat 1 rejects it, and so on.
  const play = (d) => {
    for (let i = 0; i < 6 && d.phase !== 'over'; i += 1) {
      const seat = d.toAct()[0];
      const actions = d.legal(seat);
      d.apply(seat, actions[actions.length - 1]);
    }
  };
  play(deal);
  const copy = Deal.fromState(JSON.parse(JSON.stringify(deal.state())));
  for (const seat of [0, 1]) assert.deepEqual(copy.legal(seat), deal.legal(seat));
  assert.deepEqual(copy.perft(3), deal.perft(3));
  play(deal);
  play(copy);
  const { melds: a, ...mine } = deal.state();
  const { melds: b, ...theirs } = copy.state();
  assert.deepEqual(theirs, mine);
  assert.throws(() => Deal.fromState({ ...deal.state(), stock: [] }), /whole deck/);
});

test('Deal.fromPosition: the opening-card flag is kept, and a deal taken up at any position goes on as the original', () => {
  const deal = Deal.fromDeck(0, DECK);
  const positions = [];
  for (let i = 0; i < 12 && deal.phase !== 'over'; i += 1) {
    positions.push(JSON.parse(JSON.stringify(deal.position())));
    const seat = deal.toAct()[0];
    const actions = deal.legal(seat);
    deal.apply(seat, actions[actions.length - 1]); // a pass or a reject: the starter goes round
  }
  // AA-OPEN-1: the starter stays the opening card when the non-dealer passes it to the dealer,
  // until it is taken or rejected.
  assert.deepEqual(positions.slice(0, 3).map((p) => p.opening_card), [true, true, false]);
  for (const position of positions) {
    const copy = Deal.fromPosition(position);
    assert.deepEqual(copy.position(), position);
    for (const seat of [0, 1]) assert.deepEqual(copy.observation(seat), Deal.fromPosition(position).observation(seat));
  }
  const later = positions[positions.length - 1];
  assert.throws(() => Deal.fromPosition({ ...later, opening_card: true }), /opening_card/);
  assert.throws(() => Deal.fromPosition({ ...later, opening_card: 'yes' }), /opening_card/);
  assert.throws(() => Deal.fromPosition({ ...later, history: null }), /history/);
});
