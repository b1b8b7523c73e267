// Capacity benchmark inputs: the generated world and ticks are valid feed messages the service accepts, sized as asked.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { capacityBodies, capacityEvent, type CapacityPlan } from '../../bench/capacity-world.js';
import { TickBuilder } from '../../bench/capacity-ticks.js';
import { percentile } from '../../bench/capacity.js';
import { validateFeedMessage, type MarketsMessage, type OddsMessage } from '../../src/feed/messages.js';
import { parseMarketKey } from '../../src/domain/market-key.js';

const NOW = Date.parse('2025-03-01T12:00:00Z');
const plan = (over: Partial<CapacityPlan> = {}): CapacityPlan => ({
  events: 60,
  live: 10,
  markets: 1000,
  now: NOW,
  seed: 11,
  ...over,
});

function marketsOf(i: number, p = plan()): MarketsMessage {
  const m = capacityEvent(p, i).messages.find((x) => x.type === 'markets');
  assert.ok(m !== undefined && m.type === 'markets');
  return m;
}

describe('capacity world', () => {
  it('every message of soccer, basketball and American football events, live and prematch, passes the feed validator', () => {
    const sports = new Set<string>();
    for (let i = 0; i < 20; i++) {
      for (const m of capacityEvent(plan(), i).messages) {
        const v = validateFeedMessage(JSON.parse(JSON.stringify(m)));
        assert.ok(v.ok, `event ${i} ${m.type}: ${v.ok ? '' : v.message}`);
        if (m.type === 'fixture') sports.add(m.sport);
      }
    }
    assert.deepEqual([...sports].sort(), ['american_football', 'basketball', 'soccer']);
  });

  for (const [sport, i] of [
    ['soccer', 0],
    ['basketball', 12],
    ['american_football', 17],
  ] as const) {
    it(`a ${sport} event has exactly the asked market count, ids numbered 1.. without gaps or repeats`, () => {
      for (const markets of [1000, 250]) {
        const m = marketsOf(i, plan({ markets }));
        assert.equal(m.markets.length, markets);
        assert.deepEqual(
          m.markets.map((x) => x.market_id),
          Array.from({ length: markets }, (_, k) => k + 1),
        );
        const selections = m.markets.flatMap((x) => x.outcomes.map((o) => o.selection_id));
        assert.deepEqual(
          selections,
          Array.from({ length: selections.length }, (_, k) => k + 1),
        );
      }
    });
  }

  it('player props follow player_<stat>_<player_id>:L with over/under outcomes, as docs/markets.md writes them', () => {
    const props = marketsOf(0).markets.filter((m) => m.key.startsWith('player_'));
    assert.ok(props.length > 500);
    for (const m of props) {
      assert.match(m.key, /^player_[a-z_]+_p\d+:\d+\.5$/);
      assert.notEqual(parseMarketKey(m.key), null);
      assert.deepEqual(
        m.outcomes.map((o) => o.code),
        ['over', 'under'],
      );
    }
  });

  it('keys are unique within an event', () => {
    for (const i of [0, 12, 17]) {
      const keys = marketsOf(i).markets.map((m) => m.key);
      assert.equal(new Set(keys).size, keys.length);
    }
  });

  it('only the first `live` events go live with a score, and start in the past', () => {
    const p = plan();
    for (const i of [0, 9, 10, 59]) {
      const e = capacityEvent(p, i);
      const types = e.messages.map((m) => m.type);
      const fixture = e.messages[0]!;
      assert.equal(fixture.type, 'fixture');
      const start = fixture.type === 'fixture' ? Date.parse(fixture.start_time) : NaN;
      if (i < p.live) {
        assert.deepEqual(types, ['fixture', 'markets', 'status', 'score']);
        assert.ok(start < NOW);
        assert.deepEqual(e.live, { eventId: fixture.event_id, selections: e.selections });
      } else {
        assert.deepEqual(types, ['fixture', 'markets']);
        assert.ok(start > NOW);
        assert.equal(e.live, null);
      }
    }
  });

  it('bodies hold `eventsPerBody` events each (the last the rest) and are the same for the same plan', () => {
    const p = plan({ events: 45, live: 5, markets: 50 });
    const a = [...capacityBodies(p, 20)];
    assert.deepEqual(
      a.map((b) => b.events),
      [20, 20, 5],
    );
    assert.equal(a[0]!.live.length, 5);
    assert.equal(a[1]!.live.length, 0);
    assert.equal(a[0]!.body.split('\n').length, 20 * 2 + 5 * 2);
    const b = [...capacityBodies(p, 20)];
    assert.deepEqual(
      b.map((x) => x.body),
      a.map((x) => x.body),
    );
  });
});

