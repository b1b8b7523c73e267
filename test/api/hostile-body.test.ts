// A huge admin feed body of deeply nested junk must not hold the event loop: /livez keeps answering meanwhile.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_KEY, startService, type TestService } from '../helpers/service.js';

const MB = 1024 * 1024;

/** Posts a feed body and, while it is on its way and being handled, asks /livez again and again. */
async function livezWaitsDuring(
  base: string,
  body: string,
  contentType: string,
): Promise<{ maxMs: number; probes: number; status: number; answer: string }> {
  let done = false;
  const post = fetch(`${base}/admin/v1/feed`, {
    method: 'POST',
    headers: { 'x-admin-key': ADMIN_KEY, 'content-type': contentType },
    body,
  }).then(async (r) => ({ status: r.status, answer: await r.text() }));
  const finished = post.finally(() => {
    done = true;
  });
  let maxMs = 0;
  let probes = 0;
  for (let i = 0; i < 100_000 && !done; i++) {
    const t = performance.now();
    const r = await fetch(`${base}/livez`);
    await r.arrayBuffer();
    maxMs = Math.max(maxMs, performance.now() - t);
    probes++;
  }
  const { status, answer } = await finished;
  return { maxMs, probes, status, answer };
}

describe('hostile admin feed bodies', () => {
  let svc: TestService;
  let base: string;
  before(async () => {
    svc = await startService();
    base = await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => svc.close());

  it('40 MB of deeply nested NDJSON junk stalls /livez little more than a blank body of the same size', async () => {
    const size = 40 * MB;
    // The baseline: a body as large that costs nothing to judge (one blank line): what merely
    // receiving 40 MB costs this event loop.
    const flat = `${' '.repeat(size - 1)}\n`;
    // Junk: lines of 5,000 nested arrays, the shape that took JSON.parse seconds.
    const nested = `{"type":"odds","event_id":"x","changes":${'['.repeat(5000)}${']'.repeat(5000)}}\n`;
    const junk = nested.repeat(Math.floor(size / nested.length));
    const deep = '['.repeat(size); // one line, never closed

    const baseline = await livezWaitsDuring(base, flat, 'application/x-ndjson');
    assert.equal(baseline.status, 200, baseline.answer.slice(0, 200));
    const lines = await livezWaitsDuring(base, junk, 'application/x-ndjson');
    const oneLine = await livezWaitsDuring(base, deep, 'application/x-ndjson');
    // Short junk lines: each costs JSON.parse ~13 µs to refuse; 20 million of them took minutes.
    const short = await livezWaitsDuring(base, 'x\n'.repeat(size / 2), 'application/x-ndjson');
    const bound = Math.max(3 * baseline.maxMs, 150);
    console.log(
      `FAULT-FIGURES hostile-body: livez max wait ${baseline.maxMs.toFixed(0)} ms during a blank 40 MB body, ` +
        `${lines.maxMs.toFixed(0)} ms during 40 MB of nested lines, ${oneLine.maxMs.toFixed(0)} ms during 40 MB of '[', ` +
        `${short.maxMs.toFixed(0)} ms during 40 MB of 'x' lines ` +
        `(bound ${bound.toFixed(0)} ms; ${baseline.probes}/${lines.probes}/${oneLine.probes}/${short.probes} probes)`,
    );
    for (const r of [lines, oneLine]) {
      assert.equal(r.status, 200, r.answer.slice(0, 200));
      assert.match(r.answer, /nests objects or arrays deeper than 32 levels/);
      assert.ok(r.maxMs <= bound, `livez waited ${r.maxMs.toFixed(0)} ms (bound ${bound.toFixed(0)} ms)`);
    }
    assert.equal(short.status, 400, short.answer.slice(0, 200));
    assert.deepEqual(JSON.parse(short.answer), {
      error: 'bad_request',
      message:
        'more than 10000 lines of this body are not valid feed messages (the first at line 1); nothing was applied',
    });
    assert.ok(short.maxMs <= bound, `livez waited ${short.maxMs.toFixed(0)} ms (bound ${bound.toFixed(0)} ms)`);
    const report = JSON.parse(lines.answer) as { accepted: number; rejected: number };
    assert.deepEqual([report.accepted, report.rejected], [0, Math.floor(size / nested.length)]);
  });

  it('a JSON (not NDJSON) feed body is refused above 4 MiB, and so are nested junk and thousands of bad messages in one below it', async () => {
    const big = await svc.inject('POST', '/admin/v1/feed', {
      key: null,
      headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/json' },
      body: `[${'{"type":"odds"},'.repeat((5 * MB) / 16)}{}]`,
    });
    assert.deepEqual([big.status, (big.body as { error: string }).error], [400, 'bad_request']);
    const deep = await svc.inject('POST', '/admin/v1/feed', {
      key: null,
      headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/json' },
      body: '['.repeat(MB) + ']'.repeat(MB),
    });
    const many = await svc.inject('POST', '/admin/v1/feed', {
      key: null,
      headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/json' },
      body: `[${'1,'.repeat(20_000)}1]`,
    });
    assert.deepEqual(many.body, {
      error: 'bad_request',
      message: 'more than 10000 messages of this body are not valid feed messages; nothing was applied',
    });
    assert.equal(deep.status, 400, deep.text);
    assert.deepEqual(deep.body, {
      error: 'bad_request',
      message: 'request body nests objects or arrays deeper than 32 levels',
    });
  });
});
