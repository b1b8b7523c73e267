// The content-coding hook on a bare app (text/event-stream and non-JSON untouched) and If-None-Match parsing, table-driven.
import assert from 'node:assert/strict';
import { brotliDecompressSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, test } from 'node:test';
import { ifNoneMatchHits } from '../../src/api/conditional.js';
import { installContentCoding } from '../../src/api/content-coding.js';

describe('the content-coding hook', () => {
  const big = 'x'.repeat(4096);

  async function app() {
    const a = Fastify();
    installContentCoding(a);
    a.get('/json', async () => ({ big }));
    a.get('/stream', async (_req, reply) => reply.type('text/event-stream').send(`data: ${big}\n\n`));
    a.get('/text', async (_req, reply) => reply.type('text/plain').send(big));
    await a.ready();
    return a;
  }

  test('JSON of 1 KB or more is coded; text/event-stream and other types are sent as they are', async () => {
    const a = await app();
    const headers = { 'accept-encoding': 'br, gzip' };
    const json = await a.inject({ url: '/json', headers });
    assert.equal(json.headers['content-encoding'], 'br');
    assert.deepEqual(JSON.parse(brotliDecompressSync(json.rawPayload).toString()), { big });
    for (const url of ['/stream', '/text']) {
      const res = await a.inject({ url, headers });
      assert.equal(res.headers['content-encoding'], undefined, url);
      assert.equal(res.headers.vary, undefined, url);
      assert.ok(res.body.includes(big), url);
    }
    await a.close();
  });

  test('a route not marked cacheable gets no ETag', async () => {
    const a = await app();
    const res = await a.inject({ url: '/json' });
    assert.equal(res.headers.etag, undefined);
    await a.close();
  });
});

describe('If-None-Match (RFC 9110 13.1.2: weak comparison, lists, *)', () => {
  const tag = '"abc.1"';
  const table: Array<[string | undefined, boolean]> = [
    [undefined, false],
    ['', false],
    ['"abc.1"', true],
    ['W/"abc.1"', true],
    ['"x", "abc.1"', true],
    ['"x","abc.1"', true],
    [' "x" ,\t"abc.1" ', true],
    ['W/"x", W/"abc.1"', true],
    ['*', true],
    [' * ', true],
    ['"abc.1-br"', false],
    ['"abc.2"', false],
    ['abc.1', false],
    ['"abc.1', false],
    ['"x,"abc.1"', false],
    ['w/"abc.1"', false],
    ['"x", *', false],
  ];
  for (const [header, hit] of table) {
    test(`${JSON.stringify(header)} ${hit ? 'matches' : 'does not match'} ${tag}`, () => {
      assert.equal(ifNoneMatchHits(header, tag), hit);
    });
  }
});
