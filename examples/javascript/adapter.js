#!/usr/bin/env node
// A conquian-ref conformance adapter TEMPLATE for an engine written in JavaScript.
//
// Plain Node.js (>= 18), CommonJS, no dependencies. The protocol loop is done: it reads one
// JSON request per line on stdin, writes one JSON answer per line on stdout, echoes every
// request's `seq`, answers the `start` handshake from CONFIG, exits after `stop` or when stdin
// closes, and turns every problem (malformed JSON, an unknown command, an exception thrown by
// a hook) into an error answer instead of crashing.
//
// What you do:
//   1. edit CONFIG (just below): your engine's name and version, the profiles it plays and the
//      capabilities it has;
//   2. fill in the ENGINE HOOKS (further below), starting with setup, apply and state;
//   3. run   conquian-ref check --impl "node examples/javascript/adapter.js" --validate-messages -k tc-00
//
// The contract is docs/protocol.md; the step-by-step guide is docs/implementers.md.
//
// Logging: stdout belongs to the protocol. console.log / console.info / console.debug are
// redirected to stderr below, so a stray log line cannot corrupt an answer. The runner keeps
// the last lines of stderr and shows them when something goes wrong, so log freely there.

'use strict';

const readline = require('readline');

// ================================================================================================
// CONFIG: what the `start` handshake declares (docs/protocol.md, "The handshake" and
// "Capabilities"). Declare only what your hooks really do: the runner skips every scenario of a
// profile you do not list, and every scenario needing a capability you do not list.
// ================================================================================================
const CONFIG = {
  implementation: {
    name: 'my-conquian-js', // your engine's name (non-empty)
    version: '0.0.0', // your engine's version
    language: 'javascript',
    homepage: null, // 'https://example.org/my-conquian' or null
    issues: null, // where deviations are discussed, or null
  },
  // Any of the profile ids that `conquian-ref check` knows (the keys of PROFILES below).
  profiles: ['torno-cisneros-v1', 'anglo-american-v1'],
  // 'state' is required. Then at least one of 'setup_hands' / 'setup_deck' (the runner converts
  // between the two through the profile's dealing pattern). Optional, each unlocking more
  // scenarios: 'reason_codes', 'legal_actions', 'observation', 'perft', 'match', and for the
  // profiles that need them 'stakes', 'four_seats', 'duplicate_cards' (README.md). Declare
  // 'setup_position' only if your engine can restore a deal at a mid-deal position (the hook
  // setupPosition below): the runner can then put it at the reference's position after a
  // divergence and go on past it.
  capabilities: ['setup_hands', 'state'],
};

const PROTOCOL_VERSION = 1;

// ================================================================================================
// ENGINE HOOKS: replace each body with calls into your engine. Until then each one throws
// "not implemented: <hook>", which the loop reports as an error answer: the runner marks the
// scenario as errored, except for `apply`, where an error answer means "my engine cannot
// express this action" and the scenario fails with that cause (docs/implementers.md, section 10).
//
// Cards are strings in the profile's notation: '7O', '12B' (torno-cisneros-v1), 'QS', '4H'
// (anglo-american-v1 and the spielanleitung-* profiles). Seats are 0 and 1, or 0 to 3 in a
// four-seat profile (capability 'four_seats'); with two decks (capability 'duplicate_cards') a
// card list may name a card twice: the two copies. Lists of cards that are a stock or a deck are top
// card first. A hook may return a Promise (it is awaited); requests are handled one at a time.
// Throw an Error for anything that is not a rule refusal (malformed input, an internal error):
// it becomes an error answer with the message and the stack.
// ================================================================================================

/**
 * setup: start a new deal from explicit hands, replacing any previous deal.
 * Called for `{"cmd": "setup", ..., "hands": [...], "stock": [...]}` (capability setup_hands).
 *   profile: 'torno-cisneros-v1' | 'anglo-american-v1'
 *   dealer:  0 | 1
 *   hands:   [[cards of seat 0], [cards of seat 1]], as dealt, before any exchange
 *   stock:   [cards], top card first (the next card to be revealed is stock[0])
 * Return nothing. (docs/protocol.md, "Commands"; the deal itself: docs/rules/core.md)
 */
