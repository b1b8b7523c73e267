// The fast odds-line scanner accepts exactly what JSON.parse + the schema accept, with the same values.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseNdjson } from '../../src/feed/ndjson.js';
import { scanOddsBytes } from '../../src/feed/odds-bytes-scanner.js';
import { scanOddsLine, type Arena } from '../../src/feed/odds-line-scanner.js';
import { ArenaKeeper, parsePackedBody, parsePackedBytes, type IngressLine } from '../../src/feed/packed-body.js';
import { unpack } from '../../src/feed/packed-odds.js';

function plain(lines: IngressLine[]): unknown[] {
  return lines.map((l) =>
    'message' in l && typeof l.message === 'object' && 'packed' in l.message
      ? { line: l.line, message: unpack(l.message) }
      : l,
  );
}

/** Odds messages as the pipeline sees them: extra members of a change are not kept (they mean nothing). */
function known(lines: unknown[]): unknown[] {
  return lines.map((l) => {
    const m = (l as { message?: unknown }).message;
    if (typeof m !== 'object' || m === null || (m as { type?: string }).type !== 'odds') return l;
    const odds = m as { changes: Array<Record<string, unknown>> };
    const changes = odds.changes.map((c) => {
      const out: Record<string, unknown> = { selection_id: c.selection_id };
      if (c.odds !== undefined) out.odds = c.odds;
      if (c.is_locked !== undefined) out.is_locked = c.is_locked;
      return out;
    });
    const { type, ts, event_id } = m as { type: string; ts?: string; event_id: string };
    return {
      ...(l as object),
      message: ts === undefined ? { type, event_id, changes } : { type, event_id, changes, ts },
    };
  });
}

function arena(n: number): Arena {
  return { ids: new Float64Array(n), odds: new Float64Array(n), locks: new Int8Array(n), used: 0 };
}

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Number texts: plain, long, with exponents, negative, and some JSON does not allow. */
const NUMBERS = [
  '2',
  '2.5',
  '1.01',
  '1.009',
  '1.0',
  '01',
  '1.',
  '.5',
  '-1',
  '-0',
  '1e2',
  '1E-2',
  '2.5e0',
  '1e400',
  '12345678901234567',
  '9007199254740991',
  '9007199254740993',
  '3.14159265358979323846',
  '1.0000000000000002',
  '0',
  '+1',
  '1.01e+0',
  '7.123456789012345',
];

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

function randomChange(r: () => number): string {
  const parts: string[] = [];
  const roll = r();
  if (roll > 0.03) parts.push(`"selection_id":${r() < 0.85 ? String(Math.floor(r() * 5000)) : pick(r, NUMBERS)}`);
  if (r() < 0.85) parts.push(`"odds":${r() < 0.7 ? (1 + r() * 20).toFixed(2) : pick(r, NUMBERS)}`);
  if (r() < 0.2) parts.push(`"is_locked":${pick(r, ['true', 'false', '"true"', '1', 'null'])}`);
  if (r() < 0.02) parts.push('"extra":1');
  if (r() < 0.02) parts.push('"odds":2');
  if (r() < 0.5) parts.reverse();
  const sep = r() < 0.1 ? ' , ' : ',';
  return `{${parts.join(sep)}}`;
}

/** A valid line in the producer's usual shape, with random spacing and member order. */
function cleanLine(r: () => number): string {
  const n = 1 + Math.floor(r() * 6);
  const changes = Array.from({ length: n }, () => {
    const members = [`"selection_id":${Math.floor(r() * 5000)}`, `"odds":${(1.01 + r() * 20).toFixed(2)}`];
    if (r() < 0.2) members.push(`"is_locked":${r() < 0.5}`);
    if (r() < 0.3) members.reverse();
    return `{${members.join(r() < 0.1 ? ' , ' : ',')}}`;
  });
  const members = ['"type":"odds"', `"event_id":"e${Math.floor(r() * 100)}"`, `"changes":[${changes.join(',')}]`];
  if (r() < 0.5) members.push('"ts":"2026-03-01T12:00:00.250Z"');
  if (r() < 0.3) members.reverse();
  return `{${members.join(',')}}`;
}

