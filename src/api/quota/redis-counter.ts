// Usage counters shared by every API node in Redis: one Lua step per decision, day totals written back to the store every second.
import type { Redis } from 'ioredis';
import { ServiceError } from '../../domain/errors.js';
import { secondsUntil, utcDay, type Plan, type UtcDay } from '../../domain/quota.js';
import type { Store, UsageDay } from '../../store/store.js';
import { DeadlineProbe } from '../deadline.js';
import {
  periodicFlush,
  SerialWrites,
  usageSnapshot,
  type QuotaDecision,
  type RateDecision,
  type UsageCounter,
  type UsageSnapshot,
} from './counter.js';
import type { UsageLog } from './memory-counter.js';
import { CONSUMED, OVER_QUOTA, quotaScripts, UNSEEDED, type QuotaScripts } from './redis-scripts.js';

const SECOND = 1000;
const MINUTE = 60_000;
const HOUR_MINUTES = 60;
const DAY = 86_400_000;
/** A month's hash outlives its month by a month at least: the store flush and late readers still find it. */
const MONTH_KEEP_MS = 62 * DAY;
/** A second's counter lives a few seconds: nodes whose clocks differ slightly still find it. */
const SECOND_TTL_MS = 5 * SECOND;
/** A minute bucket is read for an hour after its minute; two give room for clock differences. */
const MINUTE_TTL_MS = 2 * 60 * MINUTE;
/** Month hashes per seeding command (each carries up to 63 fields). */
const SEED_CHUNK = 200;
/** Retries of a decision that found its month unseeded (Redis emptied again while seeding). */
const SEED_ATTEMPTS = 3;

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** Key names, all under one prefix so installations and tests can share a Redis. */
export class RedisUsageKeys {
  constructor(readonly prefix: string) {}

  /** Set once the month's counts were seeded from the store (absent: Redis lost them, or the month is new). */
  seeded(month: string): string {
    return `${this.prefix}:usage-seeded:${month}`;
  }

  /** Hash of a key's month: `n` (month total), `rDD` and `eDD` (requests and errors of day DD). */
  month(keyId: string, month: string): string {
    return `${this.prefix}:usage:${keyId}:m:${month}`;
  }

  /** Requests and throttled calls in one whole second (epoch seconds). */
  second(keyId: string, epochSecond: number): string {
    return `${this.prefix}:usage:${keyId}:s:${epochSecond}`;
  }

  /** Hash `r`/`e` of one minute (epoch minutes): the last hour for the error-rate notice. */
  minute(keyId: string, epochMinute: number): string {
    return `${this.prefix}:usage:${keyId}:h:${epochMinute}`;
  }

  /** Everything of this installation, for SCAN (operators, tests). */
  get pattern(): string {
    return `${this.prefix}:*`;
  }
}

/** A UTC day with its month's names, computed once per day. */
interface DayNames {
  day: UtcDay;
  /** `YYYY-MM`. */
  month: string;
  /** Hash fields of the day. */
  requestsField: string;
  errorsField: string;
}

function namesOf(now: number): DayNames {
  const day = utcDay(now);
  const dd = pad2(day.dayOfMonth);
  return { day, month: day.date.slice(0, 7), requestsField: `r${dd}`, errorsField: `e${dd}` };
}

/** A day of a key changed on this node: its total goes to the store until a read finds it written. */
interface PendingDay {
  keyId: string;
  hash: string;
  date: string;
  dd: string;
  /** What this node last wrote for the day, null before its first write. */
  written: { requests: number; errors: number } | null;
  /** Changed since the last flush read it. */
  touched: boolean;
}

export interface RedisUsageCounterOptions {
  redis: Redis;
  /** Key prefix (default `sds`). */
  prefix?: string;
  store: Pick<Store, 'loadUsage' | 'saveUsage'>;
  /** How often day totals are written to the store (default 1000 ms; 0: only on flush() and close()). */
  flushIntervalMs?: number;
  log?: UsageLog;
}

const quietLog: UsageLog = { warn: () => undefined, info: () => undefined };

/**
 * Redis not answering: requests are refused with 503 rather than served uncounted. The client is
 * told what failed and what to do; the Redis client's own words ("Stream isn't writeable…") mean
 * nothing to it, and the operator reads the cause in the log's line for the state change.
 */
function unavailable(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  return new ServiceError('service_unavailable', 'the usage counters (Redis) are unavailable; retry shortly', {
    component: 'usage_counters',
  });
}

