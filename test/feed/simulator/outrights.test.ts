// Tournaments and outright markets of the simulated world: determinism, prices, 3-hourly refresh, settlement, restarts.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { SPORT_KEYS } from '../../../src/domain/sports.js';
import {
  validateFeedMessage,
  type FeedMessage,
  type OutrightMarketMessage,
  type OutrightResultMessage,
} from '../../../src/feed/messages.js';
import { resolveConfig, type SimConfigInput } from '../../../src/feed/simulator/config.js';
import { addPlaceShares, placeShares } from '../../../src/feed/simulator/outrights/dead-heat.js';
import { LONGEST_LIVE_ODDS } from '../../../src/feed/simulator/outrights/edition.js';
import { OutrightWorld } from '../../../src/feed/simulator/outrights/outrights.js';
import { Simulator } from '../../../src/feed/simulator/simulator.js';
import { buildWorld } from '../../../src/feed/simulator/world.js';

const START = Date.parse('2026-03-07T10:17:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const REFRESH = 3 * HOUR;
const WORLD = buildWorld(42);
/** Fewer Monte Carlo runs keep the tests quick; no property checked here depends on the count. */
const FAST: SimConfigInput = { outrightSimulations: 300 };

interface Spec {
  tournamentId: string;
  places: number;
  publishAt: number;
  end: number;
  format: string;
}

interface Run {
  world: OutrightWorld;
  init: FeedMessage[];
  /** Everything after the initial state, in order. */
  later: FeedMessage[];
  /** What the test knows of each market that was ever listed. */
  specs: Map<number, Spec>;
}

function newWorld(seed: number, input: SimConfigInput = {}): OutrightWorld {
  const config = resolveConfig({ ...FAST, ...input });
  const leagues = WORLD.leagues.filter((l) => config.sports === undefined || config.sports.includes(l.sport));
  return new OutrightWorld({ seed, config, leagues, allLeagues: WORLD.leagues });
}

function collectSpecs(world: OutrightWorld, specs: Map<number, Spec>): void {
  for (const e of world.editions()) {
    for (const m of e.markets) {
      specs.set(m.marketId, {
        tournamentId: e.id,
        places: m.places,
        publishAt: e.times.publishAt,
        end: e.times.end,
        format: e.series.plan.format,
      });
    }
  }
}

function run(
  opts: { seed?: number; start?: number; until: number; config?: SimConfigInput },
  open?: ReadonlyMap<string, number[]>,
): Run {
  const world = newWorld(opts.seed ?? 42, opts.config);
  const specs = new Map<number, Spec>();
  const init = world.init(opts.start ?? START, open);
  collectSpecs(world, specs);
  const later: FeedMessage[] = [];
  for (;;) {
    const at = world.nextAt();
    if (at > opts.until) break;
    for (const m of world.run(at)) later.push(m);
    collectSpecs(world, specs);
  }
  return { world, init, later, specs };
}

const digest = (ms: FeedMessage[]): string => createHash('sha256').update(JSON.stringify(ms)).digest('hex');
const markets = (ms: FeedMessage[]): OutrightMarketMessage[] =>
  ms.filter((m): m is OutrightMarketMessage => m.type === 'outright_market');
const results = (ms: FeedMessage[]): OutrightResultMessage[] =>
  ms.filter((m): m is OutrightResultMessage => m.type === 'outright_result');
const tsOf = (m: FeedMessage): number => Date.parse(m.ts!);

describe('dead heats', () => {
  it('splits a single place between everyone tied for it', () => {
    assert.deepEqual(placeShares([3, 5, 5, 1], 1), [
      { index: 1, factor: 0.5 },
      { index: 2, factor: 0.5 },
    ]);
    assert.deepEqual(
      placeShares([7, 7, 7], 1),
      [0, 1, 2].map((index) => ({ index, factor: 1 / 3 })),
    );
  });

  it('pays places left ÷ tied when a tie straddles the cut-off of a top-N market', () => {
    const shares = placeShares([2, 7, 9, 7, 7], 3);
    assert.deepEqual(shares, [
      { index: 2, factor: 1 },
      { index: 1, factor: 2 / 3 },
      { index: 3, factor: 2 / 3 },
      { index: 4, factor: 2 / 3 },
    ]);
    assert.deepEqual(placeShares([4, 3, 2, 1], 2), [
      { index: 0, factor: 1 },
      { index: 1, factor: 1 },
    ]);
    assert.deepEqual(
      placeShares([4, 3, 3, 1], 3),
      [0, 1, 2].map((index) => ({ index, factor: 1 })),
    );
  });

  it('accumulates the same shares without sorting (the Monte Carlo path)', () => {
    const cases: Array<[number[], number]> = [
      [[3, 5, 5, 1], 1],
      [[2, 7, 9, 7, 7], 3],
      [[1, 1, 1, 1], 2],
      [[5, 4], 3],
      [[0, 0, 6, 2, 2, 2, 1], 2],
    ];
    for (const [values, places] of cases) {
      const acc = new Float64Array(values.length);
      addPlaceShares(values, places, acc);
      const expected = new Float64Array(values.length);
      for (const s of placeShares(values, places)) expected[s.index] = s.factor;
      assert.deepEqual([...acc], [...expected], `${values.join(',')} top ${places}`);
      assert.ok(Math.abs(acc.reduce((a, b) => a + b, 0) - Math.min(places, values.length)) < 1e-12);
    }
  });
});

describe('OutrightWorld', () => {
  const fiveDays = run({ until: START + 5 * DAY });
  const all = [...fiveDays.init, ...fiveDays.later];

  it('emits the same tournaments and messages for the same seed, and others for another seed', () => {
    const again = run({ until: START + 5 * DAY });
    assert.equal(digest([...again.init, ...again.later]), digest(all));
    const other = run({ seed: 43, until: START + DAY });
    assert.notEqual(digest(other.init), digest(fiveDays.init));
  });

  it('sends only messages the feed validator accepts, in time order', () => {
    let last = -Infinity;
    for (const m of all) {
      const v = validateFeedMessage(JSON.parse(JSON.stringify(m)) as unknown);
      assert.ok(v.ok, `${v.ok ? '' : v.message}: ${JSON.stringify(m).slice(0, 300)}`);
      assert.ok(tsOf(m) >= last, 'ts goes back in time');
      last = tsOf(m);
    }
    assert.ok(fiveDays.init.every((m) => tsOf(m) === START));
  });

  it('lists tournaments of every sport at once, with stable readable ids and modest volume', () => {
    const sports = new Set(fiveDays.init.flatMap((m) => (m.type === 'tournament' ? [m.sport] : [])));
    assert.deepEqual([...sports].sort(), [...SPORT_KEYS].sort());
    for (const m of fiveDays.init) {
      if (m.type === 'tournament') assert.match(m.tournament_id, /^t-[a-z0-9-]+-\d{8}$/);
    }
    const listed = markets(fiveDays.init);
    assert.ok(listed.length >= 150 && listed.length <= 400, `${listed.length} outright markets listed`);
    assert.ok(fiveDays.later.length < 5 * 600, `${fiveDays.later.length} messages in five days`);
  });

  it('has open tournaments of every sport at every time, league seasons lasting weeks', () => {
    const world = newWorld(42);
    world.init(START);
    for (let t = START; t <= START + 70 * DAY;) {
      const sports = new Set(world.editions().map((e) => e.series.league.sport));
      assert.equal(sports.size, SPORT_KEYS.length, `sports with tournaments at ${new Date(t).toISOString()}`);
      for (const e of world.editions()) {
        if (e.series.plan.format === 'league') assert.ok(e.times.end - e.times.start >= 14 * DAY);
      }
      t = world.nextAt();
      world.run(t);
    }
  });

  it('uses market and selection ids unique in the world and stable across messages', () => {
    const selectionOwner = new Map<number, number>();
    const marketOwner = new Map<number, string>();
    for (const m of markets(all)) {
      const owner = marketOwner.get(m.market_id);
      assert.ok(owner === undefined || owner === m.tournament_id, `market ${m.market_id} in two tournaments`);
      marketOwner.set(m.market_id, m.tournament_id);
      for (const s of m.selections) {
        const market = selectionOwner.get(s.selection_id);
        assert.ok(market === undefined || market === m.market_id, `selection ${s.selection_id} in two markets`);
        selectionOwner.set(s.selection_id, m.market_id);
      }
    }
  });

  it('prices every market with the margin: implied chances sum to places × (1 + margin), odds in [1.01, 1000]', () => {
    const priced = run({ until: START + 3 * DAY, config: { outrightSimulations: 2_000 } });
    const margin = resolveConfig().margin;
    let checked = 0;
    for (const m of markets([...priced.init, ...priced.later])) {
      const spec = priced.specs.get(m.market_id)!;
      const odds = m.selections.map((s) => s.odds);
      assert.ok(
        odds.every((o) => o >= 1.01 && o <= 1000 && Math.abs(o * 100 - Math.round(o * 100)) < 1e-6),
        odds.join(),
      );
      // Outsiders are held at the longest live price (500/1) or, eliminated, at the bound: each holds
      // less than 1/501 of the book, left out of the sum.
      const capped = odds.filter((o) => o >= LONGEST_LIVE_ODDS).length;
      const floored = odds.filter((o) => o === 1.01).length;
      const implied = odds.filter((o) => o < LONGEST_LIVE_ODDS).reduce((s, o) => s + 1 / o, 0);
      const target = spec.places * (1 + margin);
      const tolerance = 0.01 + 0.0002 * odds.length;
      assert.ok(implied <= target + tolerance, `${m.market}: ${implied} > ${target}`);
      if (floored === 0) {
        assert.ok(
          implied >= target - tolerance - capped / LONGEST_LIVE_ODDS,
          `${m.market} ${m.tournament_id}: ${implied} < ${target}`,
        );
        checked++;
      }
    }
    assert.ok(checked > 100, `${checked} markets checked`);
  });

  it('refreshes prices on the 3-hour grid, sending a market again only when a price moved', () => {
    const published = new Map<string, number>();
    for (const m of fiveDays.later) if (m.type === 'tournament') published.set(m.tournament_id, tsOf(m));
    const last = new Map<number, string>();
    for (const m of markets(fiveDays.init)) last.set(m.market_id, JSON.stringify(m.selections));
    const refreshTimes = new Set<number>();
    for (const m of markets(fiveDays.later)) {
      const at = tsOf(m);
      if (published.get(m.tournament_id) !== at) {
        assert.equal(at % REFRESH, 0, `outright_market at ${m.ts}, off the 3-hour grid`);
        refreshTimes.add(at);
      }
      const body = JSON.stringify(m.selections);
      assert.notEqual(last.get(m.market_id), body, `market ${m.market_id} re-sent unchanged at ${m.ts}`);
      last.set(m.market_id, body);
    }
    assert.ok(refreshTimes.size >= 20, `prices moved at ${refreshTimes.size} refreshes in five days`);
  });

  it('settles each market once, at its tournament end, with dead-heat factors summing to the places', () => {
    const long = run({ until: START + 30 * DAY });
    const settled = new Map<number, OutrightResultMessage>();
    let deadHeats = 0;
    for (const m of long.later) {
      if (m.type === 'outright_market') {
        assert.ok(!settled.has(m.market_id), `outright_market ${m.market_id} after its result`);
        continue;
      }
      if (m.type !== 'outright_result') continue;
      assert.ok(!settled.has(m.market_id), `market ${m.market_id} settled twice`);
      settled.set(m.market_id, m);
      const spec = long.specs.get(m.market_id);
      assert.ok(spec !== undefined, `result for unknown market ${m.market_id}`);
      assert.equal(tsOf(m), spec.end, 'settled at the tournament end');
      if (m.void === true) continue;
      const factors = m.winners!.map((w) => w.dead_heat_factor ?? 1);
      assert.ok(factors.every((f) => f > 0 && f <= 1));
      assert.ok(Math.abs(factors.reduce((a, b) => a + b, 0) - spec.places) < 1e-9, JSON.stringify(m));
      if (factors.some((f) => f < 1)) deadHeats++;
      else assert.equal(m.winners!.length, spec.places);
    }
    for (const [marketId, spec] of long.specs) {
      if (spec.end <= START + 30 * DAY) assert.ok(settled.has(marketId), `market ${marketId} never settled`);
      else assert.ok(!settled.has(marketId));
    }
    assert.ok(settled.size > 300, `${settled.size} markets settled in 30 days`);
    assert.ok(deadHeats > 0, 'some dead heats in 30 days');
  });

  it('voids markets at the configured rate', () => {
    const sports = ['darts', 'table_tennis', 'boxing', 'mma', 'cricket'];
    const share = (rate: number): number => {
      const r = results(run({ until: START + 60 * DAY, config: { sports, outrightVoidRate: rate } }).later);
      return r.filter((m) => m.void === true).length / r.length;
    };
    const tenth = share(0.1);
    assert.ok(tenth > 0.07 && tenth < 0.13, `void share ${tenth} at a 10% rate`);
    assert.equal(share(0), 0);
  });

  it('settles something within 40 hours of any fresh start', () => {
    for (let i = 0; i < 12; i++) {
      const start = START + i * 29 * HOUR + i * 7 * 60_000;
      const r = run({ start, until: start + 40 * HOUR });
      const settled = results(r.later);
      assert.ok(settled.length > 0, `no settlement within 40 h of ${new Date(start).toISOString()}`);
      const known = new Set(markets(r.init).map((m) => m.market_id));
      assert.ok(
        settled.some((m) => known.has(m.market_id)),
        'a market listed at the start is settled',
      );
    }
  });
});

describe('OutrightWorld restart', () => {
  const until = START + 6 * DAY;
  const first = run({ until });
  const history = [...first.init, ...first.later];
  const restartAt = START + 2 * DAY + 13 * HOUR + 42 * 60_000;

  it('re-sends the listed tournaments with the prices a continuous run had sent, and nothing settled', () => {
    const second = run({ start: restartAt, until });
    const before = history.filter((m) => tsOf(m) <= restartAt);
    const settled = new Set(results(before).map((m) => m.market_id));
    const lastOdds = new Map<number, string>();
    for (const m of markets(before)) lastOdds.set(m.market_id, JSON.stringify(m.selections));
    const resent = markets(second.init);
    assert.ok(resent.length > 100);
    for (const m of resent) {
      assert.ok(!settled.has(m.market_id), `market ${m.market_id} re-sent after its result`);
      assert.equal(JSON.stringify(m.selections), lastOdds.get(m.market_id), `prices of ${m.market_id}`);
    }
    const open = new Set(
      markets(before)
        .map((m) => m.market_id)
        .filter((id) => !settled.has(id)),
    );
    assert.deepEqual(new Set(resent.map((m) => m.market_id)), open);
  });

  it('then sends exactly what the continuous run sent', () => {
    const second = run({ start: restartAt, until });
    const after = history.filter((m) => tsOf(m) > restartAt);
    assert.equal(digest(second.later), digest(after));
  });

  it('settles markets a consumer still holds from tournaments that ended while it was away, and voids unknown ones', () => {
    const ended = results(history).filter((m) => tsOf(m) > START && tsOf(m) < restartAt);
    const target = ended[0]!;
    const second = run(
      { start: restartAt, until: restartAt },
      new Map([
        [target.tournament_id, [target.market_id]],
        ['t-soccer-nowhere-cup-20260101', [123]],
      ]),
    );
    const closing = results(second.init);
    assert.equal(closing.length, 2);
    const [again, unknown] = closing as [OutrightResultMessage, OutrightResultMessage];
    assert.deepEqual({ ...again, ts: target.ts }, target);
    assert.equal(tsOf(again), restartAt);
    assert.deepEqual(unknown, {
      type: 'outright_result',
      ts: new Date(restartAt).toISOString(),
      tournament_id: 't-soccer-nowhere-cup-20260101',
      market_id: 123,
      void: true,
    });
  });
});

describe('Simulator with outrights', () => {
  it('publishes tournaments on the first call and settles a daily event within a day', () => {
    const sim = new Simulator({ seed: 42, speed: 60, startAt: START, config: { sports: ['darts'], ...FAST } });
    const first = sim.advance(START);
    assert.ok(first.some((m) => m.type === 'tournament' && m.sport === 'darts'));
    const out: FeedMessage[] = [];
    for (let t = START; t <= START + 30 * HOUR; t += 10 * 60_000) out.push(...sim.advance(t));
    assert.ok(out.some((m) => m.type === 'outright_result'));
    assert.ok(
      out.some((m) => m.type === 'result'),
      'games go on alongside',
    );
  });

  it('runs no tournaments when outrights are turned off', () => {
    const sim = new Simulator({ seed: 42, speed: 60, startAt: START, config: { sports: ['darts'], outrights: false } });
    const out = sim.advance(START + 2 * DAY);
    assert.ok(!out.some((m) => m.type === 'tournament' || m.type.startsWith('outright')));
  });
});
