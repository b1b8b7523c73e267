// The `markets` filter of reads (detail, odds, odds at an instant, batch): exactly the markets of those families, an ETag and codings per variant, 400 on a malformed value.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { familyOf } from '../../src/live/market-families.js';
import { decoded, metric } from '../helpers/codings.js';
import {
  at,
  feedOk,
  fixture,
  HOUR,
  markets,
  MINUTE,
  odds,
  startService,
  type InjectOptions,
  type Reply,
  type TestService,
} from '../helpers/service.js';
import type { ErrorBody } from '../helpers/payloads.js';

interface MarketJson {
  market_id: number;
  key: string;
  outcomes: Array<{ selection_id: number; odds: unknown }>;
}
interface WithMarkets {
  markets: MarketJson[];
  [field: string]: unknown;
}
interface Batch {
  events: Record<string, WithMarkets>;
  found: number;
  requested: number;
}

/** A market of `key` with two outcomes, ids from `id` (selections 10*id+1, 10*id+2). */
function market(id: number, key: string, odds = 1.9): Record<string, unknown> {
  return {
    market_id: id,
    key,
    name: `Market ${key}`,
    outcomes: [
      { selection_id: 10 * id + 1, code: 'over', label: `Over ${key}`, odds },
      { selection_id: 10 * id + 2, code: 'under', label: `Under ${key}`, odds: 2 },
    ],
  };
}

/**
 * A book of several families, in an order that interleaves them: twenty totals lines (so a
 * `totals` body passes the 1 KB over which replies are compressed), a 1x2, first-half markets,
 * btts, a player prop and a family the catalog does not know (a producer's own).
 */
function book(eventId: string): Record<string, unknown> {
  const ms: Array<Record<string, unknown>> = [
    {
      market_id: 1,
      key: '1x2',
      name: 'Match Result',
      outcomes: [
        { selection_id: 11, code: 'home', label: 'Home', odds: 2.5 },
        { selection_id: 12, code: 'draw', label: 'Draw', odds: 3.2 },
        { selection_id: 13, code: 'away', label: 'Away', odds: 2.9 },
      ],
    },
  ];
  for (let i = 0; i < 20; i++) {
    ms.push(market(100 + i, `totals:${i}.5`));
    if (i === 3) ms.push(market(200, 'btts'));
    if (i === 7) ms.push(market(201, '1x2@1h'));
    if (i === 11) ms.push(market(202, 'totals@1h:1.5'));
    if (i === 13) ms.push(market(203, 'player_goals_p7:0.5'));
    if (i === 15) ms.push(market(204, 'house_special'));
  }
  return { type: 'markets', event_id: eventId, markets: ms };
}

/** The unfiltered body's markets kept by family, as the filtered body must hold them. */
function only(all: readonly MarketJson[], families: readonly string[]): MarketJson[] {
  return all.filter((m) => families.includes(familyOf(m.key)));
}

function withoutMarkets(doc: WithMarkets): Record<string, unknown> {
  const { markets: _markets, ...rest } = doc;
  return rest;
}

/** One of the four reads, at a query string (`?…` or ''). */
interface Read {
  name: string;
  /** The request, with `query` appended to its URL. */
  call(svc: TestService, query: string, headers?: Record<string, string>): Promise<Reply<unknown>>;
  /** The documents (one, or a batch's items) of a reply, by event id. */
  docs(body: unknown): Record<string, WithMarkets>;
}

const AT = at(30 * MINUTE);

function read(name: string, path: string, extra = ''): Read {
  return {
    name,
    call: (svc, query, headers = {}) => {
      const sep = query === '' ? (extra === '' ? '' : '?') : '&';
      const url = `${path}${query === '' ? '' : '?'}${query.replace(/^\?/, '')}${extra === '' ? '' : sep + extra}`;
      return svc.get(url, { headers });
    },
    docs: (body) => ({ ev: body as WithMarkets }),
  };
}

const READS: Read[] = [
  read('detail', '/v1/events/ev'),
  read('odds', '/v1/events/ev/odds'),
  read('odds at', '/v1/events/ev/odds', `at=${encodeURIComponent(AT)}`),
  {
    name: 'batch',
    call: (svc, query, headers = {}) => {
      const opts: InjectOptions = { body: { ids: ['ev', 'plain', 'nope'] }, headers };
      return svc.inject('POST', `/v1/events/batch${query === '' ? '' : `?${query}`}`, opts);
    },
    docs: (body) => (body as Batch).events,
  },
];