function fieldsOf(flat: string[]): Map<string, number> {
  const fields = new Map<string, number>();
  for (let i = 0; i + 1 < flat.length; i += 2) fields.set(flat[i]!, Number(flat[i + 1]));
  return fields;
}

/**
 * The same decisions as the in-process counter, taken in Redis so several API nodes share them:
 * `consume` is one Lua script (quota, then rate, then the counts), so concurrent requests on any
 * nodes never both take the last unit. The store stays the durable record: every second each node
 * writes the absolute day totals of the keys it touched, read back from Redis, and a month missing
 * from Redis (first use, or a Redis restart) is seeded from the store before any request counts.
 */
export class RedisUsageCounter implements UsageCounter {
  readonly keys: RedisUsageKeys;
  private readonly redis: Redis & QuotaScripts;
  private readonly log: UsageLog;
  private names: DayNames;
  private readonly pending = new Map<string, PendingDay>();
  private readonly lastUsed = new Map<string, number>();
  private readonly seeding = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  /** Health's ping, with its deadline. */
  private readonly ping = new DeadlineProbe(() => this.redis.ping());
  private readonly writes = new SerialWrites();
  private failing = false;

  private constructor(
    private readonly opts: RedisUsageCounterOptions,
    now: number,
  ) {
    this.redis = quotaScripts(opts.redis);
    this.keys = new RedisUsageKeys(opts.prefix ?? 'sds');
    this.log = opts.log ?? quietLog;
    this.names = namesOf(now);
  }

  /** Seeds this month from the store unless Redis already has it, and starts the periodic write. */
  static async open(opts: RedisUsageCounterOptions, now: number): Promise<RedisUsageCounter> {
    const counter = new RedisUsageCounter(opts, now);
    await counter.ensureSeeded(counter.names, now);
    counter.timer = periodicFlush(counter, opts.flushIntervalMs ?? 1000);
    return counter;
  }

  private namesFor(now: number): DayNames {
    const n = this.names;
    if (now >= n.day.start && now < n.day.end) return n;
    return (this.names = namesOf(now));
  }

  private monthTtl(n: DayNames, now: number): number {
    return Math.max(DAY, n.day.monthStart + MONTH_KEEP_MS - now);
  }

  /** The month is marked seeded in Redis, seeding it from the store first when it is not. */
  private async ensureSeeded(n: DayNames, now: number): Promise<void> {
    if ((await this.redis.exists(this.keys.seeded(n.month))) === 1) return;
    await this.seed(n, now);
  }

  /** Loads the month's day totals from the store into Redis; one load at a time per month on this node. */
  private seed(n: DayNames, now: number): Promise<void> {
    let running = this.seeding.get(n.month);
    if (running === undefined) {
      running = this.seedOnce(n, now).finally(() => this.seeding.delete(n.month));
      this.seeding.set(n.month, running);
    }
    return running;
  }

  private async seedOnce(n: DayNames, now: number): Promise<void> {
    const prefix = `${n.month}-`;
    const byKey = new Map<string, Array<string | number>>();
    const totals = new Map<string, number>();
    for (const row of await this.opts.store.loadUsage(`${prefix}01`)) {
      if (!row.date.startsWith(prefix)) continue;
      const d = Number(row.date.slice(8, 10));
      if (!(d >= 1 && d <= 31)) continue;
      let fields = byKey.get(row.keyId);
      if (fields === undefined) byKey.set(row.keyId, (fields = []));
      fields.push(`r${pad2(d)}`, row.requests, `e${pad2(d)}`, row.errors);
      totals.set(row.keyId, (totals.get(row.keyId) ?? 0) + row.requests);
    }
    const ttl = this.monthTtl(n, now);
    const marker = this.keys.seeded(n.month);
    const keyIds = [...byKey.keys()];
    let i = 0;
    do {
      const chunk = keyIds.slice(i, i + SEED_CHUNK);
      i += SEED_CHUNK;
      const last = i >= keyIds.length;
      const args: Array<string | number> = [];
      for (const keyId of chunk) {
        const fields = byKey.get(keyId)!;
        args.push(fields.length / 2 + 1, 'n', totals.get(keyId)!, ...fields);
      }
      const hashes = chunk.map((keyId) => this.keys.month(keyId, n.month));
      const done = await this.redis.sdsSeed(1 + hashes.length, marker, ...hashes, ttl, last ? 1 : 0, ...args);
      // Another node finished seeding first: what it wrote stands.
      if (done === 0) return;
    } while (i < keyIds.length);
    this.log.info({ month: n.month, keys: keyIds.length }, 'usage counters seeded into Redis from the store');
  }

