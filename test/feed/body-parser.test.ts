// Large feed bodies parsed on the worker thread give exactly the lines, numbers and errors of the inline parser.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { FeedBodyParser } from '../../src/feed/body-parser.js';
import { parseNdjson } from '../../src/feed/ndjson.js';
import type { IngressLine } from '../../src/feed/packed-body.js';
import { unpack } from '../../src/feed/packed-odds.js';

const encoder = new TextEncoder();

/** Packed odds back to their message form, so worker and inline results compare as plain data. */
function plain(lines: IngressLine[]): unknown[] {
  return lines.map((l) =>
    'message' in l && typeof l.message === 'object' && 'packed' in l.message
      ? { line: l.line, message: unpack(l.message) }
      : l,
  );
}

function body(): string {
  const lines: string[] = [JSON.stringify({ type: 'fixture', event_id: 'e1', sport: 'soccer' }), '', '{not json'];
  for (let e = 0; e < 200; e++) {
    const changes = Array.from({ length: 50 }, (_v, k) =>
      k % 10 === 3 ? { selection_id: k + 1, is_locked: k % 20 === 3 } : { selection_id: k + 1, odds: 1.5 + k / 100 },
    );
    lines.push(JSON.stringify({ type: 'odds', ts: '2026-03-01T12:00:00Z', event_id: `e${e}`, changes }));
    if (e === 17)
      lines.push(JSON.stringify({ type: 'odds', event_id: 'e17', changes: [{ selection_id: 1, odds: 1.0 }] }));
    if (e === 99)
      lines.push(
        JSON.stringify({ type: 'odds', event_id: 'e99', changes: [{ selection_id: 1, odds: 2.2, is_locked: true }] }),
      );
  }
  return lines.join('\r\n');
}

describe('feed body parser', () => {
  const parser = new FeedBodyParser({ inlineBelowBytes: 1024 });
  after(() => parser.close());

  it('a large body parsed on the worker equals the inline parse line for line (odds packed)', async () => {
    const text = body();
    assert.ok(text.length > 1024);
    const lines = await parser.parse(encoder.encode(text));
    assert.ok(
      lines.some((l) => 'message' in l && typeof l.message === 'object' && 'packed' in l.message),
      'odds came back packed',
    );
    assert.deepEqual(plain(lines), parseNdjson(text));
  });

  it('a small body is parsed inline', async () => {
    const text = JSON.stringify({ type: 'odds', event_id: 'e1', changes: [{ selection_id: 1, odds: 2 }] });
    assert.deepEqual(await parser.parse(encoder.encode(text)), parseNdjson(text));
  });

  it('concurrent bodies each get their own answer', async () => {
    const texts = [0, 1, 2, 3].map(
      (i) => `${body()}\n${JSON.stringify({ type: 'status', event_id: `last-${i}`, status: 'live' })}`,
    );
    const results = await Promise.all(texts.map((t) => parser.parse(encoder.encode(t))));
    results.forEach((r, i) => assert.deepEqual(plain(r), parseNdjson(texts[i]!)));
  });
});
