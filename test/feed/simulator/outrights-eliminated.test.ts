// Outright markets of the simulated world drop eliminated selections and price no live selection at the bound.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeedMessage, OutrightMarketMessage } from '../../../src/feed/messages.js';
import { resolveConfig } from '../../../src/feed/simulator/config.js';
import { OutrightWorld } from '../../../src/feed/simulator/outrights/outrights.js';
import { buildWorld } from '../../../src/feed/simulator/world.js';

const START = Date.parse('2026-03-07T10:17:00Z');
const DAY = 86_400_000;
const WORLD = buildWorld(42);

function run(days: number): FeedMessage[] {
  const config = resolveConfig({ outrightSimulations: 300 });
  const world = new OutrightWorld({ seed: 42, config, leagues: WORLD.leagues, allLeagues: WORLD.leagues });
  const out = world.init(START);
  for (;;) {
    const at = world.nextAt();
    if (at > START + days * DAY) break;
    out.push(...world.run(at));
  }
  return out;
}

describe('outright selections: eliminated ones withdrawn, none at the bound', () => {
  const messages = run(6);
  const markets = messages.filter((m): m is OutrightMarketMessage => m.type === 'outright_market');
  const maxOdds = resolveConfig({}).maxOdds;

  it('knocked-out and out-of-reach selections are flagged eliminated as tournaments progress', () => {
    const flagged = markets.flatMap((m) => m.selections.filter((s) => s.eliminated === true));
    assert.ok(flagged.length > 100, `${flagged.length} eliminated selections sent`);
  });

  it('no selection still in the running is priced at the bound', () => {
    for (const m of markets) {
      for (const s of m.selections) {
        if (s.eliminated !== true)
          assert.ok(s.odds < maxOdds, `${m.tournament_id} ${m.market} ${s.selection} ${s.odds}`);
      }
    }
  });

  it('once eliminated, a selection stays eliminated, and never wins', () => {
    const out = new Map<number, Set<number>>();
    for (const m of messages) {
      if (m.type === 'outright_market') {
        const before = out.get(m.market_id) ?? new Set<number>();
        const now = new Set(m.selections.filter((s) => s.eliminated === true).map((s) => s.selection_id));
        for (const id of before) assert.ok(now.has(id), `${m.market_id}/${id} came back`);
        out.set(m.market_id, now);
      } else if (m.type === 'outright_result' && m.void !== true) {
        for (const w of m.winners ?? []) assert.ok(!(out.get(m.market_id)?.has(w.selection_id) ?? false));
      }
    }
  });
});