  private touch(keyId: string, n: DayNames): void {
    const id = `${keyId}\u0000${n.day.date}`;
    const p = this.pending.get(id);
    if (p !== undefined) {
      p.touched = true;
      return;
    }
    this.pending.set(id, {
      keyId,
      hash: this.keys.month(keyId, n.month),
      date: n.day.date,
      dd: n.requestsField.slice(1),
      written: null,
      touched: true,
    });
  }

  async consume(keyId: string, plan: Plan, now: number): Promise<QuotaDecision> {
    const n = this.namesFor(now);
    const { monthEnd } = n.day;
    const keys = this.keys;
    for (let attempt = 1; ; attempt++) {
      let reply: [number, number];
      try {
        reply = await this.redis.sdsConsume(
          keys.seeded(n.month),
          keys.month(keyId, n.month),
          keys.second(keyId, Math.floor(now / SECOND)),
          keys.minute(keyId, Math.floor(now / MINUTE)),
          plan.perMonth ?? -1,
          plan.perSecond ?? -1,
          n.requestsField,
          this.monthTtl(n, now),
          SECOND_TTL_MS,
          MINUTE_TTL_MS,
        );
      } catch (err) {
        throw unavailable(err);
      }
      const [outcome, used] = reply;
      if (outcome === CONSUMED) {
        this.touch(keyId, n);
        if (now > (this.lastUsed.get(keyId) ?? 0)) this.lastUsed.set(keyId, now);
        return { ok: true, used, resetAt: monthEnd };
      }
      if (outcome === OVER_QUOTA) {
        return { ok: false, reason: 'quota', retryAfterSeconds: secondsUntil(monthEnd, now), used, resetAt: monthEnd };
      }
      if (outcome !== UNSEEDED) {
        const retryAfterSeconds = secondsUntil((Math.floor(now / SECOND) + 1) * SECOND, now);
        return { ok: false, reason: 'rate', retryAfterSeconds, used, resetAt: monthEnd };
      }
      if (attempt >= SEED_ATTEMPTS) throw unavailable(new Error(`the counts of ${n.month} could not be seeded`));
      try {
        await this.seed(n, now);
      } catch (err) {
        throw unavailable(err);
      }
    }
  }

  async throttle(keyId: string, plan: Plan, now: number): Promise<RateDecision> {
    if (plan.perSecond === null) return { ok: true };
    let taken: number;
    try {
      taken = await this.redis.sdsThrottle(
        this.keys.second(keyId, Math.floor(now / SECOND)),
        plan.perSecond,
        SECOND_TTL_MS,
      );
    } catch (err) {
      throw unavailable(err);
    }
    if (taken === 1) return { ok: true };
    return { ok: false, retryAfterSeconds: secondsUntil((Math.floor(now / SECOND) + 1) * SECOND, now) };
  }

  recordError(keyId: string, now: number): void {
    const n = this.namesFor(now);
    // Marked before the command is sent: the next flush's read follows it on the same connection.
    this.touch(keyId, n);
    this.redis
      .sdsRecordError(
        this.keys.seeded(n.month),
        this.keys.month(keyId, n.month),
        this.keys.minute(keyId, Math.floor(now / MINUTE)),
        n.errorsField,
        this.monthTtl(n, now),
        MINUTE_TTL_MS,
      )
      .catch((err: unknown) => this.log.warn({ err, keyId }, 'an error count could not be recorded in Redis'));
  }

  async snapshot(keyId: string, now: number): Promise<UsageSnapshot> {
    const n = this.namesFor(now);
    const { day } = n;
    const minute = Math.floor(now / MINUTE);
    const keys: string[] = [this.keys.seeded(n.month), this.keys.month(keyId, n.month)];
    for (let m = minute - HOUR_MINUTES + 1; m <= minute; m++) keys.push(this.keys.minute(keyId, m));
    let reply: Awaited<ReturnType<QuotaScripts['sdsSnapshot']>>;
    for (let attempt = 1; ; attempt++) {
      try {
        reply = await this.redis.sdsSnapshot(keys.length, ...keys);
        if (reply[0] === 1) break;
        if (attempt >= SEED_ATTEMPTS) throw new Error(`the counts of ${n.month} could not be seeded`);
        await this.seed(n, now);
      } catch (err) {
        throw unavailable(err);
      }
    }
    const [, flat, hourRequests, hourErrors] = reply;
    const fields = fieldsOf(flat);
    return usageSnapshot(
      day,
      fields.get('n') ?? 0,
      (d) => ({ requests: fields.get(`r${pad2(d)}`) ?? 0, errors: fields.get(`e${pad2(d)}`) ?? 0 }),
      { requests: hourRequests, errors: hourErrors },
    );
  }