function setup(profile, dealer, hands, stock) {
  throw new Error('not implemented: setup');
}

/**
 * setupFromDeck: start a new deal from a full deck order, replacing any previous deal.
 * Called for `{"cmd": "setup", ..., "deck": [...]}`, only if you declare setup_deck.
 *   deck: all cards of the profile's deck, top card first; your engine deals them itself.
 * Return nothing. (docs/protocol.md, "Commands" and "Capabilities")
 */
function setupFromDeck(profile, dealer, deck) {
  throw new Error('not implemented: setupFromDeck');
}

/**
 * setupPosition: take a deal up at a mid-deal position, replacing any previous deal.
 * Called for `{"cmd": "setup_position", "profile": P, "position": {...}}`, only if you declare
 * setup_position: an engine that can restore a position implements it; otherwise leave it
 * and do not declare the capability.
 *   position.state:        the canonical state, exactly as the `state` hook returns it: hands,
 *                          exposed cards, the available card (offered_to: the seat holding it;
 *                          revealed: whether it may be passed), the stock in order (top first),
 *                          out of play, the exchange picks, pending, phase, to_act, outcome
 *   position.history:      the public events so far, oldest first, in the reference's form
 *                          ({event: 'reveal' | 'use' | 'discard' | ..., ...}); show them in your
 *                          observations as your own history (its form is never compared)
 *   position.opening_card: true when the available card is the opening card still on offer
 *                          (RUL-20, RUL-40); the seat that discards is state.to_act[0] in the
 *                          `discard` phase
 * Put your engine in exactly that position; later requests continue from it. Throw an Error if
 * your engine cannot hold it. Return nothing. (docs/protocol.md, "Setting up a position")
 */
function setupPosition(profile, position) {
  throw new Error('not implemented: setupPosition');
}

/**
 * apply: seat `seat` takes `action`.
 *   action: {type: 'exchange', card} | {type: 'use', cards: [...]} | {type: 'reject'} |
 *           {type: 'pass'} | {type: 'force'} | {type: 'decline'} | {type: 'discard', card}
 * Return {result: 'accepted'}, or {result: 'refused', reason: CODE, message: '...'} when the
 * rules forbid the action now. A `use` names hand cards, not melds (RUL-16): if your engine
 * takes melds, partition(...) below finds them. A refusal MUST leave the state unchanged (the runner compares
 * the state before and after). `reason` is a code of docs/rules/reasons.md; it is compared only
 * if you declare reason_codes (otherwise omit it); `message` is free text, never compared.
 * (docs/protocol.md, "Commands" and "How answers are compared", rules 6-7)
 */
function apply(seat, action) {
  throw new Error('not implemented: apply');
}

/**
 * state: the canonical state of the current deal (required capability `state`).
 * Return an object with profile, dealer, phase, to_act, hands, exposed, available, stock,
 * out_of_play, exchange, pending, outcome, as in docs/protocol.md, "The canonical state".
 * Extra keys are allowed and ignored; hands and exposed are compared as sets.
 */
function state() {
  throw new Error('not implemented: state');
}

/**
 * observation: what seat `seat` may know (capability `observation`).
 * Return an object with seat, profile, dealer, phase, to_act, hand, hand_counts, exposed,
 * available, stock_count, out_of_play, exchange, pending, outcome, history
 * (docs/protocol.md, "The canonical state", the paragraph on the observation). It must not
 * mention any card the seat cannot know (the runner searches it for hidden cards).
 */
function observation(seat) {
  throw new Error('not implemented: observation');
}

/**
 * legal: every legal action of seat `seat` now (capability `legal_actions`).
 * Return an array of actions (same shapes as for apply), in any order; [] when the seat may
 * not act. Compared as a set, each `use`'s cards as a set. (docs/protocol.md, "Commands" and
 * "How answers are compared", rule 3)
 */
