// NDJSON transport: per-line results with line numbers, the streaming file reader, line counting, writing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countLines, parseNdjson, readNdjsonFile, toNdjson, type NdjsonLine } from '../../src/feed/ndjson.js';
import type { FeedMessage } from '../../src/feed/messages.js';
import { VALID_MESSAGES } from './samples.js';

const status = (id: string): string => JSON.stringify({ type: 'status', event_id: id, status: 'live' });

/** Line numbers and, per line, the event id of a good message or the start of an error message. */
function summary(lines: NdjsonLine[]): Array<[number, string]> {
  return lines.map((l) =>
    'error' in l ? [l.line, `error: ${l.message}`] : [l.line, `ok: ${(l.message as { event_id?: string }).event_id}`],
  );
}

describe('parseNdjson', () => {
  it('returns one entry per message, numbered from 1', () => {
    const lines = parseNdjson(`${status('a')}\n${status('b')}\n`);
    assert.deepEqual(summary(lines), [
      [1, 'ok: a'],
      [2, 'ok: b'],
    ]);
    assert.deepEqual(lines[0], { line: 1, message: { type: 'status', event_id: 'a', status: 'live' } });
  });

  it('skips blank lines but keeps counting them', () => {
    const text = `\n${status('a')}\n\n   \n\t\n${status('b')}\n\n`;
    assert.deepEqual(summary(parseNdjson(text)), [
      [2, 'ok: a'],
      [6, 'ok: b'],
    ]);
  });

  it('reads CRLF line endings and a last line without newline', () => {
    const text = `${status('a')}\r\n\r\n${status('b')}\r\n${status('c')}`;
    assert.deepEqual(summary(parseNdjson(text)), [
      [1, 'ok: a'],
      [3, 'ok: b'],
      [4, 'ok: c'],
    ]);
  });

  it('rejects invalid JSON in the middle with its line number and applies the good lines around it', () => {
    const text = [status('a'), '{"type":"status",', status('c'), 'not json at all', status('e')].join('\n');
    const lines = parseNdjson(text);
    assert.deepEqual(
      lines.map((l) => l.line),
      [1, 2, 3, 4, 5],
    );
    assert.deepEqual(summary([lines[0]!, lines[2]!, lines[4]!]), [
      [1, 'ok: a'],
      [3, 'ok: c'],
      [5, 'ok: e'],
    ]);
    for (const bad of [lines[1]!, lines[3]!]) {
      assert.ok('error' in bad);
      assert.equal(bad.error, 'bad_request');
      assert.match(bad.message, /^line is not valid JSON: /);
    }
  });

  it('rejects a JSON value that is not an object', () => {
    const lines = parseNdjson(['[1,2]', '"odds"', '42', 'null', 'true'].join('\n'));
    assert.deepEqual(
      lines.map((l) => ['error' in l ? l.error : 'ok', l.line, l.message]),
      [
        ['bad_request', 1, 'line is not a JSON object (got an array)'],
        ['bad_request', 2, 'line is not a JSON object (got a string)'],
        ['bad_request', 3, 'line is not a JSON object (got a number)'],
        ['bad_request', 4, 'line is not a JSON object (got null)'],
        ['bad_request', 5, 'line is not a JSON object (got a boolean)'],
      ],
    );
  });

  it('reports the validation error of a well-formed but invalid message, naming the field', () => {
    const text = `${status('a')}\n{"type":"odds","event_id":"a","changes":[{"selection_id":1,"odds":0.5}]}\n{"type":"nope"}`;
    assert.deepEqual(summary(parseNdjson(text)), [
      [1, 'ok: a'],
      [2, 'error: changes/0/odds: must be >= 1.01'],
      [
        3,
        `error: unknown message type 'nope' (expected one of fixture, markets, odds, remove_markets, status, score, result, stats, tournament, outright_market, outright_result)`,
      ],
    ]);
  });

  it('ignores a byte order mark before the first line', () => {
    assert.deepEqual(summary(parseNdjson(`\uFEFF${status('a')}\n`)), [[1, 'ok: a']]);
  });

  it('returns nothing for an empty body or only blank lines', () => {
    assert.deepEqual(parseNdjson(''), []);
    assert.deepEqual(parseNdjson('\n\r\n  \n'), []);
  });
});

describe('toNdjson', () => {
  it('writes one message a line, each ending with a newline, and parses back to the same messages', () => {
    const messages = Object.values(VALID_MESSAGES) as unknown as FeedMessage[];
    const text = toNdjson(messages);
    assert.equal(text.split('\n').length, messages.length + 1);
    assert.ok(text.endsWith('}\n'));
    const parsed = parseNdjson(text);
    assert.equal(parsed.filter((l) => 'error' in l).length, 0);
    assert.deepEqual(
      parsed.map((l) => l.message),
      messages,
    );
  });

  it('writes an empty string for no messages', () => {
    assert.equal(toNdjson([]), '');
  });
});

describe('readNdjsonFile and countLines', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'feed-ndjson-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function collect(path: string): Promise<NdjsonLine[]> {
    const out: NdjsonLine[] = [];
    for await (const line of readNdjsonFile(path)) out.push(line);
    return out;
  }

  const texts: Array<[string, string, number]> = [
    ['LF with a trailing newline', `${status('a')}\n${status('b')}\n`, 2],
    ['CRLF with blank lines and errors', `\r\n${status('a')}\r\n{bad\r\n\r\n[1]\r\n${status('b')}`, 6],
    ['a byte order mark and no trailing newline', `\uFEFF${status('a')}\n\n${status('b')}`, 3],
    ['an empty file', '', 0],
    ['only newlines', '\n\n\n', 3],
  ];
  for (const [name, text, lineCount] of texts) {
    it(`streams the same lines as parseNdjson of the text (${name}) and counts ${lineCount} lines`, async () => {
      const path = join(dir, `${name.replace(/\W+/g, '-')}.ndjson`);
      await writeFile(path, text, 'utf8');
      assert.deepEqual(await collect(path), parseNdjson(text));
      assert.equal(await countLines(path), lineCount);
    });
  }

  it('streams a file larger than one read chunk, line numbers intact', async () => {
    const path = join(dir, 'big.ndjson');
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      lines.push(
        i % 1000 === 500
          ? '{broken'
          : JSON.stringify({ type: 'odds', event_id: `ev-${i}`, changes: [{ selection_id: i, odds: 2.5 }] }),
      );
      if (i % 997 === 0) lines.push('');
    }
    const text = `${lines.join('\r\n')}\r\n`;
    await writeFile(path, text, 'utf8');
    const streamed = await collect(path);
    assert.deepEqual(streamed, parseNdjson(text));
    assert.equal(streamed.filter((l) => 'error' in l).length, 20);
    assert.equal(await countLines(path), lines.length);
  });

  it('fails with the file system error for a missing file', async () => {
    await assert.rejects(collect(join(dir, 'missing.ndjson')), { code: 'ENOENT' });
    await assert.rejects(countLines(join(dir, 'missing.ndjson')), { code: 'ENOENT' });
  });
});