  /**
   * Connected when the connection is up and a ping answers within `deadlineMs`. Always a ping: a
   * stalled server (DEBUG SLEEP, a frozen host) keeps the connection up and answers nothing, and
   * counted requests wait for it until their command timeout; ioredis also notices a dead server a
   * moment after commands start failing. One ping runs at a time, whoever asks.
   */
  async status(deadlineMs: number): Promise<'connected' | 'disconnected'> {
    if (this.redis.status !== 'ready') return 'disconnected';
    return (await this.ping.check(deadlineMs)) === null ? 'disconnected' : 'connected';
  }

  /** Writes the day totals changed on this node (read back from Redis) and last-used times; one at a time. */
  flush(): Promise<void> {
    return this.writes.run(() => this.writeOnce());
  }

  /**
   * Nodes write the same day rows, so a slower node's older total could land after a newer one. A
   * node therefore keeps a day until a later read finds Redis still at what it wrote: the last write
   * of any day is always followed by a check that rewrites it when Redis has moved on.
   */
  private async writeOnce(): Promise<void> {
    const entries = [...this.pending.values()];
    const lastUsed = [...this.lastUsed].map(([keyId, at]) => ({ keyId, at }));
    this.lastUsed.clear();
    const rows: Array<{ entry: PendingDay; row: UsageDay }> = [];
    try {
      if (entries.length > 0) {
        const byHash = new Map<string, PendingDay[]>();
        for (const e of entries) {
          e.touched = false;
          let list = byHash.get(e.hash);
          if (list === undefined) byHash.set(e.hash, (list = []));
          list.push(e);
        }
        const pipeline = this.redis.pipeline();
        for (const [hash, list] of byHash) {
          pipeline.hmget(hash, 'n', ...list.flatMap((e) => [`r${e.dd}`, `e${e.dd}`]));
        }
        const results = (await pipeline.exec()) ?? [];
        let i = 0;
        for (const list of byHash.values()) {
          const [err, values] = results[i++] ?? [new Error('no reply')];
          if (err) throw err;
          const v = values as Array<string | null>;
          for (let j = 0; j < list.length; j++) {
            const e = list[j]!;
            // No month hash: Redis lost it (restart). The store keeps the last total written; the
            // month is seeded back from it before anything counts again.
            if (v[0] === null) {
              if (!e.touched) this.pending.delete(`${e.keyId}\u0000${e.date}`);
              continue;
            }
            const requests = Number(v[1 + j * 2] ?? 0);
            const errors = Number(v[2 + j * 2] ?? 0);
            if (e.written !== null && e.written.requests === requests && e.written.errors === errors) {
              if (!e.touched) this.pending.delete(`${e.keyId}\u0000${e.date}`);
              continue;
            }
            rows.push({ entry: e, row: { keyId: e.keyId, date: e.date, requests, errors } });
          }
        }
      }
      if (rows.length === 0 && lastUsed.length === 0) return;
      await this.opts.store.saveUsage({ days: rows.map((r) => r.row), lastUsed });
    } catch (err) {
      // Nothing is lost: the days stay pending and the last-used times go with the next flush.
      for (const { keyId, at } of lastUsed) {
        if (at > (this.lastUsed.get(keyId) ?? 0)) this.lastUsed.set(keyId, at);
      }
      for (const e of entries) e.touched = true;
      if (!this.failing) {
        this.failing = true;
        this.log.warn(
          { err },
          'usage counters could not be read from Redis or written to the store; retrying every flush',
        );
      }
      throw err;
    }
    for (const { entry, row } of rows) entry.written = { requests: row.requests, errors: row.errors };
    if (this.failing) {
      this.failing = false;
      this.log.info({}, 'usage counters written again');
    }
  }

  /** Stops the periodic write and writes a last time (the Redis client is closed by its owner). */
  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    try {
      await this.flush();
    } catch {
      // Logged by the flush; the store or Redis is going away.
    }
  }
}