function legal(seat) {
  throw new Error('not implemented: legal');
}

/**
 * perft: count legal action sequences from the current position (capability `perft`).
 *   depth: 1..4; wantDivide: true when the runner asks for a per-first-action breakdown
 *   (it does so after a mismatch, to help you find the difference).
 * Return [n1, ..., n_depth] (sequences of length 1..depth; every seat that may act counts), or
 * {counts: [...], divide: {key: count, ...}} when wantDivide is set: one entry per legal first
 * action of every seat in to_act, the count of sequences of length `depth` that start with it,
 * keyed exactly as the reference writes it: divideKey(seat, action, PROFILES[profile]) below,
 * e.g. 'seat 1: {"type": "use", "cards": ["5H", "6H"]}'.
 * The position must be unchanged afterwards. (docs/protocol.md, "Commands" and "The perft divide")
 */
function perft(depth, wantDivide) {
  throw new Error('not implemented: perft');
}

/**
 * match: the score of a match (capability `match`); independent of any deal in progress.
 *   deals: [{result: 'win'|'draw', winner: 0|1|null, how: '...'}, ...], in the order played
 * Return {points: [p0, p1] or null, next_dealer: 0|1, winner: 0|1|null}; for a profile with
 * stakes (capability `stakes`) also wins, net and pot. Throw for an entry after the match is won.
 * (docs/protocol.md, "Commands" and "The match command"; the scoring rules in docs/rules/)
 */
function match(profile, firstDealer, deals) {
  throw new Error('not implemented: match');
}

// ================================================================================================
// HELPERS for the hooks: optional, self-contained, no dependencies. They are exported (see the
// end of the file), so `node -e "require('./adapter.js')"` can test them without starting the loop.
// ================================================================================================