function randomLine(r: () => number): string {
  if (r() < 0.5) return cleanLine(r);
  const n = r() < 0.02 ? 0 : 1 + Math.floor(r() * 6);
  const changes = Array.from({ length: n }, () => randomChange(r)).join(r() < 0.1 ? ', ' : ',');
  const members = [
    `"type":${pick(r, ['"odds"', '"odds"', '"odds"', '"status"', '"od\\u0064s"'])}`,
    `"event_id":${pick(r, ['"e1"', '"e-2"', '"with space"', '""', '"tab\\there"', '"é-ü"'])}`,
    `"changes":${r() < 0.97 ? `[${changes}]` : '{}'}`,
  ];
  if (r() < 0.3)
    members.push(
      `"ts":${pick(r, ['"2026-03-01T12:00:00Z"', '"2026-03-01T12:00:00+01:00"', '"yesterday"', '"2026-13-01T00:00:00Z"', '5'])}`,
    );
  if (r() < 0.05) members.push('"producer":{"a":[1,2]}');
  if (r() < 0.02) members.splice(1, 1);
  if (r() < 0.5) members.reverse();
  const body = `{${members.join(r() < 0.1 ? ' ,\t' : ',')}}`;
  return r() < 0.05 ? `  ${body}  ` : r() < 0.02 ? body.slice(0, -1) : body;
}

