// Every family the simulator prices has a descriptor and a rule, with its outcome codes; every sport has an engine and a plan.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FAMILIES, familyOf, isOutcomeCode } from '../../../src/domain/families/index.js';
import { parseMarketKey } from '../../../src/domain/market-key.js';
import { SPORTS } from '../../../src/domain/sports.js';
import { SPORT_PLANS } from '../../../src/feed/simulator/catalog.js';
import { ENGINE_SPORTS } from '../../../src/feed/simulator/engines/registry.js';
import { buildWorld, NO_DISRUPTIONS, playOneGame } from '../../../src/feed/simulator/index.js';

describe('simulator pricing uses the family descriptors', () => {
  const world = buildWorld(7);
  // The first league of each sport plus every other distinct format (best-of, knockout…).
  const leagues = SPORT_PLANS.flatMap((sp) => {
    const seen = new Set<string>();
    return sp.leagues
      .filter((l) => {
        const f = JSON.stringify(l.format ?? {});
        const fresh = !seen.has(f);
        seen.add(f);
        return fresh;
      })
      .map((l) => ({ sport: sp.key, league: l.name }));
  });
  const priced = new Set<string>();
  for (const { sport, league } of leagues) {
    test(`${sport}, ${league}: every market's family is described, with its outcome codes and key shape`, () => {
      const { messages } = playOneGame({
        seed: 5,
        sport,
        league,
        publishAt: Date.UTC(2025, 0, 6, 8),
        world,
        config: { disruptions: NO_DISRUPTIONS },
      });
      for (const m of messages) {
        if (m.type !== 'markets') continue;
        for (const def of m.markets) {
          const key = parseMarketKey(def.key);
          assert.ok(key !== null, def.key);
          const d = familyOf(key.family);
          assert.ok(d !== undefined, `${sport} ${def.key}: no family descriptor`);
          assert.notEqual(d.section, 'accepted', `${def.key}: docs say the simulator does not price it`);
          assert.equal(key.line === null, d.line === 'none', `${def.key}: line`);
          if (d.period === 'none') assert.equal(key.period, null, `${def.key}: period`);
          if (d.period === 'required') assert.notEqual(key.period, null, `${def.key}: period`);
          for (const o of def.outcomes) assert.ok(isOutcomeCode(d, o.code), `${def.key}: outcome ${o.code}`);
          priced.add(d.key);
        }
      }
    });
  }
  test('every family docs list as priced by the simulator is priced by some sport', () => {
    const listed = FAMILIES.filter((d) => d.section !== 'accepted').map((d) => d.key);
    assert.deepEqual(
      listed.filter((f) => !priced.has(f)),
      [],
    );
    assert.ok(priced.has('player_<stat>_<player_id>'), 'player props are priced');
  });
});

describe('sport descriptors', () => {
  test('every sport has an engine and a plan, and nothing else does', () => {
    const keys = SPORTS.map((s) => s.key).sort();
    assert.deepEqual([...ENGINE_SPORTS].sort(), keys);
    assert.deepEqual(SPORT_PLANS.map((p) => p.key).sort(), keys);
  });
  test('the plan competes as esports teams exactly where the sport is an esport', () => {
    for (const p of SPORT_PLANS) {
      assert.equal(p.kind === 'esports', SPORTS.find((s) => s.key === p.key)!.esport, p.key);
    }
  });
  test('full game: units where the score counts sets, games, frames or maps; quarters only in four-quarter sports', () => {
    for (const s of SPORTS) {
      if (s.esport) assert.equal(s.fullGame, 'units', s.key);
      if (s.halves === 'quarters') assert.equal(s.fullGame, 'final', s.key);
      if (s.unitRow !== undefined) assert.ok(s.esport, s.key);
    }
  });
});
