// The Odds API event tracker: each poll sends only what changed; live from scores, the result from completed, corrections, and nothing for a dropped game.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateFeedMessage, type FeedMessage } from '../../../src/feed/messages.js';
import { EventTracker } from '../../../src/feed/upstream/the-odds-api/tracker.js';
import { oddsEvent, scoreEvent } from './the-odds-api-fixtures.js';

const START = Date.parse('2026-03-01T15:00:00Z');
const TEAMS = { home: 'Arsenal', away: 'Chelsea' };
const ev = (books = [{ key: 'wh', h2h: [2.1, 3.4, 3.6], total: [2.5, 1.9, 1.95] as [number, number, number] }]) =>
  oddsEvent('g1', 'soccer_epl', TEAMS, '2026-03-01T15:00:00Z', books);
const types = (ms: FeedMessage[]) => ms.map((m) => m.type);

function valid(ms: FeedMessage[]): FeedMessage[] {
  for (const m of ms) {
    const v = validateFeedMessage(m);
    assert.equal(v.ok, true, v.ok ? '' : `${m.type}: ${v.message}`);
  }
  return ms;
}

describe('The Odds API tracker', () => {
  it('the first answer announces fixture and markets; the same answer again sends nothing', () => {
    const t = new EventTracker('wh');
    const first = valid(t.fromOdds([ev()]));
    assert.deepEqual(types(first), ['fixture', 'markets']);
    const fixture = first[0] as Extract<FeedMessage, { type: 'fixture' }>;
    assert.equal(fixture.event_id, 'toa-g1');
    assert.equal(fixture.sport, 'soccer');
    assert.equal(fixture.start_time, '2026-03-01T15:00:00.000Z');
    assert.deepEqual(t.fromOdds([ev()]), []);
  });

  it('a moved price is an odds change of that selection only', () => {
    const t = new EventTracker('wh');
    t.fromOdds([ev()]);
    const out = valid(t.fromOdds([ev([{ key: 'wh', h2h: [2.0, 3.4, 3.6], total: [2.5, 1.9, 1.95] }])]));
    assert.deepEqual(types(out), ['odds']);
    assert.equal((out[0] as Extract<FeedMessage, { type: 'odds' }>).changes.length, 1);
    assert.equal((out[0] as Extract<FeedMessage, { type: 'odds' }>).changes[0]!.odds, 2.0);
  });

  it('a moved line withdraws the old market and adds the new one', () => {
    const t = new EventTracker('wh');
    const first = t.fromOdds([ev()]);
    const oldTotal = (first[1] as Extract<FeedMessage, { type: 'markets' }>).markets.find(
      (m) => m.key === 'totals:2.5',
    )!;
    const out = valid(t.fromOdds([ev([{ key: 'wh', h2h: [2.1, 3.4, 3.6], total: [3, 2.2, 1.7] }])]));
    assert.deepEqual(types(out), ['remove_markets', 'markets']);
    assert.deepEqual((out[0] as Extract<FeedMessage, { type: 'remove_markets' }>).market_ids, [oldTotal.market_id]);
    assert.deepEqual(
      (out[1] as Extract<FeedMessage, { type: 'markets' }>).markets.map((m) => m.key),
      ['totals:3'],
    );
  });

  it('live once scores show for a started game, then each new score, a backwards score too', () => {
    const t = new EventTracker('wh');
    const e = ev();
    t.fromOdds([e]);
    assert.deepEqual(t.fromScores([scoreEvent(e, null)], START + 60_000), [], 'no scores yet: still prematch');
    assert.deepEqual(
      t.fromScores([scoreEvent(e, [0, 0])], START - 60_000),
      [],
      'scores before the start are not a kick-off',
    );
    const live = valid(t.fromScores([scoreEvent(e, [0, 0])], START + 60_000));
    assert.deepEqual(live, [
      { type: 'status', event_id: 'toa-g1', status: 'live' },
      { type: 'score', event_id: 'toa-g1', score: { home: 0, away: 0 } },
    ]);
    assert.deepEqual(t.fromScores([scoreEvent(e, [0, 0])], START + 120_000), []);
    assert.deepEqual(t.fromScores([scoreEvent(e, [1, 0])], START + 180_000), [
      { type: 'score', event_id: 'toa-g1', score: { home: 1, away: 0 } },
    ]);
    // A goal ruled out: the provider's score goes back, and so does ours.
    assert.deepEqual(t.fromScores([scoreEvent(e, [0, 0])], START + 240_000), [
      { type: 'score', event_id: 'toa-g1', score: { home: 0, away: 0 } },
    ]);
  });

  it('completed sends the result once; a completed game whose score changes sends it again as a correction', () => {
    const t = new EventTracker('wh');
    const e = ev();
    t.fromOdds([e]);
    t.fromScores([scoreEvent(e, [1, 0])], START + 60_000);
    const done = valid(t.fromScores([scoreEvent(e, [2, 1], true, '2026-03-01T16:55:00Z')], START + 7_000_000));
    assert.deepEqual(done, [
      {
        type: 'result',
        event_id: 'toa-g1',
        status: 'ended',
        score: { home: 2, away: 1 },
        ended_at: '2026-03-01T16:55:00.000Z',
      },
    ]);
    assert.deepEqual(t.fromScores([scoreEvent(e, [2, 1], true, '2026-03-01T16:55:00Z')], START + 7_100_000), []);
    const corrected = t.fromScores([scoreEvent(e, [2, 2], true, '2026-03-01T17:10:00Z')], START + 8_000_000);
    assert.deepEqual(types(corrected), ['result']);
    assert.deepEqual((corrected[0] as Extract<FeedMessage, { type: 'result' }>).score, { home: 2, away: 2 });
    // Odds for an ended game are not sent (the pipeline would refuse them).
    assert.deepEqual(t.fromOdds([ev([{ key: 'wh', h2h: [1.5, 3.4, 6], total: [2.5, 1.9, 1.95] }])]), []);
  });

  it('a game completed before we saw it live goes live then ends (it was played)', () => {
    const t = new EventTracker('wh');
    const e = ev();
    t.fromOdds([e]);
    assert.deepEqual(types(t.fromScores([scoreEvent(e, [0, 3], true)], START + 7_000_000)), ['status', 'result']);
  });

  it('a dropped game gets nothing: no result, no status, and it stops being polled for a day after its start', () => {
    const t = new EventTracker('wh');
    const e = ev();
    t.fromOdds([e]);
    t.fromScores([scoreEvent(e, [1, 1])], START + 60_000);
    // The provider no longer lists it, in either endpoint.
    assert.deepEqual(t.fromOdds([]), []);
    assert.deepEqual(t.fromScores([], START + 3 * 3600_000), []);
    assert.equal(t.summary('soccer_epl', START + 3 * 3600_000, 3600_000).started, 1);
    assert.equal(t.summary('soccer_epl', START + 25 * 3600_000, 3600_000).started, 0);
  });

  it('scores for events never announced, and sports we cannot map, send nothing', () => {
    const t = new EventTracker('wh');
    const stranger = oddsEvent('zz', 'soccer_epl', TEAMS, '2026-03-01T15:00:00Z', []);
    assert.deepEqual(t.fromScores([scoreEvent(stranger, [1, 0], true)], START + 7_000_000), []);
    const afl = oddsEvent('afl1', 'aussierules_afl', { home: 'A', away: 'B' }, '2026-03-01T15:00:00Z', []);
    assert.deepEqual(t.fromOdds([afl]), []);
    assert.deepEqual([...t.unmapped], ['aussierules_afl']);
  });

  it('the summary counts hot (live or within the hour) and started events per sport', () => {
    const t = new EventTracker('wh');
    t.fromOdds([ev()]);
    assert.deepEqual(t.summary('soccer_epl', START - 2 * 3600_000, 3600_000), {
      hot: 0,
      started: 0,
      nextStartAt: START,
    });
    assert.deepEqual(t.summary('soccer_epl', START - 1800_000, 3600_000), { hot: 1, started: 0, nextStartAt: START });
    assert.deepEqual(t.summary('soccer_epl', START + 60_000, 3600_000), { hot: 1, started: 1, nextStartAt: null });
    assert.deepEqual(t.summary('basketball_nba', START, 3600_000), { hot: 0, started: 0, nextStartAt: null });
  });
});
