#!/usr/bin/env node
// The conformance adapter of engine.js (a small, independent anglo-american-v1 engine), built on
// the template adapter.js: CONFIG and the ENGINE HOOKS are filled in; THE PROTOCOL LOOP below is
// the template's, unchanged.
//
//   conquian-ref check --impl "node examples/javascript/conquian-adapter.js" --profile anglo-american-v1
//
// House rules (engine.js, HOUSE_RULES), each one rule changed:
//   node examples/javascript/conquian-adapter.js --house auto-take,seven-jack-gap
// or the environment variable CONQUIAN_HOUSE=auto-take,seven-jack-gap (the flag wins).

'use strict';

const readline = require('readline');
const engine = require('./engine.js');

function houseFromArgs(argv, env) {
  const at = argv.indexOf('--house');
  if (at >= 0) return engine.parseHouse(argv[at + 1]);
  const inline = argv.find((a) => a.startsWith('--house='));
  if (inline) return engine.parseHouse(inline.slice('--house='.length));
  return engine.parseHouse(env.CONQUIAN_HOUSE);
}

let HOUSE;
try {
  HOUSE = houseFromArgs(process.argv.slice(2), process.env);
} catch (err) {
  console.error(`conquian-adapter: ${err.message}`);
  process.exit(2);
}
const houseNames = [...HOUSE].sort();

// ================================================================================================
// CONFIG: what the `start` handshake declares (docs/protocol.md, "The handshake").
// ================================================================================================
const CONFIG = {
  implementation: {
    // A house-rule engine says so in its name, so that a report cannot be mistaken for the plain one.
    name: houseNames.length === 0 ? 'conquian-js' : `conquian-js+${houseNames.join('+')}`,
    version: '0.1.0',
    language: 'javascript',
    homepage: null,
    issues: null,
  },
  profiles: [engine.PROFILE],
  capabilities: ['setup_hands', 'setup_deck', 'setup_position', 'state', 'reason_codes', 'legal_actions', 'observation', 'perft', 'match'],
};

const PROTOCOL_VERSION = 1;

// ================================================================================================
// ENGINE HOOKS
// ================================================================================================

let deal = null;

function needProfile(profile) {
  if (profile !== engine.PROFILE) throw new Error(`this engine plays ${engine.PROFILE} only, not ${JSON.stringify(profile)}`);
}

function needDeal() {
  if (deal === null) throw new Error('no deal: send setup first');
  return deal;
}

function setup(profile, dealer, hands, stock) {
  needProfile(profile);
  deal = new engine.Deal(dealer, hands, stock, HOUSE);
}

function setupFromDeck(profile, dealer, deck) {
  needProfile(profile);
  deal = engine.Deal.fromDeck(dealer, deck, HOUSE);
}

// The reference's position (docs/protocol.md, "Setting up a position"): the deal from its
// canonical state, its public history and the opening-card flag (Deal.fromPosition).
function setupPosition(profile, position) {
  needProfile(profile);
  deal = engine.Deal.fromPosition(position, HOUSE);
}

function apply(seat, action) {
  const current = needDeal();
  const trial = current.clone(); // a refusal must leave the state unchanged
  try {
    trial.apply(seat, action);
  } catch (err) {
    if (err instanceof engine.Refusal) return { result: 'refused', reason: err.reason, message: err.message };
    throw err; // malformed input: an error answer
  }
  deal = trial;
  return { result: 'accepted' };
}

function state() {
  return needDeal().state();
}

function observation(seat) {
  return needDeal().observation(seat);
}

function legal(seat) {
  return needDeal().legal(seat);
}

function perft(depth, wantDivide) {
  if (!Number.isInteger(depth) || depth < 1) throw new Error('perft: depth is a positive integer');
  return needDeal().perft(depth, wantDivide ? divideKey : null);
}

function match(profile, firstDealer, deals) {
  needProfile(profile);
  return engine.scoreMatch(firstDealer, deals);
}

// The key of a perft `divide` entry as docs/protocol.md, "The perft divide", writes it: a use's
// cards in deck order.
function divideKey(seat, action) {
  const parts = [`"type": ${JSON.stringify(action.type)}`];
  if (action.card !== undefined) parts.push(`"card": ${JSON.stringify(action.card)}`);
  if (action.cards !== undefined) {
    const cards = [...action.cards].sort((a, b) => engine.DECK.indexOf(a) - engine.DECK.indexOf(b));
    parts.push(`"cards": [${cards.map((c) => JSON.stringify(c)).join(', ')}]`);
  }
  return `seat ${seat}: {${parts.join(', ')}}`;
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
  module.exports = { divideKey, houseFromArgs }; // for tests
}
