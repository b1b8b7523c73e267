// The leader's change-stream writer across a reset connection: entries Redis did not take are published again in order, an entry written twice is applied once, and an outbox past its bound is given up (a hole the API nodes reload at).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import {
  ChangeStreamKeys,
  ChangeStreamWriter,
  connectStreamRedis,
  type SettlementNote,
  type StreamEntry,
} from '../../src/pipeline/redis-change-stream.js';
import { dropPrefix, redisSkip, testPrefix, TEST_REDIS_URL } from '../helpers/redis.js';
import { until } from '../helpers/until.js';

const skip = await redisSkip();
const CLOCK = { startAt: 0, wallStartAt: 0, speed: 1 };

/** A settlement note for event `n` (no log entry: the writer publishes it as it is). */
const note = (n: number): SettlementNote => ({ event_id: `e${n}`, ended_at: n, pending: false });

/** The stream's entries after the leader record, as `seq:event`. */
async function published(redis: Redis, keys: ChangeStreamKeys): Promise<string[]> {
  const out: string[] = [];
  for (const [, fields] of await redis.xrange(keys.stream, '-', '+')) {
    const f = new Map<string, string>();
    for (let i = 0; i + 1 < fields.length; i += 2) f.set(fields[i]!, fields[i + 1]!);
    if (f.get('k') !== 'settlement') continue;
    out.push(`${f.get('s')}:${(JSON.parse(f.get('d')!) as SettlementNote).event_id}`);
  }
  return out;
}

describe('the change stream writer across a reset connection', { skip }, () => {
  let admin: Redis;
  const prefixes: string[] = [];

  before(() => {
    admin = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  });

  after(async () => {
    for (const p of prefixes) await dropPrefix(admin, p);
    admin.disconnect();
  });

  async function writerOn(maxBytes?: number): Promise<{
    writer: ChangeStreamWriter;
    redis: Redis;
    keys: ChangeStreamKeys;
    errors: string[];
    warnings: string[];
  }> {
    const prefix = testPrefix();
    prefixes.push(prefix);
    const keys = new ChangeStreamKeys(prefix);
    const redis = await connectStreamRedis(TEST_REDIS_URL, 'outbox test', { failInFlight: true });
    const errors: string[] = [];
    const warnings: string[] = [];
    const log = {
      warn: (_o: object, msg: string) => warnings.push(msg),
      error: (_o: object, msg: string) => errors.push(msg),
    };
    const writer = new ChangeStreamWriter(redis, keys, log, 30_000, maxBytes);
    await writer.begin(CLOCK);
    return { writer, redis, keys, errors, warnings };
  }

  it('publishes what it could not write while the connection was down, in order, with no hole', async () => {
    const { writer, redis, keys, errors } = await writerOn();
    try {
      for (let n = 1; n <= 3; n++) writer.settlement(note(n));
      await until('3 entries', async () => (await published(admin, keys)).length === 3);
      // A reset: in flight and while reconnecting, nothing reaches Redis.
      redis.disconnect(true);
      for (let n = 4; n <= 9; n++) writer.settlement(note(n));
      await until('9 entries', async () => (await published(admin, keys)).length >= 9);
      assert.deepEqual(await published(admin, keys), [
        '1:e1',
        '2:e2',
        '3:e3',
        '4:e4',
        '5:e5',
        '6:e6',
        '7:e7',
        '8:e8',
        '9:e9',
      ]);
      assert.ok(
        errors.some((m) => m.includes('holding its entries')),
        errors.join('; '),
      );
      assert.ok(!errors.some((m) => m.includes('lost')), errors.join('; '));
      assert.equal(writer.mark()?.seq, 9, 'the watermark may reach the last entry');
    } finally {
      writer.stop();
      redis.disconnect();
    }
  });

  it("an entry written twice (its answer lost with the connection) is handed on once by a new leader's tail", async () => {
    const { writer, redis, keys } = await writerOn();
    try {
      for (let n = 1; n <= 3; n++) writer.settlement(note(n));
      await until('3 entries acknowledged', () => writer.mark()?.seq === 3);
      await redis.set(keys.watermark, JSON.stringify(writer.mark()));
      // What a resend after a lost answer leaves: seq 3 again, then the next.
      const [[, fields] = ['', []]] = await admin.xrevrange(keys.stream, '+', '-', 'COUNT', 1);
      await admin.xadd(keys.stream, '*', ...fields);
      writer.settlement(note(4));
      await until('5 entries', async () => (await published(admin, keys)).length === 5);
      assert.deepEqual(await published(admin, keys), ['1:e1', '2:e2', '3:e3', '3:e3', '4:e4']);
      // The watermark is at seq 3 (before the duplicate): the tail hands on seq 4 once and continues from it.
      const handed: StreamEntry[] = [];
      const tail = await writer.tail(async (e) => {
        handed.push(e);
      });
      assert.ok(tail !== null && tail !== 'first');
      assert.deepEqual(
        handed.map((e) => e.seq),
        [4],
      );
      assert.equal(tail.last.seq, 4, 'the continuation is exact: no hole seen in the duplicate');
    } finally {
      writer.stop();
      redis.disconnect();
    }
  });

  it('gives up what it holds past its bound: the hole is left for the API nodes to reload at, and said', async () => {
    // A bound of about two entries.
    const { writer, redis, keys, errors, warnings } = await writerOn(300);
    try {
      writer.settlement(note(1));
      await until('1 entry', async () => (await published(admin, keys)).length === 1);
      redis.disconnect(true);
      for (let n = 2; n <= 6; n++) writer.settlement(note(n));
      await until('the held entries published', () => warnings.some((m) => m.includes('written again')));
      writer.settlement(note(7));
      await until('entry 7', async () => (await published(admin, keys)).includes('7:e7'));
      const seqs = (await published(admin, keys)).map((s) => Number(s.split(':')[0]));
      assert.ok(seqs.length < 7, `some entries were given up: ${seqs.join(',')}`);
      assert.deepEqual(
        seqs,
        [...seqs].sort((a, b) => a - b),
        'what is published is still in order',
      );
      assert.ok(
        errors.some((m) => m.includes('entries were lost')),
        errors.join('; '),
      );
    } finally {
      writer.stop();
      redis.disconnect();
    }
  });
});