describe('capacity ticks', () => {
  const live = [
    { eventId: 'cap-soccer-0', selections: 2000 },
    { eventId: 'cap-basketball-12', selections: 40 },
  ];

  function parse(body: Uint8Array): OddsMessage[] {
    return new TextDecoder()
      .decode(body)
      .split('\n')
      .map((l) => {
        const v = validateFeedMessage(JSON.parse(l));
        assert.ok(v.ok, v.ok ? '' : v.message);
        assert.equal(v.message.type, 'odds');
        return v.message as OddsMessage;
      });
  }

  it('one odds message per live event, each with N distinct known selections (all of them when fewer) at odds >= 1.01', () => {
    const tick = new TickBuilder(live, 100, 1).next();
    const messages = parse(tick.body);
    assert.deepEqual(
      messages.map((m) => m.event_id),
      ['cap-soccer-0', 'cap-basketball-12'],
    );
    assert.deepEqual(
      messages.map((m) => m.changes.length),
      [100, 40],
    );
    assert.equal(tick.changes, 140);
    for (const [k, m] of messages.entries()) {
      const ids = m.changes.map((c) => c.selection_id);
      assert.equal(new Set(ids).size, ids.length);
      for (const c of m.changes) {
        assert.ok(c.selection_id >= 1 && c.selection_id <= live[k]!.selections);
        assert.ok(c.odds !== undefined && c.odds >= 1.01);
      }
    }
  });

  it('lock flags toggle against the state the builder sent before, and now and then', () => {
    const builder = new TickBuilder([{ eventId: 'e', selections: 50 }], 50, 3);
    const locked = new Map<number, boolean>();
    let toggles = 0;
    for (let t = 0; t < 200; t++) {
      for (const c of parse(builder.next().body)[0]!.changes) {
        if (c.is_locked === undefined) continue;
        assert.equal(c.is_locked, !(locked.get(c.selection_id) ?? false));
        locked.set(c.selection_id, c.is_locked);
        toggles++;
      }
    }
    // 10,000 picks at 1% lock / 20% unlock: a few hundred toggles, never most of them.
    assert.ok(toggles > 50 && toggles < 2000, `${toggles} toggles`);
  });

  it('the same seed builds the same ticks', () => {
    const a = new TickBuilder(live, 10, 9);
    const b = new TickBuilder(live, 10, 9);
    assert.deepEqual(a.next().body, b.next().body);
  });
});

describe('percentile', () => {
  const cases: Array<[number[], number, number]> = [
    [[5], 99, 5],
    [[1, 2, 3, 4], 50, 2],
    [[4, 3, 2, 1], 99, 4],
    [Array.from({ length: 100 }, (_, i) => i + 1), 99, 99],
    [Array.from({ length: 100 }, (_, i) => i + 1), 50, 50],
    [Array.from({ length: 10 }, (_, i) => i + 1), 99, 10],
  ];
  for (const [values, p, expected] of cases) {
    it(`p${p} of ${values.length} value(s) is ${expected} (nearest rank)`, () => {
      assert.equal(percentile(values, p), expected);
    });
  }
  it('p50 of nothing is NaN', () => assert.ok(Number.isNaN(percentile([], 50))));
});
