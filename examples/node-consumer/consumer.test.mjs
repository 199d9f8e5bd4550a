// Runs the conquian-ref export (docs/export.md) against a protocol adapter, in Node's own test
// runner, no npm packages: one test per scenario, skipped when the adapter lacks its profile or a
// capability it needs. CONQUIAN_EXPORT: the export file of one profile; CONQUIAN_ADAPTER: the
// adapter's command line (default: the reference adapter; a Node one: "node my-adapter.js").
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { readFileSync } from 'node:fs';

const file = process.env.CONQUIAN_EXPORT ?? 'export/torno-cisneros-v1.json';
const command = process.env.CONQUIAN_ADAPTER ?? 'python3 -m conquian_ref.adapter';
const doc = JSON.parse(readFileSync(file, 'utf8'));
const { multiset_keys, multiset_per_seat_keys, set_keys } = doc.comparator;

const adapter = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'inherit'] });
const waiting = [];
createInterface({ input: adapter.stdout }).on('line', (line) => waiting.shift()?.(JSON.parse(line)));
adapter.on('exit', (code) => waiting.splice(0).forEach((r) => r({ error: { message: `adapter exited (${code})` } })));
let seq = 0;
const ask = (request) => new Promise((resolve) => {
  waiting.push(resolve);
  adapter.stdin.write(JSON.stringify({ seq: ++seq, ...request }) + '\n');
});
after(async () => { await ask({ cmd: 'stop' }); adapter.stdin.end(); });

// The comparator of docs/export.md: every key given is equal; some card lists are multisets.
const sorted = (list) => list.map((x) => JSON.stringify(x)).sort();
function equal(e, g, key) {
  if (Array.isArray(e)) {
    if (!Array.isArray(g) || g.length !== e.length) return false;
    if (multiset_keys.includes(key)) return equal(sorted(e), sorted(g));
    if (multiset_per_seat_keys.includes(key)) return e.every((x, i) => equal(x, g[i], 'cards'));
    if (set_keys.includes(key)) return e.every((x) => g.some((y) => equal(x, y) && equal(y, x)));
    return e.every((x, i) => equal(x, g[i]));
  }
  if (e !== null && typeof e === 'object') {
    return g !== null && typeof g === 'object' && !Array.isArray(g)
      && Object.entries(e).every(([k, v]) => k in g && equal(v, g[k], k));
  }
  return e === g;
}

const hello = await ask({ cmd: 'start', version: 1 });
const caps = new Set(hello.capabilities ?? []);
const setupForm = (given) => (caps.has('setup_hands') && caps.has('setup_deck') ? given
  : caps.has('setup_deck') ? 'deck' : 'hands');

for (const s of doc.scenarios) {
  const lacking = s.needs.filter((c) => !caps.has(c));
  if (!(hello.profiles ?? []).includes(doc.profile.id)) lacking.push(`profile ${doc.profile.id}`);
  test(`${s.id} ${s.file}`, { skip: lacking.length ? `needs ${lacking.join(', ')}` : false }, async () => {
    if (s.setup) {
      const { dealer, deck, hands, stock } = s.setup;
      const fields = setupForm(s.setup.given) === 'deck' ? { deck } : { hands, stock };
      const answer = await ask({ cmd: 'setup', profile: doc.profile.id, dealer, ...fields });
      assert.equal(answer.ok, true, `${s.file}: setup answered ${JSON.stringify(answer)}`);
    }
    for (const r of s.requests) {
      if (r.needs && !caps.has(r.needs)) continue;
      const expect = { ...r.expect };
      if (!caps.has('reason_codes')) delete expect.reason;
      const before = r.state_unchanged ? await ask({ cmd: 'state' }) : null;
      const got = await ask(r.send);
      const where = `${s.file}:${r.line} step ${r.step}: ${JSON.stringify(r.send)}`;
      assert.ok(equal(expect, got), `${where}\n  expected ${JSON.stringify(expect)}\n  got ${JSON.stringify(got)}`);
      for (const card of r.absent ?? []) assert.ok(!JSON.stringify(got).includes(`"${card}"`), `${where}: ${card} shown`);
      if (before) assert.ok(equal(before.state, (await ask({ cmd: 'state' })).state), `${where}: state changed`);
    }
  });
}