// The deck and meld rules of each shipped profile, as in conquian_ref/spec/profiles/<id>.yaml
// (deck.suits ids in order, deck.ranks in sequence order, deck.copies, melds.*; runMax null: no
// maximum). tests/test_js_adapter.py checks this table against the profile files.
const PROFILES = {
  'torno-cisneros-v1': spanish({ runMax: null }),
  'anglo-american-v1': french40({ runMax: 8 }),
  'spielanleitung-v1': french40({ runMax: null }),
  'spielanleitung-52-v1': { ...french40({ runMax: null }), ranks: ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'] },
  'spielanleitung-twice-around-v1': french40({ runMax: null }),
  'spielanleitung-twice-around-literal-v1': french40({ runMax: null }),
  'spielanleitung-two-decks-v1': french40({ runMax: null, copies: 2, setSuits: 'any' }),
  'spielanleitung-no-forcing-v1': french40({ runMax: null }),
  'spielanleitung-discard-then-meld-v1': french40({ runMax: null }),
  'spielanleitung-partnership-v1': french40({ runMax: null }),
};

function spanish(melds) {
  return { suits: ['O', 'C', 'E', 'B'], ranks: ['1', '2', '3', '4', '5', '6', '7', '10', '11', '12'], ...meldRules(melds) };
}

function french40(melds) {
  return { suits: ['S', 'H', 'D', 'C'], ranks: ['A', '2', '3', '4', '5', '6', '7', 'J', 'Q', 'K'], ...meldRules(melds) };
}

function meldRules({ runMax, copies = 1, setSuits = 'distinct' }) {
  return { copies, setSizes: [3, 4], setSuits, runMin: 3, runMax };
}

// A card's place in deck order: suits in the profile's order, then ranks low to high.
function cardKey(card, rules) {
  const suit = rules.suits.indexOf(card.slice(-1));
  const rank = rules.ranks.indexOf(card.slice(0, -1));
  if (typeof card !== 'string' || suit < 0 || rank < 0) throw new Error(`unknown card ${JSON.stringify(card)}`);
  return { card, suit, rank, order: suit * rules.ranks.length + rank };
}

function inDeckOrder(cards, rules) {
  return cards.map((c) => cardKey(c, rules)).sort((a, b) => a.order - b.order);
}

/**
 * divideKey: the key of a perft `divide` entry, exactly as the reference adapter writes it
 * (docs/protocol.md, "The perft divide"): 'seat S: ' then the action as JSON with ', ' and ': '
 * between items, `type` first, a use's cards in deck order. For example
 *   divideKey(1, {type: 'use', cards: ['6H', '5H']}, PROFILES['anglo-american-v1'])
 *   === 'seat 1: {"type": "use", "cards": ["5H", "6H"]}'
 */
function divideKey(seat, action, rules) {
  const parts = [`"type": ${JSON.stringify(action.type)}`];
  if (action.card !== undefined) parts.push(`"card": ${JSON.stringify(action.card)}`);
  if (action.cards !== undefined) {
    const cards = inDeckOrder(action.cards, rules).map((c) => JSON.stringify(c.card));
    parts.push(`"cards": [${cards.join(', ')}]`);
  }
  return `seat ${seat}: {${parts.join(', ')}}`;
}

/**
 * partition: for an engine whose own `use` takes melds (docs/implementers.md, "Mapping an
 * engine whose model differs"). The protocol's use names hand cards only (RUL-16); this finds
 * melds for them. The same helper ships in Python as conquian_ref.partition.
 *   cards:     the new cards, a use's hand cards and the taken card
 *   rules:     PROFILES[profile]
 *   melds:     the seat's exposed melds, [[card, ...], ...]
 *   rearrange: true (C-ARR-2: the melds may be repartitioned freely) or false (RUL-35, profile
 *              spielanleitung-discard-then-meld-v1: each meld is kept and may only grow)
 * Returns a partition of all those cards into valid melds ([[card, ...], ...], each meld in
 * deck order), or null when there is none. Which one, when several exist, is not normative
 * (RUL-13). Throws an Error for a card that is not the profile's, or named too often.
 */
function partition(cards, rules, melds = [], rearrange = true) {
  const every = inDeckOrder([...cards, ...melds.flat()], rules);
  const counts = new Map();
  for (const c of every) {
    counts.set(c.card, (counts.get(c.card) || 0) + 1);
    if (counts.get(c.card) > rules.copies) throw new Error(`card ${c.card} is named more often than the deck holds it`);
  }
  if (rearrange) return arrange(every, rules);
  const fixed = melds.map((m) => inDeckOrder(m, rules));
  for (const m of fixed) {
    if (!isMeld(m, rules)) throw new Error(`${m.map((c) => c.card).join(' ')} is not a meld`);
  }
  return place(fixed, inDeckOrder(cards, rules), rules);
}

function isMeld(meld, rules) {
  const runMax = rules.runMax === null ? rules.ranks.length : rules.runMax;
  const sameRank = meld.every((c) => c.rank === meld[0].rank);
  if (sameRank) {
    const suits = new Set(meld.map((c) => c.suit));
    return rules.setSizes.includes(meld.length) && (rules.setSuits === 'any' || suits.size === meld.length);
  }
  const sorted = [...meld].sort((a, b) => a.order - b.order);
  return (
    sorted.length >= rules.runMin && sorted.length <= runMax &&
    sorted.every((c, i) => c.suit === sorted[0].suit && c.rank === sorted[0].rank + i)
  );
}

// The lowest card left (in deck order) must be in a meld of cards left: a run starting at it (no
// lower card of its suit is left) or a set of its rank. Try each, then arrange the rest.
function arrange(left, rules) {
  if (left.length === 0) return [];
  const [low, ...rest] = left;
  for (const meld of meldsOfLowest(low, rest, rules)) {
    const remaining = without(rest, meld.slice(1));
    const found = arrange(remaining, rules);
    if (found !== null) return [meld.map((c) => c.card), ...found];
  }
  return null;
}

function meldsOfLowest(low, rest, rules) {
  const melds = [];
  const runMax = rules.runMax === null ? rules.ranks.length : rules.runMax;
  const run = [low];
  for (let rank = low.rank + 1; run.length < runMax; rank += 1) {
    const next = rest.find((c) => c.suit === low.suit && c.rank === rank);
    if (!next) break;
    run.push(next);
    if (run.length >= rules.runMin) melds.push([...run]);
  }
  const sameRank = rest.filter((c) => c.rank === low.rank);
  for (const size of rules.setSizes) {
    for (const others of choose(sameRank, size - 1)) {
      const set = [low, ...others];
      if (isMeld(set, rules)) melds.push(set);
    }
  }
  return melds;
}

// Every way of choosing k of the items (each distinct list of card names once).
function choose(items, k) {
  if (k === 0) return [[]];
  const out = [];
  const seen = new Set();
  items.forEach((item, i) => {
    for (const tail of choose(items.slice(i + 1), k - 1)) {
      const name = [item, ...tail].map((c) => c.card).join(' ');
      if (!seen.has(name)) {
        seen.add(name);
        out.push([item, ...tail]);
      }
    }
  });
  return out;
}

function without(cards, taken) {
  const rest = [...cards];
  for (const t of taken) rest.splice(rest.indexOf(t), 1);
  return rest;
}

// RUL-35: each kept meld grows by new cards into a meld (or stays), the new cards left form
// melds of their own.
function place(fixed, fresh, rules) {
  if (fixed.length === 0) return arrange(fresh, rules);
  const [meld, ...rest] = fixed;
  for (const grown of growths(meld, fresh, rules)) {
    const found = place(rest, without(fresh, grown.added), rules);
    if (found !== null) return [grown.meld.map((c) => c.card), ...found];
  }
  return null;
}

function growths(meld, fresh, rules) {
  const out = [{ meld, added: [] }];
  const candidates = fresh.filter((c) => c.rank === meld[0].rank || c.suit === meld[0].suit);
  for (let k = 1; k <= candidates.length; k += 1) {
    for (const added of choose(candidates, k)) {
      const grown = [...meld, ...added].sort((a, b) => a.order - b.order);
      if (isMeld(grown, rules)) out.push({ meld: grown, added });
    }
  }
  return out;
}

// ================================================================================================
// THE PROTOCOL LOOP: nothing below needs changing.
// ================================================================================================

// Keep stdout for answers only.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

class ProtocolError extends Error {}

function need(request, name) {
  if (!(name in request)) throw new ProtocolError(`the request lacks '${name}'`);
  return request[name];
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function checkReturned(hook, value, ok, wanted) {
  if (!ok(value)) {
    throw new ProtocolError(`hook ${hook} returned ${JSON.stringify(value)}; it must return ${wanted}`);
  }
  return value;
}

// One handler per command: each returns the answer's fields (without seq). The calls inside
// (setup(...), apply(...), ...) reach the ENGINE HOOKS above.
const COMMANDS = {
  async start(request) {
    if (request.version !== PROTOCOL_VERSION) {
      throw new ProtocolError(
        `protocol version ${JSON.stringify(request.version)} is not supported (this adapter speaks ${PROTOCOL_VERSION})`
      );
    }
    return {
      version: PROTOCOL_VERSION,
      implementation: CONFIG.implementation,
      profiles: CONFIG.profiles,
      capabilities: CONFIG.capabilities,
    };
  },

  async setup(request) {
    const profile = need(request, 'profile');
    const dealer = need(request, 'dealer');
    if ('deck' in request) {
      await setupFromDeck(profile, dealer, request.deck);
    } else {
      await setup(profile, dealer, need(request, 'hands'), need(request, 'stock'));
    }
    return { ok: true };
  },

  async setup_position(request) {
    await setupPosition(need(request, 'profile'), need(request, 'position'));
    return { ok: true };
  },

  async apply(request) {
    const answer = await apply(need(request, 'seat'), need(request, 'action'));
    checkReturned(
      'apply', answer,
      (a) => isObject(a) && (a.result === 'accepted' || a.result === 'refused'),
      "{result: 'accepted'} or {result: 'refused', reason, message}"
    );
    if (answer.result === 'accepted') return { result: 'accepted' };
    const refused = { result: 'refused' };
    if (answer.reason !== undefined && answer.reason !== null) refused.reason = answer.reason;
    if (answer.message !== undefined && answer.message !== null) refused.message = String(answer.message);
    return refused;
  },

  async state() {
    return { state: checkReturned('state', await state(), isObject, 'the canonical state (an object)') };
  },

  async observation(request) {
    const seen = await observation(need(request, 'seat'));
    return { observation: checkReturned('observation', seen, isObject, 'an observation (an object)') };
  },

  async legal(request) {
    const actions = await legal(need(request, 'seat'));
    return { actions: checkReturned('legal', actions, Array.isArray, 'an array of actions') };
  },

  async perft(request) {
    const answer = await perft(need(request, 'depth'), request.divide === true);
    if (Array.isArray(answer)) return { counts: answer };
    checkReturned('perft', answer, (a) => isObject(a) && Array.isArray(a.counts), '[n1, ...] or {counts, divide}');
    return answer.divide === undefined ? { counts: answer.counts } : { counts: answer.counts, divide: answer.divide };
  },

  async match(request) {
    const score = await match(need(request, 'profile'), need(request, 'first_dealer'), need(request, 'deals'));
    checkReturned('match', score, isObject, '{points, next_dealer, winner}');
    const answer = { points: score.points, next_dealer: score.next_dealer, winner: score.winner };
    for (const key of ['wins', 'net', 'pot']) if (score[key] !== undefined) answer[key] = score[key]; // stakes only
    return { match: answer };
  },

  async stop() {
    return { ok: true };
  },
};

function errorAnswer(seq, err) {
  const error = { message: err instanceof Error ? err.message || err.name : String(err) };
  // Our own protocol complaints need no stack; an engine's exception gets one.
  if (err instanceof Error && !(err instanceof ProtocolError) && typeof err.stack === 'string') {
    error.traceback = err.stack;
  }
  return { seq, error };
}

// Handle one line of input; returns [answer, stopRequested].
async function handleLine(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (err) {
    return [{ seq: null, error: { message: `not JSON: ${err.message}` } }, false];
  }
  if (!isObject(request)) {
    return [{ seq: null, error: { message: 'a request is a JSON object' } }, false];
  }
  const seq = Number.isInteger(request.seq) ? request.seq : null;
  const cmd = request.cmd;
  const handler = typeof cmd === 'string' && Object.prototype.hasOwnProperty.call(COMMANDS, cmd) ? COMMANDS[cmd] : null;
  if (handler === null) {
    return [errorAnswer(seq, new ProtocolError(`unknown command ${JSON.stringify(cmd)}`)), false];
  }
  try {
    return [{ seq, ...(await handler(request)) }, cmd === 'stop'];
  } catch (err) {
    return [errorAnswer(seq, err), false];
  }
}

function write(answer) {
  let text;
  try {
    text = JSON.stringify(answer);
  } catch (err) {
    // e.g. a hook returned a structure with a cycle or a BigInt
    text = JSON.stringify(errorAnswer(answer.seq === undefined ? null : answer.seq, err));
  }
  return new Promise((resolve) => process.stdout.write(text + '\n', resolve));
}

async function main() {
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  for await (const line of input) {
    if (line.trim() === '') continue;
    const [answer, stop] = await handleLine(line);
    await write(answer);
    if (stop) {
      input.close();
      process.exit(0);
    }
  }
  process.exit(0); // stdin closed
}

// Never crash on a stray exception from engine code running outside a request.
process.on('uncaughtException', (err) => console.error('adapter: uncaught exception:', err));
process.on('unhandledRejection', (err) => console.error('adapter: unhandled rejection:', err));
// The runner may close our stdout (it kills us right after); do not die on EPIPE noise.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(0);
  console.error('adapter: stdout error:', err);
});

if (require.main === module) {
  main();
} else {
  module.exports = { PROFILES, partition, divideKey }; // for tests of the helpers
}