describe('the markets filter on reads', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    await feedOk(svc, [
      fixture('ev', { start_time: at(2 * HOUR) }),
      book('ev'),
      fixture('plain', { start_time: at(3 * HOUR) }),
      markets('plain'),
    ]);
    // The odds at AT are those fed above; the clock moves past it so that AT is not in the future.
    await svc.service.pipeline.flush();
    svc.clock.advance(HOUR);
  });
  after(() => svc.close());

  test('each read holds exactly the markets of the families asked for, the rest of the document unchanged', async () => {
    for (const families of [['totals'], ['1x2'], ['1x2', 'totals'], ['btts', 'house_special', 'player_goals_p7']]) {
      for (const r of READS) {
        const full = await r.call(svc, '');
        assert.equal(full.status, 200, `${r.name}: ${full.text}`);
        const filtered = await r.call(svc, `markets=${families.join(',')}`);
        assert.equal(filtered.status, 200, `${r.name} ${families.join(',')}: ${filtered.text}`);
        const fullDocs = r.docs(full.body);
        const gotDocs = r.docs(filtered.body);
        assert.deepEqual(Object.keys(gotDocs), Object.keys(fullDocs), r.name);
        for (const [id, doc] of Object.entries(fullDocs)) {
          const got = gotDocs[id] as WithMarkets;
          const want = only(doc.markets, families);
          assert.ok(want.length > 0 || id === 'plain', `${r.name}: the test's book has ${families.join(',')}`);
          assert.deepEqual(got.markets, want, `${r.name} ${id} ${families.join(',')}`);
          assert.deepEqual(withoutMarkets(got), withoutMarkets(doc), `${r.name} ${id}: the other fields`);
        }
        if (r.name === 'batch') {
          const b = filtered.body as Batch;
          assert.equal(b.found, 2);
          assert.equal(b.requested, 3);
        }
      }
    }
  });

  test('the value is normalised: case, order and repeats make the same variant', async () => {
    for (const r of READS) {
      const a = await r.call(svc, 'markets=1x2,totals');
      const b = await r.call(svc, `markets=${encodeURIComponent('TOTALS,1x2,totals')}`);
      assert.equal(b.status, 200, `${r.name}: ${b.text}`);
      assert.ok(b.raw.equals(a.raw), r.name);
      assert.equal(b.headers.etag, a.headers.etag, r.name);
    }
  });

  test('an event none of whose markets match answers its document with an empty markets list', async () => {
    const detail = await svc.get<WithMarkets>('/v1/events/plain?markets=btts');
    assert.equal(detail.status, 200, detail.text);
    assert.deepEqual(detail.body.markets, []);
    assert.equal(detail.body.id, 'plain');
    const odds = await svc.get<WithMarkets>('/v1/events/plain/odds?markets=btts');
    assert.deepEqual(odds.body.markets, []);
    const oddsAt = await svc.get<WithMarkets>(`/v1/events/plain/odds?markets=btts&at=${encodeURIComponent(AT)}`);
    assert.equal(oddsAt.status, 200, oddsAt.text);
    assert.deepEqual(oddsAt.body.markets, []);
    const batch = await svc.inject<Batch>('POST', '/v1/events/batch?markets=btts', { body: { ids: ['plain'] } });
    assert.deepEqual(batch.body.events.plain?.markets, []);
  });

  test('a filtered body has an ETag of its own, and If-None-Match answers 304 on it', async () => {
    for (const r of READS) {
      const full = await r.call(svc, '');
      const filtered = await r.call(svc, 'markets=totals');
      const other = await r.call(svc, 'markets=1x2');
      const tags = [full.headers.etag, filtered.headers.etag, other.headers.etag];
      for (const t of tags) assert.match(String(t), /^"[!#-~]+"$/, `${r.name}: strong ETag`);
      assert.equal(new Set(tags).size, 3, `${r.name}: one tag per variant ${tags.join(' ')}`);
      const again = await r.call(svc, 'markets=totals');
      assert.equal(again.headers.etag, filtered.headers.etag, r.name);
      const hit = await r.call(svc, 'markets=totals', { 'if-none-match': String(filtered.headers.etag) });
      assert.equal(hit.status, 304, r.name);
      assert.equal(hit.raw.length, 0, r.name);
      // The unfiltered tag is not the filtered body's, nor the other way round.
      const miss = await r.call(svc, 'markets=totals', { 'if-none-match': String(full.headers.etag) });
      assert.equal(miss.status, 200, r.name);
      const fullMiss = await r.call(svc, '', { 'if-none-match': String(filtered.headers.etag) });
      assert.equal(fullMiss.status, 200, r.name);
    }
  });

  test('a filtered body is compressed (br, gzip) with a tag per coding', async () => {
    for (const r of READS) {
      const plain = await r.call(svc, 'markets=totals');
      assert.ok(plain.raw.length >= 1024, `${r.name}: the test needs a body over 1 KB (${plain.raw.length})`);
      assert.equal(plain.headers['content-encoding'], undefined);
      const tags = new Set([plain.headers.etag]);
      for (const coding of ['br', 'gzip']) {
        const res = await r.call(svc, 'markets=totals', { 'accept-encoding': coding });
        assert.equal(res.status, 200, r.name);
        assert.equal(res.headers['content-encoding'], coding, `${r.name} ${coding}`);
        assert.match(String(res.headers.vary), /accept-encoding/i, r.name);
        assert.ok(decoded(res).equals(plain.raw), `${r.name} ${coding}: the same bytes`);
        tags.add(res.headers.etag);
        const hit = await r.call(svc, 'markets=totals', {
          'accept-encoding': coding,
          'if-none-match': String(res.headers.etag),
        });
        assert.equal(hit.status, 304, `${r.name} ${coding}`);
      }
      assert.equal(tags.size, 3, `${r.name}: a tag per coding`);
    }
  });

  test('a malformed family or an empty item answers 400 naming markets', async () => {
    for (const r of READS) {
      for (const value of ['to-tals', '', ',', 'totals,,1x2', 'x'.repeat(65)]) {
        const res = await r.call(svc, `markets=${encodeURIComponent(value)}`);
        assert.equal(res.status, 400, `${r.name} markets=${value}: ${res.text}`);
        const body = res.body as ErrorBody;
        assert.equal(body.error, 'bad_request', r.name);
        assert.match(body.message, /'?markets'?/, `${r.name}: ${body.message}`);
      }
    }
  });

  test('a well-formed family no market has matches none, as on the stream (a 200 with no markets)', async () => {
    for (const r of READS) {
      for (const value of ['1x3', 'my_family']) {
        const res = await r.call(svc, `markets=${value}`);
        assert.equal(res.status, 200, `${r.name} markets=${value}: ${res.text}`);
        for (const doc of Object.values(r.docs(res.body))) assert.deepEqual(doc.markets, [], r.name);
      }
    }
  });

  test('a catalog family no market of the event has, or any player prop, is accepted', async () => {
    for (const r of READS) {
      for (const value of ['set_handicap', 'player_assists_p99']) {
        const res = await r.call(svc, `markets=${value}`);
        assert.equal(res.status, 200, `${r.name} markets=${value}: ${res.text}`);
        for (const doc of Object.values(r.docs(res.body))) assert.deepEqual(doc.markets, [], r.name);
      }
    }
  });

  test('filtered reads leave the unfiltered body and its tag as they were, and follow price moves', async () => {
    const reads = READS.filter((r) => r.name !== 'odds at');
    const before = await Promise.all(reads.map((r) => r.call(svc, '')));
    for (const r of reads) {
      for (const f of ['totals', '1x2', 'btts,1x2', 'house_special']) await r.call(svc, `markets=${f}`);
    }
    for (const [i, r] of reads.entries()) {
      const now = await r.call(svc, '');
      assert.ok(now.raw.equals((before[i] as Reply).raw), `${r.name}: the same bytes`);
      assert.equal(now.headers.etag, (before[i] as Reply).headers.etag, `${r.name}: the same tag`);
    }
    const filteredBefore = await Promise.all(reads.map((r) => r.call(svc, 'markets=totals')));
    // A price move in a totals market: the filtered variants are refreshed like the full ones.
    await feedOk(svc, [odds('ev', [{ selection_id: 1051, odds: 4.4 }])]);
    for (const [i, r] of reads.entries()) {
      const full = await r.call(svc, '');
      const filtered = await r.call(svc, 'markets=totals');
      assert.notEqual(filtered.headers.etag, (filteredBefore[i] as Reply).headers.etag, `${r.name}: a new tag`);
      for (const [id, doc] of Object.entries(r.docs(full.body))) {
        assert.deepEqual((r.docs(filtered.body)[id] as WithMarkets).markets, only(doc.markets, ['totals']), r.name);
      }
      const moved = r.docs(filtered.body).ev?.markets.find((m) => m.market_id === 105);
      assert.equal(moved?.outcomes[0]?.odds, 4.4, r.name);
    }
    // A market added (a change of shape): the variants are built again.
    await feedOk(svc, [{ type: 'markets', event_id: 'ev', markets: [market(300, 'totals:30.5')] }]);
    for (const r of reads) {
      const filtered = await r.call(svc, 'markets=totals');
      const ids = r.docs(filtered.body).ev?.markets.map((m) => m.market_id) ?? [];
      assert.ok(ids.includes(300), `${r.name}: the new market is there`);
      assert.equal(ids.length, 22, `${r.name}: twenty totals lines, totals@1h and the new one`);
    }
  });

  test('filtered payloads count in a budget of their own, not in the payload cache', async () => {
    await svc.get('/v1/events/ev/odds');
    const full = await metric(svc, 'read_model_payload_cache_bytes');
    const variants = await metric(svc, 'read_model_variant_cache_bytes');
    const odds = await svc.get('/v1/events/ev/odds?markets=double_chance,totals');
    assert.equal(odds.status, 200, odds.text);
    assert.equal(await metric(svc, 'read_model_payload_cache_bytes'), full);
    assert.equal(await metric(svc, 'read_model_variant_cache_bytes'), variants + odds.raw.length);
  });

  test('markets works with odds_format, each format a variant of its own', async () => {
    const dec = await svc.get<WithMarkets>('/v1/events/ev/odds?markets=1x2');
    const am = await svc.get<WithMarkets>('/v1/events/ev/odds?markets=1x2&odds_format=american');
    assert.equal(am.status, 200, am.text);
    assert.equal(am.body.odds_format, 'american');
    assert.deepEqual(
      am.body.markets.map((m) => m.key),
      dec.body.markets.map((m) => m.key),
    );
    assert.notEqual(am.headers.etag, dec.headers.etag);
  });
});