describe('odds line scanner', () => {
  it('a plain odds line is scanned into the arena', () => {
    const a = arena(10);
    const s = scanOddsLine(
      '{"type":"odds","ts":"2026-03-01T12:00:00Z","event_id":"e1","changes":[{"selection_id":7,"odds":2.35},{"selection_id":8,"is_locked":true}]}',
      a,
    );
    assert.deepEqual(s, { eventId: 'e1', ts: '2026-03-01T12:00:00Z', from: 0, count: 2 });
    assert.deepEqual([...a.ids.subarray(0, 2)], [7, 8]);
    assert.equal(a.odds[0], 2.35);
    assert.ok(Number.isNaN(a.odds[1]!));
    assert.deepEqual([...a.locks.subarray(0, 2)], [-1, 1]);
  });

  it('declines what it does not handle and leaves the arena as it was', () => {
    const a = arena(10);
    a.used = 3;
    for (const line of [
      '{"type":"odds","event_id":"e1","changes":[{"selection_id":1,"odds":2},{"selection_id":2}]}',
      '{"type":"odds","event_id":"e\\u0031","changes":[{"selection_id":1,"odds":2}]}',
      '{"type":"odds","event_id":"e1","changes":[{"selection_id":1,"odds":1.0}]}',
      '{"type":"odds","event_id":"e1","changes":[{"selection_id":1,"odds":2,"note":"x"}]}',
      '{"type":"fixture","event_id":"e1"}',
    ]) {
      assert.equal(scanOddsLine(line, a), null, line);
      assert.equal(a.used, 3);
    }
  });

  it('numbers read exactly as JSON.parse reads them', () => {
    const r = prng(3);
    for (let k = 0; k < 20_000; k++) {
      const digits = 1 + Math.floor(r() * 17);
      let text = String(1 + Math.floor(r() * 9));
      for (let d = 1; d < digits; d++) text += String(Math.floor(r() * 10));
      const dot = Math.floor(r() * digits);
      if (dot > 0) text = `${text.slice(0, dot)}.${text.slice(dot)}`;
      const a = arena(1);
      const line = `{"type":"odds","event_id":"e","changes":[{"selection_id":1,"odds":${text}}]}`;
      const s = scanOddsLine(line, a);
      const want = JSON.parse(text) as number;
      if (want >= 1.01) {
        assert.ok(s !== null, text);
        assert.equal(a.odds[0], want, text);
      } else assert.equal(s, null, text);
    }
  });

  it('on 5,000 random lines (valid, odd and broken) a packed body equals the general parse', () => {
    const r = prng(11);
    const lines = Array.from({ length: 5000 }, () => randomLine(r));
    const text = lines.join('\n');
    const general = known(parseNdjson(text)) as ReturnType<typeof parseNdjson>;
    assert.ok(general.filter((l) => 'error' in l).length > 500, 'the sample includes many invalid lines');
    assert.ok(general.filter((l) => !('error' in l)).length > 2500, 'and many valid ones');
    const packed = known(plain(parsePackedBody(text).lines));
    assert.equal(packed.length, general.length);
    // Line by line, so a failure names the line that differs.
    general.forEach((want, i) => assert.deepEqual(packed[i], want, lines[want.line - 1]));
  });

  /** A line in the common spelling (the byte reader's), now and then with something off. */
  function commonLine(r: () => number): string {
    const n = 1 + Math.floor(r() * 8);
    const changes = Array.from({ length: n }, () => {
      const id =
        r() < 0.97 ? String(Math.floor(r() * 100_000)) : pick(r, ['0', '00', '07', '1e3', '-1', '9007199254740993']);
      const odds = r() < 0.9 ? (1 + r() * 20).toFixed(Math.floor(r() * 4)) : pick(r, NUMBERS);
      const lock = r() < 0.15 ? `,"is_locked":${pick(r, ['true', 'false', 'true', 'false', 'null', '"x"'])}` : '';
      return `{"selection_id":${id},"odds":${odds}${lock}}`;
    });
    const ts =
      r() < 0.3
        ? `"ts":"${pick(r, ['2026-03-01T12:00:00.250Z', '2026-03-01T12:00:00Z', 'soon', '2026-02-30T00:00:00Z'])}",`
        : '';
    const id = r() < 0.9 ? `e-${Math.floor(r() * 1000)}` : pick(r, ['é-ü', 'with space', '', 'a/b', 'x'.repeat(300)]);
    const line = `{"type":"odds",${ts}"event_id":"${id}","changes":[${changes.join(',')}]}`;
    return r() < 0.03 ? `${line} ` : r() < 0.02 ? line.slice(0, -2) : line;
  }

  it('the byte reader takes the common spelling itself and declines the rest, writing nothing', () => {
    const enc = new TextEncoder();
    const a = arena(10);
    const line = enc.encode(
      '{"type":"odds","ts":"2026-03-01T12:00:00Z","event_id":"e1","changes":[{"selection_id":7,"odds":2.35},{"selection_id":8,"odds":1.5,"is_locked":false}]}',
    );
    assert.deepEqual(scanOddsBytes(line, 0, line.length, a), {
      eventId: 'e1',
      ts: '2026-03-01T12:00:00Z',
      from: 0,
      count: 2,
    });
    assert.deepEqual([...a.ids.subarray(0, 2)], [7, 8]);
    assert.deepEqual([...a.odds.subarray(0, 2)], [2.35, 1.5]);
    assert.deepEqual([...a.locks.subarray(0, 2)], [-1, 0]);
    for (const text of [
      '{"type":"odds","event_id":"e1","changes":[{"selection_id":1,"odds":2},{"selection_id":2,"is_locked":true}]}',
      '{"type":"odds","event_id":"e1","changes":[{"odds":2,"selection_id":1}]}',
      '{"type":"odds", "event_id":"e1","changes":[{"selection_id":1,"odds":2}]}',
      '{"type":"odds","event_id":"é","changes":[{"selection_id":1,"odds":2}]}',
      '{"type":"odds","event_id":"e1","changes":[{"selection_id":1,"odds":1e1}]}',
      '{"type":"odds","event_id":"e1","changes":[{"selection_id":1,"odds":2}]} ',
    ]) {
      const b = enc.encode(text);
      assert.equal(scanOddsBytes(b, 0, b.length, a), null, text);
      assert.equal(a.used, 2, text);
    }
  });

  it('from the bytes: on 8,000 random lines, common and odd, the same lines as the general parse', () => {
    const r = prng(29);
    const lines = Array.from({ length: 8000 }, () => (r() < 0.6 ? commonLine(r) : randomLine(r)));
    const text = lines.join('\n');
    const general = known(parseNdjson(text)) as ReturnType<typeof parseNdjson>;
    assert.ok(general.filter((l) => 'error' in l).length > 500, 'the sample includes many invalid lines');
    const packed = known(plain(parsePackedBytes(new TextEncoder().encode(text)).lines));
    assert.equal(packed.length, general.length);
    general.forEach((want, i) => assert.deepEqual(packed[i], want, lines[want.line - 1]));
  });

  it('from the bytes: CRLF and lone CR line ends, a byte order mark, blank and trailing lines', () => {
    const r = prng(31);
    const lines = Array.from({ length: 300 }, () => commonLine(r));
    for (const text of [
      lines.join('\r\n'),
      lines.join('\r'),
      `\ufeff${lines.join('\n')}`,
      `\n\n${lines.join('\n\n')}\n`,
      '',
      '\n',
    ]) {
      const general = known(parseNdjson(text));
      const packed = known(plain(parsePackedBytes(new TextEncoder().encode(text)).lines));
      assert.deepEqual(packed, general);
    }
  });

  it('from the bytes: invalid UTF-8 inside a line reads as the decoded text does', () => {
    const good = new TextEncoder().encode('{"type":"odds","event_id":"e1","changes":[{"selection_id":1,"odds":2.5}]}');
    const bad = Uint8Array.from([
      ...new TextEncoder().encode('{"type":"odds","event_id":"e'),
      0xc3,
      0x28,
      ...new TextEncoder().encode('","changes":[{"selection_id":1,"odds":2.5}]}'),
    ]);
    const body = Uint8Array.from([...good, 0x0a, ...bad, 0x0a, ...good]);
    const general = known(parseNdjson(new TextDecoder().decode(body)));
    assert.deepEqual(known(plain(parsePackedBytes(body).lines)), general);
  });

  it('from the bytes: numbers read exactly as JSON.parse reads them', () => {
    const r = prng(5);
    for (let k = 0; k < 20_000; k++) {
      const digits = 1 + Math.floor(r() * 17);
      let text = String(1 + Math.floor(r() * 9));
      for (let d = 1; d < digits; d++) text += String(Math.floor(r() * 10));
      const dot = Math.floor(r() * digits);
      if (dot > 0) text = `${text.slice(0, dot)}.${text.slice(dot)}`;
      const body = new TextEncoder().encode(
        `{"type":"odds","event_id":"e","changes":[{"selection_id":1,"odds":${text}}]}`,
      );
      const [line] = plain(parsePackedBytes(body).lines) as Array<
        { error: string } | { message: { changes: Array<{ odds: number }> } }
      >;
      const want = JSON.parse(text) as number;
      if (want >= 1.01) {
        assert.ok(line !== undefined && 'message' in line && !('error' in line), text);
        assert.equal(line.message.changes[0]?.odds, want, text);
      } else assert.ok(line !== undefined && 'error' in line, text);
    }
  });
});

describe('the arena kept from body to body', () => {
  it('reuses the last arena for a body of its size, and does not keep a burst-sized one for the small bodies after it', () => {
    const keeper = new ArenaKeeper();
    const tick = keeper.take(1_000);
    keeper.give(tick);
    assert.equal(keeper.take(900), tick, 'a body of about the same size reuses it');
    keeper.give(tick);
    // A burst (a bulk load) takes a big arena and gives it back...
    const burst = keeper.take(1_000_000);
    keeper.give(burst);
    // ...then the ticks resume: a small one is made, and given back, it is what is kept.
    const small = keeper.take(1_000);
    assert.notEqual(small, burst, 'a burst-sized arena is not used for a small body');
    keeper.give(small);
    assert.equal(keeper.take(1_000), small, 'the small arena is kept, not the burst one (8 MB of it held for good)');
  });
});
