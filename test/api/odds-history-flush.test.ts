// Odds history reads are whole whatever the write-behind is doing: stored, in flight and pending changes together, the same from one read to the next.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  feedOk,
  MARKET,
  MINUTE,
  odds,
  prematchEvent,
  result,
  SEL,
  startService,
  status,
  type TestService,
} from '../helpers/service.js';

interface Change {
  selection_id: number;
  odds: number;
  at: string;
}
interface Page {
  history: Change[];
  next_cursor: string | null;
}

async function all(svc: TestService, id: string, limit: number): Promise<Change[]> {
  const out: Change[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 500; i++) {
    const url: string = `/v1/events/${id}/odds/history?limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`;
    const r = await svc.get<Page>(url);
    assert.equal(r.status, 200, r.text);
    out.push(...r.body.history);
    if (r.body.next_cursor === null) return out;
    cursor = r.body.next_cursor;
  }
  throw new Error('too many pages');
}

describe('odds history reads around flushes', () => {
  let svc: TestService;
  before(async () => {
    // Timer flushes land at their own moments too: every read must be whole whatever they do.
    svc = await startService({ env: { FLUSH_INTERVAL_MS: '1000' } });
  });
  after(() => svc.close());

  it('stored changes and a pending one are listed together', async () => {
    await feedOk(svc, prematchEvent('h1'));
    await svc.service.pipeline.flush();
    svc.clock.advance(MINUTE);
    await feedOk(svc, [odds('h1', [{ selection_id: SEL.home, odds: 3.1 }])]);
    const h = await all(svc, 'h1', 200);
    assert.equal(h.length, 6, JSON.stringify(h));
    assert.deepEqual(h.at(-1), { ...h.at(-1), selection_id: SEL.home, odds: 3.1 });
  });

  it("another event's game and settlement leave an event's history as it was", async () => {
    const beforeIt = await all(svc, 'h1', 200);
    await feedOk(svc, [...prematchEvent('h2'), status('h2', 'live'), result('h2', 1, 0)]);
    await svc.service.settlement.idle();
    assert.deepEqual(await all(svc, 'h1', 200), beforeIt);
    await svc.service.pipeline.flush();
    assert.deepEqual(await all(svc, 'h1', 200), beforeIt);
  });

  it('a history read while a flush is being written sees the flushed changes (they are neither pending nor stored yet)', async () => {
    await feedOk(svc, prematchEvent('h3'));
    for (let i = 0; i < 4; i++) {
      svc.clock.advance(MINUTE);
      await feedOk(svc, [odds('h3', [{ selection_id: SEL.draw, odds: 3 + i / 10 }])]);
    }
    const whole = await all(svc, 'h3', 200);
    assert.equal(whole.length, 5 + 4);
    // Reads racing the flush's write: every one of them whole, every page size.
    const flushing = svc.service.pipeline.flush();
    const reads = await Promise.all([all(svc, 'h3', 200), all(svc, 'h3', 1), all(svc, 'h3', 2), all(svc, 'h3', 3)]);
    await flushing;
    for (const r of reads) assert.deepEqual(r, whole);
    for (const limit of [1, 2, 4, 200]) assert.deepEqual(await all(svc, 'h3', limit), whole, `limit ${limit}`);
  });

  it('paging with limit=1 over stored chunks and pending changes ends exactly at the last change', async () => {
    await feedOk(svc, prematchEvent('h4'));
    for (let round = 0; round < 6; round++) {
      svc.clock.advance(MINUTE);
      await feedOk(svc, [odds('h4', [{ selection_id: SEL.over, odds: 1.5 + round / 10 }])]);
      if (round % 2 === 0) await svc.service.pipeline.flush();
      const one = await all(svc, 'h4', 1);
      assert.deepEqual(one, await all(svc, 'h4', 200), `round ${round}`);
      assert.equal(one.length, 5 + round + 1);
    }
    assert.ok(MARKET.totals > 0);
  });
});
