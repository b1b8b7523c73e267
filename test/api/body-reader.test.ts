// Feed bodies read into reused memory: exact bytes, the limit, Content-Length checks, no sharing while in use.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { BodyReader } from '../../src/api/body-reader.js';
import { ServiceError } from '../../src/domain/errors.js';

/** A request body arriving in chunks of `size` bytes. */
function stream(bytes: Buffer, size = 16 * 1024): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return Readable.from(chunks);
}

const body = (n: number, fill: number): Buffer => Buffer.alloc(n, fill);

async function rejection(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ServiceError);
    return err;
  }
  assert.fail('expected a rejection');
}

describe('body reader', () => {
  it('reads exactly the bytes sent, declared or not', async () => {
    const r = new BodyReader(1 << 20);
    const a = body(200_000, 1);
    a[123_456] = 9;
    assert.deepEqual(await r.read(stream(a), String(a.length)), a);
    assert.deepEqual(await r.read(stream(a), undefined), a);
    assert.deepEqual(await r.read(stream(Buffer.alloc(0)), '0'), Buffer.alloc(0));
  });

  it('a body given back serves the next one; a body still in use is never shared', async () => {
    const r = new BodyReader(1 << 20);
    const first = await r.read(stream(body(300_000, 1)), '300000');
    const second = await r.read(stream(body(300_000, 2)), '300000');
    assert.notEqual(second.buffer, first.buffer, 'the first was not given back yet');
    assert.ok(first.every((b) => b === 1));
    r.give(first);
    const third = await r.read(stream(body(250_000, 3)), '250000');
    assert.equal(third.buffer, first.buffer, 'reused');
    assert.equal(third.length, 250_000);
    assert.ok(
      third.every((b) => b === 3),
      'nothing of the earlier body shows',
    );
    assert.ok(second.every((b) => b === 2));
  });

  it('refuses a body over the limit, declared or found while reading', async () => {
    const r = new BodyReader(100_000);
    const declared = await rejection(r.read(stream(body(100_001, 1)), '100001'));
    assert.equal(declared.message, 'request body is too large');
    const chunked = await rejection(r.read(stream(body(150_000, 1)), undefined));
    assert.equal(chunked.message, 'request body is too large');
  });

  it('refuses a body longer or shorter than its Content-Length, or a Content-Length that is no number', async () => {
    const r = new BodyReader(1 << 20);
    for (const [sent, declared] of [
      [5000, '4000'],
      [4000, '5000'],
      [10, 'ten'],
      [10, '-1'],
    ] as const) {
      const err = await rejection(r.read(stream(body(sent, 1), 1000), declared));
      assert.equal(err.code, 'bad_request');
      assert.equal(err.message, 'Content-Length does not match the body');
    }
    // The reader still works afterwards.
    assert.equal((await r.read(stream(body(70_000, 4)), '70000')).length, 70_000);
  });
});
